"""The web table as a game, in real Chromium (Playwright driving /usr/bin/chromium), against the
real server: each game played from start to end with the keyboard alone (a long game's first 40
moves of the seat, the API playing it on from there while the page follows), and on the way

- the highlighted targets and the chooser's buttons are exactly the options of the API's step, at
  every step of a game whose picks are drawn at random;
- axe-core (tests/clients/browser, ``npm ci --prefix tests/clients/browser``) finds no violation on
  the table at the start, in the middle and at the end, in a spectator's view and in the replay
  viewer (and on the lobby and the replays list, below);
- no rendered text, label or tooltip holds a raw id of the game's printed parts or a rule code;
- focus stays on the table after every update, each seat's last move is marked, turns are said to
  screen readers, spectators are counted;
- the final breakdown adds up, rule by rule, to the outcome's scores.

A phone (390x844, touch) plays a whole Vilar de Mouros by tapping: the move panel and the hand stay
on screen at every step. The 2-player score label, the bots' names and the replays list close the
file. Screenshots of each game go to .artifacts/screenshots/ (and to docs/images/ when
LUDOTECA_DOCS_IMAGES is set: how docs/web.md's pictures are made).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import re
import time
from collections.abc import AsyncIterator
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
import redis.asyncio as aioredis

from domain.catalog import GAMES as CATALOG
from tests.clients.conftest import Running
from tests.clients.test_web_table import (
    API,
    ROOT,
    SHOTS,
    Chromium,
    Offered,
    Table,
    check_shown,
    chromium,
    hold_seats,
    offered,
    option_key,
    shown_paths,
)
from tests.server.conftest import quick_settings, running
from tests.support.games import ending_bot

with contextlib.suppress(ImportError):  # the test extras install it; need_chromium says so
    from playwright.async_api import Page

AXE = ROOT / "tests" / "clients" / "browser" / "node_modules" / "axe-core" / "axe.min.js"
DOCS_IMAGES = ROOT / "docs" / "images"
GAMES = list(CATALOG)
# Played once more with every option: Itchy Feet's modules (events, specials, forbidden objects,
# postcards, characters: reaction windows and the Mousetrap come with them), Miss Liz's investment
# cards and side B of the park.
EVERY_OPTION = {
    "itchy-feet": dict.fromkeys(["events", "special_objects", "forbidden_objects", "postcards", "characters"], True),
    "miss-liz-parks": {"investment": True, "side_b": True},
}


@pytest.fixture
async def browser() -> AsyncIterator[Chromium]:
    async with chromium() as watched:
        yield watched


@pytest.fixture
async def server(redis: aioredis.Redis, redis_url: str) -> AsyncIterator[Running]:
    """The shared real server, with bots that do not pause to think."""
    async with running(quick_settings(redis_url)) as api:
        yield api


def axe_source() -> str:
    """axe-core's script; without it the tests fail under CI (they skip at a desk)."""
    if AXE.exists():
        return AXE.read_text()
    text = f"the web table's accessibility tests need axe-core ({AXE}): run npm ci --prefix tests/clients/browser"
    if os.environ.get("CI"):
        pytest.fail(text + "; .ci/run does")
    pytest.skip(text)


async def no_axe_violations(page: Page, where: str) -> None:
    if not await page.evaluate("() => !!window.axe"):
        # Evaluated through the browser's debugging protocol: the page's Content-Security-Policy
        # rightly refuses an injected inline script.
        await page.evaluate(axe_source() + "\n;undefined")
    found = await page.evaluate(
        """async () => {
          // The page as it rests: a card fading in is checked once it has (its colours are blended meanwhile).
          await Promise.all(document.getAnimations().map((a) => a.finished.catch(() => null)));
          const r = await axe.run(document, { resultTypes: ["violations"] });
          return r.violations.map((v) => `${v.id} (${v.impact}): ${v.help}; ` +
            v.nodes.slice(0, 3).map((n) => n.target.join(" ") + " " + (n.failureSummary || "")).join(" | "));
        }"""
    )
    assert not found, f"axe-core on {where}:\n" + "\n".join(found)


def codes_of(components: Any) -> set[str]:
    """The ids and codes of a game's printed parts that a person must never read: every id, kind,
    power and objective kind that looks like a code (a hyphen, an underscore or a digit in it)."""
    found: set[str] = set()

    def walk(x: Any, key: str = "") -> None:
        if isinstance(x, dict):
            for k, v in x.items():
                walk(v, k)
        elif isinstance(x, list):
            for v in x:
                walk(v, key)
        elif (
            isinstance(x, str)
            and key in {"id", "kind", "power", "region", "theme", "a", "b", "target"}
            and re.search(r"[-_0-9]", x)
            and not re.fullmatch(r"\d+", x)
        ):
            found.add(x)

    walk(components)
    return found


RULE_CODES = {
    "trade_answer",
    "give_back",
    "all_active",
    "active_type",
    "active_theme",
    "no_no_theme",
    "food_court",
    "turn_over",
    "empty_hand",
    "hand_limit",
    "lost_luggage",
}


