"""The server on a 3-master Redis Cluster: every game's keys in one slot, games on every master."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator

import httpx
import pytest
from redis.asyncio.cluster import RedisCluster

from server.settings import Settings
from server.storage.connection import connect
from tests.server.conftest import start_server, stop_server
from tests.support.cluster import LocalCluster

KEYS = ("events", "commands", "meta", "tokens")


@pytest.fixture
async def api(cluster: LocalCluster) -> AsyncIterator[httpx.AsyncClient]:
    srv, task, _, port = await start_server(Settings(redis_url=cluster.url, ws_rate=10_000, ws_burst=10_000))
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=10) as http:
        yield http
    await stop_server(srv, task)


async def play(http: httpx.AsyncClient, game_id: str, tokens: list[str], rng: random.Random) -> dict[str, object]:
    headers = [{"Authorization": f"Bearer {t}"} for t in tokens]
    for step in range(2000):
        legal = [(await http.get(f"/api/v1/games/{game_id}/legal-commands", headers=h)).json() for h in headers]
        seats = [s for s, answer in enumerate(legal) if answer["commands"]]
        if not seats:
            break
        seat = rng.choice(seats)
        body = {"command": rng.choice(legal[seat]["commands"]), "command_id": f"c{step}"}
        r = await http.post(f"/api/v1/games/{game_id}/commands", json=body, headers=headers[seat])
        assert r.status_code == 200, r.text
    table: dict[str, object] = (await http.get(f"/api/v1/games/{game_id}")).json()
    return table


def node_name(redis: RedisCluster, key: str) -> str:
    node = redis.get_node_from_key(key)
    assert node is not None, key
    return node.name


async def test_games_on_every_master_are_played_to_the_end(cluster: LocalCluster, api: httpx.AsyncClient) -> None:
    redis = connect(cluster.url)
    assert isinstance(redis, RedisCluster)
    await redis.initialize()
    try:
        by_node: dict[str, str] = {}
        for _ in range(60):
            game_id = (await api.post("/api/v1/games", json={"game": "vilar-de-mouros", "players": 2})).json()[
                "game_id"
            ]
            nodes = {node_name(redis, f"lt:{{{game_id}}}:{k}") for k in KEYS}
            assert len(nodes) == 1, "a game's keys must share one slot"
            by_node.setdefault(nodes.pop(), game_id)
            if len(by_node) == 3:
                break
        assert len(by_node) == 3, "games should land on all three masters"
        rng = random.Random(7)
        for game_id in by_node.values():
            tokens = [(await api.post(f"/api/v1/games/{game_id}/seats", json={})).json()["token"] for _ in range(2)]
            table = await play(api, game_id, tokens, rng)
            assert table["status"] == "finished"
        finished = (await api.get("/api/v1/games", params={"status": "finished"})).json()["games"]
        assert {g["game_id"] for g in finished} == set(by_node.values())
    finally:
        await redis.aclose()
