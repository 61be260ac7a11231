"""A real server for API tests: uvicorn on a free loopback port, on the test Redis."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import random
from collections.abc import AsyncIterator, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest
import redis.asyncio as aioredis
import uvicorn
from starlette.applications import Starlette

from domain.catalog import GAMES
from domain.engine import AnyGame
from server.app import create_app
from server.serve import server_config
from server.settings import Settings
from tests.support.cluster import LocalCluster

ADMIN = "admin-token-for-tests"
# The general test servers open many tables and sockets from one address; tests/server/storage/test_quotas.py
# and tests/security/test_sockets.py check the per-address quotas and caps, which are on by default.
# Their tests also play whole games over REST as fast as they can: each seat's token bucket is
# wide (tests/security/test_rest_rate.py checks the default one).
NO_QUOTAS: dict[str, Any] = {
    "create_per_hour": 0,
    "seats_per_hour": 0,
    "players_per_hour": 0,
    "codes_per_hour": 0,
    "ws_per_address": 0,
    "ws_rate": 1000.0,
    "ws_burst": 1000,
}

# Bots that answer as soon as they have thought: the suite's games move on at once (the pacing that
# hides what a bot holds is tested in tests/security/test_timing_oracle.py).
AT_ONCE: dict[str, Any] = {"bot_pace_ms": 0, "bot_pace_spread_ms": 0}


@dataclass
class Running:
    url: str
    app: Starlette
    http: httpx.AsyncClient
    ids: itertools.count[int] = field(default_factory=itertools.count)

    @property
    def ws_url(self) -> str:
        return self.url.replace("http://", "ws://")

    def deal_from(self, seed: str) -> None:
        """Deal and shuffle from a seeded generator from now on (the server draws from the operating
        system): with seeded players too, a random game then plays the same way, and takes as long,
        on every run."""
        self.app.state.games.rng = random.Random(seed)

    async def create(self, players: int = 2, game: str = "vilar-de-mouros", **options: Any) -> str:
        r = await self.http.post("/api/v1/games", json={"game": game, "players": players, "options": options})
        assert r.status_code == 201, r.text
        game_id: str = r.json()["game_id"]
        return game_id

    async def seat_all(self, game_id: str, players: int) -> list[str]:
        tokens = []
        for i in range(players):
            r = await self.http.post(f"/api/v1/games/{game_id}/seats", json={"name": f"P{i}"})
            assert r.status_code == 201, r.text
            assert r.json()["seat"] == i
            tokens.append(r.json()["token"])
        return tokens

    async def started(self, players: int = 2) -> tuple[str, list[str]]:
        game_id = await self.create(players)
        return game_id, await self.seat_all(game_id, players)

    async def get(self, path: str, token: str | None = None, **params: Any) -> httpx.Response:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return await self.http.get(path, headers=headers, params=params)

    async def send(
        self, game_id: str, token: str | None, command: Any, command_id: str | None = None, **extra: Any
    ) -> httpx.Response:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        body = {"command": command, "command_id": command_id or f"c{next(self.ids)}", **extra}
        return await self.http.post(f"/api/v1/games/{game_id}/commands", json=body, headers=headers)

    async def awaited(self, game_id: str, tokens: list[str]) -> tuple[int, list[Any]]:
        """The first seat with legal commands, and those commands."""
        for seat, token in enumerate(tokens):
            r = await self.get(f"/api/v1/games/{game_id}/legal-commands", token)
            assert r.status_code == 200, r.text
            if r.json()["commands"]:
                return seat, r.json()["commands"]
        return -1, []


async def start_server(
    settings: Settings, games: Mapping[str, AnyGame] = GAMES
) -> tuple[uvicorn.Server, asyncio.Task[None], Starlette, int]:
    app = create_app(settings, games)
    server = uvicorn.Server(server_config(app, settings, host="127.0.0.1", port=0, log_level="warning"))
    task = asyncio.create_task(server.serve())
    while not server.started:
        if task.done():
            task.result()
        await asyncio.sleep(0.01)
    port: int = server.servers[0].sockets[0].getsockname()[1]
    return server, task, app, port


async def stop_server(server: uvicorn.Server, task: asyncio.Task[None]) -> None:
    server.should_exit = True
    await asyncio.wait_for(task, 10)


@contextlib.asynccontextmanager
async def running(settings: Settings, games: Mapping[str, AnyGame] = GAMES) -> AsyncIterator[Running]:
    """A server with ``settings`` and an HTTP client for it, until the block ends."""
    srv, task, app, port = await start_server(settings, games)
    url = f"http://127.0.0.1:{port}"
    try:
        async with httpx.AsyncClient(base_url=url, timeout=10) as http:
            yield Running(url, app, http)
    finally:  # a failing test still closes the listening socket
        await stop_server(srv, task)


def quick_settings(redis_url: str, bot_delay_ms: int = 0) -> Settings:
    """A server whose bots do not pause to think, nor pace their answers."""
    return Settings(
        redis_url=redis_url, admin_token=ADMIN, sweep_interval=0.5, bot_delay_ms=bot_delay_ms, **NO_QUOTAS, **AT_ONCE
    )


@pytest.fixture
async def server(redis: aioredis.Redis, redis_url: str) -> AsyncIterator[Running]:
    async with running(Settings(redis_url=redis_url, admin_token=ADMIN, sweep_interval=0.5, **NO_QUOTAS)) as api:
        yield api


@pytest.fixture
async def quick(redis: aioredis.Redis, redis_url: str) -> AsyncIterator[Running]:
    """A server whose bots do not pause to think."""
    async with running(quick_settings(redis_url)) as api:
        yield api


@pytest.fixture(scope="module")
def cluster() -> Iterator[LocalCluster]:
    """A local Redis Cluster for one test module (tests/support/cluster.py)."""
    local = LocalCluster().start()
    try:
        yield local
    finally:
        local.stop()