async def no_raw_codes(page: Page, codes: set[str], where: str) -> None:
    """Neither the page's text (what is rendered, screen-reader text included) nor any label or
    tooltip holds a raw id or rule code."""
    text = await page.evaluate(
        """() => [document.body.innerText,
          ...[...document.querySelectorAll("[aria-label], [title]")].map((e) =>
            (e.getAttribute("aria-label") || "") + " " + (e.getAttribute("title") || ""))].join("\\n")"""
    )
    bad = sorted(c for c in codes | RULE_CODES if re.search(r"(?<![\w-])" + re.escape(c) + r"(?![\w-])", text))
    assert not bad, f"raw ids or codes on {where}: {bad[:12]}"
    assert "{" not in text and '":' not in text, f"something like JSON on {where}"


# --- playing a game with the keyboard ------------------------------------------------------


def choose(game: str, offer: Offered, shown: list[str], picks: list[dict[str, Any]], rng: random.Random) -> str:
    """The path (its key) or "confirm" a person picks next, among those the page shows: at random,
    leaning towards moves that end the game sooner."""
    step = offer.step
    if step.get("command") is not None and (not shown or rng.random() < 0.5):
        return "confirm"
    under = picks[0]["value"] if picks and picks[0]["field"] == "type" else None

    def move(key: str) -> str | None:
        path = json.loads(key)
        return str(path[0][1]) if path[0][0] == "type" else under

    def last(key: str) -> list[Any]:
        found: list[Any] = json.loads(key)[-1]
        return found

    moves = {move(k) for k in shown}
    prefer = {
        "i-love-portugal": ["BuyPhoto", "PlaceTourist", "ChooseColour"],
        "itchy-feet": ["Travel", "AcceptTrade", "DiscardDownToSeven", "PassReaction", "Draw"],
        "miss-liz-parks": ["BuildTile", "AssignEmployee", "BuyTile", "KeepPlanningCard", "EndTurn"],
        "vilar-de-mouros": ["DrawFromCentre", "DrawFromDeck"],
    }[game]
    for kind in prefer:
        if kind in moves and rng.random() < 0.85:
            return rng.choice([k for k in shown if move(k) == kind])
    if game == "i-love-portugal":
        black = [k for k in shown if last(k)[0] == "to" and "~" not in last(k)[1]]
        if black and rng.random() < 0.6:
            return rng.choice(black)
        ends = [k for k in shown if move(k) == "EndTurnAndDraw"]
        if ends:
            return ends[0]
    if game == "itchy-feet":
        shown = [k for k in shown if move(k) not in ("OfferTrade", "RejectTrade")] or shown
    return rng.choice(shown)


async def want(page: Page, key: str) -> int:
    """Mark the element that picks the path ``key`` (a target, else a button) with ``data-want``;
    how many paths it holds (0: none shows it, the step changed)."""
    found: int = await page.evaluate(
        """(key) => {
          for (const e of document.querySelectorAll("[data-want]")) e.removeAttribute("data-want");
          const has = (e) => JSON.parse(e.dataset.paths || "[]").some((p) => JSON.stringify(p) === key);
          const el = [...document.querySelectorAll(".play .target, .controls-wrap button.option")].find(has);
          if (!el) return 0;
          el.setAttribute("data-want", "");
          return JSON.parse(el.dataset.paths).length; }""",
        key,
    )
    return found


async def press_until_focused(page: Page, selector: str, limit: int = 300) -> bool:
    """Tab (or Shift+Tab, whichever is nearer in the page's focus order) until ``selector`` has the
    focus; False when nothing matches it any more (another seat moved and the step changed)."""
    direction = await page.evaluate(
        """(sel) => {
          const all = [...document.querySelectorAll("a[href], button, input, select, summary, [tabindex]")]
            .filter((e) => e.tabIndex >= 0 && !e.disabled && e.getClientRects().length);
          const want = all.findIndex((e) => e.matches(sel)), at = all.indexOf(document.activeElement);
          return want < 0 ? 0 : want >= at ? 1 : -1;
        }""",
        selector,
    )
    if not direction:
        return False
    key = "Tab" if direction > 0 else "Shift+Tab"
    for _ in range(limit):
        state: str = await page.evaluate(
            "(sel) => document.activeElement && document.activeElement.matches(sel) ? 'there'"
            " : document.querySelector(sel) ? 'on' : 'gone'",
            selector,
        )
        if state != "on":
            return state == "there"
        await page.keyboard.press(key)
    raise AssertionError(f"{limit} presses of {key} and {selector} never took the focus")


