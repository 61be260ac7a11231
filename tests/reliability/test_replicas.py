"""Stateless replicas: the seats of one game on three different replicas, commands sent to
any of them; every command reaches every seat in order, and a replica stopped mid-game
loses nothing - its client resumes on another replica from its last version."""

from __future__ import annotations

import random
import signal

import pytest

from tests.reliability.harness import Api, Follower, figure, own_redis, replicas
from tests.reliability.sizes import limit


@pytest.mark.timeout(limit(120))
async def test_seats_on_three_replicas_see_every_command_and_survive_one_replica_stopping() -> None:
    rng = random.Random(11)
    with own_redis("always") as redis_server, replicas(redis_server.url, 3) as serves:
        urls = [s.url for s in serves]
        async with Api(urls) as api:
            game_id, tokens = await api.started(3)
            # each seat starts on its own replica, and moves to the next one when its socket closes
            followers = [Follower(urls[i:] + urls[:i], game_id, token).start() for i, token in enumerate(tokens)]
            stopped = False
            for step in range(2000):
                alive = [0, 2] if stopped else [0, 1, 2]
                _, seat, commands = await api.awaited(game_id, tokens, rng.choice(alive))
                if seat < 0:
                    break
                r = await api.send(game_id, tokens[seat], rng.choice(commands), f"r{step}", rng.choice(alive))
                assert r.status_code == 200, r.text
                if step == 20:
                    serves[1].stop(signal.SIGTERM)  # seat 1's replica goes away mid-game
                    stopped = True
            final = await api.table(game_id, None, 0)
            assert final["status"] == "finished"
            try:
                for follower in followers:
                    await follower.reach(final["version"])
                    assert follower.problems == [], follower.problems[:5]
                    assert follower.versions == list(range(1, final["version"] + 1))
            finally:
                for follower in followers:
                    await follower.stop()
    assert followers[1].reconnects >= 1
    figure(
        "stateless replicas",
        f"3 seats on 3 replicas, {final['version']} versions, one replica stopped mid-game: every seat saw "
        f"every version once, in order (seat 1 moved replica {followers[1].reconnects} time(s))",
    )
