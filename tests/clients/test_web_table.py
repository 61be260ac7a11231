"""The web table (clients/web) in a real browser: Debian's Chromium driven by Playwright, against
the real server over real sockets on the test Redis.

For each game a person's browser creates a table in the lobby, seats bots, plays the opening moves
by clicking, lets the other seats play the middle, and sees the final scores; a second browser
context watches as a spectator and is shown no private card; both pages' sockets are cut and they
resume without a gap; a screenshot of each game's screen is saved under .artifacts/screenshots/.
The replay viewer is stepped, scrubbed and switched between views once a game is finished.

The other seats are the server's bots (``{"bot": "random"}``, seated by the page's "fill the other
seats with bots"); the person's seat is played by clicking, then over HTTP with its token. Should
a server seat no bots (``422 no_such_bot``), the test takes the other seats itself and plays them
with legal commands over HTTP, as bots would.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import random
import re
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import redis.asyncio as aioredis

from domain.catalog import GAMES
from tests.clients.conftest import Running
from tests.server.conftest import ADMIN, quick_settings, running

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / ".artifacts" / "screenshots"
API = "/api/v1"

try:
    from playwright.async_api import Browser, BrowserContext, Page, async_playwright
    from playwright.async_api import Error as PlaywrightError
    from playwright.async_api import TimeoutError as PlaywrightTimeoutError
except ImportError:  # pragma: no cover - the test extras install it
    async_playwright = None  # type: ignore[assignment]


def need_chromium() -> None:
    """Skip without a browser at a desk; in CI (CI set) a missing browser fails the run."""
    missing = []
    if async_playwright is None:
        missing.append("the playwright package (pip install -e '.[test]')")
    if not CHROMIUM.exists():
        missing.append("Debian's chromium (apt-get install -y chromium)")
    if not missing:
        return
    text = "the web table's browser tests need " + " and ".join(missing)
    if os.environ.get("CI"):
        pytest.fail(text + "; CI must run them (.ci/run installs chromium)")
    pytest.skip(text)


# Said on the console by every page: a report of anything the page's Content-Security-Policy refused.
CSP_REPORTS = """document.addEventListener("securitypolicyviolation", (e) =>
  console.error(`CSP report: ${e.effectiveDirective} refused ${e.blockedURI || "inline"} ${e.sample || ""}`));"""


class Chromium:
    """The browser the tests drive, every page of it watched from its first script on: an uncaught
    exception, a console error or a Content-Security-Policy report on any page, on any screen, is
    kept in ``errors``, and the test fails at its end if there is one (``allow`` names an error
    a test provokes on purpose: a refused request the page handles)."""

    def __init__(self, browser: Browser) -> None:
        self.browser = browser
        self.errors: list[str] = []
        self.allowed: list[str] = []

    def allow(self, text: str) -> None:
        self.allowed.append(text)

    def console(self, message: Any) -> None:
        if message.type == "error" and not any(a in message.text for a in self.allowed):
            self.errors.append(f"console: {message.text} ({message.location.get('url', '')})")

    async def new_context(self, pace: str | None = "instant", **options: Any) -> BrowserContext:
        """A context whose pages show other seats' steps at ``pace`` (at once, unless a test
        watches the pace itself: None leaves the page's own default)."""
        context = await self.browser.new_context(**options)
        await context.add_init_script(CSP_REPORTS)
        if pace is not None:
            await context.add_init_script(
                f"if (location.protocol.startsWith('http')) localStorage.setItem('ludoteca.pace', '{pace}')"
            )
        context.on("console", self.console)
        context.on("weberror", lambda e: self.errors.append(f"uncaught: {e.error}"))
        return context


async def hold_seats(context: BrowserContext, seats: dict[str, dict[str, Any]]) -> None:
    """The context's pages hold these seats (localStorage, as the page keeps them); set on the
    server's pages only (the blank page a context opens on has no storage)."""
    await context.add_init_script(
        "if (location.protocol.startsWith('http')) "
        f"localStorage.setItem('ludoteca.seats', JSON.stringify({json.dumps(seats)}))"
    )


@asynccontextmanager
async def chromium() -> AsyncIterator[Chromium]:
    """Debian's Chromium, watched; it fails the test that used it if a page said an error."""
    need_chromium()
    async with async_playwright() as p:
        launched = await p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        watched = Chromium(launched)
        try:
            yield watched
        finally:
            await launched.close()
        assert not watched.errors, "the pages said:\n" + "\n".join(watched.errors[:20])


@pytest.fixture
async def browser() -> AsyncIterator[Chromium]:
    async with chromium() as watched:
        yield watched


@pytest.fixture
async def server(redis: aioredis.Redis, redis_url: str) -> AsyncIterator[Running]:
    """The shared real server (tests/server/conftest.py), with bots that do not pause to think."""
    async with running(quick_settings(redis_url)) as api:
        yield api


# --- the other seats: server bots, or the test playing them over HTTP ----------------------


@dataclass
class Table:
    server: Running
    game: str
    game_id: str
    tokens: dict[int, str] = field(default_factory=dict)  # seats whose token the test holds
    server_bots: bool = False
    rng: random.Random = field(default_factory=lambda: random.Random(6))
    sent: int = 0

    def auth(self, seat: int) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.tokens[seat]}"}

    async def table(self, token: str | None = None) -> dict[str, Any]:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        r = await self.server.http.get(f"{API}/games/{self.game_id}", headers=headers)
        assert r.status_code == 200, r.text
        answer: dict[str, Any] = r.json()
        return answer

    async def legal(self, seat: int) -> tuple[int, list[dict[str, Any]]]:
        r = await self.server.http.get(f"{API}/games/{self.game_id}/legal-commands", headers=self.auth(seat))
        assert r.status_code == 200, r.text
        return r.json()["version"], r.json()["commands"]

    async def play(self, seat: int) -> bool:
        """One legal command for ``seat`` (chosen to move the game towards its end); False if none."""
        version, commands = await self.legal(seat)
        if not commands:
            return False
        command = choose(self.game, commands, self.rng)
        self.sent += 1
        body = {"command": command, "command_id": f"test-{seat}-{self.sent}", "expected_version": version}
        r = await self.server.http.post(f"{API}/games/{self.game_id}/commands", json=body, headers=self.auth(seat))
        assert r.status_code in (200, 409), r.text  # 409: a clock or a bot moved first
        return True

    async def step(self, skip: frozenset[int] | set[int] = frozenset()) -> dict[str, Any]:
        """Play once for every awaited seat the test holds (but ``skip``); the table after."""
        table = await self.table()
        for awaited in table["awaiting"]:
            seat = awaited["seat"]
            if seat in self.tokens and seat not in skip:
                await self.play(seat)
        return table


PREFER = {
    "i-love-portugal": ["BuyPhoto", "PlaceTourist", "ChooseColour"],
    "itchy-feet": ["Travel", "AcceptTrade", "DiscardDownToSeven", "PassReaction"],
    "vilar-de-mouros": [],
    "miss-liz-parks": ["BuildTile", "AssignEmployee", "EndTurn"],
}


