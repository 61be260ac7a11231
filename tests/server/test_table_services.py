"""Table services end to end, for every game, over HTTP and the WebSocket against the real
server: a clock running out, a resignation taken over by a bot, an undo within a turn (and
one refused), calling a table off, a rematch, and kept logs of older rules replayed."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import random
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis.asyncio as aioredis
from websockets.asyncio.client import ClientConnection, connect

from domain.catalog import GAMES
from tests.server.conftest import ADMIN, Running, quick_settings, running

EVERY_GAME = pytest.mark.parametrize("game", sorted(GAMES))
UNDOABLE = ["i-love-portugal", "miss-liz-parks", "vilar-de-mouros"]
OLD_LOGS = sorted((Path(__file__).parents[1] / "domain" / "old_logs").glob("*/*.jsonl"))


@pytest.fixture
async def api(redis: aioredis.Redis, redis_url: str) -> AsyncIterator[Running]:
    """A server whose bots do not pause to think."""
    async with running(quick_settings(redis_url)) as replica:
        yield replica


@pytest.fixture
async def other(redis: aioredis.Redis, redis_url: str) -> AsyncIterator[Running]:
    """A second replica on the same Redis."""
    async with running(quick_settings(redis_url)) as replica:
        yield replica


async def open_table(api: Running, game: str, players: int, **extra: Any) -> dict[str, Any]:
    r = await api.http.post("/api/v1/games", json={"game": game, "players": players, **extra})
    assert r.status_code == 201, r.text
    created: dict[str, Any] = r.json()
    return created


async def table(api: Running, game_id: str, token: str | None = None) -> dict[str, Any]:
    r = await api.get(f"/api/v1/games/{game_id}", token)
    assert r.status_code == 200, r.text
    found: dict[str, Any] = r.json()
    return found


async def legal(api: Running, game_id: str, token: str) -> dict[str, Any]:
    r = await api.get(f"/api/v1/games/{game_id}/legal-commands", token)
    assert r.status_code == 200, r.text
    found: dict[str, Any] = r.json()
    return found


async def until(api: Running, game_id: str, check: Any, seconds: float = 20) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    while True:
        found = await table(api, game_id)
        if check(found) or time.monotonic() > deadline:
            return found
        await asyncio.sleep(0.05)


def kinds(answer: httpx.Response) -> list[str]:
    return [e["event"]["type"] for e in answer.json()["events"]]


async def until_undoable(
    api: Running, game_id: str, tokens: list[str], rng: random.Random
) -> tuple[int, dict[str, Any], httpx.Response]:
    """Random legal commands until one is marked undoable: its seat, that seat's table before it, the answer."""
    for _ in range(400):
        seat, commands = await api.awaited(game_id, tokens)
        before = await table(api, game_id, tokens[seat])
        r = await api.send(game_id, tokens[seat], rng.choice(commands), expected_version=before["version"])
        assert r.status_code == 200, r.text
        if kinds(r)[0] == "Undoable":
            return seat, before, r
    raise AssertionError("no undoable step")


@EVERY_GAME
async def test_a_clock_that_runs_out_plays_the_greedy_move_for_the_seat(api: Running, game: str) -> None:
    clock = {"per": "move", "seconds": 1, "on_timeout": "bot_move"}
    game_id = (await open_table(api, game, 2, clock=clock))["game_id"]
    tokens = await api.seat_all(game_id, 2)
    start = await table(api, game_id)
    assert start["clock"] == {**clock, "bank": 0, "credit": 0} and [c["left_ms"] for c in start["clocks"]] == [
        1000,
        1000,
    ]
    late = start["awaiting"][0]["seat"]
    assert start["clocks"][late]["running_since_ms"] is not None
    moved = await until(api, game_id, lambda t: t["version"] > start["version"], 10)
    assert moved["version"] > start["version"], "the clock never ran out"
    r = await api.get(f"/api/v1/games/{game_id}/events", tokens[late], after=start["version"])
    events = [e["event"] for e in r.json()["events"]]
    assert events[0] == {"type": "TimeRanOut", "seat": late}
    assert any(e["type"] == "ClockTicked" and e["seat"] == late for e in events)


