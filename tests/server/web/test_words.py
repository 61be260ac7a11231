"""A refusal's message follows the reader's language: Accept-Language on REST and on the socket's upgrade, the
hello's ``lang``; the code and details never change. The catalogs are served at /api/v1/words/{lang}."""

from __future__ import annotations

import json
from typing import Any

import pytest
from websockets.asyncio.client import connect

from domain import words
from domain.catalog import GAMES
from domain.words.format import Words
from server.service.errors import AppError
from server.service.words import SHARED, message
from tests.server.conftest import Running

# Expected from the catalogs by hand, so that a catalog that renders the wrong text fails here too.
NOT_YOUR_TURN = {
    "en": "It is not your turn: the game awaits {who}.",
    "pt": "Não é a sua vez: o jogo espera por {who}.",
    "gl": "Non é a túa quenda: a partida agarda por {who}.",
    "es": "No es tu turno: la partida espera a {who}.",
}
DECK_EMPTY_WORD = {"en": "deck", "pt": "baralho", "gl": "baralla", "es": "mazo"}


async def out_of_turn(server: Running) -> tuple[str, str, str]:
    """A started Vilar de Mouros table: its id, the token of a seat not awaited, and the awaited seat's name."""
    game_id, tokens = await server.started(2)
    table = (await server.get(f"/api/v1/games/{game_id}")).json()
    awaited = table["awaiting"][0]["seat"]
    return game_id, tokens[1 - awaited], table["seats"][awaited]["name"]


@pytest.mark.parametrize("lang", words.LANGUAGES)
async def test_a_rest_refusal_is_written_in_the_accept_language_with_the_same_code(server: Running, lang: str) -> None:
    game_id, other, name = await out_of_turn(server)
    answer = await server.http.post(
        f"/api/v1/games/{game_id}/commands",
        json={"command": {"type": "DrawFromDeck"}, "command_id": "early"},
        headers={"Authorization": f"Bearer {other}", "Accept-Language": f"{lang}-XX;q=0.9, fr;q=1"},
    )
    body = answer.json()
    assert (answer.status_code, body["error"]) == (422, "not_your_turn")
    assert body["message"] == NOT_YOUR_TURN[lang].format(who=name)
    assert body["details"]["names"] == [name]  # every parameter is in the details: any client can say it
    assert answer.headers["Content-Language"] == lang


async def test_a_refusal_names_a_seat_taken_without_a_name_in_the_readers_language(server: Running) -> None:
    """A seat's default name is stored in English ("Player 2"), and the table's seat says it is one (``named``):
    a refusal's ``details`` keep it as it is, its ``message`` says it in the reader's language."""
    game_id = await server.create(2)
    tokens = [(await server.http.post(f"/api/v1/games/{game_id}/seats", json={})).json()["token"] for _ in range(2)]
    table = (await server.get(f"/api/v1/games/{game_id}")).json()
    assert [(s["name"], s["named"]) for s in table["seats"]] == [("Player 1", False), ("Player 2", False)]
    awaited = table["awaiting"][0]["seat"]
    said = {"en": "Player", "pt": "Jogador", "gl": "Xogador", "es": "Jugador"}
    for lang, player in said.items():
        answer = await server.http.post(
            f"/api/v1/games/{game_id}/commands",
            json={"command": {"type": "DrawFromDeck"}, "command_id": f"early-{lang}"},
            headers={"Authorization": f"Bearer {tokens[1 - awaited]}", "Accept-Language": lang},
        )
        body = answer.json()
        assert body["message"] == NOT_YOUR_TURN[lang].format(who=f"{player} {awaited + 1}"), body
        assert body["details"]["names"] == [f"Player {awaited + 1}"]


def test_a_refusal_names_a_bot_taken_without_a_name_as_the_language_names_the_bot() -> None:
    game = GAMES["vilar-de-mouros"]
    refused = AppError(
        "not_your_turn", "It is not your turn: the game awaits Greedy bot 2 and Ana.",
        {"awaiting": [1, 0], "names": ["Greedy bot 2", "Ana"]}, game.id,
    )  # fmt: skip
    said = {"en": "Greedy bot 2 and Ana", "pt": "Bot ganancioso 2 e Ana", "gl": "Bot cobizoso 2 e Ana"}
    for lang, who in said.items():
        assert message(refused, lang, GAMES) == NOT_YOUR_TURN[lang].format(who=who)


