"""The pseudo-locale run (docs/i18n.md, "The pseudo-locale"): in real Chromium against the real server,
a person plays each game to its end with the page in the pseudo-locale, where every word the page
writes through its words or the server's catalogs comes out accented and wrapped (``⟦Ýóúŕ ţúŕñ⟧``).
At every one of the person's turns, at the end, in a spectator's view, the replay, the lobby, a
leaderboard, the sign-in and the replays list, no text, label, title, placeholder or style sheet's
words may hold a word
of plain ASCII letters other than what the page is given to show as it is: the players' names, the
games' proper names as printed (a part without a catalog term), the brand. A word left plain was
written in place, a code shown raw or a server's English sentence: English to every reader.
"""

from __future__ import annotations

import contextlib
import re
import time
from collections.abc import AsyncIterator
from typing import Any

import pytest
import redis.asyncio as aioredis

from domain.catalog import GAMES as CATALOG
from tests.clients.conftest import Running
from tests.clients.test_web_game import wait_for_my_turn_or_end
from tests.clients.test_web_table import API, Chromium, Table, hold_seats, make_one_move
from tests.server.conftest import quick_settings, running
from tests.support.games import ending_bot

with contextlib.suppress(ImportError):  # the test extras install it; need_chromium says so
    from playwright.async_api import BrowserContext, Page

GAMES = list(CATALOG)
PAGE_MOVES = 30  # moves the person makes on the page before the API plays its seat on (a long Itchy Feet)
PSEUDO = "if (location.protocol.startsWith('http')) localStorage.setItem('ludoteca.pseudo', '1')"
KEPT = ["Ludoteca", "Ana"]  # the brand and the person's name: shown as they are in every language

# Every string the page shows or says (text, and what a screen reader reads), each with where it is.
SHOWN = """() => {
  const out = [];
  const where = (el) => (el.closest('[data-testid]') && el.closest('[data-testid]').dataset.testid)
    || (el.closest('[class]') && String(el.closest('[class]').className)) || el.tagName;
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    const el = n.parentElement;
    if (!el || el.closest('script, style, noscript, .back-mark')) continue;  // a back's printed mark: a picture
    if (n.textContent.trim()) out.push([n.textContent, where(el)]);
  }
  for (const el of document.querySelectorAll('[aria-label], [title], [placeholder], [alt]')) {
    for (const a of ['aria-label', 'title', 'placeholder', 'alt']) {
      const v = el.getAttribute(a);
      if (v && v.trim()) out.push([v, `${where(el)} @${a}`]);
    }
  }
  for (const el of document.body.querySelectorAll('*')) {  // words a style sheet writes (::before, ::after)
    for (const part of ['::before', '::after']) {
      const c = getComputedStyle(el, part).content;
      if (c && c.startsWith('"')) out.push([JSON.parse(c), `${where(el)} ${part}`]);
    }
  }
  for (const el of document.querySelectorAll('[data-last-label]')) out.push([el.dataset.lastLabel, 'last move mark']);
  out.push([document.title, 'title']);
  return out;
}"""

HEX = re.compile(r"\b[0-9a-f]{8,}\b")  # ids, hashes, seeds: no words
URL = re.compile(r"\b(?:https?|wss?)://\S+")
PLAIN_WORD = re.compile(r"[A-Za-z]{2,}")


@pytest.fixture
async def server(redis: aioredis.Redis, redis_url: str) -> AsyncIterator[Running]:
    """The web tests' server (bots that do not pause to think); Chromium is the package's ``browser``."""
    async with running(quick_settings(redis_url)) as api:
        yield api


async def proper_names(server: Running, game: str) -> list[str]:
    """The names of the game's printed parts that no catalog words (bands, places, parks): as printed."""
    comp = (await server.http.get(f"{API}/games/catalog/{game}")).json()["components"]
    terms = (await server.http.get(f"{API}/words/en")).json()["games"].get(game, {}).get("terms", {})
    names: list[str] = []

    def walk(x: Any) -> None:
        if isinstance(x, dict):
            if isinstance(x.get("id"), str) and isinstance(x.get("name"), str) and f"name.{x['id']}" not in terms:
                names.append(x["name"])
            for v in x.values():
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)

    walk(comp)
    return names


