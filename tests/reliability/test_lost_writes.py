"""Lost writes: a stream that goes backwards is detected.

Redis can lose acknowledged writes (a failover, a host crash under ``everysec``). It is
simulated here by stopping Redis and putting back an older append-only file. Every
replica that had cached the lost versions must notice, drop its cache and tell its
sockets to reset (4009), and no client may ever hold two different events under one
version number without having been told to reset: not a follower, not a replica's
cache, even when new writes have gone past the lost head before the replica looks.
"""

from __future__ import annotations

import random
import shutil
from pathlib import Path
from typing import Any

import pytest

from server.embedded import EmbeddedRedis
from tests.reliability.harness import (
    Api,
    Follower,
    auth,
    check_stream,
    figure,
    own_redis,
    redis_client,
    replicas,
    stream_versions,
)
from tests.reliability.sizes import SIZE, limit


def aof(redis: EmbeddedRedis) -> Path:
    return redis.data_dir / "appendonly.aof"


def snapshot(redis: EmbeddedRedis, to: Path) -> None:
    redis.stop()  # SIGTERM: the append-only file is complete
    shutil.copyfile(aof(redis), to)
    redis.start()


def restore(redis: EmbeddedRedis, older: Path) -> None:
    redis.stop()
    shutil.copyfile(older, aof(redis))
    redis.start()


async def play(api: Api, game_id: str, tokens: list[str], steps: int, rng: random.Random, i: int | None) -> int:
    for _ in range(steps):
        version, seat, commands = await api.awaited(game_id, tokens, i)
        if seat < 0:
            return version
        r = await api.send(game_id, tokens[seat], rng.choice(commands), f"lw-{rng.random()}", i=i)
        assert r.status_code == 200, r.text
    return (await api.table(game_id, None, i))["version"]


async def feed(api: Api, game_id: str, token: str | None, i: int) -> dict[int, Any]:
    r = await api.at(i).get(f"/api/v1/games/{game_id}/events", params={"limit": 1000}, headers=auth(token))
    assert r.status_code == 200, r.text
    return {e["version"]: e["event"] for e in r.json()["events"]}


@pytest.mark.timeout(limit(120))
@pytest.mark.parametrize("writes_first", [False, True], ids=["looked-at-first", "written-past-first"])
async def test_a_stream_that_goes_backwards_is_detected_and_no_version_is_reused(
    tmp_path: Path, writes_first: bool
) -> None:
    """``writes_first``: after the rollback, replica 0 writes past the lost head before
    replica 1 (which cached the lost versions) is asked anything."""
    rng = random.Random(5)
    resets = 0
    with own_redis("always") as redis_server, replicas(redis_server.url, 2, LUDOTECA_SWEEP_INTERVAL="30") as serves:
        async with Api([s.url for s in serves]) as api:
            for n in range(SIZE.rollbacks):
                game_id, tokens = await api.started(2)
                setup = (await api.table(game_id, None, 0))["version"]
                kept = await play(api, game_id, tokens, 3, rng, 0)
                snapshot(redis_server, tmp_path / f"older-{n}.aof")
                followers = [Follower([serves[i].url], game_id, t).start() for i, t in ((0, None), (1, tokens[0]))]
                for i in (0, 1, 0, 1):
                    head = await play(api, game_id, tokens, 2, rng, i)  # both replicas cache the newer versions
                for f in followers:
                    await f.reach(head)
                restore(redis_server, tmp_path / f"older-{n}.aof")
                redis = redis_client(redis_server.url)
                try:
                    assert len(await stream_versions(redis, game_id)) == kept
                    if writes_first:
                        past = await play(api, game_id, tokens, head - kept + 3, rng, 0)
                        assert past > head
                    # every replica serves what Redis holds, and plays on from it
                    for i in (1, 0, 1):
                        await play(api, game_id, tokens, 1, rng, i)
                    now = len(await stream_versions(redis, game_id))
                    await check_stream(redis, game_id, setup)
                    truth = {i: await feed(api, game_id, t, i) for i, t in ((0, None), (1, tokens[0]))}
                    for i in (0, 1):
                        assert (await api.table(game_id, None, i))["version"] == now
                    # the followers were told to reset and now hold exactly what the stream holds
                    for f, i in zip(followers, (0, 1), strict=True):
                        await f.reach(now, seconds=40)
                        assert f.resets >= 1, f"the socket on replica {i} was never told to reset"
                        assert f.problems == [], f.problems[:3]
                        assert f.events == truth[i], "a follower holds an event the stream does not"
                        resets += f.resets
                finally:
                    for f in followers:
                        await f.stop()
                    await redis.aclose()
    figure(
        f"lost writes ({'written past first' if writes_first else 'looked at first'})",
        f"{SIZE.rollbacks} rollbacks of the append-only file: detected every time, {resets} socket resets, "
        "0 versions reused for different events",
    )
