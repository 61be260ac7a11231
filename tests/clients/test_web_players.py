"""Players at the web table (docs/players.md, docs/web.md "Players"), in real Chromium against the real
server: a person opens a table in one browser profile (the page makes its player from the name it is
given, and sits by the player's cookie), signs in on a second profile with a one-time code or with a
passkey (Chromium's virtual authenticator, the credential copied between the profiles as a synced
passkey would be), finds the table under "my tables" marked "your move", and plays a move there; a
tab of the second profile follows the sign-in made in another. The tab's title and icon say "your
move", and a browser notification is shown when the person is elsewhere and allowed it; the
notification preferences are saved from the settings. A seat out of time at a table over days gets
"Wait for them" and "Let a bot play on" on the others' pages; an invitation link seats a newcomer in
the seat a bot played on for. A rated table, its leaderboard and a player's page. axe-core checks
every new screen.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import os
import re
from collections.abc import AsyncIterator
from typing import Any

import pytest
import redis.asyncio as aioredis

from server.service.ratings import PROVISIONAL_GAMES
from server.settings import Settings
from tests.clients.conftest import Running
from tests.clients.test_web_game import DOCS_IMAGES, axe_source, no_axe_violations
from tests.clients.test_web_table import API, ROOT, SHOTS, Chromium, Table, chromium, make_one_move, wait_version
from tests.server.conftest import ADMIN, AT_ONCE, NO_QUOTAS, quick_settings, running
from tests.server.web.test_rest import play_to_the_end

with contextlib.suppress(ImportError):  # the test extras install it; need_chromium says so
    from playwright.async_api import BrowserContext, Page

COOKIE = "ludoteca_player"
# A platform authenticator that holds passkeys and verifies its user, answering at once.
AUTHENTICATOR = {
    "protocol": "ctap2",
    "transport": "internal",
    "hasResidentKey": True,
    "hasUserVerification": True,
    "isUserVerified": True,
    "automaticPresenceSimulation": True,
}
# Every notification the page shows, as the browser shows it (its "show" event), kept for the test.
SHOWN = """if (window.Notification) {
  const Shown = window.Notification;
  window.__shown = [];
  window.Notification = class extends Shown {
    constructor(title, options = {}) {
      super(title, options);
      this.addEventListener("show", () => window.__shown.push({ title, body: options.body, tag: options.tag }));
    }
  };
}"""


@pytest.fixture
async def browser() -> AsyncIterator[Chromium]:
    async with chromium() as watched:
        yield watched


@pytest.fixture
async def server(redis: aioredis.Redis, redis_url: str) -> AsyncIterator[Running]:
    async with running(quick_settings(redis_url)) as api:
        yield api


# --- a person, its player, and a table --------------------------------------------------------


async def cookie_of(context: BrowserContext) -> str:
    """The player's token, as the browser keeps it (HttpOnly: no script of the page can read it)."""
    return next(c["value"] for c in await context.cookies() if c["name"] == COOKIE)


async def opens_a_table(
    browser: Chromium, server: Running, name: str, origin: str | None = None, clock: str | None = None
) -> tuple[BrowserContext, Page, Table]:
    """A newcomer opens the lobby, gives a name, and opens a 2-seat Vilar de Mouros table sitting at
    seat 0; Bo takes seat 1 over the API (a seat token). The table's tokens: the player's and Bo's."""
    context = await browser.new_context(viewport={"width": 1280, "height": 900})
    page = await context.new_page()
    await page.goto(f"{origin or server.url}/")
    await page.wait_for_selector('[data-testid="welcome"]')
    await page.fill('[data-testid="name"]', name)
    form = page.locator('form.game-form[data-game="vilar-de-mouros"]')
    if clock:
        await form.locator('[data-field="clock"]').select_option(clock)
    await form.locator("button[type=submit]").click()
    await page.wait_for_selector('.table-screen[data-status=open][data-seat="0"]')
    game_id = await page.get_attribute(".table-screen", "data-game-id")
    assert game_id
    bo = await server.http.post(f"{API}/games/{game_id}/seats", json={"name": "Bo"})
    assert bo.status_code == 201, bo.text
    await page.wait_for_selector(".table-screen[data-status=active]")
    table = Table(server, "vilar-de-mouros", game_id, tokens={0: await cookie_of(context), 1: bo.json()["token"]})
    return context, page, table


