"""The operator's console at the web table (#/admin), in real Chromium: the admin token asked for and kept
in the tab's sessionStorage only, tables listed with their seats, a table's log, a table ended after a
confirm step, the quotas hit; axe-core finds no violation, and no page says an error."""

from __future__ import annotations

import pytest
import redis.asyncio as aioredis

from server.storage.quotas import HourlyCounts
from tests.clients.test_web_game import no_axe_violations
from tests.clients.test_web_table import API, Chromium
from tests.server.conftest import ADMIN, Running


@pytest.mark.timeout(90)
async def test_the_operator_signs_in_sees_a_table_reads_its_log_and_ends_it(
    server: Running, browser: Chromium, redis: aioredis.Redis
) -> None:
    game_id, _ = await server.started(2)
    seconds, micros = await redis.time()  # a refusal counted as the seats' quota counts one (this server has none)
    await HourlyCounts(redis).refused("seats", "203.0.113.9", seconds * 1000 + micros // 1000)
    context = await browser.new_context(viewport={"width": 1300, "height": 1000})
    page = await context.new_page()
    await page.goto(server.url + "/#/admin")
    await page.wait_for_selector('[data-testid="admin-sign-in"]')
    await no_axe_violations(page, "the console's sign-in")

    browser.allow("403")  # a wrong token is refused, and the page says so
    await page.fill('[data-testid="admin-token"]', "not-the-token")
    await page.click('[data-testid="admin-open"]')
    await page.wait_for_selector('#messages [data-code="not_admin"]')
    await page.fill('[data-testid="admin-token"]', ADMIN)
    await page.click('[data-testid="admin-open"]')
    row = page.locator(f'tr[data-game-id="{game_id}"]')
    await row.wait_for()
    assert await page.evaluate("() => sessionStorage.getItem('ludoteca.admin')") == ADMIN
    assert await page.evaluate("() => JSON.stringify(localStorage).includes('admin-token')") is False
    assert await row.get_attribute("data-status") == "active"
    assert "P0" in await row.inner_text() and "P1" in await row.inner_text()
    await page.wait_for_selector('[data-testid="admin-outbox"] [data-figure="waiting"]')
    seats = page.locator('[data-testid="admin-quotas"] tr[data-quota="seats"]')
    assert await seats.locator('[data-figure="refused"]').inner_text() == "1"
    assert "203.0.113.9 (1)" in await seats.inner_text()

    await row.locator('[data-action="log"]').click()
    log = page.locator('[data-testid="admin-log"] tr[data-type="TableOpened"]')
    await log.wait_for()
    assert await page.locator('[data-testid="admin-log"] tr[data-version]').count() > 3
    await no_axe_violations(page, "the console with a table's log")

    await row.locator('[data-action="cancel"]').click()
    await page.wait_for_selector('[data-testid="admin-confirm"]:not([hidden])')
    await page.click('[data-testid="admin-no"]')  # kept: nothing happens
    assert (await server.http.get(f"{API}/games/{game_id}")).json()["status"] == "active"
    await row.locator('[data-action="cancel"]').click()
    await page.click('[data-testid="admin-yes"]')
    await page.wait_for_function(
        "(id) => !document.querySelector(`[data-testid=admin-tables] tr[data-game-id='${id}']`)", arg=game_id
    )
    table = (await server.http.get(f"{API}/games/{game_id}")).json()
    assert table["status"] == "finished" and table["outcome"]["reason"] == "cancelled"

    await page.click('[data-status="finished"]')
    ended = page.locator(f'tr[data-game-id="{game_id}"][data-status="finished"]')
    await ended.wait_for()
    assert "cancelled" in await ended.inner_text()
    assert await ended.locator('[data-action="cancel"]').count() == 0
    await no_axe_violations(page, "the console's finished tables")
    await context.close()
