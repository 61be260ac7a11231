"""Building a move over the API, against a real server: the first step in legal-commands
and in socket updates, POST /games/{id}/moves and the socket's ``moves`` request, their
refusals (which change nothing), and every game played to its end by picks alone."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import random
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
import redis.asyncio as aioredis
from websockets.asyncio.client import ClientConnection

from domain.catalog import GAMES
from server.web.requests import MAX_PICKS
from tests.server.conftest import Running, quick_settings, running
from tests.server.web.test_bad_input import refused
from tests.server.web.test_rest import play_to_the_end
from tests.server.web.test_websocket import configure, hello, receive
from tests.support.games import RANDOM_PLAY_RARELY_ENDS

MAX_STEPS = 20_000


async def legal(server: Running, game_id: str, token: str | None) -> dict[str, Any]:
    r = await server.get(f"/api/v1/games/{game_id}/legal-commands", token)
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    return body


async def moves(server: Running, game_id: str, token: str | None, picks: Any, **extra: Any) -> httpx.Response:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    body = {"picks": picks, **extra}
    return await server.http.post(f"/api/v1/games/{game_id}/moves", json=body, headers=headers)


async def awaited_seat(server: Running, game_id: str) -> int:
    awaiting = (await server.get(f"/api/v1/games/{game_id}")).json()["awaiting"]
    assert len({a["seat"] for a in awaiting}) == 1, awaiting
    seat: int = awaiting[0]["seat"]
    return seat


def pick(field: str, value: Any) -> dict[str, Any]:
    return {"field": field, "value": value}


def hand(table: dict[str, Any], seat: int) -> list[str]:
    cards: list[str] = table["view"]["seats"][seat]["hand"]
    return cards


async def placing(server: Running) -> tuple[str, list[str], int]:
    """A Vilar de Mouros game whose awaited seat has drawn its two cards and must now place two."""
    game_id, tokens = await server.started(2)
    seat = await awaited_seat(server, game_id)
    for _ in range(2):  # two cards drawn, then two placed
        assert (await server.send(game_id, tokens[seat], {"type": "DrawFromDeck"})).status_code == 200
    assert (await server.get(f"/api/v1/games/{game_id}")).json()["awaiting"] == [{"seat": seat, "reason": "place"}]
    return game_id, tokens, seat


NOTHING: dict[str, Any] = {"version": None, "step": {}, "commands": [], "complete": True, "undo": []}


def nothing(body: dict[str, Any]) -> bool:
    return {**body, "version": None} == NOTHING


# -- legal-commands: the first step -------------------------------------------------------


async def test_the_awaited_seat_gets_its_first_step_and_nobody_else_any(server: Running) -> None:
    game_id, tokens = await server.started(3)
    seat = await awaited_seat(server, game_id)
    mine = await legal(server, game_id, tokens[seat])
    options = mine["step"]["options"]
    assert options and all(o["field"] == "type" and o["kind"] == "move" for o in options)
    assert {o["value"] for o in options} == {c["type"] for c in mine["commands"]}
    assert mine["complete"] is True  # Vilar de Mouros' moves are few: every command is listed
    for option in options:  # an option needing nothing more carries its command, which is listed
        if "command" in option:
            assert option["command"] in mine["commands"]
    for other in [*(t for s, t in enumerate(tokens) if s != seat), None]:
        assert nothing(await legal(server, game_id, other))


async def test_a_finished_game_offers_no_step_and_refuses_every_pick(server: Running) -> None:
    game_id, tokens = await server.started(2)
    first = await awaited_seat(server, game_id)
    kind = (await legal(server, game_id, tokens[first]))["step"]["options"][0]["value"]
    await play_to_the_end(server, game_id, tokens)
    for token in [*tokens, None]:
        assert nothing(await legal(server, game_id, token))
        r = await moves(server, game_id, token, [])
        assert r.status_code == 200 and r.json()["step"] == {} and r.json()["picks"] == []
        r = await moves(server, game_id, token, [pick("type", kind)])
        assert r.status_code == 422 and r.json()["error"] == "not_offered", r.text
        assert r.json()["details"]["field"] == "picks[0]"


# -- POST /games/{id}/moves ------------------------------------------------------------


async def test_picks_build_place_cards_and_the_command_built_is_accepted(server: Running) -> None:
    game_id, tokens, seat = await placing(server)
    table = (await server.get(f"/api/v1/games/{game_id}", tokens[seat])).json()
    cards = hand(table, seat)
    start = await moves(server, game_id, tokens[seat], [])
    assert start.status_code == 200, start.text
    assert start.json() == {
        "version": table["version"],
        "picks": [],
        "step": (await legal(server, game_id, tokens[seat]))["step"],
    }
    assert start.json()["step"]["options"] == [{"field": "type", "value": "PlaceCards", "kind": "move"}]
    picks = [pick("type", "PlaceCards")]
    r = await moves(server, game_id, tokens[seat], picks)
    assert r.status_code == 200, r.text
    step = r.json()["step"]
    assert r.json()["picks"] == picks and "command" not in step  # not complete yet: a centre card first
    assert [(o["field"], o["value"], o["kind"]) for o in step["options"]] == [("centre", c, "card") for c in cards]
    assert not any("command" in o for o in step["options"])
    picks.append(pick("centre", cards[0]))
    r = await moves(server, game_id, tokens[seat], picks)
    assert r.status_code == 200 and r.json()["picks"] == picks, r.text
    personal = r.json()["step"]["options"]
    assert [o["value"] for o in personal] == cards[1:] and {o["field"] for o in personal} == {"personal"}
    built = personal[-1]["command"]
    assert built == {"type": "PlaceCards", "centre": cards[0], "personal": cards[-1]}
    # The whole move picked: the step says it is complete, with nothing left to pick.
    r = await moves(server, game_id, tokens[seat], [*picks, pick("personal", cards[-1])])
    assert r.status_code == 200 and r.json()["step"] == {"command": built}, r.text
    sent = await server.send(game_id, tokens[seat], built, expected_version=table["version"])
    assert sent.status_code == 200, sent.text
    after = (await server.get(f"/api/v1/games/{game_id}", tokens[seat])).json()
    assert cards[0] in after["view"]["centre"] and cards[-1] in after["view"]["seats"][seat]["personal"]


async def test_a_pick_not_offered_is_422_naming_it_and_changes_nothing(server: Running, redis: aioredis.Redis) -> None:
    game_id, tokens, seat = await placing(server)
    other = 1 - seat
    mine = hand((await server.get(f"/api/v1/games/{game_id}", tokens[seat])).json(), seat)
    theirs = hand((await server.get(f"/api/v1/games/{game_id}", tokens[other])).json(), other)
    place = pick("type", "PlaceCards")
    cases: list[tuple[str | None, list[dict[str, Any]], int]] = [
        (tokens[seat], [pick("type", "FlipTable")], 0),  # no such move
        (tokens[seat], [pick("type", "DrawFromDeck")], 0),  # a move of another phase
        (tokens[seat], [pick("centre", mine[0])], 0),  # a card before the move's type
        (tokens[seat], [place, pick("centre", theirs[0])], 1),  # the other seat's card
        (tokens[seat], [place, pick("centre", "no-such-card")], 1),
        (tokens[seat], [place, pick("personal", mine[0])], 1),  # the fields' order
        (tokens[seat], [place, pick("centre", [0, 1])], 1),  # a value of the wrong kind
        (tokens[seat], [place, pick("centre", mine[0]), pick("personal", mine[0])], 2),  # the same card twice
        (tokens[seat], [place, pick("centre", mine[0]), pick("personal", mine[1]), pick("personal", mine[2])], 3),
        (tokens[other], [place], 0),  # not this seat's turn
        (None, [place], 0),  # a spectator
    ]
    for token, picks, bad in cases:
        call = lambda t=token, p=picks: moves(server, game_id, t, p)  # noqa: E731
        details = await refused(redis, game_id, call, 422, "not_offered")
        assert details["field"] == f"picks[{bad}]", (picks, details)


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({}, "picks"),
        ({"picks": "PlaceCards"}, "picks"),
        ({"picks": None}, "picks"),
        ({"picks": [], "seat": 1}, "seat"),
        ({"picks": [{"field": "type"}]}, "picks[0].value"),
        ({"picks": [{"value": "PlaceCards"}]}, "picks[0].field"),
        ({"picks": [{"field": "type", "value": "PlaceCards", "kind": "move"}]}, "picks[0].kind"),
        ({"picks": [{"field": 7, "value": "PlaceCards"}]}, "picks[0].field"),
        ({"picks": [{"field": "type", "value": True}]}, "picks[0].value"),
        ({"picks": [{"field": "type", "value": 1.5}]}, "picks[0].value"),
        ({"picks": [{"field": "type", "value": None}]}, "picks[0].value"),
        ({"picks": [{"field": "type", "value": {"card": "x"}}]}, "picks[0].value"),
        ({"picks": [pick("type", "PlaceCards"), {"field": "centre", "value": [1, "x"]}]}, "picks[1].value[1]"),
        ({"picks": ["PlaceCards"]}, "picks[0]"),
        ({"picks": [pick("type", "PlaceCards")] * (MAX_PICKS + 1)}, "picks"),
    ],
)
async def test_malformed_picks_are_400_naming_the_field(
    server: Running, redis: aioredis.Redis, body: dict[str, Any], field: str
) -> None:
    game_id, tokens = await server.started(2)
    token = tokens[await awaited_seat(server, game_id)]
    headers = {"Authorization": f"Bearer {token}"}
    path = f"/api/v1/games/{game_id}/moves"
    call = lambda: server.http.post(path, json=body, headers=headers)  # noqa: E731
    details = await refused(redis, game_id, call, 400, "malformed")
    assert details["field"] == field


async def test_picks_up_to_the_cap_are_read_and_a_body_too_large_or_not_json_is_refused(
    server: Running, redis: aioredis.Redis
) -> None:
    game_id, tokens = await server.started(2)
    token = tokens[await awaited_seat(server, game_id)]
    headers = {"Authorization": f"Bearer {token}"}
    path = f"/api/v1/games/{game_id}/moves"
    longest = [pick("type", "DrawFromDeck")] * MAX_PICKS  # read whole, and refused by the rules
    details = await refused(redis, game_id, lambda: moves(server, game_id, token, longest), 422, "not_offered")
    assert details["field"] == "picks[1]"
    huge = [pick("type", "x" * 70_000)]
    await refused(redis, game_id, lambda: moves(server, game_id, token, huge), 413, "too_large")
    details = await refused(
        redis,
        game_id,
        lambda: server.http.post(path, content=b"{picks", headers={**headers, "Content-Type": "application/json"}),
        400,
        "malformed",
    )
    assert details["case"] == "json" and "field" not in details
    r = await moves(server, "0123456789abcdef", token, [])
    assert r.status_code == 404 and r.json()["error"] == "unknown_game"
    r = await moves(server, game_id, f"{game_id}.forged", [])
    assert r.status_code == 401 and r.json()["error"] == "unknown_token"


async def test_the_openapi_document_types_the_moves_route(server: Running) -> None:
    doc = (await server.http.get("/openapi.json")).json()
    schemas = doc["components"]["schemas"]
    post = doc["paths"]["/api/v1/games/{game_id}/moves"]["post"]
    assert post["requestBody"]["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/BuildMove"}
    assert post["responses"]["200"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/MoveStep"
    }
    assert {"400", "401", "403", "404", "413", "422", "503"} <= set(post["responses"])
    assert post["security"] == [{}, {"seat": []}]
    assert schemas["BuildMove"]["properties"]["picks"]["maxItems"] == MAX_PICKS
    assert schemas["BuildMove"]["additionalProperties"] is False
    assert schemas["Pick"]["properties"]["value"] == {
        "anyOf": [{"type": "string"}, {"type": "integer"}, {"type": "array", "items": {"type": "integer"}}]
    }
    # a step's command, and an option's, is a game's own (the table's Resign or Undo is never built)
    for name in ("Step", "Option", "vilar-de-mouros.Step", "vilar-de-mouros.Option"):
        command = schemas[name]["properties"]["command"]["$ref"]
        assert command == "#/components/schemas/" + ("GameCommand" if "." not in name else "vilar-de-mouros.Command")
    assert schemas["Step"]["properties"]["options"]["items"] == {"$ref": "#/components/schemas/Option"}
    assert set(schemas["Option"]["required"]) == {"field", "value", "kind"}
    legal_commands = schemas["LegalCommands"]["properties"]
    assert legal_commands["step"] == {"$ref": "#/components/schemas/Step"}
    assert legal_commands["commands"]["items"] == {"$ref": "#/components/schemas/GameCommand"}
    assert schemas["MoveStep"]["properties"]["step"] == {"$ref": "#/components/schemas/Step"}
    assert schemas["MoveStep"]["properties"]["picks"]["items"] == {"$ref": "#/components/schemas/Pick"}


# -- over the WebSocket -----------------------------------------------------------------


async def next_update(ws: ClientConnection) -> dict[str, Any]:
    while True:
        message = await receive(ws)
        if message["type"] == "update":
            return message


async def test_updates_carry_the_first_step_to_the_awaited_seat_alone(server: Running) -> None:
    game_id, tokens = await server.started(3)
    sockets = [await hello(server, game_id, token) for token in [*tokens, None]]
    try:
        for _ in range(3):  # the catch-up, then two live updates
            seat = await awaited_seat(server, game_id)
            updates = [await next_update(ws) for ws in sockets]
            assert updates[seat]["step"] == (await legal(server, game_id, tokens[seat]))["step"]
            assert updates[seat]["step"]["options"]
            assert [u["step"] for i, u in enumerate(updates) if i != seat] == [None] * len(tokens)
            command = (await legal(server, game_id, tokens[seat]))["commands"][0]
            assert (await server.send(game_id, tokens[seat], command)).status_code == 200
    finally:
        for ws in sockets:
            await ws.close()


async def test_a_moves_request_on_the_socket_is_answered_with_a_step_and_its_request_id(server: Running) -> None:
    game_id, tokens, seat = await placing(server)
    cards = hand((await server.get(f"/api/v1/games/{game_id}", tokens[seat])).json(), seat)
    picks = [pick("type", "PlaceCards"), pick("centre", cards[0])]
    expected = (await moves(server, game_id, tokens[seat], picks)).json()
    async with await hello(server, game_id, tokens[seat]) as ws:
        await next_update(ws)
        await ws.send(json.dumps({"type": "moves", "picks": picks, "request_id": "ana-1"}))
        answer = await receive(ws)
        await ws.send(json.dumps({"type": "moves", "picks": []}))
        first = await receive(ws)
    assert answer == {"type": "step", **expected, "request_id": "ana-1"}
    assert first["type"] == "step" and first["request_id"] is None
    assert first["step"] == {"options": [{"field": "type", "value": "PlaceCards", "kind": "move"}]}


async def test_a_refused_moves_request_on_the_socket_errors_with_its_request_id(server: Running) -> None:
    game_id, tokens, seat = await placing(server)
    async with await hello(server, game_id, tokens[seat]) as ws, await hello(server, game_id, None) as watcher:
        await next_update(ws)
        await next_update(watcher)
        asked: list[tuple[dict[str, Any], str, dict[str, str]]] = [
            ({"picks": [pick("type", "DrawFromDeck")], "request_id": "r1"}, "not_offered", {"field": "picks[0]"}),
            ({"picks": "PlaceCards", "request_id": "r2"}, "malformed", {"field": "picks"}),
            ({"picks": [pick("type", "x")] * (MAX_PICKS + 1), "request_id": "r3"}, "malformed", {"field": "picks"}),
            ({"picks": [], "request_id": "r4", "seat": 0}, "malformed", {"field": "seat"}),
        ]
        for body, code, details in asked:  # each refused with its request_id, read or not
            await ws.send(json.dumps({"type": "moves", **body}))
            error = await receive(ws)
            assert error["type"] == "error" and error["error"] == code, error
            assert error["request_id"] == body["request_id"] and error["command_id"] is None
            assert error["details"]["field"] == details["field"], error
        await watcher.send(json.dumps({"type": "moves", "picks": [pick("type", "PlaceCards")], "request_id": "w"}))
        error = await receive(watcher)
        assert (error["error"], error["request_id"], error["details"]["field"]) == ("not_offered", "w", "picks[0]")
        await watcher.send(json.dumps({"type": "moves", "picks": [], "request_id": "w2"}))
        assert await receive(watcher) == {
            "type": "step",
            "version": (await server.get(f"/api/v1/games/{game_id}")).json()["version"],
            "picks": [],
            "step": {},
            "request_id": "w2",
        }


async def test_moves_requests_count_against_the_sockets_rate_limit(server: Running) -> None:
    configure(server, ws_rate=0.01, ws_burst=3)
    game_id, tokens = await server.started(2)
    seat = await awaited_seat(server, game_id)
    async with await hello(server, game_id, tokens[seat]) as ws:
        await next_update(ws)
        for n in range(5):
            await ws.send(json.dumps({"type": "moves", "picks": [], "request_id": f"m{n}"}))
        answers = [await receive(ws) for _ in range(5)]
    assert [(a["type"], a["request_id"]) for a in answers[:3]] == [("step", "m0"), ("step", "m1"), ("step", "m2")]
    assert [(a["type"], a["error"], a["request_id"]) for a in answers[3:]] == [
        ("error", "too_many", "m3"),
        ("error", "too_many", "m4"),
    ]


# -- every game, built pick by pick -------------------------------------------------------


async def build(server: Running, game_id: str, token: str, first: dict[str, Any], rng: random.Random) -> Any:
    """A command built by a random walk of picks from ``first``, each step asked of POST /moves."""
    step = first
    picks: list[dict[str, Any]] = []
    for _ in range(MAX_PICKS):
        options = step.get("options", [])
        choices = len(options) + ("command" in step)
        assert choices, f"a step that leads nowhere after {picks}"
        choice = rng.randrange(choices)
        if choice == len(options):
            return step["command"]  # the picks make a command: send it rather than pick on
        if "command" in options[choice]:
            return options[choice]["command"]
        picks.append({"field": options[choice]["field"], "value": options[choice]["value"]})
        r = await moves(server, game_id, token, picks)
        assert r.status_code == 200, r.text
        assert r.json()["picks"] == picks
        step = r.json()["step"]
    raise AssertionError(f"no command after {MAX_PICKS} picks: {picks}")


# Uniformly random moves almost never end a game of Itchy Feet (a trade asks for kinds at random, a
# recycle pays a needed object): there, one person's moves are built by picks and the server's bots play
# the other seats, one of them greedy.


# The server's bots draw from the operating system, so their games vary in length run to run; here
# a game they rarely end is called too long at SHORTENED events (the same end as a real table's
# 20,000, reached sooner: tests/domain/test_table_services.py plays that limit).
SHORTENED = 4_000


@pytest.fixture
async def shortened(redis: aioredis.Redis, redis_url: str) -> AsyncIterator[Running]:
    """A server whose bots do not pause to think, with the games random play rarely ends shortened."""
    games = {
        g.id: dataclasses.replace(g, most_events=SHORTENED) if g.id in RANDOM_PLAY_RARELY_ENDS else g
        for g in GAMES.values()
    }
    async with running(quick_settings(redis_url), games) as api:
        yield api


def sizes() -> list[Any]:
    return [pytest.param(g.id, n) for g in GAMES.values() for n in sorted({g.min_players, g.max_players})]


@pytest.mark.timeout(300)
@pytest.mark.parametrize(("game", "players"), sizes())
async def test_a_game_whose_every_command_is_built_by_picks_runs_to_its_end(
    shortened: Running, game: str, players: int
) -> None:
    server = shortened
    rng = random.Random(f"picks/{game}/{players}")
    game_id = await server.create(players, game)
    people = 1 if game in RANDOM_PLAY_RARELY_ENDS else players
    tokens = await server.seat_all(game_id, people)
    for seat in range(people, players):  # the server's bots play the others; its greedy bot ends the game
        bot = "greedy" if seat == people else "random"
        assert (await server.http.post(f"/api/v1/games/{game_id}/seats", json={"bot": bot})).status_code == 201
    built = n = 0
    while n < MAX_STEPS:
        table = (await server.get(f"/api/v1/games/{game_id}")).json()
        if not table["awaiting"] or table["status"] == "finished":
            break
        seats = sorted({a["seat"] for a in table["awaiting"] if a["seat"] < people})
        if not seats:  # only bots are awaited: they are playing (this is not a step)
            await asyncio.sleep(0.02)
            continue
        n += 1
        seat = rng.choice(seats)
        listed = await legal(server, game_id, tokens[seat])
        if listed["version"] != table["version"]:
            continue  # a bot moved in between: look again
        assert listed["step"].get("options"), f"seat {seat} is awaited but is offered no move"
        if n % 10 == 0:  # now and then: the seats not awaited are offered nothing
            idle = [await legal(server, game_id, t) for s, t in enumerate(tokens) if s not in seats]
            assert all(i["step"] == {} and i["commands"] == [] for i in idle)
        command = await build(server, game_id, tokens[seat], listed["step"], rng)
        if listed["complete"]:
            assert command in listed["commands"]
        r = await server.send(game_id, tokens[seat], command, command_id=f"p{n}", expected_version=listed["version"])
        if r.status_code == 409 and r.json()["error"] == "version_conflict":
            continue  # a window closed by itself (Itchy Feet), or a bot moved, between the step and the command
        assert r.status_code == 200, (command, r.text)
        built += 1
    table = (await server.get(f"/api/v1/games/{game_id}")).json()
    assert table["status"] == "finished", f"no end after {MAX_STEPS} steps"
    # Now and then the random bots keep an Itchy Feet game from its end until the server calls it
    # too long (SHORTENED events here): an end too, the one the server gives every game.
    too_long = game in RANDOM_PLAY_RARELY_ENDS and table["outcome"].get("reason") == "too_long"
    assert (table["outcome"]["type"] == game or too_long) and built > 0
    assert nothing(await legal(server, game_id, tokens[0]))