async def until_awaited(table: Table, seat: int) -> dict[str, Any]:
    """Bo plays until the table awaits ``seat`` alone; the table then."""
    for _ in range(200):
        current = await table.table()
        if [a["seat"] for a in current["awaiting"]] == [seat]:
            return current
        await table.step(skip={seat})
    raise AssertionError(f"seat {seat} was never awaited")


async def finds_the_table_and_plays(page: Page, table: Table) -> None:
    """On the lobby: the table under "my tables", first, marked "your move"; opened, the tab's title and
    icon say so; a move made by picking lands as seat 0's."""
    await page.wait_for_selector(
        f'[data-testid="my-tables"] li[data-game-id="{table.game_id}"] [data-testid="your-move"]'
    )
    first = page.locator('[data-testid="my-tables"] li').first
    assert await first.get_attribute("data-game-id") == table.game_id  # those awaiting the player first
    await page.click(f'[data-testid="my-tables"] li[data-game-id="{table.game_id}"] a')
    await page.wait_for_selector('.table-screen[data-seat="0"][data-status=active]')
    await page.wait_for_function("() => document.title.includes('Your move')")
    icon = await page.get_attribute('link[rel="icon"]', "href")
    assert icon and "ffd23f" in icon, icon  # the icon with its "your move" mark
    before = (await table.table())["version"]
    await make_one_move(page)
    events = (await table.server.http.get(f"{API}/games/{table.game_id}/events", params={"after": before})).json()
    assert events["events"] and events["events"][0]["event"].get("seat") == 0, events


async def shoot(page: Page, name: str, docs: bool = False) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    await page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)
    if docs and os.environ.get("LUDOTECA_DOCS_IMAGES"):
        DOCS_IMAGES.mkdir(parents=True, exist_ok=True)
        await page.screenshot(path=str(DOCS_IMAGES / f"{name}.png"))


# --- signing in on a second device -------------------------------------------------------------


@pytest.mark.timeout(90)
async def test_a_code_signs_the_player_in_on_a_second_browser_which_finds_its_table_and_plays(
    server: Running, browser: Chromium
) -> None:
    axe_source()
    phone, page, table = await opens_a_table(browser, server, "Ana")
    assert await page.evaluate("localStorage.getItem('ludoteca.seats')") is None  # no seat token kept
    assert (await table.table())["seats"][0]["name"] == "Ana"
    # A second table of Ana's, still open: my tables lists it after the one awaiting her.
    other = await server.http.post(f"{API}/games", json={"game": "itchy-feet", "players": 3})
    auth = {"Authorization": f"Bearer {table.tokens[0]}"}
    assert (
        await server.http.post(f"{API}/games/{other.json()['game_id']}/seats", json={}, headers=auth)
    ).status_code == 201
    await until_awaited(table, 0)

    # The second browser: one tab on the lobby (a newcomer's), one that signs in with the code.
    laptop = await browser.new_context(viewport={"width": 1280, "height": 900})
    lobby = await laptop.new_page()
    await lobby.goto(f"{server.url}/")
    await lobby.wait_for_selector('[data-testid="welcome"]')
    signing = await laptop.new_page()
    await signing.goto(f"{server.url}/#/sign-in")
    await signing.wait_for_selector('[data-testid="code-input"]')
    await no_axe_violations(signing, "the sign-in screen")

    # The code, shown in the first browser's settings.
    await page.click('[data-testid="me"]')
    await page.click('[data-testid="show-code"]')
    code = await page.inner_text('[data-testid="code"]')
    assert re.fullmatch(r"[A-Z2-9]{4}-[A-Z2-9]{4}", code), code
    await no_axe_violations(page, "the settings")
    await shoot(page, "settings")

    await signing.fill('[data-testid="code-input"]', code.lower().replace("-", " "))  # as typed on a phone
    await signing.click('[data-testid="code-sign-in"]')
    await signing.wait_for_selector('[data-testid="my-tables"]')
    assert await signing.inner_text('[data-testid="me"]') == "Ana (settings)"
    # The other tab of the second browser follows: the same player, its tables, no reload.
    await lobby.wait_for_selector(f'[data-testid="my-tables"] li[data-game-id="{table.game_id}"]')
    assert await lobby.inner_text('[data-testid="me"]') == "Ana (settings)"
    assert not await lobby.locator('[data-testid="welcome"]').count()
    await no_axe_violations(signing, "the lobby with my tables")
    await shoot(signing, "my-tables", docs=True)
    await finds_the_table_and_plays(signing, table)
    assert (await cookie_of(laptop)) != table.tokens[0]  # a token of its own, of the same player
    await laptop.close()
    await phone.close()