def choose(game: str, commands: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    for kind in PREFER.get(game, []):
        preferred = [c for c in commands if c["type"] == kind]
        if preferred:
            return rng.choice(preferred)
    if game == "i-love-portugal":
        # walk to black circles (regions) rather than waypoints, and end turns rather than buy
        moves = [c for c in commands if c["type"] == "MoveTourist" and "~" not in c["to"]]
        if moves and rng.random() < 0.8:
            return rng.choice(moves)
        ends = [c for c in commands if c["type"] == "EndTurnAndDraw"]
        if ends and rng.random() < 0.5:
            return ends[0]
        commands = [c for c in commands if c["type"] != "BuyCard"] or commands
    if game == "itchy-feet":
        commands = [c for c in commands if c["type"] not in ("OfferTrade", "RejectTrade")] or commands
    return rng.choice(commands)


# --- the page --------------------------------------------------------------------------------


async def page_version(page: Page) -> int:
    value = await page.get_attribute(".table-screen", "data-version")
    return int(value or 0)


async def wait_version(page: Page, version: int, timeout: float = 15_000) -> None:
    await page.wait_for_function(
        "v => { const el = document.querySelector('.table-screen');"
        " return el && Number(el.getAttribute('data-version')) >= v; }",
        arg=version,
        timeout=timeout,
    )


async def moves_ready(page: Page) -> None:
    """Wait until the page's move builder stands, ready for a pick, at a step of the page's version."""
    await page.wait_for_function(
        "() => { const w = document.querySelector('.controls-wrap'), t = document.querySelector('.table-screen');"
        " return w && t && w.dataset.state === 'idle' && Number(w.dataset.version) >= Number(t.dataset.version); }",
        timeout=15_000,
    )


async def page_picks(page: Page) -> list[dict[str, Any]]:
    picks: list[dict[str, Any]] = json.loads(await page.get_attribute(".controls-wrap", "data-picks") or "[]")
    return picks


CLICK_MS = 5_000  # a target that is not there to click by then went with the step it belonged to


async def pick(page: Page, target: Any) -> None:
    """Click one target or button, then wait for the builder's next step (or the move's update)."""
    version, before = await page_version(page), await page.get_attribute(".controls-wrap", "data-picks")
    await target.click(timeout=CLICK_MS)
    try:
        await page.wait_for_function(
            "([v, before]) => { const w = document.querySelector('.controls-wrap'),"
            " t = document.querySelector('.table-screen'); if (!w || !t) return false;"
            " if (Number(t.dataset.version) > v) return true;"
            " return w.dataset.state === 'idle' && w.dataset.picks !== before; }",
            arg=[version, before],
            timeout=15_000,
        )
    except PlaywrightError:  # say why: the page's messages (a refusal) and its move panel
        raise AssertionError(await page.inner_text("#messages") + await page.inner_html(".controls-wrap")) from None


async def make_one_move(page: Page) -> None:
    """Make one move by picking: a target on the table when there is one, else the chooser's first
    button, else the confirm button; until the move is sent."""
    await moves_ready(page)
    version = await page_version(page)
    for _ in range(10):
        targets = page.locator(".play .target")
        buttons = page.locator(".controls-wrap button.option")
        which = page.locator(".controls-wrap .which button")
        try:
            if await which.count():
                await pick(page, which.first)
            elif await targets.count():
                await pick(page, targets.first)
            elif await buttons.count():
                await pick(page, buttons.first)
            else:
                await pick(page, page.locator('[data-testid="confirm"]'))
        except PlaywrightTimeoutError:
            # The step changed under the pointer (another seat's move arrived, the panel asked for a
            # new step): what was to be picked is gone. Look again, as a person would.
            pass
        if await page_version(page) > version:
            return
        await moves_ready(page)
    raise AssertionError("ten picks and no move was sent")


def strings(value: Any) -> set[str]:
    found: set[str] = set()
    if isinstance(value, str):
        found.add(value)
    elif isinstance(value, list):
        for v in value:
            found |= strings(v)
    elif isinstance(value, dict):
        for v in value.values():
            found |= strings(v)
    return found


async def event_versions(server: Running, game_id: str, token: str | None, after: int = 0) -> list[int]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    versions: list[int] = []
    while True:
        r = await server.http.get(
            f"{API}/games/{game_id}/events", params={"after": after, "limit": 1000}, headers=headers
        )
        assert r.status_code == 200, r.text
        versions += [e["version"] for e in r.json()["events"]]
        if after + 1000 >= r.json()["version"]:
            return versions
        after += 1000


async def feed_of(server: Running, game_id: str, token: str) -> list[dict[str, Any]]:
    """Every event the seat's feed holds."""
    events: list[dict[str, Any]] = []
    while True:
        r = await server.http.get(
            f"{API}/games/{game_id}/events",
            params={"after": len(events), "limit": 1000},
            headers={"Authorization": f"Bearer {token}"},
        )
        assert r.status_code == 200, r.text
        events += [e["event"] for e in r.json()["events"]]
        if len(events) >= r.json()["version"]:
            return events


async def sees_its_deal_verified(page: Page, server: Running, game_id: str, token: str) -> None:
    """The seat's page sent entropy of its own when it sat, and marks the deal verified: every card
    it was opened counted, and each such card in its hand marked (docs/fair-play.md)."""
    feed = await feed_of(server, game_id, token)
    entropy = next(e["entropy"] for e in feed if e["type"] == "SeatTaken" and e["seat"] == 0)
    assert re.fullmatch("[0-9a-f]{64}", entropy), "the page sat without entropy of its own"
    opened = [o["item"] for e in feed if e["type"] == "CardsOpened" for o in e["openings"] if o["seat"] == 0]
    if not opened:
        return  # nothing dealt face down to this seat yet
    mark = page.locator('[data-testid="deal"].deal-verified')
    await mark.wait_for()
    assert "Deal verified" in await mark.inner_text() and str(len(opened)) in await mark.inner_text()
    in_hand = await page.eval_on_selector_all(
        ".dock .deal-verified[data-key^='card:']", "els => els.map(e => e.dataset.key.slice(5))"
    )
    assert set(in_hand) <= set(opened)


OPTIONS: dict[str, dict[str, Any]] = {"itchy-feet": {"trade_answer_ms": 800, "reaction_ms": 400}}
PLAYERS = {"vilar-de-mouros": 3, "i-love-portugal": 2, "itchy-feet": 2, "miss-liz-parks": 2}
OPENING_CLICKS = 4


@pytest.mark.timeout(120)
@pytest.mark.parametrize("game", list(GAMES))
async def test_a_person_plays_a_game_against_bots_in_the_browser(server: Running, browser: Chromium, game: str) -> None:
    started = time.monotonic()
    person = await browser.new_context(viewport={"width": 1300, "height": 1000})
    page = await person.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    asked: list[str] = []  # the page's REST requests for moves: none, the updates carry the steps
    page.on(
        "request", lambda r: asked.append(r.url) if "/legal-commands" in r.url or r.url.endswith("/moves") else None
    )

    # The lobby: the catalog's form for this game, its options, the name; create and sit.
    await page.goto(server.url + "/")
    form = page.locator(f'form.game-form[data-game="{game}"]')
    await form.wait_for()
    await page.fill('[data-testid="name"]', "Ana")
    await form.locator('[data-field="players"]').fill(str(PLAYERS[game]))
    for name, value in OPTIONS.get(game, {}).items():
        field = form.locator(f'[data-option="{name}"]')
        # the catalog's bounds: the browser refuses what the server would (400 out_of_bounds)
        assert (await field.get_attribute("min"), await field.get_attribute("max")) == ("100", "604800000")
        await field.fill("50")
        assert not await field.evaluate("(e) => e.checkValidity()")
        await field.fill(str(value))
    await form.locator('[data-field="clock"]').select_option("move:300")  # a turn clock, never run out here
    await form.locator('[data-field="takeover"]').select_option(
        "skilled"
    )  # who plays on for a seat that leaves: a named level
    SHOTS.mkdir(parents=True, exist_ok=True)
    await page.screenshot(path=str(SHOTS / "lobby.png"), full_page=True)
    await form.locator("button[type=submit]").click()
    await page.wait_for_selector(".table-screen[data-status=open]")
    game_id = await page.get_attribute(".table-screen", "data-game-id")
    assert game_id
    assert await page.get_attribute(".table-screen", "data-seat") == "0"
    # The page made a player named Ana, who sits by the browser's cookie: no seat token is kept.
    assert game_id not in json.loads(await page.evaluate("localStorage.getItem('ludoteca.seats') || '{}'"))
    cookie = next(c["value"] for c in await person.cookies() if c["name"] == "ludoteca_player")
    table = Table(server, game, game_id, tokens={0: cookie})
    assert (await table.table())["seats"][0]["name"] == "Ana"
    clock = (await table.table())["clock"]
    assert {k: clock[k] for k in ("per", "seconds", "on_timeout")} == {
        "per": "move",
        "seconds": 300,
        "on_timeout": "bot_move",
    }
    assert (await table.table())["takeover"] == "skilled"

    # Fill the other seats with bots; a server without bots yet answers no_such_bot, and the
    # test seats them itself and plays them over HTTP.
    await page.click('[data-testid="fill-bots"]')
    await page.wait_for_function(
        "() => document.querySelector('.table-screen[data-status=active]')"
        " || document.querySelector('.message[data-code=no_such_bot]')"
    )
    if await page.locator(".message[data-code=no_such_bot]").count():
        for seat in range(1, PLAYERS[game]):
            r = await server.http.post(f"{API}/games/{game_id}/seats", json={"name": f"Bot {seat}", "seat": seat})
            assert r.status_code == 201, r.text
            table.tokens[seat] = r.json()["token"]
    else:
        table.server_bots = True
    await page.wait_for_selector(".table-screen[data-status=active]")
    await page.wait_for_selector(".seat-chip .clock")  # every seat's clock is shown

    # A second browser context watches as a spectator.
    watcher = await browser.new_context(viewport={"width": 1300, "height": 1000})
    spectator = await watcher.new_page()
    spectator.on("pageerror", lambda e: errors.append(str(e)))
    await spectator.goto(f"{server.url}/#/watch/{game_id}")
    await spectator.wait_for_selector(".table-screen[data-seat=spectator]")

    # The opening moves, by clicking; the other seats answer in between.
    clicks = 0
    for _ in range(400):
        current = await table.table()
        if current["status"] == "finished" or clicks >= OPENING_CLICKS:
            break
        if any(a["seat"] == 0 for a in current["awaiting"]):
            await make_one_move(page)
            clicks += 1
        elif table.server_bots:
            await page.wait_for_timeout(50)
        else:
            await table.step(skip={0})
    assert clicks >= 1, "the person never got to move"
    assert not asked, asked
    assert not await page.locator(".message.error").count(), await page.inner_text("#messages")

    # Bring the game to a quiet moment: the person is awaited, nobody else can move.
    for _ in range(400):
        current = await table.table()
        if current["status"] != "active" or [a["seat"] for a in current["awaiting"]] == [0]:
            break
        if table.server_bots:
            await page.wait_for_timeout(50)
        else:
            await table.step(skip={0})
    if current["status"] == "active":
        # The spectator is shown no private card: nothing only a seat may see reaches its page.
        await wait_version(spectator, current["version"])
        await wait_version(page, current["version"])
        public = strings((await table.table())["view"])
        public_html = await spectator.content()
        shown = set(await spectator.eval_on_selector_all("[data-card]", "els => els.map(e => e.dataset.card)"))
        assert shown <= public, f"the spectator's page shows cards that are not public: {sorted(shown - public)}"
        assert await spectator.locator(".card.back").count(), "the spectator sees no face-down card at all"
        for seat, token in table.tokens.items():
            private = strings((await table.table(token))["view"]) - public
            assert private or seat != 0, "the person's own view has nothing private: the check would prove nothing"
            leaked = sorted(s for s in private if s in public_html)
            assert not leaked, f"the spectator's page shows seat {seat}'s hidden {leaked}"
            if seat == 0:
                own_html = await page.content()
                missing = sorted(s for s in private if s not in own_html)
                assert not missing, f"the person's page does not show its own {missing}"
        await sees_its_deal_verified(page, server, game_id, table.tokens[0])
        assert not await spectator.locator('[data-testid="deal"]').count(), "a spectator has no deal of its own"
        SHOTS.mkdir(parents=True, exist_ok=True)
        await page.screenshot(path=str(SHOTS / f"{game}.png"), full_page=True)
        await spectator.screenshot(path=str(SHOTS / f"{game}-spectator.png"), full_page=True)

    # Cut both pages' sockets; the game moves on meanwhile; they resume without a gap, each
    # with the check of the last update it held (a wrong one would reset it: versions again).
    before = await page_version(page)
    for p in (page, spectator):
        assert len(await p.evaluate("window.__ludoteca.screen.live.check")) == 32
    for p in (page, spectator):
        await p.evaluate("window.__ludoteca.dropSocket(700)")
    for _ in range(6):
        if (await table.table())["status"] != "active":
            break
        await table.play(0)  # the person's seat, while its page is away
        await table.step(skip={0})
    moved_to = (await table.table())["version"]
    assert moved_to > before
    for p in (page, spectator):
        await wait_version(p, moved_to)
        assert await p.evaluate("window.__ludoteca.screen.live.connects") >= 2
    assert await page.evaluate("window.__ludoteca.screen.live.seen") == await event_versions(
        server, game_id, table.tokens[0]
    )
    assert await spectator.evaluate("window.__ludoteca.screen.live.seen") == await event_versions(server, game_id, None)

    # A reload keeps the seat (the player's cookie).
    await page.reload()
    await page.wait_for_selector('.table-screen[data-seat="0"]')

    # The middle: the person's seat and the others play on (over HTTP) to the end.
    deadline = time.monotonic() + 80
    while time.monotonic() < deadline:
        current = await table.step()
        if current["status"] == "finished":
            break
        if not current["awaiting"] or table.server_bots:
            await page.wait_for_timeout(20)
    final = await table.table()
    assert final["status"] == "finished", f"{game} did not finish in time (version {final['version']})"

    # Both pages show the final scores.
    for p in (page, spectator):
        await p.wait_for_selector('[data-testid="outcome"]', timeout=20_000)
        scores = await p.locator('[data-testid="outcome"] td.score').all_inner_texts()
        assert sorted(int(s) for s in scores) == sorted(final["outcome"]["scores"])
    # The seat's page checked the revealed seed and every salt it was opened: the whole deal verified.
    whole = page.locator('[data-testid="deal"].deal-verified')
    if any(e["type"] == "CardsOpened" for e in await feed_of(server, game_id, table.tokens[0])):
        # The page checks every opening it was dealt, one after another, then the seed and every salt:
        # hundreds of hashes in a long game, slow on a loaded machine.
        await whole.filter(has_text="Whole deal verified").wait_for(timeout=30_000)
        assert await whole.locator("a").get_attribute("href") == f"/api/v1/games/{game_id}/export?as=everyone"
    await page.screenshot(path=str(SHOTS / f"{game}-final.png"), full_page=True)
    assert not errors, errors
    await person.close()
    await watcher.close()
    print(f"{game}: {final['version']} versions, {time.monotonic() - started:.1f} s")


@pytest.mark.timeout(60)
async def test_the_bot_and_level_chosen_at_the_table_take_the_other_seats(
    redis: aioredis.Redis, redis_url: str, browser: Chromium
) -> None:
    """The table's bot menu is what seats the bots: the expert level chosen there takes
    every other seat, after the page has been redrawn by its updates (the bots never get to
    think here: their delay outlasts the test)."""
    async with running(quick_settings(redis_url, bot_delay_ms=600_000)) as slow:
        context = await browser.new_context(viewport={"width": 1300, "height": 1000})
        page = await context.new_page()
        await page.goto(slow.url + "/")
        form = page.locator('form.game-form[data-game="vilar-de-mouros"]')
        await form.locator('[data-field="players"]').fill("3")
        await page.fill('[data-testid="name"]', "Ana")
        await form.locator("button[type=submit]").click()
        await page.wait_for_selector(".table-screen[data-status=open]")
        await page.wait_for_selector("#status.ok")  # the socket's first update has redrawn the table
        await page.select_option('[data-testid="bot-kind"]', "expert")
        await page.evaluate("window.__ludoteca.screen.draw()")  # and one more redraw before the click
        await page.click('[data-testid="fill-bots"]')
        await page.wait_for_selector(".table-screen[data-status=active]")
        game_id = await page.get_attribute(".table-screen", "data-game-id")
        seats = (await slow.http.get(f"{API}/games/{game_id}")).json()["seats"]
        assert [(s["name"], s["bot"]) for s in seats] == [
            ("Ana", None),
            ("Expert bot 2", "expert"),
            ("Expert bot 3", "expert"),
        ], seats
        for seat in (1, 2):
            chip = await page.inner_text(f'.table-actions .seat-chip[data-seat="{seat}"]')
            assert f"Expert bot {seat + 1} (bot)" in chip, chip
        await context.close()


async def story_of(page: Page) -> dict[str, Any]:
    """Each seat's last move and the log's turns, as the page shows them."""
    found: dict[str, Any] = await page.evaluate(
        """() => ({
          last: Object.fromEntries([...document.querySelectorAll('[data-testid^="last-"]')]
            .map((e) => [e.dataset.testid, e.textContent])),
          turns: [...document.querySelectorAll('[data-testid="log"] > li')].map((t) => ({
            seat: t.dataset.seat ?? null,
            lines: [...t.querySelectorAll('li')].map((l) => l.textContent) })),
        })"""
    )
    return found


@pytest.mark.timeout(90)
@pytest.mark.parametrize(("game", "players"), [("vilar-de-mouros", 3), ("i-love-portugal", 2)])
async def test_the_log_tells_a_move_a_line_by_turn_and_a_reload_keeps_each_last_move_one_turn(
    server: Running, browser: Chromium, game: str, players: int
) -> None:
    game_id = await server.create(players, game)
    tokens = await server.seat_all(game_id, players)
    table = Table(server, game, game_id, tokens=dict(enumerate(tokens)))
    context, page, _ = await open_seat_zero(browser, table)
    for _ in range(60 if game == "vilar-de-mouros" else 120):  # live: one update a command
        if (await table.step())["status"] != "active":
            break
    await quiet(page, table)
    live = await story_of(page)
    await page.reload()
    await page.wait_for_selector('.table-screen[data-seat="0"]')
    await quiet(page, table)
    await page.wait_for_function("(n) => document.querySelectorAll('.last-move').length === n", arg=players)
    again = await story_of(page)
    assert again["last"] == live["last"], "a reload changed a seat's last move"
    assert len(live["last"]) == players, live["last"]
    turns = [t for t in again["turns"] if t["seat"] is not None]
    assert len(turns) > 5, again["turns"]
    for text in again["last"].values():
        # one turn: the last turn's steps (Vilar: two draws and a placing, or a bonus card)
        steps = text.removeprefix("Last move: ").split("; ")
        assert len(steps) <= (3 if game == "vilar-de-mouros" else 8), text
        assert any(line == steps[-1] for t in turns[: players + 1] for line in t["lines"]), text
    lines = [line for t in again["turns"] for line in t["lines"]]
    assert not [line for line in lines if re.search(r"'s turn\b", line)], "bookkeeping in the log"
    assert not [line for line in lines if re.search(r"\((\d{4})\) \(\1\)", line)], "a doubled year"
    for t in turns:  # a walk is one line, however many circles it crossed
        walks = [i for i, line in enumerate(t["lines"]) if line.startswith("walked")]
        assert all(b - a > 1 for a, b in itertools.pairwise(walks)), t
    await context.close()


# Kept by the page under test: each version drawn and when (ms), and how often a bot was shown thinking.
WATCH_DRAWS = """() => {
  window.__drawn = [];
  window.__thinking = 0;
  const note = () => {
    const v = Number(document.querySelector(".table-screen")?.dataset.version || 0);
    const last = window.__drawn[window.__drawn.length - 1];
    if (!last || last[0] !== v) window.__drawn.push([v, performance.now()]);
  };
  new MutationObserver(note).observe(document.getElementById("app"),
    { subtree: true, childList: true, attributes: true, attributeFilter: ["data-version"] });
  setInterval(() => { if (document.querySelector('[data-testid="thinking-1"]')) window.__thinking += 1; }, 50);
}"""


async def bot_commands(api: Running) -> int:
    """The commands the server's bots have sent (its metrics)."""
    text = (await api.http.get("/metrics", headers={"Authorization": f"Bearer {ADMIN}"})).text
    return int(
        sum(float(line.split()[-1]) for line in text.splitlines() if line.startswith("ludoteca_bot_moves_total{"))
    )


@pytest.mark.timeout(90)
async def test_a_bots_turn_is_shown_thinking_then_step_by_step_at_the_pace_chosen(
    redis: aioredis.Redis, redis_url: str, browser: Chromium
) -> None:
    """A bot thinks (it is said, and its panel breathes), then its steps are drawn one at a time,
    each held for the pace the person chose ("slowly": 1.5 s), though the bot sends them faster."""
    async with running(quick_settings(redis_url, bot_delay_ms=600)) as api:
        r = await api.http.post(f"{API}/games", json={"game": "vilar-de-mouros", "players": 2})
        game_id = r.json()["game_id"]
        me = (await api.http.post(f"{API}/games/{game_id}/seats", json={"seat": 0, "name": "Ana"})).json()
        table = Table(api, "vilar-de-mouros", game_id, tokens={0: me["token"]})
        context = await browser.new_context(pace=None, viewport={"width": 1300, "height": 1000})
        await hold_seats(context, {game_id: {"seat": 0, "token": me["token"], "game": table.game, "at": 1}})
        page = await context.new_page()
        await page.goto(f"{api.url}/#/game/{game_id}")
        await page.wait_for_selector(".table-screen")
        bot = await api.http.post(f"{API}/games/{game_id}/seats", json={"seat": 1, "bot": "greedy"})
        assert bot.status_code == 201, bot.text
        await page.wait_for_selector('[data-testid="pace"]')
        assert await page.input_value('[data-testid="pace"]') == "normal"
        await page.select_option('[data-testid="pace"]', "slow")
        assert await page.evaluate("localStorage.getItem('ludoteca.pace')") == "slow"
        await page.evaluate(WATCH_DRAWS)
        deadline = time.monotonic() + 50
        # Seat 0 plays over HTTP; the bot answers, until it has sent six commands (a turn of one
        # step or of two, as the deal goes; one may land before the page's first draw is watched).
        while await bot_commands(api) < 6 and time.monotonic() < deadline:
            current = await table.table()
            if current["status"] != "active":
                break
            if [a["seat"] for a in current["awaiting"]] == [0]:
                # as a person would: once the page has shown the bot's steps before it
                await page.wait_for_function("() => !window.__ludoteca.screen.queue.length", timeout=20_000)
                await table.play(0)
            await asyncio.sleep(0.05)
        while [a["seat"] for a in (await table.table())["awaiting"]] == [1] and time.monotonic() < deadline:
            await asyncio.sleep(0.1)  # the bot's second turn, to its end
        last = (await table.table())["version"]
        await page.wait_for_function(  # the page has shown everything (nothing left waiting its turn)
            "(v) => Number(document.querySelector('.table-screen').dataset.version) >= v"
            " && !window.__ludoteca.screen.queue.length",
            arg=last,
            timeout=30_000,
        )
        drawn: list[list[float]] = await page.evaluate("window.__drawn")
        events = {
            e["version"]: e["event"] for e in (await api.http.get(f"{API}/games/{game_id}/events")).json()["events"]
        }
        steps = []  # (when drawn, whose step: the bot's or not) for each version drawn
        for (before, _), (version, at) in itertools.pairwise(drawn):
            made = [events[v] for v in range(int(before) + 1, int(version) + 1) if v in events]
            steps.append((at, any(e.get("seat") == 1 and e["type"] != "TurnStarted" for e in made)))
        bot_steps = [at for at, by_bot in steps if by_bot]
        assert len(bot_steps) >= 4, f"the bot's steps were not drawn one by one: {drawn}"
        gaps = [b - a for (a, x), (b, y) in itertools.pairwise(steps) if x and y]
        assert gaps and min(gaps) >= 1400, f"a bot's step followed the one before after {min(gaps or [0]):.0f} ms"
        assert await page.evaluate("window.__thinking") > 0, "the bot was never shown thinking"
        await context.close()


@pytest.mark.timeout(90)
async def test_the_replay_viewer_steps_scrubs_and_switches_views(server: Running, browser: Chromium) -> None:
    game_id = await server.create(2)
    tokens = await server.seat_all(game_id, 2)
    table = Table(server, "vilar-de-mouros", game_id, tokens=dict(enumerate(tokens)))
    while (await table.step())["status"] != "finished":
        pass
    last = (await table.table())["version"]
    context = await browser.new_context(viewport={"width": 1300, "height": 1000})
    await hold_seats(context, {game_id: {"seat": 1, "token": tokens[1], "game": "vilar-de-mouros", "at": 1}})
    page = await context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    await page.goto(f"{server.url}/#/replays")
    await page.click(f'tr[data-game-id="{game_id}"] a:has-text("replay")')
    await page.wait_for_selector(f'.replay-screen[data-shown="{last}"]')
    assert await page.locator('[data-testid="outcome"]').count() == 1  # the final scores at the last version
    assert await page.input_value('[data-testid="replay-as"]') == "full"  # finished: the full view

    # scrub to version 20: the full view shows every hand
    await page.eval_on_selector(
        '[data-testid="replay-slider"]', "(s) => { s.value = '20'; s.dispatchEvent(new Event('input')); }"
    )
    await page.wait_for_selector('.replay-screen[data-shown="20"] .view[data-viewer="-1"]')
    full = await page.content()
    hands = (await server.get(f"{API}/games/{game_id}/replay", version=20, **{"as": "full"})).json()
    for seat in hands["view"]["seats"]:
        assert all(card in full for card in seat["hand"])

    # step back and forth
    await page.click('[data-testid="replay-prev"]')
    await page.wait_for_selector('.replay-screen[data-shown="19"]')
    await page.click('[data-testid="replay-next"]')
    await page.click('[data-testid="replay-next"]')
    await page.wait_for_selector('.replay-screen[data-shown="21"]')

    # switch to seat 0's view: seat 1's hand is hidden again
    await page.select_option('[data-testid="replay-as"]', "0")
    await page.wait_for_selector('.replay-view[data-as="0"] .view[data-viewer="0"]')
    as0 = (await server.get(f"{API}/games/{game_id}/replay", version=21, **{"as": "0"})).json()
    as1 = (await server.get(f"{API}/games/{game_id}/replay", version=21, **{"as": "1"})).json()
    html = await page.content()
    assert all(card in html for card in as0["view"]["seats"][0]["hand"])
    hidden = strings(as1["view"]["seats"][1]["hand"]) - strings(as0["view"])
    assert hidden and not [c for c in hidden if c in html]
    SHOTS.mkdir(parents=True, exist_ok=True)
    await page.screenshot(path=str(SHOTS / "replay.png"), full_page=True)
    assert not errors, errors
    await context.close()


async def as_seat_zero_on_its_turn(browser: Chromium, table: Table, game_id: str, token: str) -> tuple[Any, Any]:
    """Play on until it is seat 0's turn, then a browser page that holds seat 0's token."""
    while [a["seat"] for a in (await table.table())["awaiting"]] != [0]:
        await table.step(skip={0})
    context = await browser.new_context()
    seat = {game_id: {"seat": 0, "token": token, "game": table.game, "at": 1}}
    await hold_seats(context, seat)
    return context, await context.new_page()


@pytest.mark.timeout(60)
async def test_rejected_commands_are_shown_with_their_code(server: Running, browser: Chromium) -> None:
    game_id, tokens = await server.started(2)
    table = Table(server, "vilar-de-mouros", game_id, tokens=dict(enumerate(tokens)))
    context, page = await as_seat_zero_on_its_turn(browser, table, game_id, tokens[0])
    await page.goto(f"{server.url}/#/game/{game_id}")
    version = (await table.table())["version"]
    await page.wait_for_selector(f'.controls-wrap[data-state=idle][data-version="{version}"]')

    # A rule's refusal: the server's sentence (its code is kept for machines, not shown).
    await page.evaluate("window.__ludoteca.screen.send({type: 'PlaceCards', centre: 'x', personal: 'y'})")
    refused = page.locator(".message[data-code=draw_first]")
    await refused.wait_for()
    text = await refused.inner_text()
    assert "Place cards refused" in text and "draw_first" not in text
    r = await server.send(game_id, tokens[0], {"type": "PlaceCards", "centre": "x", "personal": "y"})
    assert r.json()["message"] in text

    # The page's socket is away; the seat's turn is played elsewhere; the stale button is refused
    # (over REST, and the same picks walked again: the browser says so on the console, as expected).
    browser.allow("status of 409")
    browser.allow("status of 422")
    await page.evaluate("window.__ludoteca.dropSocket(60000)")
    r = await server.send(game_id, tokens[0], {"type": "DrawFromDeck"})
    r = await server.send(game_id, tokens[0], {"type": "DrawFromDeck"})
    hand = (await table.table(tokens[0]))["view"]["seats"][0]["hand"]
    r = await server.send(game_id, tokens[0], {"type": "PlaceCards", "centre": hand[0], "personal": hand[1]})
    assert r.status_code == 200, r.text
    await page.locator(""".play .target[data-option='["type","DrawFromDeck"]']""").click()
    conflict = page.locator(".message[data-code=version_conflict]")
    await conflict.wait_for()
    assert "version" in await conflict.inner_text()
    await context.close()


@pytest.mark.timeout(120)
async def test_presence_undo_and_resign_in_the_browser(server: Running, browser: Chromium) -> None:
    """Who is at the table shows on the seats; the undo button takes a step back; resigning
    hands the seat to a bot."""
    game_id = await server.create(3, "i-love-portugal")
    tokens = await server.seat_all(game_id, 3)
    table = Table(server, "i-love-portugal", game_id, tokens=dict(enumerate(tokens)))
    context, page = await as_seat_zero_on_its_turn(browser, table, game_id, tokens[0])
    page.on("dialog", lambda dialog: dialog.accept())
    await page.goto(f"{server.url}/#/game/{game_id}")
    await page.wait_for_selector('.seat-chip.present[data-seat="0"]')  # this page's own socket

    # A step that can be taken back (the tourist moves a circle): the page offers the undo.
    for _ in range(200):
        if [a["seat"] for a in (await table.table())["awaiting"]] != [0]:
            await table.step(skip={0})
            continue
        version, commands = await table.legal(0)
        command = next((c for c in commands if c["type"] == "MoveTourist"), commands[0])
        body = {"command": command, "command_id": f"undo-{version}", "expected_version": version}
        r = await server.http.post(f"{API}/games/{game_id}/commands", json=body, headers=table.auth(0))
        assert r.status_code == 200, r.text
        if r.json()["events"][0]["event"]["type"] == "Undoable":
            break
    moved = r.json()["version"]
    await wait_version(page, moved)
    undo = page.locator('button[data-testid="undo"]:not([hidden])')
    await undo.wait_for()
    await undo.click()
    await wait_version(page, moved + 1)
    assert (await table.table())["version"] == moved + 1
    events = (await server.http.get(f"{API}/games/{game_id}/events", params={"after": moved})).json()["events"]
    assert [e["event"]["type"] for e in events] == ["StepsUndone"]

    # Resigning: the button names the bot that plays on; the seat shows as left, that bot holds it.
    assert await page.inner_text('button[data-testid="resign"]') == "Resign (a greedy bot plays on)"
    await page.locator('button[data-testid="resign"]').click()
    await page.wait_for_selector('.seat-chip[data-seat="0"]:has-text("left")')
    assert (await table.table())["seats"][0]["bot"] == "greedy"
    await page.screenshot(path=str(SHOTS / "table-services.png"))
    await context.close()


async def test_the_server_serves_the_web_table_beside_the_api(server: Running) -> None:
    page = await server.http.get("/")
    assert page.status_code == 200
    assert page.headers["content-type"].startswith("text/html")
    assert '<script type="module" src="/web/js/main.js">' in page.text
    script = await server.http.get("/web/js/main.js")
    assert script.status_code == 200
    assert "javascript" in script.headers["content-type"]  # ES modules need a JavaScript type
    assert (await server.http.get("/web/app.css")).headers["content-type"].startswith("text/css")
    missing = await server.http.get("/web/nope.js")
    assert missing.status_code == 404
    assert missing.json()["error"] == "not_found"
    assert (await server.http.get("/docs")).status_code == 200
    wrong = await server.http.post("/api/v1/games/catalog")  # the API's own 405 is untouched
    assert wrong.status_code == 405
    assert wrong.json()["error"] == "method_not_allowed"


def test_the_web_table_speaks_only_the_public_api() -> None:
    """Every request the page makes goes through clients/web/js/api.js (REST under /api/v1) or
    live.js (the game's WebSocket under /api/v1): a third-party frontend's footing."""
    web = ROOT / "clients" / "web"
    sources = {p.relative_to(web).as_posix(): p.read_text(encoding="utf-8") for p in web.rglob("*.js")}
    assert sources, "no web table"
    assert [name for name, text in sources.items() if "fetch(" in text] == ["js/api.js"]
    assert [name for name, text in sources.items() if "new WebSocket(" in text] == ["js/live.js"]
    assert 'export const API = "/api/v1";' in sources["js/api.js"]
    assert "/api/v1/games/${this.gameId}/ws" in sources["js/live.js"]
    assert not [name for name, text in sources.items() if "XMLHttpRequest" in text or "EventSource" in text]


# --- moves built by picking on the table ----------------------------------------------------
#
# Each game's moves that take several picks, made by clicking; before every click the page's
# highlighted targets and chooser buttons are checked against the step the API answers for the
# page's picks so far (POST /moves): the targets are options of that step, every option is a
# target or a button, and whatever the table draws (a card, a seat, a cell, a circle, a tile, a
# pile) is picked on the table, not in the chooser.

ON_THE_TABLE = {"card", "seat", "cell", "cells", "column", "circle", "region", "tile", "pile", "colour", "country"}


def one_thing(value: Any) -> bool:
    """A value naming one thing: a card, a seat, a cell, or a tuple of one of them (a builder's
    tuple picked whole); a tuple of several is a chooser button."""
    if isinstance(value, list) and not all(isinstance(v, int) for v in value):
        return len(value) == 1
    return value is not None


def option_key(field: str, value: Any) -> str:
    return json.dumps([field, value], separators=(",", ":"))


async def an_offer_to(table: Table, seat: int, target: int) -> dict[str, Any] | None:
    """A trade ``seat`` may offer ``target``, built by picks (the first card to give, the first kind to
    ask for): trades are too many to list whole; None when it may not offer one now."""
    picks: list[dict[str, Any]] = [{"field": "type", "value": "OfferTrade"}, {"field": "target", "value": target}]
    first = await table.server.http.get(f"{API}/games/{table.game_id}/legal-commands", headers=table.auth(seat))
    if not any(o["value"] == "OfferTrade" for o in first.json()["step"].get("options", [])):
        return None
    step = (await moves(table, seat, picks[:1]))["step"]
    if not any(o["value"] == target for o in step.get("options", [])):
        return None
    for wanted in ("give", "ask"):
        step = (await moves(table, seat, picks))["step"]
        option = next(o for o in step["options"] if o["field"] == wanted)
        if option.get("command"):
            return dict(option["command"])
        picks.append({"field": wanted, "value": option["value"]})
    command = (await moves(table, seat, picks))["step"]["command"]
    return dict(command)


async def moves(table: Table, seat: int, picks: list[dict[str, Any]]) -> dict[str, Any]:
    r = await table.server.http.post(
        f"{API}/games/{table.game_id}/moves", json={"picks": picks}, headers=table.auth(seat)
    )
    assert r.status_code == 200, r.text
    answer: dict[str, Any] = r.json()
    return answer


async def first_step(table: Table, seat: int) -> dict[str, Any]:
    r = await table.server.http.get(f"{API}/games/{table.game_id}/legal-commands", headers=table.auth(seat))
    assert r.status_code == 200, r.text
    step: dict[str, Any] = r.json()["step"]
    return step


def unpickable(value: Any) -> bool:
    """A tuple of names: the API reads no such pick back (only the temporary adapter builders offer them)."""
    return isinstance(value, list) and not all(isinstance(v, int) for v in value)


async def step_for(table: Table, picks: list[dict[str, Any]]) -> dict[str, Any]:
    """The API's step after seat 0's ``picks``. Past a tuple picked whole, which the API cannot
    read back, the page walks legal-commands' listed commands: so does this (kinds unknown)."""
    if not any(unpickable(p["value"]) for p in picks):
        return await moves(table, 0, picks)
    version, commands = await table.legal(0)
    left = [
        c for c in commands if c["type"] == picks[0]["value"] and all(c[p["field"]] == p["value"] for p in picks[1:])
    ]
    fields = [f for f in left[0] if f != "type"]
    field = next(f for f in fields if f not in {p["field"] for p in picks})
    values = list({json.dumps(c[field]): c[field] for c in left}.values())
    return {"version": version, "step": {"options": [{"field": field, "value": v, "kind": None} for v in values]}}


def path_key(path: list[list[Any]]) -> str:
    """A path as the page writes it in ``data-paths``: its picks, ``[[field, value], ...]``, as JSON."""
    return json.dumps(path, separators=(",", ":"), ensure_ascii=False)


@dataclass
class Offered:
    """What the API offers seat 0 after the page's picks: the step, and at a move's start each move
    type's next step (the look-ahead the page draws on the table); every path by its key."""

    version: int
    step: dict[str, Any]
    direct: dict[str, dict[str, Any]]  # path key -> option of the step
    ahead: dict[str, tuple[str, dict[str, Any]]]  # path key -> (move type, option of its next step)
    whole: set[str]  # move types whose next step is all on the table when drawn (no command of their own)

    def option(self, key: str) -> dict[str, Any]:
        return self.direct[key] if key in self.direct else self.ahead[key][1]


async def offered(table: Table, picks: list[dict[str, Any]]) -> Offered:
    for _ in range(5):  # another seat may move between the reads: read again
        answer = await step_for(table, picks)
        step: dict[str, Any] = answer["step"]
        direct = {path_key([[o["field"], o["value"]]]): o for o in step.get("options", [])}
        ahead: dict[str, tuple[str, dict[str, Any]]] = {}
        whole: set[str] = set()
        same = True
        types = [o for o in step.get("options", []) if o["field"] == "type" and not o.get("command")]
        for o in types if not picks else []:
            nxt = await moves(table, 0, [{"field": "type", "value": o["value"]}])
            same = same and nxt["version"] == answer["version"]
            for x in nxt["step"].get("options", []):
                ahead[path_key([["type", o["value"]], [x["field"], x["value"]]])] = (o["value"], x)
            if nxt["step"].get("command") is None and nxt["step"].get("options"):
                whole.add(o["value"])
        if same:
            return Offered(answer["version"], step, direct, ahead, whole)
    raise AssertionError("the table kept moving while its steps were read")


async def shown_paths(page: Page) -> dict[str, list[str]]:
    """The paths the page offers: its targets' on the table, its buttons' in the move panel."""
    shown: dict[str, list[str]] = await page.evaluate(
        """() => {
          const read = (sel) => [...document.querySelectorAll(sel)]
            .flatMap((e) => JSON.parse(e.dataset.paths || "[]").map((p) => JSON.stringify(p)));
          return { table: read(".play .target"), panel: read(".controls-wrap button.option:not(.which-option)"),
            stray: document.querySelectorAll(".target:not([data-paths])").length }; }"""
    )
    return shown


def check_shown(shown: dict[str, Any], offer: Offered) -> None:
    """The page shows exactly what the API offers: every path it shows is offered; every option of
    the step is on the table or in the chooser, a move type in the chooser unless all its next
    step is on the table; whatever the table draws (a card, a seat, a cell...) is on the table."""
    table, panel = set(shown["table"]), set(shown["panel"])
    known = set(offer.direct) | set(offer.ahead)
    assert shown["stray"] == 0, "a target with no path"
    assert table <= known, f"targets the API does not offer: {sorted(table - known)[:5]}"
    assert panel <= set(offer.direct), f"buttons the step does not offer: {sorted(panel - set(offer.direct))[:5]}"
    looked = {m for m, _ in offer.ahead.values()}
    for key, o in offer.direct.items():
        if key not in table | panel:
            move = o["value"]
            assert o["field"] == "type" and move in looked, f"{key} is shown nowhere"
            assert move in offer.whole, f"{move} is neither in the chooser nor all on the table"
            missing = [k for k, (m, _) in offer.ahead.items() if m == move and k not in table]
            assert not missing, f"{move} is not in the chooser, and these of its picks are off the table: {missing[:5]}"
        if o["kind"] in ON_THE_TABLE and one_thing(o["value"]):
            assert key in table, f"{key} ({o['kind']}) is not picked on the table"
            assert key not in panel, f"{key} is on the table and in the chooser"
    for key, (_, o) in offer.ahead.items():
        if o["kind"] in ON_THE_TABLE and one_thing(o["value"]):
            assert key in table, f"{key} ({o['kind']}) is not on the table from the start of the move"


async def targets_are_the_step(page: Page, table: Table) -> Offered:
    """The page's targets and chooser buttons are exactly what the API offers for the page's picks
    (at the same version); that offer."""
    await moves_ready(page)
    picks = await page_picks(page)
    offer = await offered(table, picks)
    assert offer.version == int(await page.get_attribute(".controls-wrap", "data-version") or 0)
    check_shown(await shown_paths(page), offer)
    return offer


async def click_path(page: Page, key: str, where: str | None = None) -> None:
    """Pick one path: its target on the table (inside ``where``) or its button; a target several
    moves share asks which in the panel: that path's button there. The target is marked, then
    clicked: when the page draws the table again in between (an update of no step, such as a
    seat's presence), the mark goes with the old element, and the target is marked again."""
    for tries_left in (1, 0):
        try:
            await _click_path_once(page, key, where)
            return
        except PlaywrightTimeoutError:
            if not tries_left:
                raise


async def _click_path_once(page: Page, key: str, where: str | None) -> None:
    found = await page.evaluate(
        """([key, where]) => {
          for (const e of document.querySelectorAll("[data-want]")) e.removeAttribute("data-want");
          const scope = where ? [...document.querySelectorAll(where)] : [document.querySelector(".play")];
          const has = (e) => JSON.parse(e.dataset.paths || "[]").some((p) => JSON.stringify(p) === key);
          const all = (sel) => scope.flatMap((s) => [...(s.matches(sel) ? [s] : []), ...s.querySelectorAll(sel)]);
          const buttons = where ? [] : [...document.querySelectorAll(".controls-wrap button.option")];
          const el = all(".target").find(has) || buttons.find(has);
          if (!el) return null;
          el.setAttribute("data-want", "");
          return JSON.parse(el.dataset.paths).length; }""",
        [key, where],
    )
    assert found, f"{key} is not shown{' inside ' + where if where else ''}"
    if found == 1:
        await pick(page, page.locator("[data-want]").first)
        return
    await page.locator("[data-want]").first.click()
    which = page.locator(f".controls-wrap .which button[data-paths='[{key}]']")
    await which.wait_for()
    await pick(page, which)


async def pick_option(
    page: Page, table: Table, want: Any, where: str | None = None, move: str | None = None
) -> dict[str, Any]:
    """Check the targets, then pick the first option that ``want(option)`` accepts: of the step
    shown, or with ``move`` of that move type's next step (at a move's start the table shows every
    move type's targets). On the table when it is drawn there (inside ``where``), else in the
    chooser. Picking a move type (``of_type``) whose next step is all on the table picks nothing:
    the next ``pick_option`` names it as ``move``."""
    offer = await targets_are_the_step(page, table)
    if move is None:
        option = next((o for o in offer.step.get("options", []) if want(o)), None)
        assert option is not None, f"no such option in {offer.step}"
        key = path_key([[option["field"], option["value"]]])
    else:
        found = [(k, o) for k, (m, o) in offer.ahead.items() if m == move and want(o)]
        assert found, f"no such option of {move} in {offer.ahead}"
        key, option = found[0]
    await click_path(page, key, where)
    return option


async def start_move(page: Page, table: Table, move: str) -> str | None:
    """Start a move of type ``move``: its button when the chooser has one (then None), else
    nothing to click (its next step is all on the table): the move type, for ``pick_option``."""
    offer = await targets_are_the_step(page, table)
    if move in offer.whole and path_key([["type", move]]) not in (await shown_paths(page))["panel"]:
        return move
    await pick_option(page, table, of_type(move))
    return None


def of_type(name: str) -> Any:
    return lambda o: o["field"] == "type" and o["value"] == name


def any_of(field: str) -> Any:
    return lambda o: o["field"] == field


def value_is(value: Any) -> Any:
    return lambda o: o["value"] == value


async def seat_zero_may(table: Table, wanted: str, limit: int = 400) -> dict[str, Any]:
    """Play every seat over HTTP (seat 0 too, as the test's bots would) until seat 0 alone is
    awaited and may make a ``wanted`` move; its first step. (Seats awaited beside it play first.)"""
    for _ in range(limit):
        current = await table.table()
        assert current["status"] == "active", f"the game ended before seat 0 could {wanted}"
        awaited = [a["seat"] for a in current["awaiting"]]
        if 0 in awaited:
            step = await first_step(table, 0)
            if any(o["value"] == wanted for o in step.get("options", [])):
                if awaited == [0]:
                    return step
                awaited.remove(0)
        if not awaited:
            await asyncio.sleep(0.05)  # a window that the clock closes
        for seat in awaited:
            await table.play(seat)
    raise AssertionError(f"seat 0 never got to {wanted}")


async def sent_events(table: Table, after: int) -> list[dict[str, Any]]:
    r = await table.server.http.get(
        f"{API}/games/{table.game_id}/events", params={"after": after}, headers=table.auth(0)
    )
    events: list[dict[str, Any]] = [e["event"] for e in r.json()["events"]]
    return events


async def open_seat_zero(browser: Chromium, table: Table) -> tuple[Any, Page, list[str]]:
    context = await browser.new_context(viewport={"width": 1300, "height": 1000})
    seat = {table.game_id: {"seat": 0, "token": table.tokens[0], "game": table.game, "at": 1}}
    await hold_seats(context, seat)
    page = await context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    await page.goto(f"{table.server.url}/#/game/{table.game_id}")
    await page.wait_for_selector('.table-screen[data-seat="0"]')
    return context, page, errors


async def quiet(page: Page, table: Table) -> int:
    """The page holds the table's version (nobody moves until the test does); that version."""
    version = (await table.table())["version"]
    await wait_version(page, version)
    await page.wait_for_function(  # its socket has brought every event up to there (the log, the last moves)
        "(v) => { const s = window.__ludoteca.screen;"
        " return !!s && !!s.live && s.live.version >= v && s.greeted && !s.drawPending; }",
        arg=version,
    )
    await page.wait_for_function(
        "() => ['idle', 'none'].includes(document.querySelector('.controls-wrap')?.dataset.state)", timeout=15_000
    )
    return int(version)


@pytest.mark.timeout(90)
async def test_vilar_cards_are_placed_by_clicking_the_centre_card_then_the_personal_one(
    server: Running, browser: Chromium
) -> None:
    game_id, tokens = await server.started(2)
    table = Table(server, "vilar-de-mouros", game_id, tokens=dict(enumerate(tokens)))
    await seat_zero_may(table, "DrawFromDeck")
    context, page, errors = await open_seat_zero(browser, table)

    # Draw twice: from the centre by clicking its card when it has one, else the deck.
    for _ in range(2):
        version = await quiet(page, table)
        step = (await targets_are_the_step(page, table)).step
        kinds = {o["value"] for o in step["options"]}
        if "DrawFromCentre" in kinds:
            move = await start_move(page, table, "DrawFromCentre")  # the centre's cards are lit from the start
            await pick_option(page, table, any_of("card"), where='[data-testid="centre"]', move=move)
        else:
            await pick_option(page, table, of_type("DrawFromDeck"))  # the deck itself is the target
        await wait_version(page, version + 1)

    # Place: the lone move is picked by itself; the hand's cards are the targets, twice.
    version = await quiet(page, table)
    assert [p["value"] for p in await page_picks(page)] == ["PlaceCards"]
    hand = (await table.table(tokens[0]))["view"]["seats"][0]["hand"]
    # Escape drops a partial move: back to the hand's cards, none picked.
    await pick_option(page, table, any_of("centre"), where='[data-testid="hand-0"]')
    await page.keyboard.press("Escape")
    await page.wait_for_function("() => !document.querySelector('.play .picked')")
    await moves_ready(page)
    assert [p["value"] for p in await page_picks(page)] == ["PlaceCards"]
    centre = await pick_option(page, table, any_of("centre"), where='[data-testid="hand-0"]')
    assert await page.locator(f'[data-testid="hand-0"] .picked[data-card="{centre["value"]}"]').count() == 1
    await moves_ready(page)
    await page.screenshot(path=str(SHOTS / "vilar-picking.png"), full_page=True)
    personal = await pick_option(page, table, any_of("personal"), where='[data-testid="hand-0"]')
    assert {centre["value"], personal["value"]} <= set(hand) and centre["value"] != personal["value"]
    await wait_version(page, version + 1)
    placed = [e for e in await sent_events(table, version) if e["type"] == "CardsPlaced"]
    assert placed == [{"type": "CardsPlaced", "seat": 0, "centre": centre["value"], "personal": personal["value"]}]
    assert not await page.locator(".message.error").count(), await page.inner_text("#messages")
    await page.screenshot(path=str(SHOTS / "vilar-picks.png"), full_page=True)
    assert not errors, errors
    await context.close()


async def centre_of(page: Page, selector: str) -> tuple[float, float]:
    """Where to press on ``selector``: on screen (a drag is made within what the person sees)."""
    box = await page.locator(selector).first.bounding_box()
    assert box is not None, f"{selector} is not on the page"
    x, y = box["x"] + box["width"] / 2, box["y"] + min(box["height"] / 2, 30)
    size = page.viewport_size or {"width": 0, "height": 0}
    assert 0 <= x < size["width"] and 0 <= y < size["height"], f"{selector} is off the screen at {x:.0f}, {y:.0f}"
    return x, y


async def drag_by_mouse(page: Page, source: str, place: str) -> None:
    """Press on ``source``, carry it onto ``place`` and let go, with the mouse."""
    x, y = await centre_of(page, source)
    to_x, to_y = await centre_of(page, place)
    await page.mouse.move(x, y)
    await page.mouse.down()
    await page.mouse.move(to_x, to_y, steps=12)
    await page.mouse.up()


async def drag_by_touch(page: Page, source: str, place: str) -> None:
    """The same with a finger: the browser's own touch events (Chromium's debugging protocol)."""
    x, y = await centre_of(page, source)
    to_x, to_y = await centre_of(page, place)
    cdp = await page.context.new_cdp_session(page)
    await cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    for i in range(1, 13):
        at = {"x": x + (to_x - x) * i / 12, "y": y + (to_y - y) * i / 12}
        await cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [at]})
    await cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    await cdp.detach()


