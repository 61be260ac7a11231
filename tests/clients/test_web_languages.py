"""The web table in the reader's language (docs/web.md, "Languages"), in real Chromium against the real
server: a Portuguese browser at Vilar de Mouros and a Galician one at Itchy Feet read the table's own
words in their language, each game's terms as its catalog words them (the printed rules' words: Vilar's
Portuguese rulebook, Itchy Feet's Galician one), the log's lines from the server's catalogs, and no
English word of the table's own is left on the Portuguese page. Every page's console error fails the
test (``browser``, tests/clients/test_web_table.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import redis.asyncio as aioredis

from tests.clients.conftest import Running
from tests.clients.test_web_game import axe_source, no_axe_violations
from tests.clients.test_web_table import Chromium, Table, hold_seats, moves_ready
from tests.server.conftest import quick_settings, running

with contextlib.suppress(ImportError):  # the test extras install it; need_chromium says so
    from playwright.async_api import Page

ROOT = Path(__file__).resolve().parents[2]

# The table screen's own words in English, as the page wrote them before it spoke other languages
# (table.js, picks.js, view.js, names.js WORDS): none may be left on a Portuguese page.
ENGLISH = [
    "What happened",
    "Others' moves",
    "slowly",
    "at a steady pace",
    "quickly",
    "at once",
    "Your move",
    "You may",
    "Undo my last step",
    "Resign",
    "plays on",
    "waiting for players",
    "in play",
    "finished",
    "you are watching",
    "you are ",
    "replay",
    "watch link",
    "spectator",
    "How to play",
    "Pick on the table",
    "Which move?",
    "Cancel (Esc)",
    "Send:",
    "Waiting for",
    "is thinking",
    "Nothing yet.",
    "Deal verified",
    "Checking the deal",
    "of yours",
    "Notify me",
    "Seat ",
    "row ",
    "column ",
    "Final scores",
    "The game ended",
    "Loading",
    "(settings)",
    "Sign in",
    " bot,",
    "level ",
    " drew ",
    " took ",
    " placed ",
    " goes first",
    " was dealt ",
]


def catalog(game: str, lang: str) -> dict[str, dict[str, str]]:
    parts: dict[str, dict[str, str]] = json.loads(
        (ROOT / "domain" / game / "words" / f"{lang}.json").read_text("utf-8")
    )
    return parts


@pytest.fixture
async def server(redis: aioredis.Redis, redis_url: str) -> AsyncIterator[Running]:
    """The web tests' server (bots that do not pause to think); Chromium is the package's ``browser``."""
    async with running(quick_settings(redis_url)) as api:
        yield api


async def seated_page(
    browser: Chromium, server: Running, game: str, game_id: str, seat: int, token: str, locale: str
) -> Page:
    context = await browser.new_context(viewport={"width": 1300, "height": 1000}, locale=locale)
    await hold_seats(context, {game_id: {"seat": seat, "token": token, "game": game, "at": 1}})
    page = await context.new_page()
    await page.goto(f"{server.url}/#/game/{game_id}")
    await page.wait_for_selector(f'.table-screen[data-seat="{seat}"]')
    await page.wait_for_selector("#status.ok")
    return page


async def awaited_here(table: Table, seat: int) -> None:
    """The others play over HTTP until ``seat`` is awaited (so the log has lines and the page a move)."""
    for _ in range(60):
        if seat in {a["seat"] for a in (await table.table())["awaiting"]}:
            return
        await table.step(skip={seat})
    raise AssertionError("the seat was never awaited")


async def text_of(page: Page) -> str:
    """Every word the table screen shows or says: its text, its labels, titles and the options of its menus."""
    found: str = await page.evaluate(
        """() => { const root = document.querySelector('.table-screen');
             const said = [...root.querySelectorAll('[aria-label], [title], [placeholder]')]
               .flatMap((el) => ['aria-label', 'title', 'placeholder'].map((a) => el.getAttribute(a) || ''));
             const chat = root.querySelector('[data-testid=chat]');
             const text = [...root.querySelectorAll('*')].filter((el) => !chat || !chat.contains(el))
               .flatMap((el) => [...el.childNodes].filter((n) => n.nodeType === 3).map((n) => n.textContent));
             return [...text, ...said].join('\\n'); }"""
    )
    return found


async def test_a_portuguese_reader_reads_the_table_and_vilar_de_mouros_in_portuguese(
    server: Running, browser: Chromium
) -> None:
    game = "vilar-de-mouros"
    words = catalog("vilar_de_mouros", "pt")
    game_id = await server.create(3, game)
    tokens = await server.seat_all(game_id, 2)
    # the last seat a bot's, taken with no name: its default one ("Casual bot 3") is said in Portuguese
    r = await server.http.post(f"/api/v1/games/{game_id}/seats", json={"bot": "casual"})
    assert r.status_code == 201 and r.json()["seat"] == 2, r.text
    table = Table(server, game, game_id, tokens=dict(enumerate(tokens)), server_bots=True)
    for _ in range(6):  # every seat moves, P0 over HTTP too: the log has each kind of line
        await table.step()
    await awaited_here(table, 0)
    # The chooser names the moves only when there is a choice of them (picks.js); the deal is the
    # server's own randomness, which now and then leaves seat 0 one kind of move: play on then.
    for _ in range(20):
        types = {command["type"] for command in (await table.legal(0))[1]}
        if "DrawFromDeck" in types and len(types) > 1:
            break
        await table.step()
        await awaited_here(table, 0)
    else:
        raise AssertionError("seat 0 was never offered a choice of moves")
    page = await seated_page(browser, server, game, game_id, 0, tokens[0], "pt-PT")
    await moves_ready(page)

    assert await page.get_attribute("html", "lang") == "pt"
    # The table's own words.
    assert await page.inner_text(".log summary") == "O que aconteceu"
    assert "Jogadas dos outros" in await page.inner_text("label.pace")
    assert await page.inner_text('[data-testid="resign"]') == "Sair do jogo (um bot ganancioso continua a jogar)"
    # The move chooser's words are the catalog's terms (the rulebook's): "Pode tirar do baralho, ...".
    may = await page.inner_text('[data-testid="may"]')
    assert may.startswith("Pode "), may
    draw = words["terms"]["move.DrawFromDeck"]
    assert draw[0].lower() + draw[1:] in may, may
    # The log's lines are the catalog's: P1's and P2's draws and placements, in Portuguese.
    log = await page.inner_text('[data-testid="log"]')
    assert "tira " in log and "coloca " in log and "no centro da mesa" in log, log
    # No English word of the table's own is left.
    shown = await text_of(page)
    left = [w for w in ENGLISH if w in shown]
    assert not left, (left, shown)
    # The bot's seat chip names it in Portuguese, and nothing shows its English default name.
    chip = await page.inner_text('.table-actions .seat-chip[data-seat="2"]')
    assert chip.startswith("Bot casual 3 (bot)"), chip
    assert "Casual bot" not in shown and " bot 3" not in shown and "Player " not in shown, shown

    # A move made by clicking is told in Portuguese too (P0 sees the card it drew).
    await page.locator(""".play .target[data-option='["type","DrawFromDeck"]']""").click()
    await page.wait_for_function(
        "() => { const t = document.querySelector('[data-testid=log] > li'); return t && t.innerText.startsWith('P0')"
        " && t.innerText.includes(' do baralho.'); }"
    )
    assert (await page.inner_text('[data-testid="last-0"]')).startswith("Última jogada: tira ")


async def test_a_galician_reader_reads_itchy_feet_in_its_galician_rulebooks_words(
    server: Running, browser: Chromium
) -> None:
    game = "itchy-feet"
    words = catalog("itchy_feet", "gl")
    game_id = await server.create(2, game)
    tokens = await server.seat_all(game_id, 1)
    # the other seat taken with no name: its default one ("Player 2") is said in Galician
    r = await server.http.post(f"/api/v1/games/{game_id}/seats", json={})
    assert r.status_code == 201 and r.json()["seat"] == 1, r.text
    tokens.append(r.json()["token"])
    table = Table(server, game, game_id, tokens=dict(enumerate(tokens)), server_bots=False)
    await awaited_here(table, 0)
    page = await seated_page(browser, server, game, game_id, 0, tokens[0], "gl-ES")
    await moves_ready(page)

    assert await page.get_attribute("html", "lang") == "gl"
    assert await page.inner_text(".log summary") == "Que pasou"
    assert "Xogadas dos outros" in await page.inner_text("label.pace")
    may = await page.inner_text('[data-testid="may"]')
    assert may.startswith("Podes "), may
    terms = [t for k, t in words["terms"].items() if k.startswith("move.")]
    assert any(t[0].lower() + t[1:] in may for t in terms), (may, terms)
    # The board's words are the Galician rulebook's (the deck is its "monte"), the log the catalog's.
    deck = words["terms"]["word.deck"]
    assert f"{deck[0].upper() + deck[1:]}: " in await page.inner_text(".board"), await page.inner_text(".board")
    log = await page.inner_text('[data-testid="log"]')
    assert "Ábrese unha mesa de Itchy Feet" in log and "Xogador 2 séntase á mesa." in log, log
    shown = await text_of(page)
    left = [w for w in ENGLISH if w in shown]
    assert not left, (left, shown)
    # The seat taken with no name reads as Galician names it, on its chip and everywhere else.
    chip = await page.inner_text('.table-actions .seat-chip[data-seat="1"]')
    assert chip.startswith("Xogador 2"), chip
    assert "Player " not in shown, shown


@pytest.mark.parametrize(
    ("game", "package"), [("i-love-portugal", "i_love_portugal"), ("miss-liz-parks", "miss_liz_parks")]
)
async def test_a_portuguese_reader_reads_the_other_games_in_their_catalogs_words(
    server: Running, browser: Chromium, game: str, package: str
) -> None:
    words = catalog(package, "pt")
    game_id = await server.create(2, game)
    tokens = await server.seat_all(game_id, 2)
    table = Table(server, game, game_id, tokens=dict(enumerate(tokens)))
    await awaited_here(table, 0)
    page = await seated_page(browser, server, game, game_id, 0, tokens[0], "pt-PT")
    await moves_ready(page)

    assert await page.inner_text(".table-screen h1") == words["terms"][f"game.{game}"]
    # The first move is picked on the table: the hint names its field in the catalog's words.
    hint = await page.inner_text('[data-testid="controls-wrap"]')
    fields = [t[0].upper() + t[1:] for k, t in words["terms"].items() if k.startswith("field.")]
    assert "Escolha na mesa: " in hint and any(f in hint for f in fields), (hint, fields)
    shown = await text_of(page)
    left = [w for w in ENGLISH if w in shown]
    assert not left, (left, shown)


# The log's heading in each language (table.js WORDS.log), and the pictures of docs/web.md, "Languages".
LOG_HEADING = {"en": "What happened", "pt": "O que aconteceu", "gl": "Que pasou", "es": "Qué ha pasado"}
DOCS_IMAGES = ROOT / "docs" / "images"


@pytest.mark.parametrize("locale", ["en-GB", "pt-PT", "gl-ES", "es-ES"])
async def test_one_vilar_de_mouros_table_in_each_language(server: Running, browser: Chromium, locale: str) -> None:
    """The same table read in each of the four languages: its language set on the page, the log
    headed in it, the bot's seat named in it, no axe-core violation in it (longer words wrap, labels
    stay labels); with LUDOTECA_DOCS_IMAGES set, docs/web.md's picture of it
    (docs/images/vilar-de-mouros-<lang>.png)."""
    axe_source()
    lang = locale[:2]
    game = "vilar-de-mouros"
    game_id = await server.create(3, game)
    tokens = []
    for name in ("Ana", "Rui"):
        r = await server.http.post(f"/api/v1/games/{game_id}/seats", json={"name": name})
        tokens.append(r.json()["token"])
    r = await server.http.post(f"/api/v1/games/{game_id}/seats", json={"bot": "casual"})
    assert r.status_code == 201, r.text
    table = Table(server, game, game_id, tokens=dict(enumerate(tokens)), server_bots=True)
    for _ in range(200):  # a few turns each, then Ana's
        current = await table.table()
        awaited = {a["seat"] for a in current["awaiting"]}
        if current["version"] > 20 and awaited == {0}:
            break
        await table.step(skip={0} if current["version"] > 20 else set())
        await asyncio.sleep(0.02)
    context = await browser.new_context(
        viewport={"width": 1300, "height": 1000}, locale=locale, reduced_motion="reduce"
    )
    await hold_seats(context, {game_id: {"seat": 0, "token": tokens[0], "game": game, "at": 1}})
    page = await context.new_page()
    await page.goto(f"{server.url}/#/game/{game_id}")
    await page.wait_for_selector("#status.ok")
    await moves_ready(page)
    await page.wait_for_function("() => document.getAnimations().length === 0")
    assert await page.get_attribute("html", "lang") == lang
    assert await page.inner_text(".log summary") == LOG_HEADING[lang]
    bot = await page.inner_text('.table-actions .seat-chip[data-seat="2"]')
    assert bot.startswith(
        {"en": "Casual bot 3", "pt": "Bot casual 3", "gl": "Bot casual 3", "es": "Bot casual 3"}[lang]
    ), bot
    await no_axe_violations(page, f"a table in {locale}")
    if os.environ.get("LUDOTECA_DOCS_IMAGES"):
        DOCS_IMAGES.mkdir(parents=True, exist_ok=True)
        await page.screenshot(path=str(DOCS_IMAGES / f"{game}-{lang}.png"), full_page=False)


async def test_the_lobby_speaks_the_readers_language(server: Running, browser: Chromium) -> None:
    context = await browser.new_context(viewport={"width": 1300, "height": 1000}, locale="pt-PT")
    page = await context.new_page()
    await page.goto(f"{server.url}/#/")
    await page.wait_for_selector("form")
    assert await page.get_attribute("html", "lang") == "pt"
    text = await page.inner_text("#app")
    assert "Mesas abertas" in text, text
    for english in ("Open tables", "Create table", "Quick play", "Being played", "Welcome to Ludoteca"):
        assert english not in text, (english, text)


async def test_the_replay_viewer_speaks_the_readers_language(server: Running, browser: Chromium) -> None:
    r = await server.http.post(f"{server.url}/api/v1/games", json={"game": "vilar-de-mouros", "players": 2})
    game_id = r.json()["game_id"]
    for name in ("Ana", "Rui"):
        await server.http.post(f"{server.url}/api/v1/games/{game_id}/seats", json={"name": name})
    context = await browser.new_context(viewport={"width": 1300, "height": 1000}, locale="gl-ES")
    page = await context.new_page()
    await page.goto(f"{server.url}/#/replay/{game_id}")
    await page.wait_for_selector(".replay-screen[data-shown]")
    text = await page.inner_text("#app")
    assert "Repetición: Vilar de Mouros" in text and "paso " in text, text
    for english in ("Replay:", "to the table", "step ", "The game is not finished", "spectator"):
        assert english not in text, (english, text)
    await context.close()


# The player's own screens' words in English (account.js WORDS): none may be left on a Portuguese page.
ACCOUNT_ENGLISH = [
    "Sign in",
    "your tables come with you",
    "Code shown on your other device",
    "On a device where you are signed in",
    "Your player",
    "Rename",
    "Show my ratings",
    "your page",
    "Show a sign-in code",
    "Notifications",
    "In this browser",
    "This browser",
    "From the server",
    "Tell me when",
    "it is my move",
    "a trade is offered",
    "a rematch was opened",
    "only about tables",
    "Quiet hours",
    "Time zone",
    "Email address",
    "Save",
    "A URL of yours",
    "plain JSON",
    "Set the webhook",
    "Leaving",
    "Sign out",
    "Erase my player",
]


async def test_the_sign_in_screen_and_the_settings_speak_the_readers_language(
    server: Running, browser: Chromium
) -> None:
    context = await browser.new_context(viewport={"width": 1300, "height": 1000}, locale="pt-PT")
    page = await context.new_page()
    await page.goto(f"{server.url}/#/sign-in")
    await page.wait_for_selector('[data-testid="sign-in"]')
    assert await page.get_attribute("html", "lang") == "pt"
    text = await page.inner_text("#app")
    assert await page.inner_text('[data-testid="sign-in"] h1') == "Entrar", text
    assert "Código mostrado no seu outro dispositivo" in text and "Mostrar um código de entrada" in text, text
    left = [w for w in ACCOUNT_ENGLISH if w in text]
    assert not left, (left, text)

    # A player of this browser (the cookie its answer sets), then its settings.
    made = await context.request.post(f"{server.url}/api/v1/players", data={"name": "Ana"})
    assert made.ok, await made.text()
    await page.goto(f"{server.url}/?signed-in=1#/me")
    await page.wait_for_selector('[data-testid="settings"] [data-testid="notices"]')
    text = await page.inner_text("#app")
    assert await page.inner_text('[data-testid="settings"] h1') == "O seu jogador", text
    for words in ("Notificações", "Avisar-me quando", "for a minha vez", "Horas de silêncio", "Terminar sessão"):
        assert words in text, (words, text)
    left = [w for w in ACCOUNT_ENGLISH if w in text]
    assert not left, (left, text)

    # Its page (ratings.js), private until it shows it.
    await page.goto(f"{server.url}/#/player/{(await made.json())['player']['player_id']}")
    await page.wait_for_selector('[data-testid="player-page"]')
    text = await page.inner_text('[data-testid="player-page"]')
    assert "Ana mantém esta página privada." in text and "Mostre a sua nas suas definições." in text, text
    assert "keeps this page private" not in text and "Show yours" not in text, text
    await context.close()


async def test_a_leaderboard_speaks_the_readers_language(server: Running, browser: Chromium) -> None:
    context = await browser.new_context(viewport={"width": 1300, "height": 1000}, locale="gl-ES")
    page = await context.new_page()
    await page.goto(f"{server.url}/#/leaderboard/vilar-de-mouros")
    await page.wait_for_selector('[data-testid="leaderboard"] [data-testid="empty"]')
    assert await page.get_attribute("html", "lang") == "gl"
    text = await page.inner_text("#app")
    assert await page.inner_text('[data-testid="leaderboard"] h1') == "Clasificación: Vilar de Mouros", text
    assert "Aínda non hai ninguén nesta clasificación" in text and "sobe cando o xogador gaña" in text, text
    for english in ("Leaderboard", "Nobody is on this leaderboard", "rated games", "A rating is", "Show more"):
        assert english not in text, (english, text)
    await context.close()
