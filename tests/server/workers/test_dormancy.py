"""Dormancy: games nobody plays leave their history in the cold tier, and every way back into a
game (a view, a move, a replay, an export, a second replica) finds it as it was."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import redis.asyncio as aioredis

from server.settings import Settings
from server.storage.cold import ColdDirectory
from server.storage.index import LobbyIndex
from server.storage.store import EventStore
from server.workers.dormancy import freeze_idle
from tests.server.conftest import ADMIN, NO_QUOTAS, Running, running
from tests.server.storage.test_cold import history
from tests.server.storage.test_store import raw_game

API = "/api/v1"


async def test_the_pass_freezes_the_games_idle_past_the_threshold_and_stamps_old_ones(
    redis: aioredis.Redis, tmp_path: Path
) -> None:
    store = EventStore(redis, ColdDirectory(tmp_path))
    index = LobbyIndex(redis)
    for n, game_id in enumerate(["idle", "busy", "old"]):
        await store.append(game_id, 0, [b"opened"], meta={"status": "active"})
        await index.file(game_id, "active", n + 1)
    await redis.hdel("lt:{old}:meta", "touched_ms")  # from before the append stamped it
    now = await store.now_ms()
    await redis.hset("lt:{idle}:meta", "touched_ms", now - 10_000)
    assert await freeze_idle(store, index, idle_ms=5_000, now_ms=now) == ["idle"]
    assert int(await redis.hget("lt:{old}:meta", "touched_ms") or 0) == now
    assert await freeze_idle(store, index, idle_ms=5_000, now_ms=now + 6_000) == ["busy", "old"]
    assert await freeze_idle(store, index, idle_ms=5_000, now_ms=now + 60_000) == []


def dozing(redis_url: str, cold: Path) -> Settings:
    """A server whose games go dormant 1.5 s after their last event (or their last return)."""
    return Settings(
        redis_url=redis_url, admin_token=ADMIN, sweep_interval=0.5, cold_url=str(cold), cold_after=1.5,
        cold_interval=0.2, bot_delay_ms=0, **NO_QUOTAS,
    )  # fmt: skip


async def dormant(redis: aioredis.Redis, game_id: str) -> None:
    deadline = time.monotonic() + 15
    while not await redis.hexists(f"lt:{{{game_id}}}:meta", "cold"):
        assert time.monotonic() < deadline, "the game never went dormant"
        await asyncio.sleep(0.05)
    assert not await redis.exists(f"lt:{{{game_id}}}:events")


async def a_move(api: Running, game_id: str, tokens: list[str]) -> Any:
    seat, commands = await api.awaited(game_id, tokens)
    r = await api.send(game_id, tokens[seat], commands[0])
    assert r.status_code == 200, r.text
    return r.json()


async def test_a_dormant_game_is_seen_played_replayed_and_exported_as_it_was_on_any_replica(
    redis: aioredis.Redis, redis_url: str, tmp_path: Path
) -> None:
    async with running(dozing(redis_url, tmp_path)) as here, running(dozing(redis_url, tmp_path)) as there:
        game_id, tokens = await here.started(2)
        for _ in range(6):
            await a_move(here, game_id, tokens)
        view = (await here.get(f"{API}/games/{game_id}", tokens[0])).content
        export = (await here.get(f"{API}/games/{game_id}/export", ADMIN)).content
        replay = (await here.get(f"{API}/games/{game_id}/replay", tokens[1], version=3)).content
        stored = await history(redis, game_id)

        await dormant(redis, game_id)
        assert (await there.get(f"{API}/games/{game_id}", tokens[0])).content == view  # not cached there
        assert await history(redis, game_id) == stored  # back byte for byte
        await dormant(redis, game_id)
        assert (await here.get(f"{API}/games/{game_id}/export", ADMIN)).content == export
        await dormant(redis, game_id)
        assert (await there.get(f"{API}/games/{game_id}/replay", tokens[1], version=3)).content == replay
        await dormant(redis, game_id)
        version = (await raw_game(redis, game_id))["meta"][b"cold"].split()[0]
        moved = await a_move(here, game_id, tokens)  # cached here: its append finds the game dormant
        assert moved["version"] > int(version)
        after = await raw_game(redis, game_id)
        assert after["events"][: len(stored["events"])] == stored["events"]


async def test_a_dormant_game_whose_history_is_missing_answers_503_and_loses_nothing(
    redis: aioredis.Redis, redis_url: str, tmp_path: Path
) -> None:
    async with running(dozing(redis_url, tmp_path)) as api:
        game_id, tokens = await api.started(2)
        await a_move(api, game_id, tokens)
        view = (await api.get(f"{API}/games/{game_id}", tokens[0])).content
        await dormant(redis, game_id)
        away = tmp_path.parent / "away"
        tmp_path.rename(away)  # the volume is gone
        r = await api.get(f"{API}/games/{game_id}", tokens[0])
        assert (r.status_code, r.json()["error"]) == (503, "store_unavailable")
        assert await redis.hexists(f"lt:{{{game_id}}}:meta", "cold")
        away.rename(tmp_path)  # and back
        assert (await api.get(f"{API}/games/{game_id}", tokens[0])).content == view
