"""Deadlines: a window closes by itself once due, once, on any replica, across restarts."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
import redis.asyncio as aioredis

from domain.catalog import GAMES
from server.settings import Settings
from server.storage.schedule import DEADLINES_KEY
from tests.server import countdown
from tests.server.conftest import start_server, stop_server

WITH_COUNTDOWN = {**GAMES, countdown.GAME.id: countdown.GAME}


class Replica:
    def __init__(self, redis_url: str) -> None:
        self.settings = Settings(redis_url=redis_url, deadline_interval=0.05)

    async def __aenter__(self) -> httpx.AsyncClient:
        self.server, self.task, _, port = await start_server(self.settings, WITH_COUNTDOWN)
        self.http = httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=10)
        return self.http

    async def __aexit__(self, *exc: object) -> None:
        await self.http.aclose()
        await stop_server(self.server, self.task)


@pytest.fixture
async def replicas(redis: aioredis.Redis, redis_url: str) -> AsyncIterator[tuple[httpx.AsyncClient, httpx.AsyncClient]]:
    async with Replica(redis_url) as one, Replica(redis_url) as two:
        yield one, two


async def new_game(http: httpx.AsyncClient, window_ms: int) -> tuple[str, list[str]]:
    created = await http.post(
        "/api/v1/games", json={"game": "countdown", "players": 2, "options": {"window_ms": window_ms}}
    )
    game_id = created.json()["game_id"]
    tokens = [(await http.post(f"/api/v1/games/{game_id}/seats", json={})).json()["token"] for _ in range(2)]
    return game_id, tokens


async def open_window(http: httpx.AsyncClient, game_id: str, token: str, command_id: str) -> None:
    r = await http.post(
        f"/api/v1/games/{game_id}/commands",
        json={"command": {"type": "OpenWindow"}, "command_id": command_id},
        headers={"Authorization": f"Bearer {token}"},
    )
    assert r.status_code == 200, r.text


async def closed(http: httpx.AsyncClient, game_id: str, seconds: float = 5) -> list[str]:
    async with asyncio.timeout(seconds):
        while True:
            view: dict[str, Any] = (await http.get(f"/api/v1/games/{game_id}")).json()["view"]
            if view["window"] is None and view["closed"]:
                return list(view["closed"])
            await asyncio.sleep(0.02)


async def test_a_due_window_closes_by_itself_once_with_two_replicas(
    replicas: tuple[httpx.AsyncClient, httpx.AsyncClient], redis: aioredis.Redis
) -> None:
    one, two = replicas
    game_id, tokens = await new_game(one, 200)
    await open_window(one, game_id, tokens[0], "open-1")
    assert await closed(two, game_id) == ["w1:clock"]
    await asyncio.sleep(0.3)  # both replicas had time to fire it again
    events = (await one.get(f"/api/v1/games/{game_id}/events")).json()["events"]
    assert [e["event"]["type"] for e in events].count("WindowClosed") == 1
    assert await redis.zcard(DEADLINES_KEY) == 0


async def test_a_window_is_not_closed_before_it_is_due(
    replicas: tuple[httpx.AsyncClient, httpx.AsyncClient],
) -> None:
    one, _ = replicas
    game_id, tokens = await new_game(one, 60_000)
    await open_window(one, game_id, tokens[0], "open-1")
    await asyncio.sleep(0.4)
    assert (await one.get(f"/api/v1/games/{game_id}")).json()["view"]["window"] == "w1"


async def test_a_window_answered_in_time_is_not_closed_again(
    replicas: tuple[httpx.AsyncClient, httpx.AsyncClient], redis: aioredis.Redis
) -> None:
    one, _ = replicas
    game_id, tokens = await new_game(one, 200)
    await open_window(one, game_id, tokens[0], "open-1")
    r = await one.post(
        f"/api/v1/games/{game_id}/commands",
        json={"command": {"type": "Answer"}, "command_id": "answer-1"},
        headers={"Authorization": f"Bearer {tokens[1]}"},
    )
    assert r.status_code == 200
    await asyncio.sleep(0.5)
    assert (await one.get(f"/api/v1/games/{game_id}")).json()["view"]["closed"] == ["w1:answer"]
    assert await redis.zcard(DEADLINES_KEY) == 0  # the stale entry was dropped once due


async def test_a_deadline_survives_a_restart_of_every_replica(redis: aioredis.Redis, redis_url: str) -> None:
    async with Replica(redis_url) as http:
        game_id, tokens = await new_game(http, 300)
        await open_window(http, game_id, tokens[0], "open-1")
    await asyncio.sleep(0.4)  # due while no replica runs
    async with Replica(redis_url) as http:
        assert await closed(http, game_id) == ["w1:clock"]


async def test_a_player_cannot_send_the_clocks_command(replicas: tuple[httpx.AsyncClient, httpx.AsyncClient]) -> None:
    one, _ = replicas
    game_id, tokens = await new_game(one, 60_000)
    await open_window(one, game_id, tokens[0], "open-1")
    r = await one.post(
        f"/api/v1/games/{game_id}/commands",
        json={"command": {"type": "CloseWindow", "window": "w1"}, "command_id": "cheat"},
        headers={"Authorization": f"Bearer {tokens[1]}"},
    )
    assert r.status_code == 422
