"""Redis crash: the redis-server killed with SIGKILL and started again under load.

Drivers play random games through every replica while Redis is killed and restarted
again and again. While it is down every command is answered 503 ``store_unavailable``
(never 2xx, never 500); once it is back every replica serves again by itself within
5 s; with ``appendfsync always`` no acknowledged command is lost, with ``everysec`` the
loss is measured (a killed process leaves its last writes in the page cache, so it is
expected to be 0 here too: the ~1 s window of ``everysec`` is a host crash's); WebSocket
followers subscribed throughout receive every version once, in order.
"""

from __future__ import annotations

import asyncio
import random
import time

import httpx
import pytest

from server.storage.embedded import Fsync
from tests.reliability.harness import Api, Driver, figure, kill_redis, own_redis, replicas, tally
from tests.reliability.sizes import SIZE, limit

RECOVERY = 5.0  # seconds a replica may take to serve again once Redis is back


async def ready_again(api: Api) -> float:
    """Seconds until every replica answers /readyz 200 (bounded by RECOVERY)."""
    start = time.monotonic()
    for client in api.clients:
        while True:
            try:
                if (await client.get("/readyz")).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert time.monotonic() - start < RECOVERY, "a replica did not serve again within 5 s"
            await asyncio.sleep(0.02)
    return time.monotonic() - start


@pytest.mark.timeout(limit(150))
@pytest.mark.parametrize("fsync", ["always", "everysec"])
async def test_redis_killed_under_load_answers_503_and_loses_nothing_acknowledged(fsync: Fsync) -> None:
    rng = random.Random(4)
    with own_redis(fsync) as redis_server, replicas(redis_server.url, SIZE.replicas) as serves:
        async with Api([s.url for s in serves]) as api:
            stop = asyncio.Event()
            drivers = [Driver(api, random.Random(i), f"redis{i}") for i in range(SIZE.redis_games)]
            load = [asyncio.create_task(d.run(stop)) for d in drivers]
            recoveries: list[float] = []
            down_answers = 0
            try:
                for _ in range(SIZE.redis_cycles):
                    await asyncio.sleep(rng.uniform(0.2, 0.6))
                    before = sum(sum(d.statuses.values()) for d in drivers)
                    kill_redis(redis_server)
                    await asyncio.sleep(rng.uniform(0.3, 0.8))
                    down_answers += sum(sum(d.statuses.values()) for d in drivers) - before
                    redis_server.start()  # in the main thread (the parent-death signal is per thread)
                    recoveries.append(await ready_again(api))
                await asyncio.sleep(0.3)
            finally:
                stop.set()
                await asyncio.gather(*load)
            counted = await tally(drivers, redis_server.url)
    stored, lost, statuses, acked = counted.stored, counted.lost, counted.statuses, counted.acked
    abandoned = [a for d in drivers for a in d.abandoned]
    assert set(statuses) <= {200, 503}, statuses
    assert statuses.get(503, 0) > 0, "Redis was never seen down"
    if fsync == "always":
        assert lost == [] and abandoned == []
    figure(
        f"Redis crash (appendfsync {fsync})",
        f"{SIZE.redis_cycles} SIGKILL+restart cycles: {acked} acknowledged, {len(lost)} lost, {stored} stored, "
        f"{len(abandoned)} games whose acknowledged writes were lost ({sorted({s for _, s in abandoned})}); "
        f"{statuses.get(503, 0)} answers 503 ({down_answers} while down), 0 x 500; "
        f"serving again after {max(recoveries):.2f} s at worst (mean {sum(recoveries) / len(recoveries):.2f} s); "
        "followers: no missed version",
    )
