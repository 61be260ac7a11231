"""The WebSocket protocol against a real server: hello, catch-up, live updates, commands."""

from __future__ import annotations

import asyncio
import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest
import redis.asyncio as aioredis
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

import server as server_package
from server.service.feeds import SLOW, Subscriber
from tests.server.conftest import Running
from tests.support.replies import entries_of


def configure(server: Running, **changes: Any) -> None:
    settings = server.app.state.settings = dataclasses.replace(server.app.state.settings, **changes)
    # The seats' buckets and the sockets' sessions are made once, from the settings at start.
    rates = server.app.state.rates
    rates.rate, rates.burst = settings.ws_rate, settings.ws_burst
    sessions = server.app.state.sessions
    sessions.queue_size, sessions.catch_up_chunk = settings.ws_queue, settings.catch_up_chunk


async def hello(server: Running, game_id: str, token: str | None, after: int = 0, **kw: Any) -> ClientConnection:
    ws = await connect(f"{server.ws_url}/api/v1/games/{game_id}/ws", **kw)
    await ws.send(json.dumps({"type": "hello", "token": token, "after": after}))
    return ws


async def receive(ws: ClientConnection) -> dict[str, Any]:
    message: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), 5))
    return message


async def updates_until(ws: ClientConnection, version: int) -> list[dict[str, Any]]:
    got: list[dict[str, Any]] = []
    while not got or got[-1]["version"] < version:
        message = await receive(ws)
        if message["type"] == "update":
            got.append(message)
    return got


async def test_hello_catches_up_every_version_then_the_view(server: Running) -> None:
    game_id, tokens = await server.started(2)
    version = (await server.get(f"/api/v1/games/{game_id}")).json()["version"]
    async with await hello(server, game_id, tokens[0]) as ws:
        update = await receive(ws)
    assert update["type"] == "update" and update["version"] == version
    assert [e["version"] for e in update["events"]] == list(range(1, version + 1))
    assert update["view"] == (await server.get(f"/api/v1/games/{game_id}", tokens[0])).json()["view"]


async def test_catch_up_comes_in_chunks_and_only_the_last_carries_the_view(server: Running) -> None:
    configure(server, catch_up_chunk=2)
    game_id, _tokens = await server.started(2)
    version = (await server.get(f"/api/v1/games/{game_id}")).json()["version"]
    async with await hello(server, game_id, None) as ws:
        chunks = await updates_until(ws, version)
    assert [c["version"] for c in chunks] == [min(v, version) for v in range(2, version + 2, 2)]
    assert all(c["view"] is None for c in chunks[:-1]) and chunks[-1]["view"] is not None
    assert all(c["status"] is None for c in chunks[:-1]) and chunks[-1]["status"] == "active"
    assert [e["version"] for c in chunks for e in c["events"]] == list(range(1, version + 1))


async def test_after_resumes_from_the_last_version_held(server: Running) -> None:
    game_id, tokens = await server.started(2)
    version = (await server.get(f"/api/v1/games/{game_id}")).json()["version"]
    async with await hello(server, game_id, tokens[1], after=version - 1) as ws:
        update = await receive(ws)
    assert [e["version"] for e in update["events"]] == [version]


async def test_every_command_reaches_every_socket_in_order(server: Running) -> None:
    game_id, tokens = await server.started(2)
    start = (await server.get(f"/api/v1/games/{game_id}")).json()["version"]
    sockets = [await hello(server, game_id, t) for t in tokens] + [await hello(server, game_id, None)]
    for ws in sockets:
        await updates_until(ws, start)
    await play_and_check_every_socket(server, game_id, tokens, sockets, start, 6)
    for ws in sockets:
        await ws.close()


async def play_and_check_every_socket(
    server: Running, game_id: str, tokens: list[str], sockets: list[ClientConnection], start: int, commands: int
) -> None:
    """Play ``commands`` of the awaited seats' first commands; every socket gets every version after ``start``."""
    for _ in range(commands):
        seat, legal = await server.awaited(game_id, tokens)
        assert (await server.send(game_id, tokens[seat], legal[0])).status_code == 200
    end = (await server.get(f"/api/v1/games/{game_id}")).json()["version"]
    for ws in sockets:
        versions = [e["version"] for u in await updates_until(ws, end) for e in u["events"]]
        assert versions == list(range(start + 1, end + 1))


def servers_tasks() -> int:
    """Tasks running a coroutine of the server's own code."""
    here = str(Path(server_package.__file__).parent)
    files = [getattr(t.get_coro(), "cr_code").co_filename for t in asyncio.all_tasks()]  # noqa: B009
    return sum(1 for f in files if f.startswith(here))