@pytest.mark.timeout(90)
async def test_vilar_cards_are_dragged_to_the_hand_the_centre_and_the_personal_area_by_mouse_and_touch(
    server: Running, browser: Chromium
) -> None:
    game_id, tokens = await server.started(2)
    table = Table(server, "vilar-de-mouros", game_id, tokens=dict(enumerate(tokens)))
    await seat_zero_may(table, "DrawFromDeck")
    context = await browser.new_context(viewport={"width": 1300, "height": 1000}, has_touch=True)
    await hold_seats(context, {game_id: {"seat": 0, "token": tokens[0], "game": table.game, "at": 1}})
    page = await context.new_page()
    await page.goto(f"{server.url}/#/game/{game_id}")
    hand = '[data-testid="dock"] .drop-place'

    # The two draws: a centre card carried to the hand (the mouse), else the deck (a finger).
    for drag in (drag_by_mouse, drag_by_touch):
        version = await quiet(page, table)
        await targets_are_the_step(page, table)
        centre = page.locator('[data-testid="centre"] .target[data-drag]')
        source = '[data-testid="centre"] .target[data-drag]' if await centre.count() else ".pile.target[data-drag]"
        card = await page.locator(source).first.get_attribute("data-card")
        await drag(page, source, hand)
        await wait_version(page, version + 1)
        drawn = [e for e in await sent_events(table, version) if e["type"] == "CardDrawn"]
        assert len(drawn) == 1 and drawn[0]["seat"] == 0, drawn
        assert drawn[0]["source"] == ("centre" if card else "deck") and (not card or drawn[0]["card"] == card), drawn

    # Placing: a card onto the personal area first (held until its step), then one onto the centre.
    version = await quiet(page, table)
    await targets_are_the_step(page, table)
    cards = await page.eval_on_selector_all(f"{hand} .target[data-drag]", "els => els.map(e => e.dataset.card)")
    personal, centre_card = cards[0], cards[1]
    await drag_by_touch(page, f'{hand} [data-card="{personal}"]', '[data-testid="personal-0"]')
    await page.wait_for_selector(f'{hand} .held[data-card="{personal}"]')  # held, said in the panel
    assert await page.locator('[data-testid="picks"] .pick.held').count() == 1
    await drag_by_mouse(page, f'{hand} [data-card="{centre_card}"]', '[data-testid="centre-place"]')
    await wait_version(page, version + 1)
    placed = [e for e in await sent_events(table, version) if e["type"] == "CardsPlaced"]
    assert placed == [{"type": "CardsPlaced", "seat": 0, "centre": centre_card, "personal": personal}], placed
    assert not await page.locator(".message.error").count(), await page.inner_text("#messages")
    await context.close()


