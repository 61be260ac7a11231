"""Abuse: oversized bodies and messages, a flooding socket, a foreign origin, a crowd of idle sockets.

- a request body over 64 KiB (a command, picks) is refused with 413 ``too_large`` (with or
  without a Content-Length) and writes nothing;
- a WebSocket message over 16 KiB closes the socket with 1009;
- a socket flooding about 1,000 messages a second (commands and ``moves`` requests) is
  answered ``too_many`` and then closed with 4029, while the other seats' latency is measured;
- a WebSocket upgrade from an origin that the configuration does not allow is refused;
- a server holding many idle sockets (opened from another process) keeps serving.
"""

from __future__ import annotations

import asyncio
import json
import statistics
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.typing import Origin

from tests.reliability.harness import Api, auth, figure, game_keys, own_redis, redis_client, replicas
from tests.reliability.sizes import SIZE, limit
from tests.support.processes import ROOT

ALLOWED = "https://table.example"


@pytest.fixture(scope="module")
def serve_url() -> Iterator[tuple[str, str]]:
    with (
        own_redis("everysec") as redis,
        # The seats' rate as it is by default: the flood below is measured against it.
        replicas(redis.url, 1, LUDOTECA_ALLOWED_ORIGINS=ALLOWED, LUDOTECA_WS_RATE="20", LUDOTECA_WS_BURST="40") as (
            serve,
        ),
    ):
        yield serve.url, redis.url


@pytest.fixture
async def api(serve_url: tuple[str, str]) -> AsyncIterator[Api]:
    async with Api([serve_url[0]]) as api:
        yield api


def ws_url(base: str, game_id: str) -> str:
    return base.replace("http://", "ws://") + f"/api/v1/games/{game_id}/ws"


@pytest.mark.timeout(limit(60))
async def test_a_body_over_64_kib_is_refused_with_413_and_writes_nothing(api: Api, serve_url: tuple[str, str]) -> None:
    game_id, tokens = await api.started(2)
    redis = redis_client(serve_url[1])
    try:
        before = await game_keys(redis, game_id)
        big = {"command": {"type": "DrawFromDeck"}, "command_id": "x" * (64 * 1024)}
        path = f"/api/v1/games/{game_id}/commands"
        r = await api.at(0).post(path, json=big, headers=auth(tokens[0]))
        assert r.status_code == 413 and r.json()["error"] == "too_large", r.text

        async def chunks() -> AsyncIterator[bytes]:  # no Content-Length: the server counts
            for _ in range(80):
                yield b" " * 1024

        r = await api.at(0).post(path, content=chunks(), headers=auth(tokens[0]))
        assert r.status_code == 413 and r.json()["error"] == "too_large", r.text
        r = await api.at(0).post("/api/v1/games", content=b"{" + b" " * (65 * 1024) + b"}")
        assert r.status_code == 413
        picks = {"picks": [{"field": "type", "value": "x" * (64 * 1024)}]}
        r = await api.at(0).post(f"/api/v1/games/{game_id}/moves", json=picks, headers=auth(tokens[0]))
        assert r.status_code == 413 and r.json()["error"] == "too_large", r.text
        assert await game_keys(redis, game_id) == before
    finally:
        await redis.aclose()


@pytest.mark.timeout(limit(60))
@pytest.mark.parametrize("when", ["hello", "after-hello"])
async def test_a_websocket_message_over_16_kib_closes_the_socket_with_1009(
    api: Api, serve_url: tuple[str, str], when: str
) -> None:
    game_id, tokens = await api.started(2)
    oversized = json.dumps({"type": "hello", "token": tokens[0], "after": 0, "pad": "x" * (16 * 1024)})
    async with connect(ws_url(serve_url[0], game_id)) as ws:
        if when == "after-hello":
            await ws.send(json.dumps({"type": "hello", "token": tokens[0], "after": 0}))
            assert json.loads(await ws.recv())["type"] == "update"
            oversized = json.dumps({"type": "command", "command": {"type": "x" * (16 * 1024)}, "command_id": "big"})
        await ws.send(oversized)
        with pytest.raises(ConnectionClosed) as closed:
            async with asyncio.timeout(5):
                while True:
                    await ws.recv()
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
    # a message just under the limit is only malformed: the socket stays open
    async with connect(ws_url(serve_url[0], game_id)) as ws:
        await ws.send(json.dumps({"type": "hello", "token": tokens[0], "after": 0}))
        assert json.loads(await ws.recv())["type"] == "update"
        await ws.send(json.dumps({"type": "command", "command": {"type": "y" * 15000}, "command_id": "ok"}))
        answer = json.loads(await asyncio.wait_for(ws.recv(), 5))
        assert answer["type"] == "error" and answer["error"] == "malformed"


async def latencies(api: Api, game_id: str, token: str, stop: asyncio.Event) -> list[float]:
    """Milliseconds per read of the table by another seat, until ``stop``."""
    got = []
    while not stop.is_set():
        start = time.perf_counter()
        r = await api.at(0).get(f"/api/v1/games/{game_id}", headers=auth(token))  # not rate-limited
        assert r.status_code == 200
        got.append((time.perf_counter() - start) * 1000)
        await asyncio.sleep(0.01)
    return got


def p(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=100)[int(q) - 1] if len(values) > 1 else values[0]


