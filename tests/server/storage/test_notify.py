"""The pub/sub hint of each append (server/storage/notify.py), against a real Redis (see tests/conftest.py)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable

import pytest
import redis.asyncio as aioredis
from redis.asyncio.cluster import RedisCluster

from server.storage.notify import NOTIFY_CHANNEL, Notifications
from server.storage.store import EventStore

GAME = "g1"


class Recorder:
    def __init__(self) -> None:
        self.notes: list[tuple[str, int]] = []
        self.reconnects = 0
        self.changed = asyncio.Event()

    def on_notify(self, game_id: str, version: int) -> None:
        self.notes.append((game_id, version))
        self.changed.set()

    def on_reconnect(self) -> None:
        self.reconnects += 1
        self.changed.set()

    async def until(self, condition: Callable[[], bool], timeout: float = 5.0) -> None:
        async with asyncio.timeout(timeout):
            while not condition():
                self.changed.clear()
                await self.changed.wait()


@pytest.fixture
async def listening(redis: aioredis.Redis) -> AsyncIterator[tuple[Notifications, Recorder]]:
    notifications = Notifications(redis, min_backoff=0.01, max_backoff=0.2)
    recorder = Recorder()
    task = asyncio.create_task(notifications.run(recorder.on_notify, recorder.on_reconnect))
    try:
        async with asyncio.timeout(5):
            await notifications.subscribed.wait()
        yield notifications, recorder
    finally:
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task


async def test_an_append_publishes_the_game_and_its_new_version(
    store: EventStore, listening: tuple[Notifications, Recorder]
) -> None:
    _, recorder = listening
    await store.append("ga", 0, [b"1", b"2"])
    await store.append("gb", 0, [b"1"])
    await store.append("ga", 2, [b"3"])
    await store.append("ga", 0, [b"late"])  # a conflict publishes nothing
    # (only these games' notes: on a cluster, a note of an earlier test's game may still be on its way)

    def ours() -> list[tuple[str, int]]:
        return [note for note in recorder.notes if note[0] in ("ga", "gb")]

    await recorder.until(lambda: len(ours()) >= 3)
    await asyncio.sleep(0.05)
    # In order for each game; two games' notes may cross (on a cluster each game's shard publishes its own).
    assert sorted(ours(), key=lambda note: note[0]) == [("ga", 2), ("ga", 3), ("gb", 1)]
    assert recorder.reconnects == 0


async def test_the_raw_notification_payload(store: EventStore, redis: aioredis.Redis) -> None:
    pubsub = redis.pubsub(ignore_subscribe_messages=True)
    try:
        await pubsub.subscribe(NOTIFY_CHANNEL)
        await store.append(GAME, 0, [b"a", b"b", b"c"])
        async with asyncio.timeout(5):
            message = None
            while message is None:
                message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
        assert message["channel"] == b"lt:notify"
        assert message["data"] == b"g1 3"
    finally:
        close: Callable[[], Awaitable[None]] = pubsub.aclose  # annotated from redis-py 8.2 on, not before
        await close()


async def test_notifications_recover_after_the_connection_is_killed(
    store: EventStore, redis: aioredis.Redis, listening: tuple[Notifications, Recorder]
) -> None:
    notifications, recorder = listening
    if isinstance(redis, RedisCluster):  # the subscriber sits on one of the nodes
        answers = await redis.client_kill_filter(_type="pubsub", target_nodes=RedisCluster.ALL_NODES)
        killed = sum(int(n) for n in answers.values()) if isinstance(answers, dict) else int(answers)
    else:
        killed = await redis.client_kill_filter(_type="pubsub")
    assert killed >= 1
    await recorder.until(lambda: recorder.reconnects >= 1)
    assert notifications.reconnects >= 1
    async with asyncio.timeout(5):
        await notifications.subscribed.wait()
    await store.append(GAME, 0, [b"after the kill"])
    await recorder.until(lambda: (GAME, 1) in recorder.notes)


async def test_a_failing_callback_does_not_stop_notifications(store: EventStore, redis: aioredis.Redis) -> None:
    seen: list[tuple[str, int]] = []

    def on_notify(game_id: str, version: int) -> None:
        seen.append((game_id, version))
        raise RuntimeError("a bug in the caller")

    notifications = Notifications(redis)
    task = asyncio.create_task(notifications.run(on_notify, lambda: None))
    try:
        async with asyncio.timeout(5):
            await notifications.subscribed.wait()
            await store.append(GAME, 0, [b"a"])
            await redis.publish(NOTIFY_CHANNEL, "malformed")
            await store.append(GAME, 1, [b"b"])
            while len(seen) < 2:
                await asyncio.sleep(0.01)
        assert seen == [(GAME, 1), (GAME, 2)]
    finally:
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