async def test_an_idle_socket_holds_no_sender_task_and_a_command_wakes_every_sender(server: Running) -> None:
    # Thousands of sockets are idle most of the time: a sender task (its coroutine and future)
    # is made only while a socket has messages to send. An idle socket holds no task of the
    # server's own (uvicorn's task for the socket runs its receive loop).
    game_id, tokens = await server.started(2)
    start = (await server.get(f"/api/v1/games/{game_id}")).json()["version"]
    sockets = [await hello(server, game_id, None)]
    await updates_until(sockets[0], start)
    await asyncio.sleep(0.05)
    before = servers_tasks()  # with the game's own workers running
    sockets += [await hello(server, game_id, t) for t in tokens * 5]
    for ws in sockets[1:]:
        await updates_until(ws, start)
    await asyncio.sleep(0.05)
    assert servers_tasks() == before
    await play_and_check_every_socket(server, game_id, tokens, sockets, start, 3)
    await asyncio.sleep(0.05)
    assert servers_tasks() == before
    for ws in sockets:
        await ws.close()


def awaiting(task: asyncio.Task[Any]) -> list[str]:
    """The coroutines a task is suspended in, outermost first."""
    chain: list[str] = []
    coro: Any = task.get_coro()
    while coro is not None:
        chain.append(getattr(coro, "__qualname__", type(coro).__name__))
        coro = getattr(coro, "cr_await", None)
    return chain


async def test_a_socket_waits_in_its_handler_with_no_http_layer_suspended_around_it(server: Running) -> None:
    # A socket lives for hours, and each layer between uvicorn and its handler (the middleware,
    # the router) would stay suspended as long: memory, and objects every full collection walks.
    game_id, tokens = await server.started(2)
    async with await hello(server, game_id, tokens[0]) as ws:
        await receive(ws)
        await asyncio.sleep(0.05)
        chains = [c for c in map(awaiting, asyncio.all_tasks()) if "game_socket" in c]
        assert len(chains) == 1
        outermost = ["WebSocketsSansIOProtocol.run_asgi", "Ludoteca.__call__", "game_socket", "serve_socket"]
        assert chains[0][:4] == outermost


async def test_updates_carry_the_status_and_once_finished_the_outcome(server: Running) -> None:
    game_id, tokens = await server.started(2)
    async with await hello(server, game_id, None) as ws:
        first = await receive(ws)
        assert first["status"] == "active" and first["outcome"] is None
        # One of two people leaves: too few remain, the game ends (abandoned).
        assert (await server.send(game_id, tokens[0], {"type": "Resign"})).status_code == 200
        table = (await server.get(f"/api/v1/games/{game_id}")).json()
        last = (await updates_until(ws, table["version"]))[-1]
    assert table["status"] == "finished" and table["outcome"] is not None
    assert last["status"] == "finished" and last["outcome"] == table["outcome"]


async def test_a_command_on_the_socket_is_acked_with_its_id(server: Running) -> None:
    game_id, tokens = await server.started(2)
    seat, commands = await server.awaited(game_id, tokens)
    async with await hello(server, game_id, tokens[seat]) as ws:
        await receive(ws)
        await ws.send(json.dumps({"type": "command", "command": commands[0], "command_id": "ws-1"}))
        messages = [await receive(ws), await receive(ws)]
    ack = next(m for m in messages if m["type"] == "ack")
    update = next(m for m in messages if m["type"] == "update")
    assert ack == {"type": "ack", "command_id": "ws-1", "version": update["version"]}


async def test_a_refused_command_on_the_socket_errors_with_its_id(server: Running) -> None:
    game_id, tokens = await server.started(2)
    seat, commands = await server.awaited(game_id, tokens)
    async with await hello(server, game_id, tokens[1 - seat]) as ws:
        await receive(ws)
        await ws.send(json.dumps({"type": "command", "command": commands[0], "command_id": "ws-2"}))
        error = await receive(ws)
    assert error["type"] == "error" and error["error"] == "not_your_turn" and error["command_id"] == "ws-2"


async def test_a_spectator_cannot_send_commands_on_the_socket(server: Running) -> None:
    game_id, _tokens = await server.started(2)
    async with await hello(server, game_id, None) as ws:
        await receive(ws)
        await ws.send(json.dumps({"type": "command", "command": {"type": "DrawFromDeck"}, "command_id": "x"}))
        error = await receive(ws)
    assert error["error"] == "spectator" and error["command_id"] == "x"


async def test_an_unknown_token_in_hello_is_refused_and_closed(server: Running) -> None:
    game_id, _ = await server.started(2)
    async with await hello(server, game_id, f"{game_id}.forged") as ws:
        error = await receive(ws)
        assert error["error"] == "unknown_token"
        with pytest.raises(ConnectionClosed) as closed:
            await receive(ws)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4003