@pytest.mark.timeout(120)
async def test_portugal_tourists_walk_and_fly_by_clicking_the_map(server: Running, browser: Chromium) -> None:
    game_id = await server.create(2, "i-love-portugal")
    tokens = await server.seat_all(game_id, 2)
    table = Table(server, "i-love-portugal", game_id, tokens=dict(enumerate(tokens)))
    await seat_zero_may(table, "ChooseColour")
    context, page, errors = await open_seat_zero(browser, table)

    # The colour from the swatches, the tourist's start from the map's regions.
    await quiet(page, table)
    await pick_option(page, table, any_of("colour"), where=".swatches")
    await seat_zero_may(table, "PlaceTourist")
    version = await quiet(page, table)
    region = await pick_option(page, table, any_of("region"), where='[data-testid="map"]')
    await wait_version(page, version + 1)
    assert (await table.table())["view"]["seats"][0]["tourist"] == region["value"]

    # Walking: the move, then a neighbouring circle on the map.
    await seat_zero_may(table, "MoveTourist")
    version = await quiet(page, table)
    move = await start_move(page, table, "MoveTourist")  # the circles to walk to are lit from the start
    await moves_ready(page)
    await page.screenshot(path=str(SHOTS / "portugal-picking.png"), full_page=True)
    to = await pick_option(page, table, any_of("to"), where='[data-testid="map"]', move=move)
    await wait_version(page, version + 1)
    assert (await table.table())["view"]["seats"][0]["tourist"] == to["value"]

    # Buying a card from a pile of the shop; with a Plane in hand, flying to an airport's circle.
    flown = bought = False
    for _ in range(60):
        step = await seat_zero_may(table, "EndTurnAndDraw")
        offered = {o["value"] for o in step["options"]}
        version = await quiet(page, table)
        if "FlyTo" in offered:
            move = await start_move(page, table, "FlyTo")
            airport = await pick_option(page, table, any_of("airport"), where='[data-testid="map"]', move=move)
            await wait_version(page, version + 1)
            assert (await table.table())["view"]["seats"][0]["tourist"] == airport["value"]
            flown = True
            break
        if "BuyCard" in offered:
            piles = (await moves(table, 0, [{"field": "type", "value": "BuyCard"}]))["step"]["options"]
            if any(o["value"] == "plane" for o in piles) or not bought:
                move = await start_move(page, table, "BuyCard")
                plane = next((o for o in piles if o["value"] == "plane"), piles[0])
                await pick_option(page, table, value_is(plane["value"]), where=".board.portugal", move=move)
                await wait_version(page, version + 1)
                bought = True
                continue
        await pick_option(page, table, of_type("EndTurnAndDraw"))
        await wait_version(page, version + 1)
    assert bought and flown, "seat 0 never held a Plane to fly with"
    assert not await page.locator(".message.error").count(), await page.inner_text("#messages")
    await page.screenshot(path=str(SHOTS / "portugal-picks.png"), full_page=True)
    assert not errors, errors
    await context.close()