async def untranslated(page: Page, kept: list[str], screen: str, left: dict[str, str]) -> None:
    """Keep in ``left`` each shown string that still holds a plain ASCII word once ``kept`` names are out."""
    ordered = sorted(set(kept), key=len, reverse=True)
    for text, where in await page.evaluate(SHOWN):
        rest = URL.sub(" ", text)
        for name in ordered:
            rest = rest.replace(name, " ")
        if PLAIN_WORD.search(HEX.sub(" ", rest)):
            left.setdefault(text.strip()[:160], f"{screen}, {where}")


def said(left: dict[str, str]) -> str:
    return "\n".join(f"{where}: {text!r}" for text, where in left.items())


async def pseudo_context(browser: Chromium, **options: Any) -> BrowserContext:
    context = await browser.new_context(viewport={"width": 1300, "height": 1000}, **options)
    await context.add_init_script(PSEUDO)
    return context


@pytest.mark.timeout(240)
@pytest.mark.parametrize("game", GAMES)
async def test_a_whole_game_in_the_pseudo_locale_shows_no_untranslated_word(
    server: Running, browser: Chromium, game: str
) -> None:
    r = await server.http.post(f"{API}/games", json={"game": game, "players": 2})
    game_id = r.json()["game_id"]
    me = await server.http.post(f"{API}/games/{game_id}/seats", json={"seat": 0, "name": "Ana"})
    bot = await server.http.post(f"{API}/games/{game_id}/seats", json={"seat": 1, "bot": ending_bot(game)})
    assert bot.status_code == 201, bot.text
    table = Table(server, game, game_id, tokens={0: me.json()["token"]})
    kept = KEPT + await proper_names(server, game)
    left: dict[str, str] = {}

    context = await pseudo_context(browser)
    await hold_seats(context, {game_id: {"seat": 0, "token": table.tokens[0], "game": game, "at": 1}})
    page = await context.new_page()
    await page.goto(f"{server.url}/#/game/{game_id}")
    await page.wait_for_selector('.table-screen[data-seat="0"]')
    assert await page.get_attribute("html", "lang") == "en-XA"
    watcher = await pseudo_context(browser)
    spectator = await watcher.new_page()
    await spectator.goto(f"{server.url}/#/watch/{game_id}")
    await spectator.wait_for_selector(".table-screen[data-seat=spectator]")

    started = time.monotonic()
    moves = 0
    while await wait_for_my_turn_or_end(page, table, started + 200) == "mine":
        if moves >= PAGE_MOVES or time.monotonic() > started + 90:
            while (await table.table())["status"] != "finished" and time.monotonic() < started + 200:
                if not await table.play(0):
                    await page.wait_for_timeout(40)
            break
        await untranslated(page, kept, f"turn {moves + 1}", left)
        if moves == 1:
            await untranslated(spectator, kept, "a spectator's view", left)
        await make_one_move(page)
        moves += 1
    assert moves >= 1, "the person never got to move"
    await page.wait_for_selector('[data-testid="outcome"]', timeout=20_000)
    await untranslated(page, kept, "the end", left)
    await spectator.wait_for_selector('[data-testid="outcome"]', timeout=20_000)
    await untranslated(spectator, kept, "the end, as a spectator", left)

    await page.goto(f"{server.url}/#/replay/{game_id}")
    await page.wait_for_selector(".replay-screen[data-shown]", timeout=15_000)
    await untranslated(page, kept, "the replay", left)
    assert not left, said(left)


@pytest.mark.timeout(120)
async def test_the_lobby_and_the_players_screens_in_the_pseudo_locale_show_no_untranslated_word(
    server: Running, browser: Chromium
) -> None:
    kept = KEPT + [name for game in GAMES for name in await proper_names(server, game)]
    left: dict[str, str] = {}
    context = await pseudo_context(browser)
    page = await context.new_page()
    for screen, path in [
        ("the lobby", "/#/"),
        ("a leaderboard", "/#/leaderboard/vilar-de-mouros"),
        ("the sign-in", "/#/sign-in"),
        ("the replays", "/#/replays"),
    ]:
        await page.goto(server.url + path)
        await page.wait_for_load_state("networkidle")
        await page.wait_for_timeout(300)
        await untranslated(page, kept, screen, left)
    assert not left, said(left)
