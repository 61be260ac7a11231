"""A dead embedded Redis is restarted (bounded, with back-off), health and readiness say the truth
meanwhile, the log does not grow by the second, and a Redis that keeps dying stops the server."""

from __future__ import annotations

import asyncio
import os
import signal
import tempfile
import time
from pathlib import Path

import httpx

from server.storage.embedded import EmbeddedRedis, supervise
from tests.reliability.harness import figure
from tests.server.test_cli import embedded_redis_of
from tests.support.processes import Serve, free_port, wait_gone


def statuses(url: str) -> tuple[int, int]:
    return httpx.get(f"{url}/healthz", timeout=2).status_code, httpx.get(f"{url}/readyz", timeout=2).status_code


def test_a_killed_embedded_redis_is_restarted_and_health_says_so_meanwhile(tmp_path: Path) -> None:
    with Serve(free_port(), data_dir=tmp_path / "data", log_level="info") as serve:
        created = httpx.post(f"{serve.url}/api/v1/games", json={"game": "vilar-de-mouros", "players": 2})
        game_id = created.json()["game_id"]
        # fsync everysec: while a slow fsync runs, Redis holds back its AOF writes up to 2 s, and a kill
        # then takes them along (docs/operations.md); this test is about the restart, not that window.
        time.sleep(2.5)
        before = len(serve.output())
        redis_pid = embedded_redis_of(serve.pid)
        killed = time.monotonic()
        os.kill(redis_pid, signal.SIGKILL)
        assert wait_gone(redis_pid)
        seen: set[tuple[int, int]] = set()
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            # Two requests, not one instant: the store may come back between them, so each is judged alone.
            health, ready = statuses(serve.url)
            if (health, ready) != (200, 200):
                seen.add((health, ready))
            elif seen:
                break
            time.sleep(0.05)
        back = time.monotonic() - killed
        assert statuses(serve.url) == (200, 200), "the server came back"
        assert {h for h, _ in seen} <= {200, 503} and {r for _, r in seen} <= {200, 503}, seen
        assert any(h == 503 for h, _ in seen), "health said the store was down"
        assert any(r == 503 for _, r in seen), "readiness said the store was down"
        assert httpx.get(f"{serve.url}/api/v1/games/{game_id}").status_code == 200  # reloaded from its file
        assert embedded_redis_of(serve.pid) != redis_pid
        # A few seconds of outage while every worker loops five times a second: a few lines, not KBs a second.
        grown = len(serve.output()) - before
    assert grown < 20_000, f"the log grew {grown} bytes during the outage"
    figure("embedded Redis killed: back after", f"{back:.1f} s (log grew {grown} bytes)")


async def test_a_redis_that_keeps_dying_stops_the_server_after_a_bounded_number_of_restarts() -> None:
    directory = Path(tempfile.mkdtemp(prefix="lt-sup-"))  # short: unix socket paths are limited
    redis = EmbeddedRedis(directory)
    redis.start()
    gave_up = asyncio.Event()
    watch = asyncio.create_task(supervise(redis, gave_up.set, every=0.05, restarts=2, window=60))
    try:
        for _ in range(3):  # two restarts are allowed; the third death gives up
            pid = redis.pid
            assert pid is not None
            os.kill(pid, signal.SIGKILL)
            deadline = time.monotonic() + 10
            while redis.pid == pid and not gave_up.is_set() and time.monotonic() < deadline:
                await asyncio.sleep(0.05)
            while not (redis.running or gave_up.is_set()) and time.monotonic() < deadline:
                await asyncio.sleep(0.05)
        await asyncio.wait_for(gave_up.wait(), 10)
        assert not redis.running
    finally:
        watch.cancel()
        await asyncio.gather(watch, return_exceptions=True)
        redis.stop()
