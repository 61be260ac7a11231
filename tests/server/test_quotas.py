"""Quotas on opening games: per client address an hour, and open games in total, answered with 429."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Any

import httpx
import pytest
import redis.asyncio as aioredis

from server.settings import Settings
from tests.server.conftest import start_server, stop_server

NEW_GAME = {"game": "vilar-de-mouros", "players": 2}
Serve = Callable[..., AbstractAsyncContextManager[httpx.AsyncClient]]


@pytest.fixture
def serve(redis: aioredis.Redis, redis_url: str) -> Serve:
    @asynccontextmanager
    async def running(**changes: Any) -> AsyncIterator[httpx.AsyncClient]:
        server, task, _, port = await start_server(Settings(redis_url=redis_url, **changes))
        try:
            async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=10) as http:
                yield http
        finally:
            await stop_server(server, task)

    return running


async def test_an_address_past_its_hourly_quota_gets_429(serve: Serve, redis: aioredis.Redis) -> None:
    async with serve(create_per_hour=3, max_open_games=0) as http:
        for _ in range(3):
            assert (await http.post("/api/v1/games", json=NEW_GAME)).status_code == 201
        r = await http.post("/api/v1/games", json=NEW_GAME)
        assert r.status_code == 429, r.text
        body = r.json()
        assert body["error"] == "too_many_games" and "3 games an hour" in body["message"]
        assert body["details"]["limit"] == 3
        assert 0 < int(r.headers["Retry-After"]) <= 3601 and body["details"]["retry_after"] == int(
            r.headers["Retry-After"]
        )
        listed = (await http.get("/api/v1/games")).json()["games"]
        assert len(listed) == 3  # the refused one was not created
        # The counter is one expiring key in the quota slot.
        [key] = await redis.keys("lt:{quota}:*")
        assert key.startswith(b"lt:{quota}:client:127.0.0.1:")
        assert 0 < await redis.ttl(key) <= 3660


async def test_the_quota_is_shared_by_every_replica(serve: Serve) -> None:
    async with serve(create_per_hour=2, max_open_games=0) as one, serve(create_per_hour=2, max_open_games=0) as two:
        assert (await one.post("/api/v1/games", json=NEW_GAME)).status_code == 201
        assert (await two.post("/api/v1/games", json=NEW_GAME)).status_code == 201
        assert (await one.post("/api/v1/games", json=NEW_GAME)).status_code == 429
        assert (await two.post("/api/v1/games", json=NEW_GAME)).status_code == 429


async def test_past_the_open_games_limit_creating_is_429_until_one_fills(serve: Serve) -> None:
    async with serve(max_open_games=2) as http:
        first = (await http.post("/api/v1/games", json=NEW_GAME)).json()["game_id"]
        assert (await http.post("/api/v1/games", json=NEW_GAME)).status_code == 201
        r = await http.post("/api/v1/games", json=NEW_GAME)
        assert r.status_code == 429 and r.json()["error"] == "too_many_open_games"
        assert r.json()["details"] == {"limit": 2} and "Retry-After" not in r.headers
        for _ in range(2):  # the first game fills and starts: one open game fewer
            assert (await http.post(f"/api/v1/games/{first}/seats", json={})).status_code == 201
        assert (await http.post("/api/v1/games", json=NEW_GAME)).status_code == 201


async def test_bad_requests_are_refused_before_they_count(serve: Serve) -> None:
    async with serve(create_per_hour=1) as http:
        r = await http.post("/api/v1/games", json={"game": "no-such-game", "players": 2})
        assert r.status_code == 400
        assert (await http.post("/api/v1/games", json=NEW_GAME)).status_code == 201


def test_the_quotas_are_settings() -> None:
    settings = Settings.from_env({"LUDOTECA_CREATE_PER_HOUR": "7", "LUDOTECA_MAX_OPEN_GAMES": "9"})
    assert (settings.create_per_hour, settings.max_open_games) == (7, 9)
    assert (Settings().create_per_hour, Settings().max_open_games) == (0, 10_000)
