"""A rolling restart: every replica in turn stopped with SIGTERM and started again, under load.

What operators do on every upgrade. Each replica finishes the commands in flight and
closes its WebSockets with 1012; clients go to another replica and resume. Afterwards
every command answered 2xx is stored exactly once, none is half applied, and the
followers received every version once, in order.
"""

from __future__ import annotations

import asyncio
import random
import signal

import pytest

from tests.reliability.harness import Api, Driver, figure, own_redis, redis_client, replicas
from tests.reliability.sizes import SIZE, limit


@pytest.mark.timeout(limit(150))
async def test_a_rolling_restart_of_every_replica_loses_nothing_and_no_client_misses_a_version() -> None:
    with own_redis("everysec") as redis_server, replicas(redis_server.url, SIZE.replicas) as serves:
        async with Api([s.url for s in serves]) as api:
            stop = asyncio.Event()
            drivers = [Driver(api, random.Random(i), f"roll{i}") for i in range(SIZE.crash_games)]
            load = [asyncio.create_task(d.run(stop)) for d in drivers]
            exits = []
            try:
                await asyncio.sleep(0.3)
                for serve in serves:  # one at a time, as a Deployment's rolling update does
                    exits.append(await asyncio.to_thread(serve.stop, signal.SIGTERM))
                    await asyncio.to_thread(serve.start)
                    await asyncio.sleep(0.3)
            finally:
                stop.set()
                await asyncio.gather(*load)
            redis = redis_client(redis_server.url)
            try:
                stored = sum([await d.check(redis) for d in drivers])
                for d in drivers:
                    await d.check_followers(redis)
            finally:
                for d in drivers:
                    await d.stop_followers()
                await redis.aclose()
    assert all(code in (0, -signal.SIGTERM) for code in exits), exits
    acked = sum(len(d.acked) for d in drivers)
    reconnects = sum(f.reconnects for d in drivers for f in d.followers)
    assert acked > 0
    figure(
        "rolling restart",
        f"{len(exits)} replicas restarted one by one under load: {acked} commands acknowledged, "
        f"all stored once ({stored} stored); followers reconnected {reconnects} times with no gap",
    )