async def test_no_accept_language_or_one_we_do_not_speak_is_english(server: Running) -> None:
    game_id, other, name = await out_of_turn(server)
    for language in ({}, {"Accept-Language": "fr-FR, de;q=0.5"}):
        answer = await server.http.post(
            f"/api/v1/games/{game_id}/commands",
            json={"command": {"type": "DrawFromDeck"}, "command_id": "early"},
            headers={"Authorization": f"Bearer {other}", **language},
        )
        assert answer.json()["message"] == NOT_YOUR_TURN["en"].format(who=name)


async def test_the_servers_own_errors_follow_the_language_too(server: Running) -> None:
    said = {}
    for lang in words.LANGUAGES:
        answer = await server.http.get("/api/v1/games/0123456789abcdef", headers={"Accept-Language": lang})
        body = answer.json()
        assert (answer.status_code, body["error"]) == (404, "unknown_game")
        said[lang] = body["message"]
        assert said[lang] == SHARED[lang]["refusals"]["unknown_game"]
    assert len(set(said.values())) == 4


async def hello_error(server: Running, game_id: str, token: str, lang: str | None, header: str | None) -> Any:
    headers = {"Accept-Language": header} if header else None
    async with connect(f"{server.ws_url}/api/v1/games/{game_id}/ws", additional_headers=headers) as ws:
        hello: dict[str, Any] = {"type": "hello", "token": token, "after": 0}
        if lang is not None:
            hello["lang"] = lang
        await ws.send(json.dumps(hello))
        while (message := json.loads(await ws.recv()))["type"] != "update":
            pass
        await ws.send(json.dumps({"type": "command", "command": {"type": "DrawFromDeck"}, "command_id": "early"}))
        while (message := json.loads(await ws.recv()))["type"] != "error":
            pass
        return message


@pytest.mark.parametrize("lang", words.LANGUAGES)
async def test_a_socket_refusal_is_written_in_the_hellos_lang_with_the_same_code(server: Running, lang: str) -> None:
    game_id, other, name = await out_of_turn(server)
    error = await hello_error(server, game_id, other, lang, header="en")  # the hello's lang wins
    assert (error["error"], error["command_id"]) == ("not_your_turn", "early")
    assert error["message"] == NOT_YOUR_TURN[lang].format(who=name)


async def test_a_socket_without_lang_follows_its_upgrades_accept_language(server: Running) -> None:
    game_id, other, name = await out_of_turn(server)
    assert (await hello_error(server, game_id, other, None, "gl"))["message"] == NOT_YOUR_TURN["gl"].format(who=name)
    assert (await hello_error(server, game_id, other, "fr", "es"))["message"] == NOT_YOUR_TURN["es"].format(who=name)
    assert (await hello_error(server, game_id, other, None, None))["message"] == NOT_YOUR_TURN["en"].format(who=name)


async def test_every_catalog_is_served_and_renders_a_refusal_as_the_server_does(server: Running) -> None:
    languages = (await server.http.get("/api/v1/words")).json()
    assert languages == {"languages": list(words.LANGUAGES), "default": "en"}
    for lang in words.LANGUAGES:
        served = (await server.http.get(f"/api/v1/words/{lang}")).json()
        assert served["lang"] == lang and set(served["games"]) == set(GAMES)
        game = served["games"]["vilar-de-mouros"]
        assert DECK_EMPTY_WORD[lang] in game["refusals"]["deck_empty"]
        refusals = {**served["table"]["refusals"], **game["refusals"]}
        said = Words(lang).format(refusals["not_your_turn"], {"names": ["Ana", "Rui"]})
        assert said.startswith(NOT_YOUR_TURN[lang].partition("{")[0]) and "Ana" in said and "Rui" in said
    missing = await server.http.get("/api/v1/words/fr", headers={"Accept-Language": "pt"})
    assert missing.status_code == 404 and missing.json()["error"] == "unknown_language"
    assert missing.json()["message"].startswith("Não há catálogo")
