"""Finding a game at the web table (docs/web.md, "The lobby"), in real Chromium: quick play seats a
newcomer at the open table that fits, and the open tables are filtered by game, language and clock."""

from __future__ import annotations

from typing import Any

import pytest

from tests.clients.test_web_table import API, Chromium
from tests.server.conftest import Running


async def waiting_table(server: Running, **body: Any) -> str:
    """An open table with one person sitting, waiting for another."""
    r = await server.http.post(f"{API}/games", json=body)
    assert r.status_code == 201, r.text
    game_id = str(r.json()["game_id"])
    r = await server.http.post(f"{API}/games/{game_id}/seats", json={"name": "Uxía", "seat": 0})
    assert r.status_code == 201, r.text
    return game_id


@pytest.mark.timeout(90)
async def test_quick_play_seats_a_newcomer_at_the_open_table_that_fits(quick: Running, browser: Chromium) -> None:
    spanish = await waiting_table(quick, game="itchy-feet", players=2, lang="es")
    galician = await waiting_table(quick, game="itchy-feet", players=2, lang="gl")
    context = await browser.new_context(viewport={"width": 1300, "height": 1000})
    page = await context.new_page()
    await page.goto(quick.url + "/")
    form = page.locator('form.game-form[data-game="itchy-feet"]')
    await form.wait_for()
    await page.fill('[data-testid="name"]', "Brais")
    await form.locator('[data-field="players"]').fill("2")
    await form.locator('[data-field="lang"]').select_option("gl")
    await page.click('[data-testid="quick-itchy-feet"]')
    screen = page.locator(f'.table-screen[data-game-id="{galician}"]')
    await screen.wait_for()
    assert await screen.get_attribute("data-seat") == "1"
    await page.wait_for_selector(f'.table-screen[data-game-id="{galician}"][data-status="active"]')
    table = (await quick.http.get(f"{API}/games/{galician}")).json()
    assert [s["name"] for s in table["seats"]] == ["Uxía", "Brais"]
    assert (await quick.http.get(f"{API}/games/{spanish}")).json()["status"] == "open"

    # The open tables, filtered: only the Spanish one is still open, and only it shows for Spanish.
    await page.goto(quick.url + "/#/")
    await page.wait_for_selector('[data-testid="filters"]')
    await page.locator('[data-filter="lang"]').select_option("es")
    rows = page.locator('[data-testid="open-games"] tr[data-game-id]')
    await page.wait_for_function(
        "(id) => [...document.querySelectorAll('[data-testid=open-games] tr[data-game-id]')]"
        ".every((r) => r.dataset.gameId === id)",
        arg=spanish,
    )
    assert spanish in [await r.get_attribute("data-game-id") for r in await rows.all()]
    await page.locator('[data-filter="lang"]').select_option("gl")
    await page.wait_for_function(
        "(id) => !document.querySelector(`[data-testid=open-games] tr[data-game-id='${id}']`)", arg=spanish
    )
    await context.close()
