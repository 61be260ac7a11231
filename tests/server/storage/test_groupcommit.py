"""Group commit (server/storage/groupcommit.py): the appends made within one turn of the event loop share
one round trip to Redis, one per node on a Redis Cluster, and each is answered on its own."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
import redis.asyncio as aioredis
from redis.asyncio.cluster import RedisCluster
from redis.exceptions import ResponseError

from server.service.senders import Holder
from server.storage import StoreError
from server.storage.connection import Client, connect
from server.storage.groupcommit import NotReplicated
from server.storage.store import Appended, Conflict, EventStore
from tests.server.service.test_games import a_legal_command, calls, replica, started
from tests.support.cluster import LocalCluster


async def reads(redis: aioredis.Redis) -> int:
    """The read events Redis has processed so far, one per batch of commands a client sent at once.
    Asking counts one more: the INFO command that asks is read before it is answered."""
    stats: dict[str, Any] = await redis.info("stats")
    return int(stats["total_reads_processed"])


async def test_two_commands_of_two_games_in_one_loop_turn_make_one_round_trip(store: EventStore) -> None:
    games = replica(store)
    moves = []
    for _ in range(2):
        game_id, tokens = await started(games)
        token, command = await a_legal_command(games, game_id, tokens)
        await games.seated(game_id, token)  # cached, and the token's seat known: no read before the append
        moves.append((game_id, token, command))
    assert isinstance(store.redis, aioredis.Redis)
    ran_before = await calls(store.redis)
    before = await reads(store.redis)
    answers = await asyncio.gather(
        *(games.handle(game_id, Holder(token), command, "together", None) for game_id, token, command in moves)
    )
    after = await reads(store.redis)
    ran_after = await calls(store.redis)
    assert ran_after["evalsha"] - ran_before["evalsha"] == 2  # both appends ran
    assert after - before == 1 + 1  # one read for both (and the INFO asking)
    for (game_id, _, _), answer in zip(moves, answers, strict=True):
        assert answer.version == (await games.load(game_id))[1].version > 0


async def test_appends_in_separate_turns_take_a_round_trip_each(store: EventStore) -> None:
    assert isinstance(store.redis, aioredis.Redis)
    before = await reads(store.redis)
    await store.append("a", 0, [b"one"])
    await store.append("b", 0, [b"one"])
    assert await reads(store.redis) - before == 2 + 1


async def test_a_failure_of_one_append_in_a_batch_fails_only_that_append(store: EventStore, redis: Client) -> None:
    # A stream whose last id the append script refuses (it writes every id as 0-<version>).
    await redis.xadd("lt:{broken}:events", {"e": b"x"}, id="1-1")
    await store.append("stale", 0, [b"one"])
    pipelines = store._append.pipelines
    results = await asyncio.gather(
        store.append("fine", 0, [b"one"]),
        store.append("broken", 1, [b"two"]),
        store.append("stale", 0, [b"two"]),
        return_exceptions=True,
    )
    assert store._append.pipelines == pipelines + 1
    fine, broken, stale = results
    assert isinstance(fine, Appended) and fine.version == 1
    assert isinstance(broken, ResponseError) and "unexpected stream id" in str(broken)
    assert stale == Conflict(1)
    assert await store.read("fine") == [(1, b"one")]
    assert await store.read("stale") == [(1, b"one")]


async def test_an_append_after_the_scripts_were_flushed_loads_the_script_again(store: EventStore) -> None:
    # A restarted Redis (or SCRIPT FLUSH) has forgotten the script: the appends go again, once each.
    await store.append("a", 0, [b"one"])
    await store.redis.script_flush()
    first, second = await asyncio.gather(store.append("a", 1, [b"two"]), store.append("b", 0, [b"one"]))
    assert isinstance(first, Appended) and first.version == 2
    assert isinstance(second, Appended) and second.version == 1
    assert await store.read("a") == [(1, b"one"), (2, b"two")]


async def test_a_caller_cancelled_while_its_batch_is_out_leaves_the_others_answered(store: EventStore) -> None:
    mine = asyncio.ensure_future(store.append("mine", 0, [b"one"]))
    other = asyncio.ensure_future(store.append("other", 0, [b"one"]))
    await asyncio.sleep(0)  # both joined the turn's batch
    mine.cancel()
    assert isinstance(await other, Appended)
    with pytest.raises(asyncio.CancelledError):
        await mine
    # The cancelled caller's append was sent: whether it landed is Redis's answer, as for any call.
    assert await store.version("mine") in (0, 1)


# -- on a Redis Cluster -----------------------------------------------------------------


async def test_appends_of_games_on_every_node_in_one_turn_make_one_round_trip_per_node(cluster: LocalCluster) -> None:
    client = connect(cluster.url)
    assert isinstance(client, RedisCluster)
    nodes = {port: aioredis.Redis(host="127.0.0.1", port=port) for port in cluster.ports}
    try:
        # The cluster is up once its first node says so; every node must, before each gets its share.
        async with asyncio.timeout(30):
            for node in nodes.values():
                while (await node.execute_command("CLUSTER INFO")).get("cluster_state") != "ok":  # type: ignore[no-untyped-call]
                    await asyncio.sleep(0.05)
        await client.initialize()
        store = EventStore(client)
        by_node: dict[int, list[str]] = {port: [] for port in cluster.ports}
        for n in range(200):
            game_id = f"game-{n}"
            owner = client.get_node_from_key(f"lt:{{{game_id}}}:events")
            assert owner is not None
            port = int(owner.port)
            if len(by_node[port]) < 2:
                by_node[port].append(game_id)
        game_ids = [game_id for ids in by_node.values() for game_id in ids]
        assert len(game_ids) == 2 * len(cluster.ports)
        await asyncio.gather(*(store.append(game_id, 0, [b"first"]) for game_id in game_ids))  # warm every node
        before = {port: await reads(node) for port, node in nodes.items()}
        results = await asyncio.gather(*(store.append(game_id, 1, [b"second"]) for game_id in game_ids))
        after = {port: await reads(node) for port, node in nodes.items()}
        assert all(isinstance(result, Appended) and result.version == 2 for result in results)
        assert {port: after[port] - before[port] for port in nodes} == {port: 1 + 1 for port in nodes}
        for game_id in game_ids:
            assert await store.read(game_id) == [(1, b"first"), (2, b"second")]
    finally:
        for node in nodes.values():
            await node.aclose()
        await client.aclose()


# -- waiting for replicas ----------------------------------------------------------------------


async def test_appends_that_no_replica_acknowledges_in_time_fail_as_store_errors_and_land_on_the_primary(
    redis: aioredis.Redis, redis_url: str
) -> None:
    """The test Redis has no replica: WAIT 1 answers 0 after its time-out, and every append of the
    pipeline fails as not replicated; their events are on the primary all the same."""
    waiting, at_once = connect(redis_url), connect(redis_url)
    try:
        store = EventStore(waiting, wait=(1, 50))
        results = await asyncio.gather(*(store.append(g, 0, [b"first"]) for g in ("a", "b")), return_exceptions=True)
        assert all(isinstance(r, NotReplicated) and isinstance(r, StoreError) for r in results), results
        assert [await EventStore(redis).version(g) for g in ("a", "b")] == [1, 1]
        landed = await EventStore(at_once, wait=(0, 50)).append("a", 1, [b"second"])
        assert isinstance(landed, Appended) and landed.version == 2  # WAIT 0: answered at once
    finally:
        await waiting.aclose()
        await at_once.aclose()


async def test_waiting_for_replicas_is_refused_on_a_cluster(cluster: LocalCluster) -> None:
    client = connect(cluster.url)
    try:
        with pytest.raises(ValueError, match="single primary"):
            EventStore(client, wait=(1, 100))
    finally:
        await client.aclose()
