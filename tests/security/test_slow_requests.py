"""Slow and oversized requests cannot hold the server (server/runtime/uvicorn/http.py): a connection that
sends nothing, trickles its headers or its body is cut, and headers past the cap are refused."""

from __future__ import annotations

import asyncio
import time

import httpx
import redis.asyncio as aioredis
import websockets

from server.settings import Settings
from tests.reliability.harness import figure
from tests.server.conftest import ADMIN, running

TIMEOUT = 1.0  # seconds, for headers and for bodies (the defaults are 10 and 60)
CAP = 4096  # bytes of headers (the default is 16 KiB)


def guarded_settings(redis_url: str) -> Settings:
    return Settings(
        redis_url=redis_url, admin_token=ADMIN, header_timeout=TIMEOUT, body_timeout=TIMEOUT, max_header=CAP
    )


async def closed_after(reader: asyncio.StreamReader, limit: float) -> tuple[float, bytes]:
    """Seconds until the server closed the connection, and what it said first."""
    start = time.monotonic()
    said = await what_was_said(reader, limit)
    return time.monotonic() - start, said


async def what_was_said(reader: asyncio.StreamReader, limit: float = 5) -> bytes:
    """Everything until the server closed the connection (b"" when it reset it: data the client
    still sent after the close makes the server's kernel answer with a reset)."""
    try:
        return await asyncio.wait_for(reader.read(), limit)
    except ConnectionError:
        return b""


async def trickle(writer: asyncio.StreamWriter, reader: asyncio.StreamReader, pieces: list[bytes]) -> float:
    """Send ``pieces`` 0.2 s apart until the server closes: the seconds it took."""
    start = time.monotonic()
    for piece in pieces:
        try:
            writer.write(piece)
            await writer.drain()
        except ConnectionError:
            break
        if reader.at_eof():
            break
        await asyncio.sleep(0.2)
    await what_was_said(reader)
    return time.monotonic() - start


async def test_a_connection_that_sends_nothing_is_closed_after_the_header_timeout(
    redis: aioredis.Redis, redis_url: str
) -> None:
    async with running(guarded_settings(redis_url)) as api:
        host, port = api.url.removeprefix("http://").split(":")
        reader, writer = await asyncio.open_connection(host, int(port))
        held, said = await closed_after(reader, 5)
        writer.close()
    assert TIMEOUT * 0.9 <= held <= TIMEOUT + 1.5 and said.startswith(b"HTTP/1.1 408")
    figure(
        "slow requests: a silent connection is held",
        f"{held:.2f} s (header timeout {TIMEOUT} s in the test, 10 s by default)",
    )


async def test_headers_trickled_slower_than_the_timeout_are_cut(redis: aioredis.Redis, redis_url: str) -> None:
    async with running(guarded_settings(redis_url)) as api:
        host, port = api.url.removeprefix("http://").split(":")
        reader, writer = await asyncio.open_connection(host, int(port))
        lines = [b"GET /healthz HTTP/1.1\r\nHost: x\r\n", *(f"X-Slow-{i}: a\r\n".encode() for i in range(40))]
        held = await trickle(writer, reader, lines)  # a header line every 0.2 s: never finished
        writer.close()
    assert held <= TIMEOUT + 1.5


async def test_a_body_trickled_slower_than_the_timeout_is_cut(redis: aioredis.Redis, redis_url: str) -> None:
    async with running(guarded_settings(redis_url)) as api:
        host, port = api.url.removeprefix("http://").split(":")
        reader, writer = await asyncio.open_connection(host, int(port))
        head = (
            b"POST /api/v1/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"
        )
        held = await trickle(writer, reader, [head, *([b" "] * 40)])
        writer.close()
    assert held <= TIMEOUT + 1.5
    figure(
        "slow requests: a trickled body is held",
        f"{held:.2f} s (body timeout {TIMEOUT} s in the test, 60 s by default)",
    )


async def test_headers_past_the_cap_are_refused_with_431(redis: aioredis.Redis, redis_url: str) -> None:
    async with running(guarded_settings(redis_url)) as api:
        host, port = api.url.removeprefix("http://").split(":")
        reader, writer = await asyncio.open_connection(host, int(port))
        writer.write(b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 2 * CAP)  # never finished
        await writer.drain()
        said = await what_was_said(reader)
        writer.close()
    assert said.startswith(b"HTTP/1.1 431")
    figure(
        "slow requests: largest request headers held",
        f"{CAP} bytes in the test (16 KiB by default) and one read, then 431",
    )


async def test_huge_unfinished_headers_are_not_buffered(redis: aioredis.Redis, redis_url: str) -> None:
    """8 MiB offered as one header that never ends: the server stops at the cap and closes."""
    async with running(guarded_settings(redis_url)) as api:
        host, port = api.url.removeprefix("http://").split(":")
        reader, writer = await asyncio.open_connection(host, int(port))
        sent = 0
        try:
            writer.write(b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ")
            for _ in range(64):
                writer.write(b"a" * 128 * 1024)
                await writer.drain()
                sent += 128 * 1024
        except ConnectionError:
            pass
        await what_was_said(reader)
        writer.close()
    assert sent < 8 * 1024 * 1024, "the server took all 8 MiB of an unfinished header"


async def test_ordinary_requests_and_sockets_are_untouched(redis: aioredis.Redis, redis_url: str) -> None:
    async with running(guarded_settings(redis_url)) as api:
        created = await api.http.post("/api/v1/games", json={"game": "vilar-de-mouros", "players": 2})
        assert created.status_code == 201
        async with httpx.AsyncClient(base_url=api.url) as fresh:
            for _ in range(3):  # a kept-alive connection, idle for less than the keep-alive timeout
                assert (await fresh.get("/healthz")).status_code == 200
                await asyncio.sleep(TIMEOUT * 0.6)
        game_id = created.json()["game_id"]
        async with websockets.connect(f"{api.ws_url}/api/v1/games/{game_id}/ws") as socket:
            await asyncio.sleep(TIMEOUT * 1.5)  # past the header timeout: the socket's own limits apply
            await socket.send('{"type": "hello", "token": null, "after": 0}')
            assert '"update"' in await asyncio.wait_for(socket.recv(), 5)
