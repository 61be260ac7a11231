"""Acting as another: every command, sent with a token that does not hold the awaited
seat, on REST and on the WebSocket, is refused with the status docs/API.md gives and
writes nothing; a socket without a seat receives no private data.

For every game in the catalog, at several points of a random game, every legal command
of the awaited seat is sent with each other seat's token (422, the rule's code), with
no token (403 ``spectator``), with a token of another game (403 ``not_seated``) and
with malformed or forged tokens (401). The game's keys in Redis are compared byte for
byte before and after.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from domain.catalog import GAMES
from tests.reliability.harness import ADMIN, Api, auth, figure, game_keys, own_redis, redis_client, replicas
from tests.reliability.sizes import limit
from tests.security.oracle import hidden_from, leaks, log_from_export

POINTS = 4  # moments of each game at which every command is tried


@pytest.fixture(scope="module")
def serve_url() -> Iterator[tuple[str, str]]:
    # Every other seat's token sends each of the awaited seat's commands as fast as the server
    # answers: a seat's rate limit (tests/security/test_rest_rate.py) would answer 429 first.
    with (
        own_redis("everysec") as redis,
        replicas(redis.url, 1, LUDOTECA_WS_RATE="10000", LUDOTECA_WS_BURST="10000") as (serve,),
    ):
        yield serve.url, redis.url


@pytest.fixture
async def api(serve_url: tuple[str, str]) -> AsyncIterator[Api]:
    async with Api([serve_url[0]]) as api:
        yield api


def players_for(game_id: str) -> int:
    game = GAMES[game_id]
    return min(max(3, game.min_players), game.max_players)


def forged(game_id: str, token: str) -> list[tuple[dict[str, str], int, set[str]]]:
    """Headers that do not carry a valid token, with the status and codes they must get."""
    body = token.partition(".")[2]
    flipped = body[:-1] + ("A" if body[-1] != "A" else "B")
    return [
        ({"Authorization": "Bearer"}, 401, {"bad_token"}),
        ({"Authorization": f"Basic {token}"}, 401, {"bad_token"}),
        ({"Authorization": token}, 401, {"bad_token"}),
        ({"Authorization": f"Bearer {game_id}.{flipped}"}, 401, {"unknown_token"}),
        ({"Authorization": f"Bearer {game_id}"}, 401, {"unknown_token"}),
        ({"Authorization": f"Bearer {body}"}, 401, {"unknown_token"}),
        ({"Authorization": f"Bearer {ADMIN}"}, 401, {"unknown_token"}),
        ({"Authorization": f"Bearer {game_id}.{'x' * 5000}"}, 401, {"unknown_token"}),
        ({"Authorization": "Bearer ../../etc/passwd"}, 401, {"unknown_token"}),
        ({"Authorization": "Bearer ' OR 1=1 --"}, 401, {"unknown_token"}),
    ]


async def legal_by_seat(api: Api, game_id: str, tokens: list[str]) -> list[list[Any]]:
    answers = await asyncio.gather(
        *(api.at(0).get(f"/api/v1/games/{game_id}/legal-commands", headers=auth(t)) for t in tokens)
    )
    return [r.json()["commands"] for r in answers]


@pytest.mark.timeout(limit(120))
@pytest.mark.parametrize("kind", sorted(GAMES))
async def test_every_command_with_a_token_not_of_the_awaited_seat_is_refused_and_writes_nothing(
    api: Api, serve_url: tuple[str, str], kind: str
) -> None:
    rng = random.Random(f"acting-{kind}")
    redis = redis_client(serve_url[1])
    players = players_for(kind)
    game_id, tokens = await api.started(players, kind)
    other_game, other_tokens = await api.started(players, kind)
    tried = refused = 0
    try:
        for point in range(POINTS):
            legal = await legal_by_seat(api, game_id, tokens)
            awaited = [s for s, commands in enumerate(legal) if commands]
            if not awaited:
                break
            before = await game_keys(redis, game_id), await game_keys(redis, other_game)
            for seat in awaited:
                for command in legal[seat]:
                    attempts: list[tuple[dict[str, str], int, set[str] | None]] = []
                    for other in range(players):
                        if other != seat and command not in legal[other]:
                            attempts.append((auth(tokens[other]), 422, None))  # the rule's own code
                    attempts.append(({}, 403, {"spectator"}))
                    attempts.append((auth(other_tokens[seat]), 403, {"not_seated"}))
                    attempts += forged(game_id, tokens[seat])
                    for headers, status, codes in attempts:
                        body = {"command": command, "command_id": f"x{point}-{tried}"}
                        r = await api.at(0).post(f"/api/v1/games/{game_id}/commands", json=body, headers=headers)
                        tried += 1
                        assert r.status_code == status, (headers, command, r.text)
                        assert codes is None or r.json()["error"] in codes, r.text
                        refused += 1
            after = await game_keys(redis, game_id), await game_keys(redis, other_game)
            assert after == before, "a refused command changed the game's keys"
            seat = rng.choice(awaited)
            r = await api.send(game_id, tokens[seat], rng.choice(legal[seat]))
            assert r.status_code == 200, r.text
    finally:
        await redis.aclose()
    assert tried > 0
    figure(f"acting as another ({kind}, REST): refused", f"{refused}/{tried}, 0 events written")


async def ws_answer(url: str, game_id: str, token: str | None, messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Say hello with ``token``, send ``messages``, and collect what comes back until each has an answer."""
    got: list[dict[str, Any]] = []
    ws_url = url.replace("http://", "ws://") + f"/api/v1/games/{game_id}/ws"
    async with connect(ws_url) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token, "after": 0}))
        for m in messages:
            await ws.send(json.dumps(m))
        try:
            async with asyncio.timeout(5):
                while sum(1 for g in got if g["type"] in ("error", "ack") and g.get("command_id")) < len(messages):
                    got.append(json.loads(await ws.recv()))
        except ConnectionClosed as exc:
            got.append({"type": "closed", "code": exc.rcvd.code if exc.rcvd else None})
    return got


