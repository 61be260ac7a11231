"""Server crash: replicas killed with SIGKILL at random points during a load of commands.

Three replicas on one Redis; drivers play random games through random replicas and
send a command again, under the same command id, when its answer was lost. A killer
SIGKILLs one replica at a time and starts it again. Afterwards: every command answered
2xx has its events in its stream exactly once, no command is half applied (every event
after the table's own belongs to exactly one recorded command), and WebSocket
followers, which reconnect to another replica with ``after`` = their last version,
received every version once, in order.
"""

from __future__ import annotations

import asyncio
import random
from collections import Counter

import pytest

from tests.reliability.harness import Api, Driver, figure, own_redis, redis_client, replicas, sigkill
from tests.reliability.sizes import SIZE, limit


@pytest.mark.timeout(limit(150))
async def test_sigkilled_replicas_lose_nothing_acknowledged_and_followers_resume_without_a_gap() -> None:
    rng = random.Random(3)
    with own_redis("everysec") as redis_server, replicas(redis_server.url, SIZE.replicas) as serves:
        async with Api([s.url for s in serves]) as api:
            stop = asyncio.Event()
            drivers = [Driver(api, random.Random(i), f"crash{i}") for i in range(SIZE.crash_games)]
            load = [asyncio.create_task(d.run(stop)) for d in drivers]
            kills = 0
            try:
                for k in range(SIZE.server_kills):
                    await asyncio.sleep(rng.uniform(0.05, 0.4))
                    victim = serves[k % len(serves)]
                    sigkill(victim)
                    kills += 1
                    await asyncio.to_thread(victim.start)
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
    acked = sum(len(d.acked) for d in drivers)
    lost = sum(d.lost_answers for d in drivers)
    reconnects = sum(f.reconnects for d in drivers for f in d.followers)
    closes = Counter(str(code) for d in drivers for f in d.followers for code in f.closes)
    assert kills == SIZE.server_kills and acked > 0
    figure(
        "server crash",
        f"{kills} SIGKILLs under load: {acked} commands acknowledged, all stored once ({stored} stored, "
        f"{lost} answers lost in flight and retried under their id), 0 half applied; "
        f"followers reconnected {reconnects} times with no gap (closes by code: {dict(closes.most_common())})",
    )