@pytest.mark.timeout(90)
async def test_a_passkey_registered_in_one_browser_signs_the_player_in_on_another(
    server: Running, browser: Chromium
) -> None:
    origin = server.url.replace("127.0.0.1", "localhost")  # a relying party id is a domain, never an address
    phone, page, table = await opens_a_table(browser, server, "Ana", origin=origin)
    phone_key = await authenticator(phone, page)
    await page.goto(f"{origin}/#/me")
    await page.fill("#passkey-name", "Phone")
    await page.click('[data-testid="add-passkey"]')
    await page.wait_for_selector('[data-testid="passkeys"] li:has-text("Phone")')
    cdp, authenticator_id = phone_key
    [made] = (await cdp.send("WebAuthn.getCredentials", {"authenticatorId": authenticator_id}))["credentials"]
    await until_awaited(table, 0)

    # The laptop's authenticator holds the same passkey, as a synced one would.
    laptop = await browser.new_context(viewport={"width": 1280, "height": 900})
    signing = await laptop.new_page()
    await signing.goto(f"{origin}/#/sign-in")
    laptop_cdp, laptop_id = await authenticator(laptop, signing)
    await laptop_cdp.send("WebAuthn.addCredential", {"authenticatorId": laptop_id, "credential": made})
    await signing.click('[data-testid="passkey-sign-in"]')
    await signing.wait_for_selector('[data-testid="my-tables"]')
    assert await signing.inner_text('[data-testid="me"]') == "Ana (settings)"
    await finds_the_table_and_plays(signing, table)
    await laptop.close()
    await phone.close()


async def authenticator(context: BrowserContext, page: Page) -> tuple[Any, str]:
    """A virtual platform authenticator for the profile (the DevTools protocol's WebAuthn domain)."""
    cdp = await context.new_cdp_session(page)
    await cdp.send("WebAuthn.enable", {"enableUI": False})
    added = await cdp.send("WebAuthn.addVirtualAuthenticator", {"options": AUTHENTICATOR})
    return cdp, added["authenticatorId"]


# --- being told ----------------------------------------------------------------------------------


