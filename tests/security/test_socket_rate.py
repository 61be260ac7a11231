"""A socket that floods is closed however it words its messages: commands the game cannot read are
charged to the seat's bucket before they are read, and do not set the socket's flood count back."""

from __future__ import annotations

import asyncio
import json

import pytest
import redis.asyncio as aioredis
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from server.settings import Settings
from tests.server.conftest import ADMIN, running

pytestmark = pytest.mark.timeout(60)

RATE, BURST, FLOOD = 5.0, 10, 20


async def test_a_socket_flooding_unreadable_commands_is_told_too_many_then_closed(
    redis: aioredis.Redis, redis_url: str
) -> None:
    settings = Settings(
        redis_url=redis_url, admin_token=ADMIN, ws_rate=RATE, ws_burst=BURST, ws_flood_limit=FLOOD,
        create_per_hour=0, seats_per_hour=0,
    )  # fmt: skip
    async with running(settings) as api:
        game_id, tokens = await api.started(2)
        before = (await api.get(f"/api/v1/games/{game_id}")).json()["version"]
        errors: list[str] = []
        async with connect(f"{api.ws_url}/api/v1/games/{game_id}/ws") as ws:
            await ws.send(json.dumps({"type": "hello", "token": tokens[0], "after": 0}))
            assert json.loads(await ws.recv())["type"] == "update"
            try:
                for n in range(500):
                    unreadable = {"type": "command", "command": {"type": "Nope"}, "command_id": f"n{n}"}
                    await ws.send(json.dumps(unreadable))
                    if n % 10 == 9:
                        await asyncio.sleep(0.005)
                async with asyncio.timeout(10):
                    async for raw in ws:
                        errors.append(json.loads(raw)["error"])
            except ConnectionClosed:
                pass
            code = ws.close_code
        assert code == 4029, (code, errors[-5:])
        assert set(errors[:BURST]) == {"malformed"}, errors[:BURST]  # read, within the rate: refused as unreadable
        assert "too_many" in errors
        assert (await api.get(f"/api/v1/games/{game_id}")).json()["version"] == before  # nothing was written
