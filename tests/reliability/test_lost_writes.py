"""Lost writes: a stream that goes backwards is detected.

Redis can lose acknowledged writes (a failover, a host crash under ``everysec``). It is
simulated here by stopping Redis and putting back an older append-only file. Every
replica that had cached the lost versions must notice, drop its cache and tell its
sockets to reset (4009), and no client may ever hold two different events under one
version number without having been told to reset: not a follower, not a replica's
cache, even when new writes have gone past the lost head before the replica looks, nor a
client that comes back to a replica started after the loss (its check value tells).
"""

from __future__ import annotations

import contextlib
import json
import random
import shutil
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from server.storage.embedded import EmbeddedRedis
from server.storage.store import events_key
from tests.reliability.harness import (
    Api,
    Follower,
    auth,
    check_stream,
    figure,
    own_redis,
    redis_client,
    replica,
    replicas,
    stream_versions,
    until,
)
from tests.reliability.sizes import SIZE, limit
from tests.support.replies import entries_of


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
    final: int = (await api.table(game_id, None, i))["version"]
    return final


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
                    # (a follower may still hold the lost, longer history: its feed notices when woken)
                    for f, i in zip(followers, (0, 1), strict=True):
                        with contextlib.suppress(TimeoutError):
                            await until(lambda f=f, now=now: f.resets >= 1 and f.last >= now, seconds=40)
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


async def resume(url: str, game_id: str, token: str | None, after: int, check: str | None, upto: int) -> Any:
    """One hello with ``after`` and ``check``: the updates it gets up to version ``upto``, or
    the close code (and the message before it) when the server closes instead."""
    ws_url = url.replace("http://", "ws://")
    async with connect(f"{ws_url}/api/v1/games/{game_id}/ws", open_timeout=5) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token, "after": after, "check": check}))
        got: list[Any] = []
        try:
            while not got or got[-1]["type"] != "update" or got[-1]["version"] < upto:
                got.append(json.loads(await ws.recv()))
        except ConnectionClosed as closed:
            return (closed.rcvd.code if closed.rcvd is not None else None), got
        return None, got


@pytest.mark.timeout(limit(120))
async def test_a_client_back_on_a_replica_started_after_the_loss_is_reset_by_its_check(tmp_path: Path) -> None:
    """A client follows through replica A; writes are lost and A writes other events past the old
    head; the client comes back with its ``after`` and ``check`` to replica B, started after the
    rollback (B never saw the lost versions): it is reset. A client whose versions were not lost
    resumes on B with its check, and one without a check is not told anything, as before."""
    rng = random.Random(7)
    resets = rewritten_alike = 0
    with own_redis("always") as redis_server, replicas(redis_server.url, 1, LUDOTECA_SWEEP_INTERVAL="30") as [a]:
        async with Api([a.url]) as api:
            for n in range(SIZE.rollbacks):
                game_id, tokens = await api.started(2)
                kept = await play(api, game_id, tokens, 3, rng, 0)
                snapshot(redis_server, tmp_path / f"older-{n}.aof")
                follower = Follower([a.url], game_id, tokens[0]).start()
                try:
                    await follower.reach(kept)
                    kept_check = follower.checks[kept]  # a client that left here loses nothing
                    head = await play(api, game_id, tokens, 4, rng, 0)
                    await follower.reach(head)
                    head_check = follower.checks[head]
                finally:
                    await follower.stop()  # the client goes away holding ``head`` and its check
                assert kept_check and head_check and kept_check != head_check
                lost_link = await link_at(redis_server.url, game_id, head)
                restore(redis_server, tmp_path / f"older-{n}.aof")
                now = await play(api, game_id, tokens, head - kept + 3, rng, 0)  # A writes other events
                assert now > head
                with replica(redis_server.url, LUDOTECA_SWEEP_INTERVAL="30") as b:
                    code, got = await resume(b.url, game_id, tokens[0], head, head_check, now)
                    if await link_at(redis_server.url, game_id, head) == lost_link:
                        # A happened to write the very same events again (no draw between kept
                        # and head, and the same commands): what the client holds is true.
                        assert code is None and got[-1]["version"] == now, (code, got)
                        rewritten_alike += 1
                    else:
                        assert code == 4009 and [m["type"] for m in got] == ["reset"], (code, got)
                        assert got[0]["version"] == now
                        resets += 1
                    code, got = await resume(b.url, game_id, tokens[0], kept, kept_check, now)
                    assert code is None and all(m["type"] == "update" for m in got), (code, got)
                    truth = await feed(api, game_id, tokens[0], 0)
                    resumed = {e["version"]: e["event"] for m in got for e in m["events"]}
                    assert resumed == {v: e for v, e in truth.items() if v > kept}
                    code, got = await resume(b.url, game_id, tokens[0], head, None, now)
                    assert code is None and got[-1]["version"] == now  # no check: the server cannot tell
    assert resets > rewritten_alike
    figure(
        "lost writes (back on a replica started after the loss)",
        f"{SIZE.rollbacks} rollbacks: {resets} clients holding lost versions reset by their check on a new "
        f"replica ({rewritten_alike} more found the same events written again, and resumed), every client "
        "holding kept versions resumed",
    )


async def link_at(url: str, game_id: str, version: int) -> bytes:
    """The chain link the stream holds at ``version`` (a new client: Redis restarts in these tests)."""
    async with contextlib.aclosing(redis_client(url)) as redis:
        [(_, fields)] = entries_of(await redis.xrange(events_key(game_id), f"0-{version}", f"0-{version}"))
    return fields[b"h"]