@pytest.mark.timeout(90)
async def test_the_title_says_your_move_and_a_notification_is_shown_when_permitted_and_away(
    redis: aioredis.Redis, redis_url: str, browser: Chromium
) -> None:
    """The permission is asked from a button, never on load; granted, the page shows a notification
    when the table comes to await the player while its window is not the one in front. The
    settings panel saves the server's notification preferences and a webhook."""
    settings = dataclasses.replace(quick_settings(redis_url), webhook_allow=("127.0.0.1",))  # a webhook on loopback
    async with running(settings) as server:
        phone, page, table = await opens_a_table(browser, server, "Ana")
        await phone.add_init_script(SHOWN)
        await page.reload()
        await page.wait_for_selector('.table-screen[data-seat="0"]')
        asked = await page.evaluate("Notification.permission")
        if asked == "default":  # nothing is asked on load: the person presses the button
            await page.wait_for_selector('[data-testid="allow-notifications"]')
        await phone.grant_permissions(["notifications"], origin=server.url)
        if asked == "default":
            # Clicked from the page itself: the table redraws its buttons with each update, and on a loaded
            # machine Playwright's click (scroll, wait for stability, press) can keep landing on a replaced one.
            # A redraw after the grant above may have taken the button away already: the browser then allows.
            button = '[data-testid="allow-notifications"]'
            await page.wait_for_function(
                f"() => {{ const b = document.querySelector('{button}'); b && b.click(); "
                "return !!b || Notification.permission === 'granted'; }"
            )
            await page.wait_for_selector(button, state="detached")
        # The table awaits Bo, and the person goes elsewhere: another page of the profile in front.
        for _ in range(200):
            current = await table.table()
            if 0 not in [a["seat"] for a in current["awaiting"]]:
                break
            await table.play(0)
        await page.wait_for_function("() => !document.title.includes('Your move')")
        cdp = await phone.new_cdp_session(page)
        await cdp.send("Emulation.setFocusEmulationEnabled", {"enabled": False})
        elsewhere = await phone.new_page()
        await elsewhere.goto("about:blank")
        await elsewhere.bring_to_front()
        assert not await page.evaluate("document.hasFocus()")
        await until_awaited(table, 0)
        await page.wait_for_function("() => window.__shown.length > 0", timeout=15_000)
        shown = await page.evaluate("window.__shown")
        assert shown[0]["title"] == "Your move" and "Vilar de Mouros" in shown[0]["body"], shown
        assert shown[0]["tag"] == f"ludoteca-{table.game_id}"
        assert (await page.title()).startswith("● Your move: Vilar de Mouros")

        # The server's notices: what is told, by which channel, quiet hours, a webhook.
        await page.bring_to_front()
        await page.goto(f"{server.url}/#/me")
        await page.wait_for_selector('[data-testid="browser-notifications"]')
        await page.uncheck('[data-event="rematch"]')
        await page.uncheck('[data-channel="email"]')
        await page.check('[data-testid="quiet"]')
        await page.fill('[data-testid="quiet-start"]', "22:30")
        await page.fill('[data-testid="quiet-end"]', "07:15")
        await page.fill('[data-testid="quiet-zone"]', "Europe/Lisbon")
        await page.click('[data-testid="save-notices"]')
        await page.wait_for_selector('.message.info:has-text("Saved")')
        auth = {"Authorization": f"Bearer {table.tokens[0]}"}
        saved = (await server.http.get(f"{API}/players/me/notifications", headers=auth)).json()
        assert saved["events"] == ["move", "trade", "window", "ended"] and saved["channels"] == ["webhook"], saved
        assert saved["quiet_hours"] == {"start": "22:30", "end": "07:15", "time_zone": "Europe/Lisbon"}, saved
        await page.fill('[data-testid="webhook-url"]', "http://127.0.0.1:9/hook")
        await page.click('[data-testid="set-webhook"]')
        secret = await page.get_attribute('[data-testid="webhook-secret"]', "value")
        hook = (await server.http.get(f"{API}/players/me/webhook", headers=auth)).json()
        assert hook["url"] == "http://127.0.0.1:9/hook" and hook["secret"] == secret, hook
        await no_axe_violations(page, "the settings with a webhook")
        await phone.close()


# --- games over days, and a seat taken over -----------------------------------------------------