@pytest.mark.timeout(120)
async def test_miss_liz_parks_are_built_by_clicking_cells_and_tiles(server: Running, browser: Chromium) -> None:
    game_id = await server.create(2, "miss-liz-parks")
    tokens = await server.seat_all(game_id, 2)
    table = Table(server, "miss-liz-parks", game_id, tokens=dict(enumerate(tokens)))
    park = '[data-testid="park-0"]'

    async def mine() -> dict[str, Any]:
        view = (await table.table(tokens[0]))["view"]
        found: dict[str, Any] = next(p for p in view["parks"] if p["seat"] == 0)
        return found

    await seat_zero_may(table, "ChooseTheme")
    context, page, errors = await open_seat_zero(browser, table)
    version = await quiet(page, table)
    await pick_option(page, table, any_of("theme"), where=".swatches")
    await wait_version(page, version + 1)

    # The opening: the Entrance's column on the entrance row, the first street beside it, a planning card.
    await seat_zero_may(table, "PlaceEntrance")
    version = await quiet(page, table)
    move = await start_move(page, table, "PlaceEntrance")
    column = await pick_option(page, table, any_of("column"), where=park, move=move)
    await wait_version(page, version + 1)
    buildings = (await mine())["buildings"]
    assert any(b["cell"][1] == column["value"] for b in buildings)
    await seat_zero_may(table, "PlaceFirstStreet")
    version = await quiet(page, table)
    move = await start_move(page, table, "PlaceFirstStreet")
    first = await pick_option(page, table, any_of("cell"), where=park, move=move)
    await wait_version(page, version + 1)
    streets = (await mine())["streets"]
    assert first["value"] in streets

    # Streets: the cells, one click each, then the confirm button (one cell is a move already).
    await seat_zero_may(table, "BuyStreets")
    version = await quiet(page, table)
    move = await start_move(page, table, "BuyStreets")
    chosen = [await pick_option(page, table, any_of("cells"), where=park, move=move)]
    if await page_version(page) == version:  # the step offers more cells and the command so far
        await moves_ready(page)
        step = (await targets_are_the_step(page, table)).step
        assert step.get("command"), step
        assert await page.locator(f"{park} .picked").count() == 1
        if step.get("options"):
            chosen.append(await pick_option(page, table, any_of("cells"), where=park))
        if await page_version(page) == version:
            await page.screenshot(path=str(SHOTS / "miss-liz-picking.png"), full_page=True)
            await pick(page, page.locator('[data-testid="confirm"]'))
    await wait_version(page, version + 1)
    cells = [c for o in chosen for c in (o["value"] if isinstance(o["value"][0], list) else [o["value"]])]
    streets = (await mine())["streets"]
    assert all(c in streets for c in cells)

    # A tile: from the projects board, then the cell to build it on (the lone move BuildTile).
    await seat_zero_may(table, "BuyTile")
    version = await quiet(page, table)
    move = await start_move(page, table, "BuyTile")  # the projects board's tiles are lit from the start
    tile = await pick_option(page, table, any_of("tile"), where=".project-row", move=move)
    await wait_version(page, version + 1)
    version = await quiet(page, table)
    assert [p["value"] for p in await page_picks(page)] == ["BuildTile"]
    cell = await pick_option(page, table, any_of("cell"), where=park)
    await wait_version(page, version + 1)
    buildings = (await mine())["buildings"]
    assert [b["tile"] for b in buildings if b["cell"] == cell["value"]] == [tile["value"]]

    # Another tile, dragged from the projects board onto an empty cell of the park: bought, then
    # built there by itself (the cell it was dropped on is the build's one pick).
    await seat_zero_may(table, "BuyTile")
    version = await quiet(page, table)
    await targets_are_the_step(page, table)
    await page.set_viewport_size({"width": 1300, "height": 1800})  # the projects board and the park at once
    tile_id = await page.locator(".project-row .target[data-drag]").first.get_attribute("data-card")
    drop_cell = await page.locator(f"{park} [data-drop]").last.get_attribute("data-cell")
    assert tile_id and drop_cell
    await drag_by_mouse(page, f'.project-row [data-card="{tile_id}"]', f'{park} [data-cell="{drop_cell}"]')
    row, col = (int(x) for x in drop_cell.split(","))
    for _ in range(300):  # the purchase, then the build
        buildings = (await mine())["buildings"]
        if any(b["tile"] == tile_id for b in buildings):
            break
        await asyncio.sleep(0.05)
    panel = await page.evaluate(
        "() => { const w = document.querySelector('.controls-wrap'); return [w.dataset.state, w.dataset.picks]; }"
    )
    assert [b["cell"] for b in buildings if b["tile"] == tile_id] == [[row, col]], (buildings, panel)

    # Employees: how many, from the chooser's numbers.
    await seat_zero_may(table, "HireEmployees")
    version = await quiet(page, table)
    await pick_option(page, table, of_type("HireEmployees"))
    count = await pick_option(page, table, any_of("count"))
    await wait_version(page, version + 1)
    hired = [e for e in await sent_events(table, version) if e["type"] == "EmployeesHired"]
    assert hired and hired[0]["count"] == count["value"], await sent_events(table, version)
    assert not await page.locator(".message.error").count(), await page.inner_text("#messages")
    assert not errors, errors
    await context.close()