async def test_a_clock_runs_out_on_a_replica_started_after_every_other_stopped(
    redis: aioredis.Redis, redis_url: str
) -> None:
    """The clocks are facts and a due index in Redis: no replica needs to have been up."""
    clock = {"per": "game", "seconds": 1, "on_timeout": "bot_move"}
    async with running(quick_settings(redis_url)) as first:
        game_id = (await open_table(first, "vilar-de-mouros", 2, clock=clock))["game_id"]
        await first.seat_all(game_id, 2)
        start = await table(first, game_id)
    await asyncio.sleep(1.2)  # the clock runs out while no replica is up
    async with running(quick_settings(redis_url)) as second:
        moved = await until(second, game_id, lambda t: t["version"] > start["version"], 10)
        assert moved["version"] > start["version"], "the clock was lost with the replicas"
        r = await second.get(f"/api/v1/games/{game_id}/events", None, after=start["version"])
        assert r.json()["events"][0]["event"]["type"] == "TimeRanOut"


async def test_a_one_day_clock_is_a_preset_with_a_time_bank(api: Running) -> None:
    game_id = (await open_table(api, "itchy-feet", 2, clock="one-day"))["game_id"]
    await api.seat_all(game_id, 2)
    start = await table(api, game_id)
    day = 24 * 3600
    assert start["clock"] == {"per": "move", "seconds": day, "on_timeout": "ask", "bank": 2 * day, "credit": day // 2}
    assert [c["bank_ms"] for c in start["clocks"]] == [2 * day * 1000] * 2
    unknown = await api.http.post("/api/v1/games", json={"game": "itchy-feet", "players": 2, "clock": "one-week"})
    assert unknown.status_code == 422 and unknown.json()["error"] == "bad_clock"


async def test_a_day_scale_seat_out_of_time_waits_for_the_others_to_choose_across_a_restart_of_every_replica(
    redis: aioredis.Redis, redis_url: str
) -> None:
    """The one-day profile shortened to a second a move and a second of bank: the late seat is never
    dropped silently; the other waits for it once, then lets the bot play on."""
    clock = {"per": "move", "seconds": 1, "bank": 1, "credit": 0, "on_timeout": "ask"}
    async with running(quick_settings(redis_url)) as first:
        game_id = (await open_table(first, "vilar-de-mouros", 3, clock=clock))["game_id"]
        tokens = await first.seat_all(game_id, 3)
        start = await table(first, game_id)
    late = start["awaiting"][0]["seat"]
    await asyncio.sleep(2.2)  # the move's time and the bank run out while no replica is up
    async with running(quick_settings(redis_url)) as second:
        out = await until(second, game_id, lambda t: t["out_of_time"], 10)
        assert out["out_of_time"] == [late] and out["resigned"] == [], "the clock was lost, or the seat dropped"
        other = tokens[(late + 1) % 3]  # with three seats the game goes on once the late one leaves
        own = await second.send(game_id, tokens[late], {"type": "KeepWaiting", "seat": late})
        assert own.status_code == 422 and own.json()["error"] == "not_yours_to_choose"
        waited = await second.send(game_id, other, {"type": "KeepWaiting", "seat": late})
        assert waited.status_code == 200, waited.text
        assert [e["event"]["type"] for e in waited.json()["events"]] == ["TimeExtended", "ClockTicked"]
        again = await until(second, game_id, lambda t: t["out_of_time"], 10)  # a second's move, then out again
        assert again["out_of_time"] == [late]
        handed = await second.send(game_id, other, {"type": "LetBotPlayOn", "seat": late})
        assert handed.status_code == 200, handed.text
        after = await table(second, game_id)
        assert after["resigned"] == [late] and after["out_of_time"] == [] and after["seats"][late]["bot"] == "greedy"


async def test_a_vacated_seat_is_offered_by_invitation_and_a_newcomer_takes_it_over_seeing_what_it_saw(
    api: Running,
) -> None:
    game_id = (await open_table(api, "vilar-de-mouros", 3))["game_id"]
    tokens = await api.seat_all(game_id, 3)
    assert (await api.send(game_id, tokens[2], {"type": "Resign"})).status_code == 200
    left = await table(api, game_id)
    assert left["resigned"] == [2] and left["seats"][2]["bot"] == "greedy"
    seat_saw = (await api.get(f"/api/v1/games/{game_id}/events", tokens[2])).json()["events"]
    auth = {"Authorization": f"Bearer {tokens[0]}"}
    offered = await api.http.post(f"/api/v1/games/{game_id}/invites", json={"seat": 2}, headers=auth)
    assert offered.status_code == 201, offered.text
    invite = offered.json()["invite"]
    refused = await api.http.post(f"/api/v1/games/{game_id}/invites", json={"seat": 1}, headers=auth)
    assert refused.status_code == 422 and refused.json()["error"] == "seat_not_vacated"
    nobody = await api.http.post(f"/api/v1/games/{game_id}/invites", json={"seat": 2})
    assert nobody.status_code == 403 and nobody.json()["error"] == "spectator"
    taken = await api.http.post(f"/api/v1/games/{game_id}/seats", json={"invite": invite, "name": "Eva"})
    assert taken.status_code == 201 and taken.json()["seat"] == 2, taken.text
    eva = taken.json()["token"]
    now = await table(api, game_id, eva)
    assert now["seat"] == 2 and now["resigned"] == [] and now["seats"][2] == {
        "seat": 2, "name": "Eva", "bot": None, "player": None, "named": True
    }  # fmt: skip
    # The newcomer is shown exactly what the seat saw before: its whole redacted history.
    as_seat = (await api.get(f"/api/v1/games/{game_id}/events", eva)).json()["events"]
    assert as_seat[: len(seat_saw)] == seat_saw
    assert as_seat[-1]["event"] == {"type": "SeatTakenOver", "seat": 2, "name": "Eva", "player": None}
    # The one who left does not act there again: its token is the former tenure's.
    former = await api.send(game_id, tokens[2], {"type": "DrawFromDeck"})
    assert former.status_code == 401 and former.json()["error"] == "unknown_token"
    again = await api.http.post(f"/api/v1/games/{game_id}/seats", json={"invite": invite})
    assert again.status_code == 422 and again.json()["error"] == "seat_not_offered"
    forged = await api.http.post(f"/api/v1/games/{game_id}/seats", json={"invite": f"{game_id}.nope"})
    assert forged.status_code == 422 and forged.json()["error"] == "unknown_invite"


async def test_a_clock_under_time_out_hands_the_seat_to_a_bot(api: Running) -> None:
    clock = {"per": "game", "seconds": 1, "on_timeout": "time_out"}
    game_id = (await open_table(api, "miss-liz-parks", 3, clock=clock))["game_id"]
    await api.seat_all(game_id, 3)
    late = (await table(api, game_id))["awaiting"][0]["seat"]
    after = await until(api, game_id, lambda t: t["resigned"], 10)
    assert after["resigned"] == [late] and after["seats"][late]["bot"] == "greedy"


@EVERY_GAME
async def test_a_seat_that_resigns_is_played_on_by_the_greedy_bot(api: Running, game: str) -> None:
    game_id = (await open_table(api, game, 3))["game_id"]
    tokens = await api.seat_all(game_id, 3)
    seat, _ = await api.awaited(game_id, tokens)
    before = await table(api, game_id)
    r = await api.send(game_id, tokens[seat], {"type": "Resign"})
    assert r.status_code == 200, r.text
    assert r.json()["events"][0]["event"] == {
        "type": "SeatResigned",
        "seat": seat,
        "reason": "resigned",
        "bot": "greedy",
    }
    # the bot plays the seat's turn by itself
    moved = await until(api, game_id, lambda t: t["version"] > r.json()["version"])
    assert moved["version"] > r.json()["version"] and moved["resigned"] == [seat]
    assert moved["seats"][seat]["bot"] == "greedy" and moved["status"] == "active"
    refused = await api.send(game_id, tokens[seat], {"type": "Resign"})
    assert refused.status_code == 403 and refused.json()["error"] == "resigned"
    # a second seat leaving leaves one person: the game ends, those who stayed first
    other = next(s for s in range(3) if s != seat)
    r = await api.send(game_id, tokens[other], {"type": "Resign"})
    assert r.status_code == 200, r.text
    end = await table(api, game_id)
    stayed = 3 - seat - other
    assert end["status"] == "finished" and end["resigned"] == [seat, other]
    places = [0, 0, 0]
    places[stayed], places[seat], places[other] = 1, 3, 2
    assert end["outcome"] == {
        "type": "abandoned",
        "scores": [0, 0, 0],
        "places": places,
        "winners": [stayed],
        "reason": "resigned",
    }
    assert before["resigned"] == []


async def command_over_socket(api: Running, game_id: str, token: str, command: Any, command_id: str) -> Any:
    """Send one command on the game's WebSocket; the ack or the error that answers it."""
    async with connect(f"{api.ws_url}/api/v1/games/{game_id}/ws") as ws:
        await ws.send(json.dumps({"type": "hello", "token": token, "after": 0}))
        await ws.send(json.dumps({"type": "command", "command": command, "command_id": command_id}))
        while True:
            message = json.loads(await asyncio.wait_for(ws.recv(), 10))
            if message["type"] in ("ack", "error") and message.get("command_id") == command_id:
                return message


@EVERY_GAME
async def test_resigning_and_undoing_over_the_websocket(api: Running, game: str) -> None:
    game_id = (await open_table(api, game, 3))["game_id"]
    tokens = await api.seat_all(game_id, 3)
    seat, _ = await api.awaited(game_id, tokens)
    refused = await command_over_socket(api, game_id, tokens[seat], {"type": "Undo"}, "ws-undo")
    assert refused["type"] == "error" and refused["error"] == "nothing_to_undo"
    left = await command_over_socket(api, game_id, tokens[seat], {"type": "Resign"}, "ws-resign")
    assert left["type"] == "ack"
    assert (await table(api, game_id))["resigned"] == [seat]
    again = await command_over_socket(api, game_id, tokens[seat], {"type": "Resign"}, "ws-resign-2")
    assert again["type"] == "error" and again["error"] == "resigned"


@pytest.mark.parametrize("game", UNDOABLE)
async def test_a_seat_undoes_a_step_within_its_turn_over_the_websocket(api: Running, game: str) -> None:
    game_id = (await open_table(api, game, 2))["game_id"]
    tokens = await api.seat_all(game_id, 2)
    seat, _, r = await until_undoable(api, game_id, tokens, random.Random(3))
    undone = await command_over_socket(api, game_id, tokens[seat], {"type": "Undo"}, "ws-undo")
    assert undone == {"type": "ack", "command_id": "ws-undo", "version": r.json()["version"] + 1}


@pytest.mark.parametrize("game", UNDOABLE)
async def test_a_seat_undoes_a_step_within_its_turn(api: Running, game: str) -> None:
    game_id = (await open_table(api, game, 2))["game_id"]
    tokens = await api.seat_all(game_id, 2)
    seat, before, r = await until_undoable(api, game_id, tokens, random.Random(1))
    assert (await legal(api, game_id, tokens[seat]))["undo"] == [before["version"]]
    undone = await api.send(game_id, tokens[seat], {"type": "Undo"})
    assert undone.status_code == 200, undone.text
    assert kinds(undone) == ["StepsUndone"]
    after = await table(api, game_id, tokens[seat])
    assert after["view"] == before["view"] and after["version"] == r.json()["version"] + 1
    spectator = await api.get(f"/api/v1/games/{game_id}/events", None, after=before["version"])
    assert [e["event"]["type"] for e in spectator.json()["events"]][-1] == "StepsUndone"


@EVERY_GAME
async def test_no_undo_after_a_step_that_showed_something_hidden(api: Running, game: str) -> None:
    game_id = (await open_table(api, game, 2))["game_id"]
    tokens = await api.seat_all(game_id, 2)
    rng = random.Random(2)
    for _ in range(400):
        seat, commands = await api.awaited(game_id, tokens)
        r = await api.send(game_id, tokens[seat], rng.choice(commands))
        assert r.status_code == 200, r.text
        # a step the seat saw privately (a draw): its feed and the spectator's differ
        mine = [e["event"] for e in r.json()["events"]]
        public = await api.get(f"/api/v1/games/{game_id}/events", None, after=r.json()["events"][0]["version"] - 1)
        if mine != [e["event"] for e in public.json()["events"]][: len(mine)]:
            break
    else:
        raise AssertionError("no secret step")
    refused = await api.send(game_id, tokens[seat], {"type": "Undo"})
    assert refused.status_code == 422 and refused.json()["error"] == "nothing_to_undo", refused.text


async def test_the_creator_calls_off_a_table_before_it_starts(api: Running) -> None:
    created = await open_table(api, "itchy-feet", 3)
    game_id, creator = created["game_id"], created["creator_token"]
    [seat] = await api.seat_all(game_id, 1)
    path = f"/api/v1/games/{game_id}"
    r = await api.http.delete(path)
    assert r.status_code == 401 and r.json()["error"] == "missing_token"
    r = await api.http.delete(path, headers={"Authorization": f"Bearer {seat}"})
    assert r.status_code == 403 and r.json()["error"] == "not_creator"
    r = await api.http.delete(path, headers={"Authorization": f"Bearer {creator}"})
    assert r.status_code == 200, r.text
    assert r.json()["status"] == "finished"
    called_off = await table(api, game_id)
    assert called_off["outcome"]["type"] == "abandoned" and called_off["outcome"]["reason"] == "cancelled"
    open_ids = [g["game_id"] for g in (await api.get("/api/v1/games", status="open")).json()["games"]]
    assert game_id not in open_ids
    started = await open_table(api, "itchy-feet", 2)
    await api.seat_all(started["game_id"], 2)
    r = await api.http.delete(
        f"/api/v1/games/{started['game_id']}", headers={"Authorization": f"Bearer {started['creator_token']}"}
    )
    assert r.status_code == 409 and r.json()["error"] == "game_started"


@EVERY_GAME
async def test_a_rematch_seats_each_old_seat_again_with_one_call(api: Running, game: str) -> None:
    game_id = (await open_table(api, game, 3))["game_id"]
    tokens = await api.seat_all(game_id, 2)
    bot = await api.http.post(f"/api/v1/games/{game_id}/seats", json={"bot": "random"})
    assert bot.status_code == 201, bot.text
    early = await api.http.post(f"/api/v1/games/{game_id}/rematch", headers={"Authorization": f"Bearer {tokens[0]}"})
    assert early.status_code == 422 and early.json()["error"] == "game_not_over"
    for token in (tokens[1], tokens[0]):  # both people leave: only the bot is left, and the game is over
        assert (await api.send(game_id, token, {"type": "Resign"})).status_code == 200
    assert (await table(api, game_id))["status"] == "finished"
    answers = await asyncio.gather(
        *(api.http.post(f"/api/v1/games/{game_id}/rematch", headers={"Authorization": f"Bearer {t}"}) for t in tokens)
    )
    assert [a.status_code for a in answers] == [201, 201], [a.text for a in answers]
    new_id = answers[0].json()["game_id"]
    assert {a.json()["game_id"] for a in answers} == {new_id}
    assert [a.json()["seat"] for a in answers] == [0, 1]
    again = await api.http.post(f"/api/v1/games/{game_id}/rematch", headers={"Authorization": f"Bearer {tokens[0]}"})
    assert again.json() == answers[0].json()  # the same seat and token
    assert (await table(api, game_id))["rematch"] == new_id
    rematch = await table(api, new_id, answers[0].json()["token"])
    assert rematch["status"] == "active" and rematch["seat"] == 0
    assert rematch["seats"][2]["bot"] == "random"
    spectator = await api.http.post(f"/api/v1/games/{game_id}/rematch")
    assert spectator.status_code == 403


async def presence_message(ws: ClientConnection, seats: list[int]) -> dict[str, Any]:
    """The first presence message on ``ws`` that lists exactly ``seats``."""
    while True:
        message = json.loads(await asyncio.wait_for(ws.recv(), 10))
        if message["type"] == "presence" and [s["seat"] for s in message["seats"]] == seats:
            found: dict[str, Any] = message
            return found


@EVERY_GAME
async def test_two_seats_connected_to_two_replicas_are_present_on_both(api: Running, other: Running, game: str) -> None:
    game_id = (await open_table(api, game, 3))["game_id"]
    tokens = await api.seat_all(game_id, 3)
    hello = {"type": "hello", "token": tokens[0], "after": 0, "presence": True}
    async with connect(f"{api.ws_url}/api/v1/games/{game_id}/ws") as first:
        await first.send(json.dumps(hello))
        async with connect(f"{other.ws_url}/api/v1/games/{game_id}/ws") as second:
            await second.send(json.dumps({**hello, "token": tokens[2]}))
            both = await presence_message(first, [0, 2])  # pushed to the first socket from the other replica
            assert (await presence_message(second, [0, 2]))["seats"] == both["seats"]
            for running in (api, other):
                shown = (await table(running, game_id))["presence"]
                assert [s["seat"] for s in shown["seats"]] == [0, 2] and shown["spectators"] == 0
            since = {s["seat"]: s["since_ms"] for s in both["seats"]}
            assert since[0] <= since[2]
        alone = await presence_message(first, [0])
        assert alone["seats"][0]["since_ms"] == since[0]
    assert (await table(other, game_id))["presence"] == {"type": "presence", "seats": [], "spectators": 0}


async def test_a_seat_away_longer_than_drop_after_is_handed_to_a_bot(redis: aioredis.Redis, redis_url: str) -> None:
    settings = dataclasses.replace(quick_settings(redis_url), drop_after=0.5)
    async with running(settings) as api:
        game_id = (await open_table(api, "vilar-de-mouros", 3))["game_id"]
        tokens = await api.seat_all(game_id, 3)
        for seat in (0, 2):  # seat 1 plays over REST only: it never held a socket, it is never dropped
            async with connect(f"{api.ws_url}/api/v1/games/{game_id}/ws") as ws:
                await ws.send(json.dumps({"type": "hello", "token": tokens[seat], "after": 0}))
                await ws.recv()
        async with connect(f"{api.ws_url}/api/v1/games/{game_id}/ws") as ws:
            await ws.send(json.dumps({"type": "hello", "token": tokens[2], "after": 0}))
            await ws.recv()  # seat 2 came back in time
            left = await until(api, game_id, lambda t: t["resigned"], 10)
            await asyncio.sleep(1.5)
            assert (await table(api, game_id))["resigned"] == [0]
        assert left["resigned"] == [0] and left["seats"][0]["bot"] == "greedy"
        # (the bot may have played the seat on before the table was looked at: the whole log)
        r = await api.get(f"/api/v1/games/{game_id}/events", tokens[1], after=0)
        assert {"type": "SeatResigned", "seat": 0, "reason": "dropped", "bot": "greedy"} in [
            e["event"] for e in r.json()["events"]
        ]


@pytest.mark.parametrize("path", OLD_LOGS, ids=[p.stem for p in OLD_LOGS])
async def test_a_kept_log_of_older_rules_imports_and_replays_to_its_outcome(api: Running, path: Path) -> None:
    r = await api.http.post(
        "/api/v1/games/import",
        content=path.read_bytes(),
        headers={"Authorization": f"Bearer {ADMIN}", "Content-Type": "application/x-ndjson"},
    )
    assert r.status_code == 201, r.text
    game_id = r.json()["game_id"]
    final = await table(api, game_id)
    assert final["status"] == "finished"
    expected = json.loads(path.with_name(path.stem + ".outcome.json").read_text())
    assert final["outcome"] == expected