async def ws_hello(url: str, game_id: str, token: str | None) -> list[dict[str, Any]]:
    """Say hello with ``token`` and collect everything until the server closes the socket."""
    got: list[dict[str, Any]] = []
    ws_url = url.replace("http://", "ws://") + f"/api/v1/games/{game_id}/ws"
    async with connect(ws_url) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token, "after": 0}))
        try:
            async with asyncio.timeout(5):
                while True:
                    got.append(json.loads(await ws.recv()))
        except ConnectionClosed as exc:
            got.append({"type": "closed", "code": exc.rcvd.code if exc.rcvd else None})
    return got


@pytest.mark.timeout(limit(120))
@pytest.mark.parametrize("kind", sorted(GAMES))
async def test_on_the_websocket_commands_of_another_seat_are_refused_and_bad_hellos_are_closed(
    api: Api, serve_url: tuple[str, str], kind: str
) -> None:
    url, redis_url = serve_url
    redis = redis_client(redis_url)
    players = players_for(kind)
    game_id, tokens = await api.started(players, kind)
    _, other_tokens = await api.started(players, kind)
    tried = 0
    try:
        legal = await legal_by_seat(api, game_id, tokens)
        awaited = [s for s, commands in enumerate(legal) if commands]
        before = await game_keys(redis, game_id)
        for seat in awaited:
            for other in [*(s for s in range(players) if s != seat), None]:
                commands = [c for c in legal[seat] if other is None or c not in legal[other]]
                messages = [
                    {"type": "command", "command": c, "command_id": f"ws-{i}", "expected_version": None}
                    for i, c in enumerate(commands)
                ]
                if not messages:
                    continue
                got = await ws_answer(url, game_id, None if other is None else tokens[other], messages)
                errors = [g for g in got if g["type"] == "error"]
                assert not [g for g in got if g["type"] == "ack"]
                assert len(errors) == len(messages), got
                expected = {"spectator"} if other is None else None
                for e in errors:
                    assert expected is None or e["error"] in expected, e
                    assert e["error"] not in ("internal",), e
                tried += len(messages)
        # hellos that do not hold a seat of this game: an error, then 4003
        for token, code in [
            (other_tokens[0], "not_seated"),
            (f"{game_id}.forged", "unknown_token"),
            (ADMIN, "unknown_token"),
            ("", "unknown_token"),
        ]:
            got = await ws_hello(url, game_id, token)
            assert [g["type"] for g in got] == ["error", "closed"], got
            assert got[0]["error"] == code and got[1]["code"] == 4003, got
            tried += 1
        assert await game_keys(redis, game_id) == before
    finally:
        await redis.aclose()
    figure(f"acting as another ({kind}, WebSocket): refused", f"{tried}/{tried}, 0 events written")


@pytest.mark.timeout(limit(120))
@pytest.mark.parametrize("kind", sorted(GAMES))
async def test_a_socket_without_a_seat_receives_no_private_data(
    api: Api, serve_url: tuple[str, str], kind: str
) -> None:
    url, _ = serve_url
    game = GAMES[kind]
    rng = random.Random(f"seatless-{kind}")
    players = players_for(kind)
    game_id, tokens = await api.started(players, kind)
    inbox: list[str] = []
    ws_url = url.replace("http://", "ws://") + f"/api/v1/games/{game_id}/ws"
    async with connect(ws_url) as ws:
        await ws.send(json.dumps({"type": "hello", "token": None, "after": 0}))
        for _ in range(30):
            legal = await legal_by_seat(api, game_id, tokens)
            awaited = [s for s, commands in enumerate(legal) if commands]
            if not awaited:
                break
            seat = rng.choice(awaited)
            assert (await api.send(game_id, tokens[seat], rng.choice(legal[seat]))).status_code == 200
        version = (await api.table(game_id))["version"]
        async with asyncio.timeout(10):
            while not inbox or json.loads(inbox[-1]).get("version", 0) < version:
                inbox.append(str(await ws.recv()))
    export = await api.at(0).get(f"/api/v1/games/{game_id}/export", headers=auth(ADMIN))
    assert export.status_code == 200
    log = log_from_export(game, export.text)
    hidden = hidden_from(game, log, None)
    assert not leaks(hidden, *inbox)
    figure(f"seatless socket ({kind}): hidden strings checked", f"{len(hidden)} hidden, 0 leaked")