async def finish_with_confirm(page: Page, version: int) -> None:
    """A move whose last pick left more to pick (a trade's asks): send what the picks make."""
    if await page_version(page) == version:
        await moves_ready(page)
        await pick(page, page.locator('[data-testid="confirm"]'))
    await wait_version(page, version + 1)


async def trade_offered(table: Table, after: int) -> dict[str, Any]:
    """The trade seat 0 offered after version ``after``."""
    events = await sent_events(table, after)
    found = [e for e in events if e["type"] == "TradeOffered"]
    assert found, events
    return found[0]


@pytest.mark.timeout(150)
async def test_itchy_feet_trades_steals_and_recycles_by_clicking(server: Running, browser: Chromium) -> None:
    game_id = await server.create(2, "itchy-feet", trade_answer_ms=60_000, reaction_ms=60_000)
    tokens = await server.seat_all(game_id, 2)
    table = Table(server, "itchy-feet", game_id, tokens=dict(enumerate(tokens)))
    await seat_zero_may(table, "Draw")
    context, page, errors = await open_seat_zero(browser, table)
    hand = '[data-testid="hand-0"]'

    # A trade: the other traveller's panel, the cards to give from the hand, the kinds to ask for.
    await seat_zero_may(table, "OfferTrade")
    version = await quiet(page, table)
    move = await start_move(page, table, "OfferTrade")  # the seat, lit for a trade and a steal: which, asked
    target = await pick_option(page, table, any_of("target"), where='[data-seat-panel="1"]', move=move)
    give = await pick_option(page, table, any_of("give"), where=hand)
    await moves_ready(page)
    await page.screenshot(path=str(SHOTS / "itchy-feet-picking.png"), full_page=True)
    ask = await pick_option(page, table, any_of("ask"))  # kinds are named, not drawn: the chooser
    await finish_with_confirm(page, version)
    offer = await trade_offered(table, version)
    assert offer["type"] == "TradeOffered" and offer["target"] == target["value"]
    assert offer["give"][:1] == (give["value"] if isinstance(give["value"], list) else [give["value"]])[:1]
    assert offer["ask"][:1] == (ask["value"] if isinstance(ask["value"], list) else [ask["value"]])[:1]

    # A steal: the victim's panel, then the card to pay with from the hand.
    await seat_zero_may(table, "Steal")
    version = await quiet(page, table)
    move = await start_move(page, table, "Steal")
    victim = await pick_option(page, table, any_of("target"), where='[data-seat-panel="1"]', move=move)
    pay = await pick_option(page, table, any_of("pay"), where=hand)  # no character: every thief pays
    await wait_version(page, version + 1)
    events = await sent_events(table, version)
    assert {"type": "CardsDiscarded", "seat": 0, "cards": [pay["value"]], "reason": "steal"} in events, events
    assert [e["victim"] for e in events if e["type"] == "CardStolen"] == [victim["value"]]

    # A recycle: the cards to pay (one by one, or a pair picked whole), then the discard pile's card.
    await seat_zero_may(table, "Recycle")
    version = await quiet(page, table)
    move = await start_move(page, table, "Recycle")
    paid: list[Any] = []
    while True:
        step = (await targets_are_the_step(page, table)).step
        if any(o["field"] == "take" for o in step["options"]):
            break
        paid.append((await pick_option(page, table, any_of("pay"), move=move))["value"])
        move = None
    discard = await page.eval_on_selector_all(".board.itchy .target", "els => els.map(e => e.dataset.card)")
    taken = await pick_option(page, table, any_of("take"), where=".board.itchy")
    assert taken["value"] in discard
    await wait_version(page, version + 1)
    events = await sent_events(table, version)
    flat = [c for v in paid for c in (v if isinstance(v, list) else [v])]
    assert {"type": "CardsDiscarded", "seat": 0, "cards": flat, "reason": "recycle"} in events, events
    assert {"type": "CardTakenFromDiscard", "seat": 0, "card": taken["value"]} in events, events

    # A trade answer: the other traveller offers; the answer is a move of the chooser.
    for _ in range(400):
        awaited = [a["seat"] for a in (await table.table())["awaiting"]]
        if awaited == [1] and (offered := await an_offer_to(table, 1, target=0)) is not None:
            assert (await server.send(game_id, tokens[1], offered)).status_code == 200
            break
        for seat in awaited:
            await table.play(seat)
    else:
        raise AssertionError("the other traveller never offered a trade")
    version = await quiet(page, table)
    step = (await targets_are_the_step(page, table)).step
    assert {o["value"] for o in step["options"]} <= {"AcceptTrade", "RejectTrade"}
    await pick_option(page, table, of_type("RejectTrade"))
    await wait_version(page, version + 1)
    assert [e["type"] for e in await sent_events(table, version)][:1] == ["TradeRejected"]
    assert not await page.locator(".message.error").count(), await page.inner_text("#messages")
    await page.screenshot(path=str(SHOTS / "itchy-feet-picks.png"), full_page=True)
    assert not errors, errors
    await context.close()


