"""Housekeeping: open games that never fill expire; finished games are archived, leave Redis, and import back."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import httpx
import redis.asyncio as aioredis

from server.service.games import Games
from server.settings import Settings
from server.storage.index import RETENTION_KEY, LobbyIndex
from server.storage.leases import Leases, housekeeping_lock
from server.workers import housekeeping
from tests.server.conftest import ADMIN, Running, start_server, stop_server
from tests.server.web.test_rest import play_to_the_end
from tests.support.replies import as_bytes, key_names

ROOT = Path(__file__).resolve().parents[3]


def games_of(server: Running) -> Games:
    games: Games = server.app.state.games
    return games


def index_of(server: Running) -> LobbyIndex:
    index = games_of(server).index
    assert index is not None
    return index


async def keys_of(redis: aioredis.Redis, game_id: str) -> list[bytes]:
    return key_names(await redis.keys(f"lt:{{{game_id}}}:*"))


async def test_open_games_older_than_the_limit_are_deleted(server: Running, redis: aioredis.Redis) -> None:
    games = games_of(server)
    lonely = await server.create(2)
    half = await server.create(2)
    assert (await server.http.post(f"/api/v1/games/{half}/seats", json={})).status_code == 201
    playing, _ = await server.started(2)
    now = await games.store.now_ms()
    assert await housekeeping.expire_open(games, index_of(server), 60_000, now + 30_000) == []
    assert sorted(await housekeeping.expire_open(games, index_of(server), 60_000, now + 61_000)) == sorted(
        [lonely, half]
    )
    for game_id in (lonely, half):
        assert (await server.get(f"/api/v1/games/{game_id}")).status_code == 404
        assert await keys_of(redis, game_id) == []
    assert (await server.http.get("/api/v1/games")).json()["games"] == []
    assert (await server.get(f"/api/v1/games/{playing}")).status_code == 200
    assert await housekeeping.expire_open(games, index_of(server), 60_000, now + 61_000) == []  # idempotent


async def test_a_game_from_before_creation_times_is_given_one(server: Running, redis: aioredis.Redis) -> None:
    games = games_of(server)
    game_id = await server.create(2)
    await redis.hdel(f"lt:{{{game_id}}}:meta", "created_ms")
    now = await games.store.now_ms() + 10**9
    assert await housekeeping.expire_open(games, index_of(server), 60_000, now) == []
    assert int(as_bytes(await redis.hget(f"lt:{{{game_id}}}:meta", "created_ms"))) == now
    assert await housekeeping.expire_open(games, index_of(server), 60_000, now + 60_000) == [game_id]


async def test_another_replica_that_cached_a_deleted_game_answers_404(server: Running) -> None:
    game_id = await server.create(2)
    games = games_of(server)
    assert await games.store.delete_game(game_id, "open")  # as another replica would: our cache still holds it
    assert game_id in games.tables.cache
    assert (await server.get(f"/api/v1/games/{game_id}")).status_code == 404
    assert game_id not in games.tables.cache


async def test_a_finished_game_is_archived_removed_and_imports_back(
    server: Running, redis: aioredis.Redis, tmp_path: Path
) -> None:
    games = games_of(server)
    game_id, tokens = await server.started(2)
    await play_to_the_end(server, game_id, tokens)
    original = (await server.get(f"/api/v1/games/{game_id}")).json()
    log = (await server.get(f"/api/v1/games/{game_id}/export")).content
    finished = int(as_bytes(await redis.hget(f"lt:{{{game_id}}}:meta", "finished_ms")))
    assert await redis.zscore(RETENTION_KEY, game_id) == finished

    assert await housekeeping.archive_finished(games, index_of(server), tmp_path, 60_000, finished + 59_000) == []
    assert await housekeeping.archive_finished(games, index_of(server), tmp_path, 60_000, finished + 60_000) == [
        game_id
    ]
    assert (tmp_path / f"{game_id}.jsonl").read_bytes() == log
    assert [p.name for p in tmp_path.iterdir()] == [f"{game_id}.jsonl"]  # no temporary file left
    assert (await server.get(f"/api/v1/games/{game_id}")).status_code == 404
    assert (await server.http.get("/api/v1/games", params={"status": "finished"})).json()["games"] == []
    assert await keys_of(redis, game_id) == [] and await redis.zcard(RETENTION_KEY) == 0

    back = await server.http.post(
        "/api/v1/games/import",
        content=(tmp_path / f"{game_id}.jsonl").read_bytes(),
        headers={"Authorization": f"Bearer {ADMIN}", "Content-Type": "application/x-ndjson"},
    )
    assert back.status_code == 201, back.text
    copy = (await server.get(f"/api/v1/games/{back.json()['game_id']}")).json()
    assert copy["status"] == "finished" and copy["outcome"] == original["outcome"]
    assert copy["version"] == original["version"]
    # The imported game is kept a whole retention again.
    assert await housekeeping.archive_finished(games, index_of(server), tmp_path, 60_000, finished + 60_000) == []


async def test_finished_games_from_before_finish_times_are_filed_at_once(
    server: Running, redis: aioredis.Redis
) -> None:
    game_id, tokens = await server.started(2)
    await play_to_the_end(server, game_id, tokens)
    await redis.delete(RETENTION_KEY)
    assert await index_of(server).unfiled(123) == 1
    assert await redis.zscore(RETENTION_KEY, game_id) == 123


async def test_one_pass_does_both_and_only_one_replica_works_at_a_time(
    server: Running, redis: aioredis.Redis, tmp_path: Path
) -> None:
    games = games_of(server)
    policy = housekeeping.Policy(open_ttl=0.001, archive_dir=tmp_path / "archive", retention=0.001, interval=60)
    game_id, tokens = await server.started(2)
    await play_to_the_end(server, game_id, tokens)
    lonely = await server.create(2)
    await asyncio.sleep(0.01)
    leases, lock = Leases(redis), housekeeping_lock()
    assert await leases.take(lock, "another replica", 10_000)
    assert await housekeeping.once(games, index_of(server), leases, policy) == ([], [])
    await leases.release(lock, "another replica")
    assert await housekeeping.once(games, index_of(server), leases, policy) == ([lonely], [game_id])
    assert (tmp_path / "archive" / f"{game_id}.jsonl").exists()
    assert not await redis.keys("lt:{housekeeping}:*")  # the lock was released


async def test_the_schedule_expires_open_games_on_its_own(redis: aioredis.Redis, redis_url: str) -> None:
    settings = Settings(redis_url=redis_url, open_ttl=0.2, housekeeping_interval=0.05)
    srv, task, _, port = await start_server(settings)
    try:
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=10) as http:
            game_id = (await http.post("/api/v1/games", json={"game": "vilar-de-mouros", "players": 2})).json()[
                "game_id"
            ]
            async with asyncio.timeout(5):
                while (await http.get(f"/api/v1/games/{game_id}")).status_code != 404:
                    await asyncio.sleep(0.05)
    finally:
        await stop_server(srv, task)


async def test_ludoteca_admin_archive(server: Running, redis_url: str, tmp_path: Path) -> None:
    game_id, tokens = await server.started(2)
    await play_to_the_end(server, game_id, tokens)
    await asyncio.sleep(0.01)
    env = {**os.environ, "REDIS_URL": redis_url, "LUDOTECA_RETENTION": "0.001"}
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "server.cli", "admin", "archive", "--dir", str(tmp_path),
        cwd=ROOT, env=env, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    out, err = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode == 0, err.decode()
    assert f"archived 1 finished games to {tmp_path}" in out.decode()
    assert (tmp_path / f"{game_id}.jsonl").exists()
    assert (await server.get(f"/api/v1/games/{game_id}")).status_code == 404


async def test_ludoteca_admin_needs_redis_url(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "server.cli", "admin", "archive", "--dir", str(tmp_path),
        cwd=ROOT, env=env, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    _, err = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode == 2 and b"REDIS_URL" in err


def test_the_housekeeping_settings() -> None:
    settings = Settings.from_env(
        {
            "LUDOTECA_OPEN_TTL": "60",
            "LUDOTECA_RETENTION": "120",
            "LUDOTECA_ARCHIVE_DIR": "/srv/archive",
            "LUDOTECA_HOUSEKEEPING_INTERVAL": "5",
        }
    )
    assert (settings.open_ttl, settings.retention, settings.housekeeping_interval) == (60, 120, 5)
    assert settings.archive_dir == Path("/srv/archive") and Settings().archive_dir is None