async def targets_match(page: Page, table: Table) -> tuple[Offered, list[str], list[dict[str, Any]]]:
    """The highlighted targets and the chooser's buttons are exactly what the API offers (the step,
    and at a move's start each move type's next step); the offer, the paths shown, the page's
    picks. (Another seat may move meanwhile, where two are awaited at once: then the page and the
    API are read again, until both stand at one version.)"""
    read = """() => { const w = document.querySelector(".controls-wrap");
      return { version: Number(w.dataset.version), state: w.dataset.state,
        picks: JSON.parse(w.dataset.picks || "[]") }; }"""
    for _ in range(50):
        at = await page.evaluate(read)
        if at["state"] != "idle":
            await page.wait_for_timeout(40)
            continue
        offer = await offered(table, at["picks"])
        shown = await shown_paths(page)
        again = await page.evaluate(read)
        if offer.version == at["version"] == again["version"] and again["state"] == "idle":
            break
        await page.wait_for_timeout(40)
    else:
        raise AssertionError("the page and the API never stood at one version")
    check_shown(shown, offer)
    return offer, list(dict.fromkeys(shown["table"] + shown["panel"])), at["picks"]


async def wait_for_my_turn_or_end(page: Page, table: Table, deadline: float) -> str:
    """ "mine" once the page stands ready at a step for seat 0, "over" once the game ended."""
    while time.monotonic() < deadline:
        current = await table.table()
        if current["status"] == "finished":
            return "over"
        if 0 in [a["seat"] for a in current["awaiting"]]:
            state = await page.evaluate(
                "(v) => { const w = document.querySelector('.controls-wrap');"
                " return w && w.dataset.state === 'idle' && Number(w.dataset.version) >= v; }",
                current["version"],
            )
            if state:
                return "mine"
        await page.wait_for_timeout(40)
    raise AssertionError(f"{table.game} did not finish in time")


async def open_page(browser: Chromium, url: str, **context: Any) -> tuple[Any, Page, list[str]]:
    ctx = await browser.new_context(**context)
    page = await ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    await page.goto(url)
    return ctx, page, errors


async def seated_table(server: Running, game: str, options: dict[str, Any] | None = None) -> Table:
    r = await server.http.post(f"{API}/games", json={"game": game, "players": 2, "options": options or {}})
    assert r.status_code == 201, r.text
    game_id = r.json()["game_id"]
    me = await server.http.post(f"{API}/games/{game_id}/seats", json={"seat": 0, "name": "Ana"})
    kind = ending_bot(game)
    bot = await server.http.post(
        f"{API}/games/{game_id}/seats", json={"seat": 1, "bot": kind, "name": f"{kind.capitalize()} bot 2"}
    )
    assert bot.status_code == 201, bot.text
    return Table(server, game, game_id, tokens={0: me.json()["token"]})


async def as_seat_zero(browser: Chromium, table: Table, **context: Any) -> tuple[Any, Page, list[str]]:
    seat = {table.game_id: {"seat": 0, "token": table.tokens[0], "game": table.game, "at": 1}}
    ctx = await browser.new_context(**context)
    await hold_seats(ctx, seat)
    page = await ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    await page.goto(f"{table.server.url}/#/game/{table.game_id}")
    await page.wait_for_selector('.table-screen[data-seat="0"]')
    return ctx, page, errors


async def shoot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    await page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)
    shown = {f"{g}-middle" for g in GAMES} | {"vilar-de-mouros-phone", "vilar-de-mouros-end"}  # what docs/web.md shows
    if os.environ.get("LUDOTECA_DOCS_IMAGES") and name in shown:
        DOCS_IMAGES.mkdir(parents=True, exist_ok=True)
        await page.evaluate("() => window.scrollTo(0, 0)")
        await page.screenshot(path=str(DOCS_IMAGES / f"{name}.png"), full_page=not name.endswith("phone"))


async def breakdown_adds_up(page: Page, outcome: dict[str, Any]) -> None:
    parts = await page.eval_on_selector_all(
        '[data-testid^="breakdown-"]',
        "els => els.map(e => ({seat: Number(e.dataset.testid.split('-')[1]), total: Number(e.dataset.total),"
        " sum: [...e.querySelectorAll('tr[data-points]')].reduce((n, r) => n + Number(r.dataset.points), 0)}))",
    )
    if outcome.get("breakdown") is None and outcome.get("travelled") is None:
        return
    assert len(parts) == len(outcome["scores"]), parts
    for p in parts:
        assert p["total"] == outcome["scores"][p["seat"]], (p, outcome["scores"])
        assert p["sum"] == p["total"], f"seat {p['seat']}'s lines add up to {p['sum']}, not {p['total']}"


KEYBOARD_MOVES = 40  # moves of seat 0 made by keys before the API plays the rest of a long game


