"""The web table's chat panel (clients/web/js/chat.js) in real Chromium, against the real server.

At a 3-seat Vilar de Mouros table, seat 0 plays in a desktop browser in English, seat 1 on a phone
in Galician, seat 2 over HTTP, and a spectator watches: the seats chat to the table, seat 0 says a
private line to seat 1 that seat 2 never receives (nor the spectator), the phone's folded panel
and a page without the focus count what they have not read, a message the other seats hide shows as
hidden everywhere, a muted seat's messages leave the page of the seat that muted it, a refusal is
the server's sentence in the reader's language, typing in the chat box reaches none of the table's
keys, a move being built when a message arrives is sent at its step's version, and a reload shows
the chat as it was. axe-core finds no violation on the panel. Every page's console error fails the
test (``browser``, tests/clients/test_web_table.py).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

import pytest
import redis.asyncio as aioredis

from tests.clients.conftest import Running
from tests.clients.test_web_game import no_axe_violations
from tests.clients.test_web_table import API, SHOTS, Chromium, Table, hold_seats, moves_ready
from tests.server.conftest import quick_settings, running

with contextlib.suppress(ImportError):  # the test extras install it; need_chromium says so
    from playwright.async_api import BrowserContext, Page

GAME = "vilar-de-mouros"


@pytest.fixture
async def server(redis: aioredis.Redis, redis_url: str) -> AsyncIterator[Running]:
    """The web tests' server (bots that do not pause to think); Chromium is the package's ``browser``."""
    async with running(quick_settings(redis_url)) as api:
        yield api


async def seat_page(
    browser: Chromium, server: Running, game_id: str, seat: int, token: str, **options: Any
) -> tuple[BrowserContext, Page]:
    context = await browser.new_context(**options)
    await hold_seats(context, {game_id: {"seat": seat, "token": token, "game": GAME, "at": 1}})
    page = await context.new_page()
    await page.goto(f"{server.url}/#/game/{game_id}")
    await ready(page, str(seat))
    return context, page


async def ready(page: Page, seat: str) -> None:
    """The table is drawn for ``seat`` and its socket is up (a chat command goes on it)."""
    await page.wait_for_selector(f'.table-screen[data-seat="{seat}"] [data-testid="chat"]')
    await page.wait_for_selector("#status.ok")
    await page.wait_for_function("() => !!window.__ludoteca.screen?.live?.open()")


async def lines(page: Page) -> list[dict[str, Any]]:
    """The chat's lines as the page shows them: version, seat, whether private, and the words."""
    found: list[dict[str, Any]] = await page.evaluate(
        """() => [...document.querySelectorAll('[data-testid=chat-lines] li.chat-line')].map((li) => ({
             version: Number(li.dataset.version), seat: li.dataset.seat, private: li.classList.contains('private'),
             who: li.querySelector('.chat-who').textContent, text: li.querySelector('.chat-text').textContent,
             hidden: li.classList.contains('removed') }))"""
    )
    return found


async def counted(page: Page, n: int) -> None:
    """The page shows ``n`` lines of chat."""
    await page.wait_for_function(
        "(n) => document.querySelectorAll('[data-testid=chat-lines] li.chat-line').length === n", arg=n
    )


async def say(page: Page, text: str, to: str = "") -> None:
    await page.select_option('[data-testid="chat-to"]', to)
    await page.fill('[data-testid="chat-text"]', text)
    await page.press('[data-testid="chat-text"]', "Enter")  # Enter sends
    await page.wait_for_function(
        "(t) => [...document.querySelectorAll('[data-testid=chat-lines] .chat-text')].some((e) => e.textContent === t)"
        " && document.querySelector('[data-testid=chat-text]').value === ''",
        arg=text,
    )


async def shown(page: Page, text: str) -> None:
    await page.wait_for_function(
        "(t) => [...document.querySelectorAll('[data-testid=chat-lines] .chat-text')].some((e) => e.textContent === t)",
        arg=text,
    )


async def feed(server: Running, game_id: str, token: str | None) -> list[dict[str, Any]]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    r = await server.http.get(f"{API}/games/{game_id}/events", headers=headers)
    assert r.status_code == 200, r.text
    events: list[dict[str, Any]] = r.json()["events"]
    return events


def said(events: list[dict[str, Any]], text: str) -> int:
    """The version ``text`` was said at in a feed (0: not there)."""
    return next((e["version"] for e in events if e["event"]["type"] == "MessageSaid" and e["event"]["text"] == text), 0)


# Every key event that reaches the table's own listeners (the document's and the board's), kept by the page.
WATCH_KEYS = """() => {
  window.__keys = [];
  document.addEventListener("keydown", (e) => window.__keys.push(["document", e.key]));
  document.querySelector(".play").addEventListener("keydown", (e) => window.__keys.push(["board", e.key]));
}"""