@pytest.mark.timeout(120)
async def test_a_seat_out_of_time_gets_two_choices_and_an_invitation_link_seats_a_newcomer(
    server: Running, browser: Chromium
) -> None:
    """A table whose clock gives a move two seconds and asks the others when one runs out (as the
    day presets do, in days): Ana's page offers "Wait for them" and "Let a bot play on" for Bo's seat;
    waiting gives Bo a move's time again; letting the bot play on vacates the seat, which Ana offers
    by a link that seats Cleo, a newcomer in another browser."""
    axe_source()
    # The day presets are offered by the form, and open a table whose clock asks the others.
    context, page, days = await opens_a_table(browser, server, "Ana", clock="one-day")
    clock = (await days.table())["clock"]
    assert (clock["per"], clock["seconds"], clock["on_timeout"]) == ("move", 86400, "ask"), clock
    chip = await page.inner_text('.table-actions .seat-chip[data-seat="0"]')
    assert re.search(r"⏱ \d+ (d|h)", chip) and "bank" in chip, chip

    brief = {"per": "move", "seconds": 2, "on_timeout": "ask"}
    created = await server.http.post(f"{API}/games", json={"game": "vilar-de-mouros", "players": 3, "clock": brief})
    game_id = created.json()["game_id"]
    auth = {"Authorization": f"Bearer {days.tokens[0]}"}
    assert (await server.http.post(f"{API}/games/{game_id}/seats", json={}, headers=auth)).status_code == 201
    tokens = {0: days.tokens[0]}
    for seat, name in ((1, "Bo"), (2, "Eva")):
        r = await server.http.post(f"{API}/games/{game_id}/seats", json={"name": name})
        tokens[seat] = r.json()["token"]
    table = Table(server, "vilar-de-mouros", game_id, tokens=tokens)
    await page.goto(f"{server.url}/#/game/{game_id}")
    await page.wait_for_selector('.table-screen[data-seat="0"][data-status=active]')

    # Ana's and Eva's moves are made at once; Bo's time runs out.
    late = await a_late_seat(table)
    choices = page.locator(f'[data-testid="late-{late}"]')
    await choices.locator('[data-testid="keep-waiting"]').wait_for()
    assert await choices.locator('[data-testid="let-bot-play-on"]').count() == 1
    await no_axe_violations(page, "a seat out of time")
    await choices.locator('[data-testid="keep-waiting"]').click()
    await wait_event(table, "TimeExtended")
    await a_late_seat(table, late)
    await wait_version(page, (await table.table())["version"])  # the page shows it late again
    await choices.locator('[data-testid="let-bot-play-on"]').click()
    left = await wait_event(table, "SeatResigned")
    assert left["seat"] == late and left["reason"] == "timed_out" and left["bot"], left

    # The vacated seat, offered by a link; a newcomer opens it in another browser and takes it over.
    await page.click(f'[data-testid="invite-{late}"]')
    link = page.locator(f'[data-testid="invite-link-{late}"]')
    await link.wait_for()
    url = await link.get_attribute("value")
    assert url and url.startswith(f"{server.url}/#/invite/{game_id}."), url
    await no_axe_violations(page, "an invitation link")
    cleo = await browser.new_context(viewport={"width": 1280, "height": 900})
    newcomer = await cleo.new_page()
    await newcomer.goto(url)
    await newcomer.wait_for_selector('[data-testid="invite"]')
    await no_axe_violations(newcomer, "an invitation")
    await newcomer.fill('[data-testid="name"]', "Cleo")
    await newcomer.click('[data-testid="take-seat"]')
    await newcomer.wait_for_selector(f'.table-screen[data-seat="{late}"]')
    assert "#/invite/" not in newcomer.url
    seats = (await table.table())["seats"]
    assert seats[late]["name"] == "Cleo" and seats[late]["bot"] is None, seats
    assert (await table.table(await cookie_of(cleo)))["seat"] == late
    await page.wait_for_selector(f'.table-actions .seat-chip[data-seat="{late}"]:has-text("Cleo")')
    await cleo.close()
    await context.close()


async def a_late_seat(table: Table, seat: int | None = None) -> int:
    """Play every awaited seat but ``seat`` (Bo's, or the first other one awaited) at once, until that
    seat's time runs out: the seat then."""
    for _ in range(400):
        current = await table.table()
        if current["status"] != "active":
            raise AssertionError("the game ended first")
        if seat is not None and seat in current["out_of_time"]:
            return seat
        awaited = [a["seat"] for a in current["awaiting"]]
        if seat is None and awaited and awaited[0] != 0:
            seat = awaited[0]
        for s in awaited:
            if s != seat:
                await table.play(s)
        await asyncio.sleep(0.1)
    raise AssertionError("no seat ran out of time")


async def wait_event(table: Table, kind: str) -> dict[str, Any]:
    for _ in range(100):
        events = (await table.server.http.get(f"{API}/games/{table.game_id}/events")).json()["events"]
        found = [e["event"] for e in events if e["event"]["type"] == kind]
        if found:
            return found[-1]  # type: ignore[no-any-return]
        await asyncio.sleep(0.1)
    raise AssertionError(f"no {kind}")


# --- rated tables ---------------------------------------------------------------------------------