@pytest.mark.timeout(240)
@pytest.mark.parametrize("game", [*GAMES, *(f"{g}+all" for g in EVERY_OPTION)])
async def test_a_whole_game_by_keyboard_alone(server: Running, browser: Chromium, game: str) -> None:
    axe_source()
    game, _, every = game.partition("+")
    comp = (await server.http.get(f"{API}/games/catalog/{game}")).json()["components"]
    codes = codes_of(comp)
    table = await seated_table(server, game, EVERY_OPTION[game] if every else None)
    rng = random.Random(f"{game}-keys")
    still = {"reduced_motion": "reduce"}  # axe reads colours that no fade is changing
    ctx, page, errors = await as_seat_zero(browser, table, viewport={"width": 1280, "height": 900}, **still)
    url = f"{server.url}/#/watch/{table.game_id}"
    watch_ctx, watcher, watch_errors = await open_page(browser, url, viewport={"width": 1100, "height": 900}, **still)
    await watcher.wait_for_selector('.table-screen[data-seat="spectator"]')
    started = time.monotonic()
    deadline = started + 200
    moves_made = picks_made = 0
    checked_middle = marked = escaped = False
    try:
        while await wait_for_my_turn_or_end(page, table, deadline) == "mine":
            if checked_middle and escaped and (moves_made >= KEYBOARD_MOVES or time.monotonic() > started + 100):
                # Enough of the keyboard (a long Itchy Feet runs to hundreds of moves): the API plays
                # seat 0 to the end, and the page must follow it there.
                while (await table.table())["status"] != "finished" and time.monotonic() < deadline:
                    if not await table.play(0):
                        await page.wait_for_timeout(40)
                break
            offer, shown, picks = await targets_match(page, table)
            if picks_made == 0:
                await no_axe_violations(page, f"{game} at the start")
                await no_raw_codes(page, codes, f"{game} at the start")
                await page.wait_for_function(
                    "() => /spectator/.test(document.querySelector('[data-testid=spectators]').textContent)"
                )
                assert "1 spectator watching" in await page.inner_text('[data-testid="spectators"]')
                await page.wait_for_function("() => /your turn/i.test(document.getElementById('announce').textContent)")
            marked = marked or await page.locator("[data-last-seat]").count() > 0
            focused = await page.evaluate(
                "() => !!document.activeElement && document.activeElement !== document.body"
                " && !!document.activeElement.closest('.play')"
            )
            assert focused, f"the focus left the table before pick {picks_made}"
            lit = await page.locator(".play .target").count()
            # the middle: at a move's start, its targets lit (a few, for the docs' pictures)
            if moves_made >= 8 and not checked_middle and not picks and (lit >= 3 or moves_made >= 16):
                checked_middle = True
                await no_axe_violations(page, f"{game} in the middle")
                await no_raw_codes(page, codes, f"{game} in the middle")
                await shoot(page, f"{game}{'-all' if every else ''}-middle")
                assert await page.evaluate("() => document.getAnimations().length") == 0, "motion, though reduced"
                assert await page.locator('[data-testid="last-1"]').count() == 1, "the other's last move is not marked"
                await watcher.wait_for_selector(".controls-wrap[data-state=none]")
                await no_axe_violations(watcher, f"{game} as a spectator")
                await no_raw_codes(watcher, codes, f"{game} as a spectator")
            path = choose(game, offer, shown, picks, rng)
            paths = 1 if path == "confirm" else await want(page, path)
            selector = '[data-testid="confirm"]' if path == "confirm" else "[data-want]"
            if not paths or not await press_until_focused(page, selector):
                continue  # the step changed under the test (another seat moved): read it again
            version = await page.get_attribute(".table-screen", "data-version")
            before = await page.get_attribute(".controls-wrap", "data-picks")
            if paths > 1:  # a target several moves share: the panel asks which, by the keyboard too
                await page.keyboard.press("Enter")
                which = f".controls-wrap .which button[data-paths='[{path}]']"
                await page.wait_for_selector(which)
                assert await press_until_focused(page, which)
            await page.keyboard.press("Enter" if picks_made % 2 else " ")
            picks_made += 1
            await page.wait_for_function(
                "([v, before]) => { const w = document.querySelector('.controls-wrap'),"
                " t = document.querySelector('.table-screen');"
                " return t.dataset.version !== v || (w.dataset.state === 'idle' && w.dataset.picks !== before)"
                " || ['waiting', 'none'].includes(w.dataset.state); }",
                arg=[version, before],
                timeout=15_000,
            )
            state = await page.get_attribute(".controls-wrap", "data-state")
            if state in ("waiting", "none"):
                moves_made += 1
            elif not escaped and await page.locator('[data-testid="cancel"]').count():
                # once a game: Escape drops a partial move, back to its first step
                escaped = True
                partial = await page.get_attribute(".controls-wrap", "data-picks")
                await page.keyboard.press("Escape")
                await page.wait_for_function(
                    "(p) => { const w = document.querySelector('.controls-wrap');"
                    " return w.dataset.state !== 'idle' || w.dataset.picks !== p; }",
                    arg=partial,
                )
        final = await table.table()
        await page.wait_for_selector('[data-testid="outcome"]', timeout=20_000)
        await watcher.wait_for_selector('[data-testid="outcome"]', timeout=20_000)
        await page.wait_for_function("() => /game is over/i.test(document.getElementById('announce').textContent)")
        await no_axe_violations(page, f"{game} at the end")
        await no_raw_codes(page, codes, f"{game} at the end")
        await breakdown_adds_up(page, final["outcome"])
        scores = await page.locator('[data-testid="outcome"] td.score').all_inner_texts()
        assert sorted(int(s) for s in scores) == sorted(final["outcome"]["scores"])
        if game == "i-love-portugal":  # the seat panels' running score is the final one
            for seat, score in enumerate(final["outcome"]["scores"]):
                assert f"score {score}" in await page.inner_text(f'[data-testid="score-{seat}"]')
        await shoot(page, f"{game}{'-all' if every else ''}-end")
        await page.goto(f"{server.url}/#/replay/{table.game_id}")
        await page.wait_for_selector(".replay-screen[data-shown]")
        await no_axe_violations(page, f"{game}'s replay")
        await no_raw_codes(page, codes, f"{game}'s replay")
        assert moves_made > 0
        assert marked, "no last move was ever marked on the table"
        assert checked_middle, "the game ended before the middle was checked"
        # Escape was pressed on the first partial move, if any came: I Love Portugal's moves are
        # each one pick on the table (every move type's targets are lit from the start), and a
        # short deal may offer none; Vilar's placing and Miss Liz's streets always do.
        assert escaped or game not in ("vilar-de-mouros", "miss-liz-parks") or moves_made < KEYBOARD_MOVES, (
            "no partial move was ever dropped with Escape"
        )
        assert not errors and not watch_errors, errors + watch_errors
    finally:
        await ctx.close()
        await watch_ctx.close()


