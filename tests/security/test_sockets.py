"""Sockets one client may hold, and what one arrival costs the watchers.

Before, 1,000 sockets from one client were all accepted, and presence fanned each arrival
out to every watcher: 200 watchers arriving made 401 messages for each of them.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from typing import Any

import pytest
import redis.asyncio as aioredis
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from server.settings import Settings
from tests.server.conftest import ADMIN, Running, running

pytestmark = pytest.mark.timeout(120)


async def say_hello(api: Running, game_id: str, presence: bool = False) -> ClientConnection:
    ws = await connect(f"{api.ws_url}/api/v1/games/{game_id}/ws")
    with contextlib.suppress(ConnectionClosed):  # a socket past a cap is refused before its hello
        await ws.send(json.dumps({"type": "hello", "presence": presence}))
    return ws


async def first_message(ws: ClientConnection) -> dict[str, Any]:
    message: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), 10))
    return message


@contextlib.asynccontextmanager
async def server_with(redis_url: str, ws_per_address: int, ws_per_game: int) -> AsyncIterator[Running]:
    settings = Settings(
        redis_url=redis_url,
        admin_token=ADMIN,
        create_per_hour=0,
        seats_per_hour=0,
        ws_per_address=ws_per_address,
        ws_per_game=ws_per_game,
    )
    async with running(settings) as api:
        yield api


async def refused(ws: ClientConnection) -> dict[str, Any]:
    error = await first_message(ws)
    with pytest.raises(ConnectionClosed):
        await asyncio.wait_for(ws.recv(), 10)
    assert ws.close_code == 1013
    return error


async def test_one_address_cannot_hold_more_sockets_than_its_cap(redis: aioredis.Redis, redis_url: str) -> None:
    async with server_with(redis_url, ws_per_address=5, ws_per_game=0) as api:
        games = [await api.create(2) for _ in range(2)]
        held = [await say_hello(api, games[n % 2]) for n in range(5)]  # over two games: one count
        for ws in held:
            assert (await first_message(ws))["type"] == "update"
        error = await refused(await say_hello(api, games[0]))
        assert error["error"] == "too_many_sockets" and error["details"]["limit"] == 5
        await held.pop().close()
        await asyncio.sleep(0.1)  # the server notices the close
        again = await say_hello(api, games[0])
        assert (await first_message(again))["type"] == "update"
        for ws in [*held, again]:
            await ws.close()


async def test_one_game_cannot_hold_more_sockets_than_its_cap(redis: aioredis.Redis, redis_url: str) -> None:
    async with server_with(redis_url, ws_per_address=0, ws_per_game=3) as api:
        crowded, other = await api.create(2), await api.create(2)
        held = [await say_hello(api, crowded) for _ in range(3)]
        for ws in held:
            assert (await first_message(ws))["type"] == "update"
        assert (await refused(await say_hello(api, crowded)))["error"] == "too_many_sockets"
        elsewhere = await say_hello(api, other)  # another game is not crowded
        assert (await first_message(elsewhere))["type"] == "update"
        for ws in [*held, elsewhere]:
            await ws.close()


async def test_a_burst_of_arrivals_reaches_each_watcher_as_a_few_presence_messages(
    redis: aioredis.Redis, redis_url: str
) -> None:
    arrivals = 30
    async with server_with(redis_url, ws_per_address=0, ws_per_game=0) as api:
        game_id = await api.create(2)
        watcher = await say_hello(api, game_id, presence=True)
        assert (await first_message(watcher))["type"] == "update"
        crowd = await asyncio.gather(*(say_hello(api, game_id, presence=True) for _ in range(arrivals)))
        seen: list[dict[str, Any]] = []
        with contextlib.suppress(TimeoutError):
            while True:  # until the messages stop for a second
                message = json.loads(await asyncio.wait_for(watcher.recv(), 1.0))
                if message["type"] == "presence":
                    seen.append(message)
        assert seen and seen[-1]["spectators"] == arrivals + 1  # the last one counts everybody
        assert len(seen) <= arrivals // 3, len(seen)  # coalesced: not one message per arrival
        for ws in [watcher, *crowd]:
            await ws.close()