@pytest.mark.timeout(150)
async def test_seats_chat_in_the_browser_to_the_table_privately_hide_mute_and_find_it_again_after_a_reload(
    server: Running, browser: Chromium
) -> None:
    game_id = await server.create(3, GAME)
    tokens = await server.seat_all(game_id, 3)  # P0, P1, P2: the game starts
    table = Table(server, GAME, game_id, tokens=dict(enumerate(tokens)))
    while not {a["seat"] for a in (await table.table())["awaiting"]} & {0, 1}:
        await table.step(skip={0, 1})  # seat 2 plays its turn over HTTP: a seat with a page is awaited
    ana, ana_page = await seat_page(browser, server, game_id, 0, tokens[0], viewport={"width": 1300, "height": 1000})
    phone = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True, "locale": "gl-ES"}
    bo, bo_page = await seat_page(browser, server, game_id, 1, tokens[1], **phone)
    watcher = await browser.new_context(viewport={"width": 1300, "height": 1000})
    watch_page = await watcher.new_page()
    await watch_page.goto(f"{server.url}/#/watch/{game_id}")
    await ready(watch_page, "spectator")
    try:
        # The panel's words in every language have the same keys (chat.js WORDS).
        keys = await ana_page.evaluate(
            "async () => { const { WORDS } = await import('/web/js/chat.js');"
            " return Object.fromEntries(Object.entries(WORDS).map(([l, w]) => [l, Object.keys(w).sort()])); }"
        )
        assert set(keys) == {"en", "pt", "gl", "es"} and all(k == keys["en"] for k in keys.values()), keys

        # Beside the table on a desktop, open; folded at first on the phone, in Galician there.
        assert await ana_page.locator('[data-testid="dock"] [data-testid="chat"][open]').count() == 1
        assert await bo_page.locator('[data-testid="chat"]:not([open])').count() == 1
        assert await bo_page.inner_text('[data-testid="chat-toggle"]') == "Chat da mesa"
        assert await ana_page.inner_text('[data-testid="chat-count"]') == "0/500"
        assert await ana_page.get_attribute('[data-testid="chat-text"]', "maxlength") == "500"

        # The awaited page's move stands at its step (a chat message does not make it stale).
        awaited = ana_page if 0 in [a["seat"] for a in (await table.table())["awaiting"]] else bo_page
        await moves_ready(awaited)
        step_at = await awaited.get_attribute(".controls-wrap", "data-version")
        generation = await awaited.evaluate("window.__ludoteca.screen.builder.generation")

        # Typing in the chat box reaches none of the table's keys (Escape would drop a move's picks).
        await ana_page.evaluate(WATCH_KEYS)
        await ana_page.click('[data-testid="chat-text"]')
        await ana_page.keyboard.type("Hello <b>table</b>, see https://example.org")
        await ana_page.keyboard.press("Escape")
        await ana_page.keyboard.press("Space")
        assert await ana_page.evaluate("window.__keys") == []
        assert await ana_page.inner_text('[data-testid="chat-count"]') == "44/500"
        await ana_page.keyboard.press("Backspace")  # the Space
        await ana_page.keyboard.press("Enter")
        first = "Hello <b>table</b>, see https://example.org"
        await shown(ana_page, first)

        # The move being built went on as it was, at the version of its step; sent, it is taken.
        if awaited is ana_page:
            await shown(awaited, first)
        else:  # the phone's panel is folded: the message counts as unread
            await awaited.locator('[data-testid="chat-unread"]').wait_for()
        assert int(await awaited.get_attribute(".table-screen", "data-version") or 0) > int(step_at or 0)
        assert await awaited.get_attribute(".controls-wrap", "data-version") == step_at
        assert await awaited.evaluate("window.__ludoteca.screen.builder.generation") == generation
        before_move = (await table.table())["version"]
        await awaited.locator(""".play .target[data-option='["type","DrawFromDeck"]']""").click()
        await awaited.wait_for_function(
            "(v) => Number(document.querySelector('.table-screen').dataset.version) > v", arg=before_move
        )
        moved = (await server.http.get(f"{API}/games/{game_id}/events", params={"after": before_move})).json()["events"]
        assert moved and moved[0]["event"]["type"] != "MessageSaid", moved
        assert await awaited.locator(".message.error").count() == 0

        # Seat 1's folded panel counts it; opened, it is read.
        unread = bo_page.locator('[data-testid="chat-unread"]')
        await unread.wait_for()
        assert (await unread.inner_text()).startswith("1"), await unread.inner_text()
        assert "1 mensaxe sen ler" in (await unread.text_content() or "")
        await bo_page.tap('[data-testid="chat-toggle"]')
        await unread.wait_for(state="detached")
        await shown(bo_page, first)
        # Text only: no markup made of it, no link made clickable.
        line = bo_page.locator('[data-testid="chat-lines"] li.chat-line').first
        assert await line.locator("b, a").count() == 0
        assert (await lines(bo_page))[0]["who"] == "P0"
        await shown(watch_page, first)  # the spectator reads the table

        # Seat 1 answers the table (the phone's Send button); seat 0 says a private line to seat 1.
        await bo_page.fill('[data-testid="chat-text"]', "Ola a todos")
        await bo_page.tap('[data-testid="chat-send"]')
        await shown(bo_page, "Ola a todos")
        await shown(ana_page, "Ola a todos")
        assert await ana_page.locator('[data-testid="chat-unread"]').count() == 0  # open, in view: read
        await say(ana_page, "Just between us", to="1")
        await shown(bo_page, "Just between us")
        mine = next(x for x in await lines(ana_page) if x["text"] == "Just between us")
        theirs = next(x for x in await lines(bo_page) if x["text"] == "Just between us")
        assert mine["private"] and theirs["private"], (mine, theirs)
        assert "privately to P1" in await ana_page.inner_text(f'[data-testid="said-{mine["version"]}"]')
        assert "en privado para ti" in await bo_page.inner_text(f'[data-testid="said-{theirs["version"]}"]')
        # Seat 2 (over HTTP) and the spectator never receive the private line, not even its place.
        private = mine["version"]
        assert said(await feed(server, game_id, tokens[1]), "Just between us") == private
        for token in (tokens[2], None):
            events = await feed(server, game_id, token)
            assert not said(events, "Just between us") and private not in [e["version"] for e in events]
        await say(ana_page, "After the private line")
        await shown(watch_page, "After the private line")
        assert "Just between us" not in await watch_page.inner_text('[data-testid="chat"]')
        assert await watch_page.locator('[data-testid="chat-text"]').count() == 0  # spectators write nothing
        assert await watch_page.locator('[data-testid^="hide-"], [data-testid^="mute-"]').count() == 0

        # A refusal is the server's sentence, in the reader's language, in the panel.
        await bo_page.fill('[data-testid="chat-text"]', "   ")
        await bo_page.tap('[data-testid="chat-send"]')
        refused = bo_page.locator('[data-testid="chat-error"][data-code="empty_message"]')
        await refused.wait_for()
        assert await refused.inner_text() == "Di algo: a mensaxe está baleira."

        # A page that has not the focus (the person is in another window) counts what arrives; the
        # person coming back reads it.
        await ana_page.evaluate("() => { document.hasFocus = () => false; }")
        r = await server.send(game_id, tokens[2], {"type": "Say", "text": "Are you there?"})
        assert r.status_code == 200, r.text
        await shown(ana_page, "Are you there?")
        await ana_page.locator('[data-testid="chat-unread"]').wait_for()
        assert (await ana_page.inner_text('[data-testid="chat-unread"]')).startswith("1")
        await ana_page.evaluate("() => { delete document.hasFocus; window.dispatchEvent(new Event('focus')); }")
        await ana_page.locator('[data-testid="chat-unread"]').wait_for(state="detached")

        # Hiding: seat 0 cannot hide its own message; seat 1 asks, seat 2 (HTTP) asks too: a majority
        # of the two who did not say it. Every page shows it as hidden.
        version = said(await feed(server, game_id, tokens[0]), first)
        assert await ana_page.locator(f'[data-testid="hide-{version}"]').count() == 0
        await bo_page.tap(f'[data-testid="hide-{version}"]')
        await bo_page.wait_for_selector(f'[data-testid="said-{version}"] .chat-asked')
        assert not (await lines(ana_page))[0]["hidden"]
        r = await server.send(game_id, tokens[2], {"type": "HideMessage", "version": version})
        assert r.status_code == 200, r.text
        for page, words in (
            (ana_page, "message hidden"),
            (bo_page, "mensaxe agochada"),
            (watch_page, "message hidden"),
        ):
            await page.wait_for_selector(f'[data-testid="said-{version}"].removed')
            assert (await lines(page))[0]["text"] == words
            assert first not in await page.inner_text('[data-testid="chat"]')
        await no_axe_violations(ana_page, "the chat panel")
        await no_axe_violations(bo_page, "the chat panel on a phone")
        SHOTS.mkdir(parents=True, exist_ok=True)
        await ana_page.locator('[data-testid="chat"]').scroll_into_view_if_needed()
        await ana_page.screenshot(path=str(SHOTS / "chat.png"))
        await bo_page.screenshot(path=str(SHOTS / "chat-phone.png"))

        # A reload shows the chat in place: the same lines, in the same order, hidden and private alike.
        before = await lines(ana_page)
        await ana_page.reload()
        await ready(ana_page, "0")
        await counted(ana_page, len(before))
        assert await lines(ana_page) == before
        assert await ana_page.locator('[data-testid="chat-unread"]').count() == 0  # what was read before stays read

        # Seat 1 mutes seat 0: its lines leave seat 1's page, and what it says next never comes
        # (seat 2's line after it does). Seat 1's chat commands, hiding and muting counted, stay
        # within its chat's burst of five (a too_many would show in the panel, as above).
        await bo_page.tap('[data-testid="mute-0"]')
        await bo_page.wait_for_function("() => !document.querySelector('[data-testid=chat-lines] li[data-seat=\"0\"]')")
        await say(ana_page, "Can you hear me?")
        r = await server.send(game_id, tokens[2], {"type": "Say", "text": "Quiet here"})
        assert r.status_code == 200, r.text
        await shown(bo_page, "Quiet here")
        assert "Can you hear me?" not in await bo_page.inner_text('[data-testid="chat"]')
        assert await bo_page.is_checked('[data-testid="mute-0"]')
        await bo_page.reload()
        await ready(bo_page, "1")
        await counted(bo_page, 3)
        assert "0" not in {x["seat"] for x in await lines(bo_page)}
        await bo_page.tap('[data-testid="chat-toggle"]')  # folded again on the phone after a reload
        await bo_page.tap('[data-testid="mute-0"]')  # read again: after a reload, every line is back
        for _ in range(100):  # the server has it: seat 1 reads seat 0 again
            if said(await feed(server, game_id, tokens[1]), "Can you hear me?"):
                break
            await asyncio.sleep(0.05)
        else:
            raise AssertionError(await bo_page.inner_text('[data-testid="chat"]'))
        await bo_page.reload()
        await ready(bo_page, "1")
        await counted(bo_page, 7)
        assert "Can you hear me?" in [x["text"] for x in await lines(bo_page)]
    finally:
        await ana.close()
        await bo.close()
        await watcher.close()