# The page's scroll the same over three frames.
STILL = """() => new Promise((done) => { const y = scrollY;
  requestAnimationFrame(() => requestAnimationFrame(() => requestAnimationFrame(() => done(scrollY === y)))); })"""


@pytest.mark.timeout(150)
async def test_a_phone_plays_vilar_de_mouros_by_tapping_with_the_hand_and_the_move_on_screen(
    server: Running, browser: Chromium
) -> None:
    table = await seated_table(server, "vilar-de-mouros")
    rng = random.Random("phone")
    ctx, page, errors = await as_seat_zero(
        browser, table, viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True, device_scale_factor=2
    )
    deadline = time.monotonic() + 120
    taps = 0
    glided = False  # cards moved where they went (motion is not reduced here)
    try:
        while await wait_for_my_turn_or_end(page, table, deadline) == "mine":
            offer, shown, picks = await targets_match(page, table)
            step = offer.step
            glided = glided or await page.evaluate("() => document.getAnimations().length > 0")
            await page.wait_for_function("() => document.getAnimations().every((a) => a.playState !== 'running')")
            # and the page's own smooth scroll to a target (not an animation) is over: the page stands still
            await page.wait_for_function(STILL)
            # the move panel and the hand: on screen, whole, whatever the board's scroll
            box = await page.evaluate(
                """() => { const dock = document.querySelector('[data-testid=dock]');
                  const d = dock.getBoundingClientRect();
                  // A hand taller than the dock (at most half the screen) scrolls inside it: each card is
                  // whole within the dock's scrolled content.
                  const top = d.top - dock.scrollTop, bottom = top + dock.scrollHeight;
                  const hand = [...document.querySelectorAll('[data-testid=dock] .card')]
                    .map((c) => c.getBoundingClientRect());
                  return { top: d.top, bottom: d.bottom, height: innerHeight, cards: hand.map((r) => [r.top, r.bottom]),
                    hand: hand.every((r) => r.top >= top - 12 && r.bottom <= bottom + 12) }; }"""
            )
            assert box["top"] >= 0 and box["bottom"] <= box["height"] + 1, box
            assert box["hand"], f"a card of the hand is outside the dock: {box}"
            # what the move panel offers is in sight: a target above the dock or in it (the
            # page brings the first one into view), never only somewhere the person must scroll to
            in_sight = await page.evaluate(
                """() => { const dock = document.querySelector('[data-testid=dock]');
                  const top = dock.getBoundingClientRect().top;
                  return [...document.querySelectorAll('.play .target')].some((el) => {
                    const r = el.getBoundingClientRect();
                    return dock.contains(el) || (r.bottom > 0 && r.top < top); }); }"""
            )
            assert in_sight or not step.get("options"), "no target of the step is in sight"
            path = choose("vilar-de-mouros", offer, shown, picks, rng)
            assert path == "confirm" or await want(page, path) == 1  # no target of Vilar's is shared
            selector = '[data-testid="confirm"]' if path == "confirm" else "[data-want]"
            # the target, brought above the dock, is there to tap with the dock still whole on screen
            reachable = await page.evaluate(
                """(sel) => { const el = document.querySelector(sel);
                  const dock = document.querySelector('[data-testid=dock]');
                  if (!dock.contains(el)) { const r = el.getBoundingClientRect();
                    window.scrollBy(0, r.top + r.height / 2 - innerHeight * 0.25); }
                  const r = el.getBoundingClientRect(), d = dock.getBoundingClientRect();
                  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + Math.min(r.height / 2, 16));
                  return !!hit && (hit === el || el.contains(hit)) && d.top >= 0 && d.bottom <= innerHeight + 1; }""",
                selector,
            )
            assert reachable, f"{selector} cannot be tapped with the dock on screen"
            if taps == 6:  # docs/web.md's picture: a turn under way, the move and the hand docked
                await shoot(page, "vilar-de-mouros-phone")
            version = await page.get_attribute(".table-screen", "data-version")
            before = await page.get_attribute(".controls-wrap", "data-picks")
            await page.locator(selector).first.tap()
            taps += 1
            await page.wait_for_function(
                "([v, before]) => { const w = document.querySelector('.controls-wrap'),"
                " t = document.querySelector('.table-screen');"
                " return t.dataset.version !== v || (w.dataset.state === 'idle' && w.dataset.picks !== before)"
                " || ['waiting', 'none'].includes(w.dataset.state); }",
                arg=[version, before],
                timeout=15_000,
            )
        await page.wait_for_selector('[data-testid="outcome"]', timeout=20_000)
        # the last cards are where they went: the picture shows the table, not a glide half-way
        await page.wait_for_function("() => document.getAnimations().every((a) => a.playState !== 'running')")
        await shoot(page, "vilar-de-mouros-phone-end")
        # compact on a phone: the whole table (scores, the festival grounds, both personal areas, the
        # hand, the log) is a few screens; how many cards the centre holds at the end varies by game
        height = await page.evaluate("() => document.documentElement.scrollHeight")
        assert height < 4200, f"the finished table is {height} px tall on a phone"
        assert taps > 10 and not errors, errors
        assert glided, "no card ever glided"
    finally:
        await ctx.close()


