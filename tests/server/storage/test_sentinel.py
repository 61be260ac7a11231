"""``redis+sentinel://``: the client, its lean connection and the notifications follow the primary the
Sentinels name, through a failover (tests/support/sentinel.py)."""

from __future__ import annotations

import asyncio
import gc
import time
from collections.abc import Iterator

import pytest
from redis.exceptions import ReadOnlyError, RedisError

from server.runtime.logs import without_password
from server.storage.connection import SentinelURL, check_server, connect, endpoint
from server.storage.notify import Notifications
from server.storage.resp.client import Endpoint, Pipe, call
from server.storage.store import Appended, EventStore
from tests.support.sentinel import LocalSentinel


def test_a_sentinel_url_names_the_sentinels_the_service_and_the_login() -> None:
    url = "redis+sentinel://ana:s%40cret@10.0.0.1:5000,sentinel-b,[::1]:26380/games?db=3&sentinel_password=guard"
    assert SentinelURL.parse(url) == SentinelURL(
        (("10.0.0.1", 5000), ("sentinel-b", 26379), ("::1", 26380)), "games", 3, "ana", "s@cret", "guard"
    )
    assert SentinelURL.parse("redis+sentinel://s1:26379/mymaster") == SentinelURL((("s1", 26379),), "mymaster")
    assert (
        without_password(url)
        == "redis+sentinel://ana:***@10.0.0.1:5000,sentinel-b,[::1]:26380/games?db=3&sentinel_password=***"
    )
    for bad in (
        "redis+sentinel://s1:26379",  # no service
        "redis+sentinel://s1:26379/",
        "redis+sentinel://s1:port/mymaster",
        "redis+sentinel://s1/mymaster?db=x",
        "redis+sentinel://s1/mymaster?timeout=3",
    ):
        with pytest.raises(ValueError, match="REDIS_URL"):
            SentinelURL.parse(bad)


@pytest.fixture(scope="module")
def sentinel() -> Iterator[LocalSentinel]:
    local = LocalSentinel().start()
    try:
        yield local
    finally:
        local.stop()


# Now and then (about one run in ten) a connection of redis-py's Sentinel clients outlives the client's
# close; it is collected at the end of this test (below), where it is not reported, rather than in
# whichever test the collector next runs in.
@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
@pytest.mark.timeout(60)
async def test_the_store_and_its_notifications_follow_the_primary_through_a_failover(sentinel: LocalSentinel) -> None:
    client = connect(sentinel.url)
    try:
        assert await check_server(client) == []  # the primary itself answers INFO
        store = EventStore(client)
        notifications = Notifications(client, min_backoff=0.01, max_backoff=0.1)
        notes: list[tuple[str, int]] = []
        reconnected = asyncio.Event()
        task = asyncio.create_task(notifications.run(lambda g, v: notes.append((g, v)), reconnected.set))
        try:
            async with asyncio.timeout(40):
                await notifications.subscribed.wait()
                first = sentinel.primary_port()
                assert (await endpoint(client)).port == first
                assert isinstance(await store.append("s", 0, [b"before"]), Appended)  # the lean connection
                while ("s", 1) not in notes:
                    await asyncio.sleep(0.01)

                sentinel.kill_primary()
                started = time.monotonic()
                while True:  # 503 territory: every call fails fast until the replica is promoted
                    try:
                        version = await store.version("s")
                        break
                    except RedisError:
                        assert time.monotonic() - started < 20, "no new primary"
                        await asyncio.sleep(0.05)
                second = sentinel.primary_port()
                assert second != first
                assert version == 1  # replicated before the kill (nothing was written meanwhile)
                assert (await endpoint(client)).port == second

                await reconnected.wait()  # the subscription, on the new primary
                assert isinstance(await store.append("s", 1, [b"after"]), Appended)
                assert await store.read("s") == [(1, b"before"), (2, b"after")]
                while ("s", 2) not in notes:
                    await asyncio.sleep(0.01)
                sentinel.restart_as_replica(first)
                await asyncio.to_thread(sentinel.settled)
        finally:
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
    finally:
        await client.aclose()
        gc.collect()


async def test_a_lean_connection_that_meets_a_replica_asks_again_where_the_primary_is(sentinel: LocalSentinel) -> None:
    """What a primary demoted under a live connection answers, READONLY, drops that connection: the
    next call asks the Sentinels again (here: the first answer names the replica)."""
    primary = sentinel.settled()
    replica = next(p for p in sentinel.ports if p != primary)
    asked: list[int] = []

    async def locate() -> Endpoint:
        asked.append(replica if not asked else primary)
        return Endpoint(host="127.0.0.1", port=asked[-1])

    pipe = Pipe(Endpoint(), locate=locate)
    try:
        [refused] = await pipe([("SET", "lt:readonly-probe", "1")])
        assert isinstance(refused, ReadOnlyError)
        assert await call(pipe, "SET", "lt:readonly-probe", "2") == b"OK"
        assert asked == [replica, primary]
    finally:
        await pipe.aclose()
