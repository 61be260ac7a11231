"""Redis Sentinel: the primary killed with SIGKILL under load, its replica promoted.

A primary, its replica and three Sentinels on loopback (tests/support/sentinel.py; down after
500 ms), two ``ludoteca serve`` replicas on ``redis+sentinel://``. Drivers play random games
through both replicas, each command under its own id, a WebSocket follower on every game,
while the primary is killed, the Sentinels promote the replica, and the old primary is started
again as the new primary's replica before the next round. While no primary
answers, every command is answered 503 ``store_unavailable`` within a bound (never 500, never
hanging); the replicas serve again on the new primary by themselves; the streams keep versions
1..N with no gap or duplicate; followers resume with no gap (reset with 4009 when the stream
went backwards). Replication is asynchronous: what the primary acknowledged but had not sent
to its replica is lost, and run.counted.
"""

from __future__ import annotations

import asyncio
import random
import time

import httpx
import pytest

from tests.reliability.harness import Api, Driver, Failovers, failovers, figure
from tests.reliability.sizes import SIZE, limit
from tests.support.sentinel import LocalSentinel

SERVING_AGAIN = 15.0  # seconds the replicas may take to serve on the new primary
ANSWER_BOUND = 5.0  # seconds any answer to a command may take, primary or none


async def serving_again(api: Api, since: float) -> float:
    """Seconds from ``since`` until every replica answers /readyz 200 again (bounded)."""
    for client in api.clients:
        while True:
            try:
                if (await client.get("/readyz")).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert time.monotonic() - since < SERVING_AGAIN, "a replica did not serve on the new primary"
            await asyncio.sleep(0.02)
    return time.monotonic() - since


async def sentinel_failovers(local: LocalSentinel, rng: random.Random, **env: str) -> Failovers:
    """The harness's rounds on ``local``: its primary killed, then started again as a replica."""
    killed = 0

    async def fail(api: Api, drivers: list[Driver]) -> float:
        nonlocal killed
        killed = local.kill_primary()
        return await serving_again(api, time.monotonic())

    async def heal() -> None:
        local.restart_as_replica(killed)
        await asyncio.to_thread(local.settled)

    try:
        return await failovers(local.url, "sentinel", SIZE.failover_games, SIZE.failovers, rng, fail, heal, **env)
    finally:
        local.stop()


@pytest.mark.timeout(limit(120))
async def test_a_sentinel_failover_under_load_answers_503_then_serves_on_the_new_primary() -> None:
    run = await sentinel_failovers(LocalSentinel().start(), random.Random(7))
    counted = run.counted
    assert set(counted.statuses) <= {200, 503}, counted.statuses
    # Whether a command or one of the reads around it meets the failover is the load's luck.
    assert counted.statuses.get(503, 0) + run.unavailable > 0, "no request met the failover"
    assert counted.slowest < ANSWER_BOUND, f"an answer took {counted.slowest:.2f} s"
    figure(
        "Redis Sentinel failover",
        f"{SIZE.failovers} failovers (primary SIGKILLed, down-after 500 ms): {counted.acked} acknowledged, "
        f"{len(counted.lost)} lost ({counted.reused} of their versions now other events', followers reset "
        f"{counted.resets} times), {counted.stored} stored; {counted.statuses.get(503, 0)} commands answered 503 "
        f"({run.down_answers} answers while failing over) and {run.unavailable} other requests, 0 x 500, "
        f"slowest answer {counted.slowest:.2f} s; serving again after {max(run.recoveries):.2f} s at worst "
        f"(mean {sum(run.recoveries) / len(run.recoveries):.2f} s); "
        f"followers reconnected {counted.reconnects} times, no gap",
    )


@pytest.mark.timeout(limit(120))
async def test_with_appends_waiting_for_the_replica_a_failover_loses_no_acknowledged_command() -> None:
    """``appendfsync always`` on both nodes and ``LUDOTECA_WAIT_REPLICAS=1``: a command is answered 200
    only once the replica has its events, so the promoted replica has every one (what the primary
    wrote and could not send is answered 503, and its retry finds it or decides it again)."""
    local = LocalSentinel(appendfsync="always").start()
    run = await sentinel_failovers(local, random.Random(11), LUDOTECA_WAIT_REPLICAS="1")
    counted = run.counted
    assert set(counted.statuses) <= {200, 503}, counted.statuses
    assert counted.acked > 0 and counted.slowest < ANSWER_BOUND, (counted.acked, counted.slowest)
    assert counted.lost == [], f"{len(counted.lost)} acknowledged commands lost"
    figure(
        "Redis Sentinel failover, appends waiting for the replica",
        f"{SIZE.failovers} failovers, appendfsync always, LUDOTECA_WAIT_REPLICAS=1: {counted.acked} acknowledged, "
        f"0 lost, {counted.stored} stored; {counted.statuses.get(503, 0)} answers 503, slowest answer "
        f"{counted.slowest:.2f} s; serving again after {max(run.recoveries):.2f} s at worst",
    )