@pytest.mark.timeout(120)
async def test_a_rated_table_its_leaderboard_and_a_players_page(
    redis: aioredis.Redis, redis_url: str, browser: Chromium
) -> None:
    """The form opens a rated table (no bots offered there); after five rated games Ana and Rui are on
    the game's leaderboard; Ana's page holds her name alone until she makes it public in her settings."""
    axe_source()
    settings = Settings(
        redis_url=redis_url,
        admin_token=ADMIN,
        trusted_proxies=("127.0.0.1",),
        rating_interval=0.05,
        **NO_QUOTAS,
        **AT_ONCE,
    )  # the test's other player comes from an address of its own (X-Forwarded-For), as a rated table asks
    async with running(settings) as server:
        context = await browser.new_context(viewport={"width": 1280, "height": 900})
        page = await context.new_page()
        await page.goto(f"{server.url}/")
        await page.fill('[data-testid="name"]', "Ana")
        form = page.locator('form.game-form[data-game="vilar-de-mouros"]')
        await form.locator('[data-field="rated"]').check()
        await form.locator("button[type=submit]").click()
        await page.wait_for_selector('.table-screen[data-status=open][data-seat="0"]')
        await page.wait_for_selector(".pill.rated")  # the table says it is rated (its TableOpened)
        assert not await page.locator('[data-testid="fill-bots"]').count()
        game_id = await page.get_attribute(".table-screen", "data-game-id")
        ana = await cookie_of(context)
        rui = await server.http.post(f"{API}/players", json={"name": "Rui"}, headers={"X-Forwarded-For": "10.0.9.1"})
        server.http.cookies.clear()
        rui_auth = {"Authorization": f"Bearer {rui.json()['token']}", "X-Forwarded-For": "10.0.9.1"}
        assert (await server.http.post(f"{API}/games/{game_id}/seats", json={}, headers=rui_auth)).status_code == 201
        await play_to_the_end(server, str(game_id), [ana, rui.json()["token"]])
        await page.wait_for_selector('.table-screen[data-status=finished] [data-testid="outcome"]')
        for _ in range(PROVISIONAL_GAMES - 1):
            r = await server.http.post(f"{API}/games", json={"game": "vilar-de-mouros", "players": 2, "rated": True})
            more = r.json()["game_id"]
            for headers in ({"Authorization": f"Bearer {ana}"}, rui_auth):
                assert (
                    await server.http.post(f"{API}/games/{more}/seats", json={}, headers=headers)
                ).status_code == 201
            await play_to_the_end(server, more, [ana, rui.json()["token"]])

        # The leaderboard, once the rater has rated the five games.
        for _ in range(100):
            board = (await server.http.get(f"{API}/leaderboards/vilar-de-mouros")).json()
            if len(board["players"]) == 2:
                break
            await asyncio.sleep(0.1)
        await page.goto(f"{server.url}/#/leaderboard/vilar-de-mouros")
        rows = page.locator('[data-testid="leaderboard"] tbody tr')
        await rows.first.wait_for()
        names = await page.locator('[data-testid="leaderboard"] tbody tr td:nth-child(2)').all_inner_texts()
        assert names == [p["name"] for p in board["players"]] and set(names) == {"Ana", "Rui"}, names
        assert await rows.first.locator("td:nth-child(3)").inner_text() == f"{board['players'][0]['rating']:.1f}"
        await no_axe_violations(page, "a leaderboard")
        await shoot(page, "leaderboard")

        # Ana's page: her name alone, until she shows it from her settings.
        await page.click('[data-testid="leaderboard"] a:text-is("Ana")')
        await page.wait_for_selector('[data-testid="player-page"]')
        assert "keeps this page private" in await page.inner_text('[data-testid="player-page"]')
        await page.goto(f"{server.url}/#/me")
        await page.check('[data-testid="public"]')
        await page.wait_for_function("() => JSON.parse(localStorage.getItem('ludoteca.player')).public")
        await page.click("text=your page")
        await page.wait_for_selector('[data-testid="player-page"][data-public]')
        text = await page.inner_text('[data-testid="player-page"]')
        assert f"{PROVISIONAL_GAMES} rated games played" in text and "Vilar de Mouros" in text, text
        history = page.locator('[data-testid="player-page"] a:text-is("replay")')
        assert await history.count() == PROVISIONAL_GAMES
        await no_axe_violations(page, "a player's page")
        await shoot(page, "player-page")
        await context.close()


def test_every_word_of_the_new_screens_is_in_their_words() -> None:
    """The players' modules keep what a person reads in their WORDS, by language (for translation): no
    string literal of letters is put straight into an element."""
    web = ROOT / "clients" / "web" / "js"
    for name in ("player.js", "account.js", "ratings.js", "notify.js", "invite.js"):
        text = (web / name).read_text(encoding="utf-8")
        assert "const WORDS = byLanguage({" in text or "export const WORDS = {" in text, name
        assert all(f"\n  {lang}: {{" in text for lang in ("en", "pt", "gl", "es")), name  # a block per language
        # h("tag", {...}, "Some words") with the words written in place
        loose = re.findall(r'h\("[a-z0-9]+", \{[^{}]*\}, "([A-Za-z][^"]*)"', text)
        assert not loose, (name, loose)
