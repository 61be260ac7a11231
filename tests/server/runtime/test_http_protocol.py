"""The HTTP protocol (server/runtime/uvicorn/http.py) once a connection becomes a WebSocket."""

from __future__ import annotations

import gc

import redis.asyncio as aioredis
from websockets.asyncio.client import connect

from server.runtime.uvicorn.http import GuardedProtocol
from tests.server.conftest import quick_settings, running


def handshakes_alive() -> int:
    return sum(isinstance(o, GuardedProtocol) for o in gc.get_objects())


async def test_a_handshakes_protocol_is_freed_once_the_socket_has_its_own(
    redis: aioredis.Redis, redis_url: str
) -> None:
    """Freed by reference counting, not left in a cycle with its parser for a full collection
    (server/runtime/collector.py freezes what survives one)."""
    async with running(quick_settings(redis_url)) as api:
        game_id = await api.create(2)
        gc.collect()
        gc.disable()
        try:
            before = handshakes_alive()
            sockets = [await connect(f"{api.ws_url}/api/v1/games/{game_id}/ws") for _ in range(5)]
            assert handshakes_alive() <= before  # (an HTTP client's idle connection may close meanwhile)
            for ws in sockets:
                await ws.close()
        finally:
            gc.enable()