@pytest.mark.timeout(120)
async def test_a_move_that_may_go_on_shows_its_picks_and_is_confirmed(server: Running, browser: Chromium) -> None:
    """A step that carries a command and more options (Miss Liz's streets: a cell, then more
    cells or send) shows the picks so far and a confirm button that names what it sends."""
    game_id = await server.create(2, "miss-liz-parks")
    tokens = await server.seat_all(game_id, 2)
    table = Table(server, "miss-liz-parks", game_id, tokens=dict(enumerate(tokens)))
    for _ in range(50):
        await seat_zero_may(table, "BuyStreets")
        park = next(p for p in (await table.table(tokens[0]))["view"]["parks"] if p["seat"] == 0)
        if park["income"] >= 3:
            break
        await table.play(0)
    assert park["income"] >= 3, "seat 0 never had 3 to spend on streets"
    start = [{"field": "type", "value": "BuyStreets"}]
    one_cell = await moves(table, 0, start)
    empty = [o["value"] for o in one_cell["step"]["options"]]
    version = one_cell["version"]

    context = await browser.new_context(viewport={"width": 1300, "height": 1000})
    seat = {game_id: {"seat": 0, "token": tokens[0], "game": table.game, "at": 1}}
    await hold_seats(context, seat)
    page = await context.new_page()
    await page.goto(f"{server.url}/#/game/{game_id}")
    await wait_version(page, version)
    await moves_ready(page)
    assert await start_move(page, table, "BuyStreets") == "BuyStreets"  # the cells are lit from the start
    cells = [empty[0], empty[1]]
    for n, cell in enumerate(cells, 1):
        target = page.locator(f"[data-testid=\"park-0\"] .target[data-option='{option_key('cells', cell)}']")
        await pick(page, target)
        assert await page.locator('[data-testid="park-0"] .picked').count() == n
        assert await page.locator('[data-testid="picks"] .pick').count() == 1 + n
        confirm = page.locator('[data-testid="confirm"]')
        assert "row" in await confirm.inner_text()  # it says what it sends
        targets = await page.eval_on_selector_all('[data-testid="park-0"] .target', "els => els.length")
        picked = [*start, *({"field": "cells", "value": c} for c in cells[:n])]
        assert targets == len((await moves(table, 0, picked))["step"]["options"])  # exactly the next picks
    # Clicking a picked cell takes it back (and the picks after it).
    await pick(page, page.locator(f'[data-testid="park-0"] .picked[data-cell="{cells[1][0]},{cells[1][1]}"]'))
    assert await page.locator('[data-testid="park-0"] .picked').count() == 1
    await pick(page, page.locator(f"[data-testid=\"park-0\"] .target[data-option='{option_key('cells', cells[1])}']"))
    await page.screenshot(path=str(SHOTS / "miss-liz-picking.png"), full_page=True)
    await pick(page, page.locator('[data-testid="confirm"]'))
    await wait_version(page, version + 1)
    built = [e for e in await sent_events(table, version) if e["type"] == "StreetsBuilt"]
    assert [e["cells"] for e in built] == [cells]
    assert not await page.locator(".message.error").count(), await page.inner_text("#messages")
    await context.close()


@pytest.mark.timeout(90)
async def test_each_seat_shows_its_score_if_the_game_ended_now_where_the_reader_may_know_it(
    server: Running, browser: Chromium
) -> None:
    """Vilar de Mouros: a seat's points rest on its hand, so the page shows its own seat's score, as
    the server's standing says, and none for the other seat (whose hand it cannot see)."""
    game_id, tokens = await server.started(2)
    table = Table(server, "vilar-de-mouros", game_id, tokens=dict(enumerate(tokens)))
    for _ in range(6):
        await table.step()
    context, page = await as_seat_zero_on_its_turn(browser, table, game_id, tokens[0])
    await page.goto(f"{server.url}/#/game/{game_id}")
    seen = await table.table(tokens[0])
    assert seen["status"] == "active" and seen["standing"][0] is not None and seen["standing"][1] is None
    chip = page.locator('[data-testid="standing-0"]')
    await chip.wait_for()
    assert (await chip.inner_text()).strip() == f"· {seen['standing'][0]} now"
    assert await chip.get_attribute("title") == "The score if the game ended now"
    assert await page.locator('[data-testid="standing-1"]').count() == 0
    await context.close()
