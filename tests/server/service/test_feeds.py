"""A game's feed on each replica: every version reaches every socket once and in order, and a
replica never reads back from the stream what it appended itself (it hands that to the feed)."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import gc
import json
import weakref
from collections.abc import AsyncIterator
from typing import Any

import pytest
import redis.asyncio as aioredis
from redis.exceptions import ConnectionError as RedisConnectionError
from websockets.asyncio.client import ClientConnection, connect

from server.service.feeds import Feed
from tests.server.conftest import Running, quick_settings, running

NO_SWEEP = 3600.0  # seconds: the sweep would hide a feed left behind


@contextlib.asynccontextmanager
async def replicas(redis_url: str, count: int, sweep_interval: float = NO_SWEEP) -> AsyncIterator[list[Running]]:
    """``count`` replicas on one Redis."""
    settings = dataclasses.replace(quick_settings(redis_url), sweep_interval=sweep_interval)
    async with contextlib.AsyncExitStack() as stack:
        yield [await stack.enter_async_context(running(settings)) for _ in range(count)]


async def watch(api: Running, game_id: str, token: str | None) -> ClientConnection:
    """A socket on ``api`` for ``token``'s seat (``None``: a spectator), past its first update."""
    ws = await connect(f"{api.ws_url}/api/v1/games/{game_id}/ws")
    await ws.send(json.dumps({"type": "hello", "token": token, "after": await version(api, game_id)}))
    assert (await receive(ws))["type"] == "update"
    return ws


async def receive(ws: ClientConnection) -> dict[str, Any]:
    message: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), 5))
    return message


async def version(api: Running, game_id: str) -> int:
    number: int = (await api.get(f"/api/v1/games/{game_id}")).json()["version"]
    return number


async def versions_until(ws: ClientConnection, end: int) -> list[int]:
    """The versions of the events the socket's updates carry, up to ``end``."""
    got: list[int] = []
    while not got or got[-1] < end:
        message = await receive(ws)
        if message["type"] == "update":
            got += [e["version"] for e in message["events"]]
    return got


async def play(api: Running, game_id: str, tokens: list[str], commands: int) -> int:
    """Up to ``commands`` of the awaited seats' first commands, one after the other; how many landed."""
    for played in range(commands):
        seat, legal = await api.awaited(game_id, tokens)
        if seat < 0:
            return played
        r = await api.send(game_id, tokens[seat], legal[0], f"{api.url}-{next(api.ids)}")
        assert r.status_code == 200, r.text
    return commands


@dataclasses.dataclass
class Watching:
    """A socket for every seat and a spectator on each replica, opened at version ``start``."""

    start: int
    sockets: list[ClientConnection]

    async def got_every_version_to(self, end: int) -> None:
        for ws in self.sockets:
            assert await versions_until(ws, end) == list(range(self.start + 1, end + 1))


@contextlib.asynccontextmanager
async def watching(apis: list[Running], game_id: str, tokens: list[str]) -> AsyncIterator[Watching]:
    start = await version(apis[0], game_id)
    sockets = [await watch(api, game_id, t) for api in apis for t in [*tokens, None]]
    try:
        yield Watching(start, sockets)
    finally:
        for ws in sockets:
            await ws.close()


def feed_of(api: Running, game_id: str) -> Feed:
    feed: Feed = api.app.state.feeds.feeds[game_id]
    return feed


