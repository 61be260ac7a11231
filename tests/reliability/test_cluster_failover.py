"""Redis Cluster: a master killed with SIGKILL under load, its replica taking over its slots.

Three masters with a replica each on loopback (tests/support/cluster.py; a node is failed
after 1 s without an answer), two ``ludoteca serve`` replicas on ``redis+cluster://``. Drivers
play random games through both replicas, each command under its own id, a WebSocket follower
on every game, while a master is killed, its replica elected in its place, and the killed
node started again (it rejoins as the new master's replica) before the next round. The games
whose slots the dead master held are answered 503 ``store_unavailable`` until its replica
serves them (never 500, never hanging), the others play on; every game plays again by itself;
the streams keep versions 1..N with no gap or duplicate; followers resume with no gap.
Replication is asynchronous: what a master acknowledged but had not sent is lost, and counted.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import time

import pytest

from tests.reliability.harness import Api, Driver, figure, replicas, tally
from tests.reliability.sizes import SIZE, limit
from tests.support.cluster import LocalCluster

PLAYING_AGAIN = 20.0  # seconds every game may take to play again after a master was killed
ANSWER_BOUND = 5.0  # seconds any answer to a command may take


async def playing_again(drivers: list[Driver], since: float) -> float:
    """Seconds from ``since`` until every driver had a command acknowledged again (bounded)."""
    before = [len(d.acked) for d in drivers]
    while any(len(d.acked) == n for d, n in zip(drivers, before, strict=True)):
        assert time.monotonic() - since < PLAYING_AGAIN, "a game did not play again after the failover"
        await asyncio.sleep(0.02)
    return time.monotonic() - since


@pytest.mark.timeout(limit(120))
async def test_a_cluster_master_killed_under_load_answers_503_then_its_replica_serves_its_games() -> None:
    rng = random.Random(11)
    cluster = LocalCluster(replicas=1, node_timeout_ms=1000).start()
    try:
        with replicas(cluster.url, 2) as serves:
            async with Api([s.url for s in serves]) as api:
                stop = asyncio.Event()
                drivers = [Driver(api, random.Random(i), f"cluster{i}") for i in range(SIZE.failover_games)]
                load = [asyncio.create_task(d.run(stop)) for d in drivers]
                recoveries: list[float] = []
                down_answers = 0
                try:
                    for _ in range(SIZE.failovers):
                        await asyncio.sleep(rng.uniform(0.5, 1.0))
                        before = sum(sum(d.statuses.values()) for d in drivers)
                        node = cluster.node(rng.choice(cluster.masters()))
                        assert node.pid is not None
                        os.kill(node.pid, signal.SIGKILL)
                        node.stop()
                        recoveries.append(await playing_again(drivers, time.monotonic()))
                        down_answers += sum(sum(d.statuses.values()) for d in drivers) - before
                        await asyncio.sleep(0.3)
                        node.start()  # it rejoins as its old replica's replica
                        await asyncio.to_thread(cluster.synced)
                    await asyncio.sleep(0.3)
                finally:
                    stop.set()
                    await asyncio.gather(*load)
                counted = await tally(drivers, cluster.url)
    finally:
        cluster.stop()
    assert set(counted.statuses) <= {200, 503}, counted.statuses
    assert counted.slowest < ANSWER_BOUND, f"an answer took {counted.slowest:.2f} s"
    figure(
        "Redis Cluster failover",
        f"{SIZE.failovers} masters SIGKILLed (node timeout 1 s, a replica each): {counted.acked} acknowledged, "
        f"{len(counted.lost)} lost ({counted.reused} of their versions now other events', followers reset "
        f"{counted.resets} times), {counted.stored} stored; {counted.statuses.get(503, 0)} answers 503 "
        f"({down_answers} answers while failing over), 0 x 500, "
        f"slowest answer {counted.slowest:.2f} s; every game playing again after {max(recoveries):.2f} s at worst "
        f"(mean {sum(recoveries) / len(recoveries):.2f} s); followers reconnected {counted.reconnects} times, no gap",
    )