@pytest.mark.timeout(90)
async def test_the_lobby_the_replays_list_the_bots_names_and_the_two_player_score_label(
    server: Running, browser: Chromium
) -> None:
    axe_source()
    ctx, page, errors = await open_page(browser, f"{server.url}/#/", viewport={"width": 1280, "height": 900})
    try:
        await page.wait_for_selector('[data-testid="create-vilar-de-mouros"]')
        await no_axe_violations(page, "the lobby")
        # the lobby seats bots with names of their own
        await page.uncheck('form[data-game="vilar-de-mouros"] [data-field="sit"]')
        await page.fill('form[data-game="vilar-de-mouros"] [data-field="players"]', "3")
        await page.click('[data-testid="create-vilar-de-mouros"]')
        await page.wait_for_selector(".table-screen[data-status=open]")
        await page.click('[data-testid="fill-bots"]')
        await page.wait_for_selector(".table-screen[data-status=active], .table-screen[data-status=finished]")
        game_id = await page.get_attribute(".table-screen", "data-game-id")
        for _ in range(200):
            t = (await server.http.get(f"{API}/games/{game_id}")).json()
            if t["status"] == "finished":
                break
            await page.wait_for_timeout(100)
        names = [s["name"] for s in t["seats"]]
        assert names == ["Casual bot 1", "Casual bot 2", "Casual bot 3"], names  # the default named level
        # the 2-player (and any) final score in words: seat names and their scores, not a grid cell
        label = await page.evaluate(
            """async () => {
              const { describeEvent } = await import("/web/js/names.js");
              const { SCREENS } = await import("/web/js/games/index.js");
              const names = new Map(), seat = (s) => ["Ana", "Bo"][s];
              const scores = [66, 46];
              return [describeEvent({ type: "FinalScoresCounted", scores }, names, seat, SCREENS["i-love-portugal"]),
                describeEvent({ type: "SomethingScored", scores }, names, seat, {})];
            }"""
        )
        assert label[0] == "Final scores: Ana 66, Bo 46", label
        assert "Ana 66, Bo 46" in label[1] and "row" not in label[1] and "column" not in label[1], label
        # the replays list: when, players, winner, scores
        await page.goto(f"{server.url}/#/replays")
        row = page.locator(f'[data-testid="replays"] tr[data-game-id="{game_id}"]')
        await row.wait_for()
        text = await row.inner_text()
        listed = (await server.http.get(f"{API}/games", params={"status": "finished"})).json()["games"]
        finished_ms = next(g["finished_ms"] for g in listed if g["game_id"] == game_id)
        stamp = await row.locator('[data-testid="finished"] time').get_attribute("datetime")
        assert stamp is not None and abs(datetime.fromisoformat(stamp).timestamp() * 1000 - finished_ms) < 1, stamp
        assert abs(finished_ms / 1000 - time.time()) < 600, "the game ended minutes ago, not at the epoch"
        assert str(datetime.now().year) in await row.locator('[data-testid="finished"]').inner_text()
        winners = [names[s] for s in t["outcome"]["winners"]]
        winner = await row.locator('[data-testid="winner"]').inner_text()
        assert all(n in text for n in names) and all(w in winner for w in winners), (text, winner)
        scores = await row.locator('[data-testid="scores"]').inner_text()
        assert scores == ", ".join(f"{n} {s}" for n, s in zip(names, t["outcome"]["scores"], strict=True)), scores
        await no_axe_violations(page, "the replays list")
        assert not errors, errors
    finally:
        await ctx.close()


