"""Redis Cluster: a master killed with SIGKILL under load, its replica taking over its slots.

Three masters with a replica each on loopback (tests/support/cluster.py; a node is failed
after 1 s without an answer), two ``ludoteca serve`` replicas on ``redis+cluster://``. Drivers
play random games through both replicas, each command under its own id, a WebSocket follower
on every game, while a master is killed, its replica elected in its place, and the killed
node started again (it rejoins as the new master's replica) before the next round. The games
whose slots the dead master held are answered 503 ``store_unavailable`` until its replica
serves them (never 500, never hanging), the others play on; every game plays again by itself;
the streams keep versions 1..N with no gap or duplicate; followers resume with no gap.
Replication is asynchronous: what a master acknowledged but had not sent is lost, and run.counted.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import time

import pytest

from tests.reliability.harness import Api, Driver, failovers, figure
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
    node = cluster.node(cluster.ports[0])

    async def fail(api: Api, drivers: list[Driver]) -> float:
        nonlocal node
        node = cluster.node(rng.choice(cluster.masters()))
        assert node.pid is not None
        os.kill(node.pid, signal.SIGKILL)
        node.stop()
        return await playing_again(drivers, time.monotonic())

    async def heal() -> None:
        node.start()  # it rejoins as its old replica's replica
        await asyncio.to_thread(cluster.synced)

    try:
        run = await failovers(cluster.url, "cluster", SIZE.failover_games, SIZE.failovers, rng, fail, heal)
    finally:
        cluster.stop()
    counted = run.counted
    assert set(counted.statuses) <= {200, 503}, counted.statuses
    assert counted.slowest < ANSWER_BOUND, f"an answer took {counted.slowest:.2f} s"
    figure(
        "Redis Cluster failover",
        f"{SIZE.failovers} masters SIGKILLed (node timeout 1 s, a replica each): {counted.acked} acknowledged, "
        f"{len(counted.lost)} lost ({counted.reused} of their versions now other events', followers reset "
        f"{counted.resets} times), {counted.stored} stored; {counted.statuses.get(503, 0)} answers 503 "
        f"({run.down_answers} answers while failing over), 0 x 500, "
        f"slowest answer {counted.slowest:.2f} s; "
        f"every game playing again after {max(run.recoveries):.2f} s at worst "
        f"(mean {sum(run.recoveries) / len(run.recoveries):.2f} s); "
        f"followers reconnected {counted.reconnects} times, no gap",
    )