@pytest.mark.timeout(limit(90))
async def test_a_flooding_socket_is_told_too_many_then_closed_and_the_others_keep_their_latency(
    api: Api, serve_url: tuple[str, str]
) -> None:
    game_id, tokens = await api.started(2)
    _, seat, _ = await api.awaited(game_id, tokens)
    flooder, other = tokens[1 - seat], tokens[seat]  # the flooder is not awaited: every command is refused

    stop = asyncio.Event()
    baseline_task = asyncio.create_task(latencies(api, game_id, other, stop))
    await asyncio.sleep(1.0)
    stop.set()
    baseline = await baseline_task

    stop = asyncio.Event()
    during_task = asyncio.create_task(latencies(api, game_id, other, stop))
    received: list[dict[str, object]] = []
    sent = 0
    code = None
    started = time.perf_counter()
    async with connect(ws_url(serve_url[0], game_id)) as ws:
        await ws.send(json.dumps({"type": "hello", "token": flooder, "after": 0}))

        async def read() -> None:
            async for raw in ws:
                received.append(json.loads(raw))

        reader = asyncio.create_task(read())
        try:
            for n in range(SIZE.flood_messages):  # about 1,000 a second, commands and moves requests
                if n % 2:
                    await ws.send(json.dumps({"type": "moves", "picks": [], "request_id": f"m{n}"}))
                else:
                    await ws.send(
                        json.dumps({"type": "command", "command": {"type": "DrawFromDeck"}, "command_id": f"f{n}"})
                    )
                sent += 1
                if n % 10 == 9:
                    await asyncio.sleep(0.01)
        except ConnectionClosed:
            pass
        try:
            async with asyncio.timeout(10):
                await reader
        except ConnectionClosed:
            pass
        code = ws.close_code
    flood_seconds = time.perf_counter() - started
    stop.set()
    during = await during_task
    answers = [m.get("error", m["type"]) for m in received if m["type"] in ("error", "step")]
    errors = [m["error"] for m in received if m["type"] == "error"]
    assert "too_many" in errors, errors[:50]
    assert answers.index("too_many") >= 40 - 1  # the burst went through first
    assert set(answers[:39]) == {"not_your_turn", "step"}  # commands refused by the rules, moves answered
    throttled = [m for m in received if m.get("error") == "too_many"]
    assert {m["command_id"] is None for m in throttled} == {True, False}, "both kinds of message were throttled"
    assert all((m["command_id"] is None) == (m["request_id"] is not None) for m in throttled)
    assert code == 4029, code
    assert sent < SIZE.flood_messages, "the flooder was never disconnected"
    # a seat that stays within the limit is never refused (once its bucket has refilled: 40 at 20 a second)
    await asyncio.sleep(2.5)
    async with connect(ws_url(serve_url[0], game_id)) as ws:
        await ws.send(json.dumps({"type": "hello", "token": flooder, "after": 0}))
        await ws.recv()
        for n in range(30):
            await ws.send(json.dumps({"type": "command", "command": {"type": "DrawFromDeck"}, "command_id": f"s{n}"}))
            answer = json.loads(await asyncio.wait_for(ws.recv(), 5))
            assert answer["error"] == "not_your_turn", answer
            await asyncio.sleep(0.06)
    assert p(during, 99) < 1000
    figure(
        "flood",
        f"{sent} messages in {flood_seconds:.2f} s before the 4029 close ({errors.count('too_many')} too_many); "
        f"other seat's latency p50/p99 {p(baseline, 50):.1f}/{p(baseline, 99):.1f} ms before, "
        f"{p(during, 50):.1f}/{p(during, 99):.1f} ms during the flood ({len(during)} reads)",
    )


@pytest.mark.timeout(limit(30))
async def test_a_websocket_from_a_foreign_origin_is_refused(api: Api, serve_url: tuple[str, str]) -> None:
    game_id, _ = await api.started(2)
    for origin in ("https://evil.example", "null", "http://127.0.0.1.evil.example", "https://table.example.evil"):
        with pytest.raises(InvalidStatus) as refused:
            await connect(ws_url(serve_url[0], game_id), origin=Origin(origin))
        assert refused.value.response.status_code == 403
    for allowed in (Origin(ALLOWED), None):
        async with connect(ws_url(serve_url[0], game_id), origin=allowed) as ws:
            await ws.send(json.dumps({"type": "hello", "token": None, "after": 0}))
            assert json.loads(await ws.recv())["type"] == "update"
    r = await api.at(0).options(
        "/api/v1/games", headers={"Origin": "https://evil.example", "Access-Control-Request-Method": "POST"}
    )
    assert r.headers.get("access-control-allow-origin") is None


@pytest.mark.timeout(limit(240))
async def test_a_server_holding_many_idle_sockets_keeps_serving(api: Api, serve_url: tuple[str, str]) -> None:
    game_id, tokens = await api.started(2)
    holder = subprocess.Popen(
        [sys.executable, "-m", "tests.security.idle_sockets", serve_url[0], game_id, str(SIZE.idle_sockets)],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None
        line = await asyncio.wait_for(asyncio.to_thread(holder.stdout.readline), 200)
        assert line.strip() == f"open {SIZE.idle_sockets}", line
        timings = []
        for _ in range(20):
            version, seat, commands = await api.awaited(game_id, tokens)
            start = time.perf_counter()
            r = await api.send(game_id, tokens[seat], commands[0], expected_version=version)
            timings.append((time.perf_counter() - start) * 1000)
            assert r.status_code == 200, r.text
        async with connect(ws_url(serve_url[0], game_id)) as ws:
            await ws.send(json.dumps({"type": "hello", "token": tokens[0], "after": 0}))
            assert json.loads(await asyncio.wait_for(ws.recv(), 10))["type"] == "update"
    finally:
        if holder.stdin is not None:
            holder.stdin.close()
        try:
            holder.wait(30)
        except subprocess.TimeoutExpired:
            holder.kill()
            holder.wait()
        if holder.stdout is not None:
            holder.stdout.close()
    figure(
        "idle sockets",
        f"{SIZE.idle_sockets} idle sockets held by another process: commands p50/max "
        f"{statistics.median(timings):.1f}/{max(timings):.1f} ms (each command pushed to every socket)",
    )