@pytest.mark.timeout(120)
async def test_a_signed_in_player_watching_talks_to_the_spectators_and_a_replay_shows_the_chat_in_place(
    server: Running, browser: Chromium
) -> None:
    """A watching player writes on the spectators' channel (a seat does not read it while the game
    goes on); the replay viewer shows what was said up to the version it replays."""
    r = await server.http.post(f"{API}/games", json={"game": GAME, "players": 2})
    game_id = r.json()["game_id"]
    tokens = [(await server.http.post(f"{API}/games/{game_id}/seats", json={"name": n})).json()["token"] for n in "AB"]
    r = await server.send(game_id, tokens[0], {"type": "Say", "text": "Boa sorte!"})
    said_at = r.json()["version"]
    context = await browser.new_context(viewport={"width": 1300, "height": 1000})
    page = await context.new_page()
    try:
        await page.goto(f"{server.url}/#/game/{game_id}")
        await ready(page, "spectator")
        assert await page.locator('[data-testid="chat-text"]').count() == 0  # nobody signed in: read only
        # signed in as the page does it when a newcomer sits down (the answer sets the cookie)
        made = await page.evaluate("async () => (await (await import('/web/js/player.js')).makePlayer('Xoán')).name")
        assert made == "Xoán"
        await page.wait_for_selector('[data-testid="chat-to-spectators"]')
        await page.fill('[data-testid="chat-text"]', "Que partida!")
        await page.press('[data-testid="chat-text"]', "Enter")
        await shown(page, "Que partida!")
        assert [x["seat"] for x in await lines(page)] == ["0", "spectator"]
        seat_reads = [e["event"] for e in await feed(server, game_id, tokens[0])]
        assert [e["text"] for e in seat_reads if e["type"] == "MessageSaid"] == ["Boa sorte!"]
        # the replay at the version of the first message shows it alone; at the last, both
        last = (await server.get(f"{API}/games/{game_id}")).json()["version"]
        await page.goto(f"{server.url}/#/replay/{game_id}")
        await page.wait_for_selector(f'.replay-screen[data-shown="{last}"] [data-testid="replay-chat"]')
        assert "Que partida!" in await page.inner_text('[data-testid="replay-chat"]')
        await page.eval_on_selector(
            '[data-testid="replay-slider"]',
            f"(s) => {{ s.value = '{said_at}'; s.dispatchEvent(new Event('input')); }}",
        )
        await page.wait_for_selector(f'.replay-screen[data-shown="{said_at}"]')
        transcript = await page.inner_text('[data-testid="replay-chat"]')
        assert "Boa sorte!" in transcript and "Que partida!" not in transcript
        await no_axe_violations(page, "the replay with its chat")
    finally:
        await context.close()
