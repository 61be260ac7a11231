"""Redis unreachable: 503 with the store's code, and service again by itself once it is back."""

from __future__ import annotations

import asyncio
import shutil
import tempfile
from collections.abc import Iterator

import httpx
import pytest

from server.settings import Settings
from server.storage.embedded import EmbeddedRedis
from tests.server.conftest import start_server, stop_server


@pytest.fixture
def own_redis() -> Iterator[EmbeddedRedis]:
    directory = tempfile.mkdtemp(prefix="lt-down-")
    embedded = EmbeddedRedis(directory, appendfsync="always")
    embedded.start()
    try:
        yield embedded
    finally:
        embedded.stop()
        shutil.rmtree(directory, ignore_errors=True)


async def test_redis_down_answers_503_and_the_server_recovers_when_it_is_back(own_redis: EmbeddedRedis) -> None:
    srv, task, _, port = await start_server(Settings(redis_url=own_redis.url, sweep_interval=0.2))
    try:
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=10) as http:
            game_id = (await http.post("/api/v1/games", json={"game": "vilar-de-mouros", "players": 2})).json()[
                "game_id"
            ]
            own_redis.stop()
            for request in (
                http.get(f"/api/v1/games/{game_id}"),
                http.post("/api/v1/games", json={"game": "vilar-de-mouros", "players": 2}),
                http.post(f"/api/v1/games/{game_id}/seats", json={}),
                http.get("/readyz"),
            ):
                r = await request
                assert r.status_code == 503, r.text
                assert r.json()["error"] == "store_unavailable"
            assert (await http.get("/healthz")).status_code == 200  # alive, only not ready
            own_redis.start()
            async with asyncio.timeout(5):
                while (await http.get(f"/api/v1/games/{game_id}")).status_code != 200:
                    await asyncio.sleep(0.1)
            assert (await http.post(f"/api/v1/games/{game_id}/seats", json={})).status_code == 201
            listed = (await http.get("/api/v1/games")).json()["games"]
            assert [g["game_id"] for g in listed] == [game_id]
    finally:
        await stop_server(srv, task)