async def test_a_replica_never_reads_back_the_commands_it_appended(
    redis: aioredis.Redis, redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with replicas(redis_url, 1, sweep_interval=0.5) as [api]:
        game_id, tokens = await api.started(3)
        # Each append's answer is held until its notification has come: the race the pub/sub message wins
        # under load (the answer and the message come on two connections, in no set order).
        store = api.app.state.games.store
        append = store.append

        async def answered_late(*args: Any, **kwargs: Any) -> Any:
            result = await append(*args, **kwargs)
            await asyncio.sleep(0.05)
            return result

        monkeypatch.setattr(store, "append", answered_late)
        async with watching([api], game_id, tokens) as sockets:
            played = await play(api, game_id, tokens, 60)
            await sockets.got_every_version_to(await version(api, game_id))
            assert played >= 40
            assert feed_of(api, game_id).reads == 0  # every append was handed to the feed


async def test_every_socket_on_either_replica_gets_every_version_once_in_order(
    redis: aioredis.Redis, redis_url: str
) -> None:
    async with replicas(redis_url, 2) as apis:
        here, there = apis
        game_id, tokens = await here.started(3)
        async with watching(apis, game_id, tokens) as sockets:
            played = [0, 0]
            for turn in range(40):  # the replicas take turns
                if await play(apis[turn % 2], game_id, tokens, 1) == 0:
                    break
                played[turn % 2] += 1
            end = await version(here, game_id)
            assert end > sockets.start + 20
            await sockets.got_every_version_to(end)
            # Each feed read the stream for the other replica's commands, at most once each.
            assert 0 < feed_of(here, game_id).reads <= played[1] and 0 < feed_of(there, game_id).reads <= played[0]


@pytest.mark.parametrize("ends", ["in a conflict", "in an error"])
async def test_an_append_that_lost_to_another_replica_leaves_no_feed_behind(
    redis: aioredis.Redis, redis_url: str, monkeypatch: pytest.MonkeyPatch, ends: str
) -> None:
    async with replicas(redis_url, 2) as apis:
        here, there = apis
        game_id, tokens = await here.started(2)
        seat, legal = await here.awaited(game_id, tokens)
        # Here's append waits while there's lands first: here hears of it with its own append under way.
        store = here.app.state.games.store
        append, go = store.append, asyncio.Event()

        async def held(*args: Any, **kwargs: Any) -> Any:
            await go.wait()
            if ends == "in an error":
                raise RedisConnectionError("the connection to Redis was lost")
            return await append(*args, **kwargs)

        async with watching(apis, game_id, tokens) as sockets:
            monkeypatch.setattr(store, "append", held)
            late = asyncio.create_task(here.send(game_id, tokens[seat], legal[0], "here"))
            await asyncio.sleep(0.1)
            assert (await there.send(game_id, tokens[seat], legal[0], "there")).status_code == 200
            await asyncio.sleep(0.2)  # the notification reaches here
            go.set()
            answered = (await late).status_code
            # Decided again on what landed (sent, or refused), or the store was lost.
            assert answered in ((200, 409, 422) if ends == "in a conflict" else (503,)), answered
            await sockets.got_every_version_to(await version(there, game_id))


async def test_a_sweep_leaves_a_feed_that_delivered_while_it_read_the_heads(
    redis: aioredis.Redis, redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with replicas(redis_url, 1) as [api]:  # the sweep is run here by hand
        game_id, tokens = await api.started(2)
        feeds = api.app.state.feeds
        heads = feeds.store.heads

        async def read_then_play(game_ids: list[str]) -> Any:
            found = await heads(game_ids)
            assert await play(api, game_id, tokens, 1) == 1  # the feed delivers what is newer than found
            return found

        async with watching([api], game_id, []) as spectator:
            monkeypatch.setattr(feeds.store, "heads", read_then_play)
            await feeds.wake_behind()
            await spectator.got_every_version_to(await version(api, game_id))
            await asyncio.sleep(0.1)  # a feed woken would have read by now
            assert feed_of(api, game_id).reads == 0


async def test_a_feed_no_longer_watched_is_freed_without_the_cycle_collector(
    redis: aioredis.Redis, redis_url: str
) -> None:
    """Its cancelled task keeps a traceback that keeps the feed: the feed must not keep the task,
    or the two live on in a cycle until a full collection (server/runtime/collector.py freezes survivors)."""
    async with replicas(redis_url, 1) as [api]:
        game_id, tokens = await api.started(2)
        ws = await watch(api, game_id, tokens[0])
        feed = weakref.ref(feed_of(api, game_id))
        gc.disable()
        try:
            await ws.close()
            for _ in range(100):  # the server hears of the close, the feed's task ends
                if feed() is None:
                    break
                await asyncio.sleep(0.01)
            assert feed() is None
        finally:
            gc.enable()