# Every name a person reads on the table, whole (the problems found, in words).
NAMES_WHOLE = "() =>" + (ROOT / "tests" / "clients" / "browser" / "names-whole.js").read_text().partition("\n() =>")[2]


@pytest.mark.timeout(90)
@pytest.mark.parametrize("game", GAMES)
async def test_every_name_is_whole_at_every_width_from_360_px(server: Running, browser: Chromium, game: str) -> None:
    """A table well into its game, as seat 0 sees it at 360, 390, 768 and 1280 px: every card's
    name and words, every cell's and pile's, are whole, and the map's names stand apart."""
    table = await seated_table(server, game)
    for _ in range(30):  # seat 0 plays (the bot answers by itself), so hands, areas and parks fill
        current = await table.table()
        if current["status"] != "active":
            break
        if 0 in [a["seat"] for a in current["awaiting"]]:
            await table.play(0)
        else:
            await asyncio.sleep(0.03)
    ctx, page, _ = await as_seat_zero(browser, table, viewport={"width": 360, "height": 780}, reduced_motion="reduce")
    try:
        await page.wait_for_selector(".view")
        for width in (360, 390, 768, 1280):
            await page.set_viewport_size({"width": width, "height": 780 if width < 600 else 900})
            await page.wait_for_timeout(150)
            bad = await page.evaluate(NAMES_WHOLE)
            if bad:
                await page.screenshot(path=str(SHOTS / f"{game}-names-{width}.png"), full_page=True)
            assert not bad, f"{game} at {width} px: {bad[:10]}"
            overflow = await page.evaluate("() => document.documentElement.scrollWidth - innerWidth")
            assert overflow <= 0, f"{game} at {width} px is {overflow} px wider than the screen"
    finally:
        await ctx.close()


@pytest.mark.timeout(60)
@pytest.mark.parametrize("game", GAMES)
async def test_each_game_has_its_rules_card_what_may_be_done_now_and_why_not(
    server: Running, browser: Chromium, game: str
) -> None:
    """At the table, a newcomer finds the game in a few lines (goal, a turn, the end, scores), the
    moves they may make now in words, and, clicking a thing of the table that is not lit, why it
    cannot be picked now (the rule's own reason, from the refusal the server would give the command
    the thing stands for) and what may be done instead."""
    table = await seated_table(server, game)
    ctx, page, _ = await as_seat_zero(browser, table, viewport={"width": 1280, "height": 900})
    try:
        assert await wait_for_my_turn_or_end(page, table, time.monotonic() + 40) == "mine"
        rules = page.locator('[data-testid="rules"]')
        assert "How to play" in await rules.locator("summary").inner_text()
        await rules.locator("summary").click()
        lines = await rules.locator("dd").all_inner_texts()
        assert len(lines) == 4 and all(len(line) > 20 for line in lines), lines
        offer, _, _ = await targets_match(page, table)
        types = [o for o in offer.step.get("options", []) if o["field"] == "type"]
        if len(types) > 1:
            may = await page.inner_text('[data-testid="may"]')
            assert may.startswith("You may") and "_" not in may, may
        unlit = page.locator(".play [data-pick]:not(.target):not(.picked)")
        count = await unlit.count()
        assert count, "everything on the table is lit"
        version = await page.get_attribute(".table-screen", "data-version")
        sources = set()
        for i in range(min(count, 40)):
            await unlit.nth(i).scroll_into_view_if_needed()
            await unlit.nth(i).click(force=True)  # a card under a fan's neighbour, a circle under a label
            said = page.locator('[data-testid="why"]:not([data-source="asking"])')
            why, source = await said.inner_text(), await said.get_attribute("data-source")
            sources.add(source)
            assert "{" not in why and "_" not in why, why
            assert "You may" in why or "Now pick" in why, why  # and what may be done instead
            if source == "step":  # said from the step alone
                assert "cannot be picked now" in why, why
            else:  # the rule's own reason: the refusal the server gives the command the thing stands for
                assert source == "rule" and await said.get_attribute("data-code"), why
                assert why.index("You may" if "You may" in why else "Now pick") > 10, why
            if "rule" in sources and i >= 2:
                break
        assert "rule" in sources, f"no thing of {game}'s table said the rule's reason"
        # asking wrote nothing: the table is where it was
        assert await page.get_attribute(".table-screen", "data-version") == version
    finally:
        await ctx.close()


def test_the_browser_tools_are_pinned_by_a_lockfile() -> None:
    """axe-core comes from the npm registry at the version the lockfile pins (npm ci installs it)."""
    lock = json.loads((ROOT / "tests" / "clients" / "browser" / "package-lock.json").read_text())
    assert lock["packages"]["node_modules/axe-core"]["version"]
    assert "npm ci --prefix tests/clients/browser" in (ROOT / ".ci" / "run").read_text()
    assert "npm ci --prefix tests/clients/browser" in (ROOT / "README.md").read_text()
    assert Path(ROOT / "clients" / "web" / "js" / "morph.js").exists()