async def test_a_socket_that_does_not_say_hello_is_closed(server: Running) -> None:
    configure(server, hello_timeout=0.2)
    game_id, _ = await server.started(2)
    async with connect(f"{server.ws_url}/api/v1/games/{game_id}/ws") as ws:
        with pytest.raises(ConnectionClosed) as closed:
            await receive(ws)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008


async def test_a_foreign_origin_is_refused(server: Running) -> None:
    configure(server, allowed_origins=("https://table.example",))
    game_id, _ = await server.started(2)
    with pytest.raises(InvalidStatus):
        await hello(server, game_id, None, origin="https://evil.example")
    async with await hello(server, game_id, None, origin="https://table.example") as ws:
        assert (await receive(ws))["type"] == "update"


async def test_a_resume_after_the_head_is_told_to_reset(server: Running) -> None:
    game_id, tokens = await server.started(2)
    async with await hello(server, game_id, tokens[0], after=10_000) as ws:
        reset = await receive(ws)
        with pytest.raises(ConnectionClosed) as closed:
            await receive(ws)
    assert reset["type"] == "reset"
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4009


async def resume(server: Running, game_id: str, token: str | None, after: int, check: str | None) -> dict[str, Any]:
    """The first message a hello with ``after`` and ``check`` gets, and the close code (``None``: still open)."""
    ws = await connect(f"{server.ws_url}/api/v1/games/{game_id}/ws")
    await ws.send(json.dumps({"type": "hello", "token": token, "after": after, "check": check}))
    first = await receive(ws)
    code = None
    if first["type"] == "reset":
        with pytest.raises(ConnectionClosed) as closed:
            await receive(ws)
        code = closed.value.rcvd.code if closed.value.rcvd is not None else None
    await ws.close()
    return {**first, "close": code}


async def test_every_update_carries_a_check_of_its_version_and_never_the_chain_link(
    server: Running, redis: aioredis.Redis
) -> None:
    configure(server, catch_up_chunk=2)
    game_id, tokens = await server.started(2)
    version = (await server.get(f"/api/v1/games/{game_id}")).json()["version"]
    links = [fields[b"h"].decode() for _, fields in entries_of(await redis.xrange(f"lt:{{{game_id}}}:events"))]
    async with await hello(server, game_id, tokens[0]) as ws:
        chunks = await updates_until(ws, version)
        seat, commands = await server.awaited(game_id, tokens)
        assert (await server.send(game_id, tokens[seat], commands[0])).status_code == 200
        live = await updates_until(ws, version + 1)
    checks = [u["check"] for u in chunks + live]
    assert all(len(c) == 32 for c in checks) and len(set(checks)) == len(checks)
    assert not any(link in json.dumps(u) for u in chunks + live for link in links)


async def test_a_resume_whose_check_differs_from_the_version_held_is_told_to_reset(server: Running) -> None:
    game_id, tokens = await server.started(2)
    version = (await server.get(f"/api/v1/games/{game_id}")).json()["version"]
    async with await hello(server, game_id, tokens[0]) as ws:
        check = (await receive(ws))["check"]
    wrong = "0" * 32 if check != "0" * 32 else "1" * 32
    for after, given in ((version, wrong), (version - 1, check), (version, "é")):
        answer = await resume(server, game_id, tokens[0], after, given)
        assert (answer["type"], answer["close"]) == ("reset", 4009), (after, given)
        assert answer["version"] == version


async def test_a_resume_with_the_right_check_or_none_goes_on_as_before(server: Running) -> None:
    game_id, tokens = await server.started(2)
    version = (await server.get(f"/api/v1/games/{game_id}")).json()["version"]
    async with await hello(server, game_id, tokens[0], after=version - 1) as ws:
        check = (await receive(ws))["check"]
    for given in (check, None, ""):  # an empty check (from a server that sent none) is no check
        answer = await resume(server, game_id, tokens[0], version, given)
        assert answer["type"] == "update" and answer["version"] == version and answer["events"] == []
        assert answer["check"] == check  # a resume at the head is told the head's check again
    answer = await resume(server, game_id, None, version - 1, None)
    assert [e["version"] for e in answer["events"]] == [version] and answer["check"] == check


def test_a_subscriber_that_falls_too_far_behind_is_told_to_resume() -> None:
    sub = Subscriber(None, size=2)
    for version in (1, 2, 3):
        sub.push(version, b"{}")
    assert sub.queue.get_nowait() == (SLOW, b"")  # what was queued is dropped; the socket closes with 4008