PRESSABLE = "button, .target, [role=button]"  # what a pointer may be on, about to be pressed


@pytest.mark.timeout(60)
async def test_an_update_leaves_the_focus_and_every_button_where_the_player_was(
    server: Running, browser: Chromium
) -> None:
    table = await seated_table(server, "vilar-de-mouros")
    ctx, page, errors = await as_seat_zero(browser, table, viewport={"width": 1280, "height": 900})
    try:
        assert await wait_for_my_turn_or_end(page, table, time.monotonic() + 30) == "mine"
        key = option_key("type", "DrawFromDeck")
        assert await press_until_focused(page, f".play .target[data-option='{key}']")
        await page.evaluate("() => { document.activeElement.__here = true; }")
        # every button the pointer could be on, marked: an update must not put another in its place
        marked = await page.evaluate(
            "(s) => [...document.querySelectorAll(s)].map((b) => (b.__kept = true)).length", PRESSABLE
        )
        version = await page.get_attribute(".table-screen", "data-version")
        # a spectator comes: a presence update redraws the table
        watch_ctx, _, _ = await open_page(browser, f"{server.url}/#/watch/{table.game_id}")
        await page.wait_for_function(
            "() => /1 spectator/.test(document.querySelector('[data-testid=spectators]').textContent)"
        )
        kept = await page.evaluate(
            "() => document.activeElement.__here === true && document.activeElement.matches('.target')"
        )
        assert kept, "the update moved the focus or replaced the focused element"
        replaced = await page.evaluate(
            "(s) => [...document.querySelectorAll(s)].filter((b) => !b.__kept).map((b) => b.outerHTML.slice(0, 99))",
            PRESSABLE,
        )
        assert marked > 5 and not replaced, f"the update drew these buttons anew: {replaced}"
        assert await page.get_attribute(".table-screen", "data-version") == version
        await page.keyboard.press("Enter")  # and the pick still works from there
        # taken: under way, or already sent and answered (a loaded machine may show neither state in
        # time for a look; the table's version says the move was made, since only seat 0 is awaited)
        await page.wait_for_function(
            "(v) => document.querySelector('.controls-wrap').dataset.picks.includes('DrawFromDeck')"
            " || document.querySelector('.controls-wrap').dataset.state !== 'idle'"
            " || Number(document.querySelector('.table-screen').dataset.version) > v",
            arg=int(version or 0),
        )
        await watch_ctx.close()
        assert not errors, errors
    finally:
        await ctx.close()


@pytest.mark.timeout(90)
async def test_a_move_the_clock_takes_away_leaves_nothing_lit_to_press(server: Running, browser: Chromium) -> None:
    """The seat's time runs out while the pointer rests on a lit target: the takeover bot plays the
    move, the targets go out, and pressing where the target was sends nothing (no refusal, no error)."""
    clock = {"per": "move", "seconds": 3, "on_timeout": "bot_move"}
    r = await server.http.post(f"{API}/games", json={"game": "itchy-feet", "players": 3, "clock": clock})
    assert r.status_code == 201, r.text
    game_id = r.json()["game_id"]
    tokens = {}
    for seat, name in enumerate(("Ana", "Bea", "Cris")):  # Bea's and Cris's turns: the clock plays them
        taken = await server.http.post(f"{API}/games/{game_id}/seats", json={"seat": seat, "name": name})
        tokens[seat] = taken.json()["token"]
    table = Table(server, "itchy-feet", game_id, tokens={0: tokens[0]})
    ctx, page, _ = await as_seat_zero(browser, table, viewport={"width": 1280, "height": 900})
    try:
        assert await wait_for_my_turn_or_end(page, table, time.monotonic() + 40) == "mine"
        target = page.locator(".play .target").first
        await target.scroll_into_view_if_needed()
        box = await target.bounding_box()
        assert box is not None
        x, y = box["x"] + box["width"] / 2, box["y"] + min(box["height"] / 2, 12)
        await page.mouse.move(x, y)
        version = int(await page.get_attribute(".table-screen", "data-version") or 0)
        # the clock runs out: the bot plays the move, and the game awaits the others (3 s each)
        deadline = time.monotonic() + 20
        while True:
            current = await table.table()
            if current["version"] > version and 0 not in [a["seat"] for a in current["awaiting"]]:
                break
            assert time.monotonic() < deadline, "the clock did not play the seat's move"
            await page.wait_for_timeout(50)
        await page.wait_for_function(
            "(v) => Number(document.querySelector('.table-screen').dataset.version) >= v", arg=current["version"]
        )
        assert await page.locator(".play .target").count() == 0, "a target is lit while the game awaits others"
        await page.mouse.down()
        await page.mouse.up()
        await page.wait_for_timeout(300)
        assert await page.locator(".message.error").count() == 0, "the press sent a command, refused"
        assert await page.get_attribute(".controls-wrap", "data-state") != "sending", "the press sent a command"
    finally:
        await ctx.close()
