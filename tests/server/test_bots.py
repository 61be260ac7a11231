"""Bots the server plays, against the real server: seating them, tables of bots alone, a person
among bots, a bot seat surviving the replica that played it, and unknown bots refused."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import httpx
import pytest
import redis.asyncio as aioredis

from domain.catalog import GAMES
from server.botqueue import DUE_KEY
from server.cli import main
from server.settings import Settings
from tests.server.conftest import ADMIN, Running, quick_settings, start_server, stop_server


def settings(redis_url: str, delay_ms: int = 0) -> Settings:
    return quick_settings(redis_url, delay_ms)


async def seat_bot(api: Running, game_id: str, bot: str, **extra: Any) -> httpx.Response:
    return await api.http.post(f"/api/v1/games/{game_id}/seats", json={"bot": bot, **extra})


async def finished(api: Running, game_id: str, timeout: float) -> dict[str, Any]:
    """The table once it is finished (fails after ``timeout`` seconds)."""
    deadline = time.monotonic() + timeout
    while True:
        r = await api.get(f"/api/v1/games/{game_id}")
        assert r.status_code == 200, r.text
        table: dict[str, Any] = r.json()
        if table["status"] == "finished" or time.monotonic() > deadline:
            return table
        await asyncio.sleep(0.05)


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_a_table_of_bots_plays_to_the_end_by_itself(quick: Running, game: str) -> None:
    game_id = await quick.create(3, game)
    for bot in ("greedy", "random", "random"):
        r = await seat_bot(quick, game_id, bot)
        assert r.status_code == 201, r.text
        assert r.json()["token"] is None  # nobody may act for a bot
    table = await finished(quick, game_id, 60)
    assert table["status"] == "finished", f"stuck at version {table['version']}: {table['awaiting']}"
    assert [s["bot"] for s in table["seats"]] == ["greedy", "random", "random"]
    assert [s["name"] for s in table["seats"]] == ["Greedy bot", "Random bot", "Random bot"]
    assert table["outcome"]["winners"]
    r = await quick.get("/api/v1/games", status="finished")
    entry = next(e for e in r.json()["games"] if e["game_id"] == game_id)
    assert entry["bots"] == [0, 1, 2]
    for _ in range(100):  # out of the bots' queue
        if await quick.app.state.games.store.redis.zscore(DUE_KEY, game_id) is None:
            break
        await asyncio.sleep(0.02)
    else:
        raise AssertionError("a finished game stays in the bots' queue")
    metrics = (await quick.http.get("/metrics", headers={"Authorization": f"Bearer {ADMIN}"})).text
    assert f'ludoteca_bot_moves_total{{bot="greedy",game="{game}"}}' in metrics


async def test_a_person_plays_among_bots(quick: Running) -> None:
    game_id = await quick.create(3, "vilar-de-mouros")
    r = await quick.http.post(f"/api/v1/games/{game_id}/seats", json={"name": "Ana", "seat": 1})
    token = r.json()["token"]
    assert (await seat_bot(quick, game_id, "greedy", seat=0)).status_code == 201
    listed = await quick.get("/api/v1/games", status="open")
    assert next(e for e in listed.json()["games"] if e["game_id"] == game_id)["bots"] == [0]
    r = await seat_bot(quick, game_id, "random", name="Robo")
    assert r.status_code == 201 and r.json()["seat"] == 2
    moves = 0
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        table = (await quick.get(f"/api/v1/games/{game_id}", token)).json()
        if table["status"] == "finished":
            break
        legal = (await quick.get(f"/api/v1/games/{game_id}/legal-commands", token)).json()
        if legal["commands"]:
            command = legal["commands"][0]
            r = await quick.send(game_id, token, command, expected_version=legal["version"])
            assert r.status_code in (200, 409), r.text
            moves += r.status_code == 200
        else:
            await asyncio.sleep(0.02)
    assert table["status"] == "finished"
    assert moves > 3  # the person played their share...
    assert [s["bot"] for s in table["seats"]] == ["greedy", None, "random"]
    assert table["seats"][2]["name"] == "Robo"
    events = (await quick.get(f"/api/v1/games/{game_id}/events", token, limit=1000)).json()["events"]
    assert len(events) == table["version"]  # ...and the bots theirs, through the same stream


async def test_an_unknown_bot_is_refused_and_nothing_is_written(quick: Running) -> None:
    game_id = await quick.create(2)
    before = (await quick.get(f"/api/v1/games/{game_id}")).json()["version"]
    r = await seat_bot(quick, game_id, "clever")
    assert r.status_code == 422
    body = r.json()
    assert body["error"] == "no_such_bot" and body["details"]["bots"] == ["greedy", "random"]
    table = (await quick.get(f"/api/v1/games/{game_id}")).json()
    assert table["version"] == before and table["seats"] == [None, None]
    assert await quick.app.state.games.store.redis.zscore(DUE_KEY, game_id) is None


async def test_a_bot_seat_survives_the_replica_that_played_it(redis: aioredis.Redis, redis_url: str) -> None:
    # Replica A plays slowly (a think delay), and is stopped mid-game; replica B, started
    # afterwards on the same Redis, finds the game in the queue and finishes it.
    srv_a, task_a, app_a, port_a = await start_server(settings(redis_url, delay_ms=30))
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port_a}", timeout=10) as http:
        a = Running(f"http://127.0.0.1:{port_a}", app_a, http)
        game_id = await a.create(2, "vilar-de-mouros")
        for bot in ("greedy", "random"):
            assert (await seat_bot(a, game_id, bot)).status_code == 201
        start = (await a.get(f"/api/v1/games/{game_id}")).json()["version"]
        while (await a.get(f"/api/v1/games/{game_id}")).json()["version"] < start + 5:
            await asyncio.sleep(0.02)
    await stop_server(srv_a, task_a)
    stopped_at = int(await redis.xlen(f"lt:{{{game_id}}}:events"))
    await asyncio.sleep(0.2)
    assert int(await redis.xlen(f"lt:{{{game_id}}}:events")) == stopped_at  # nobody plays while A is gone
    srv_b, task_b, app_b, port_b = await start_server(settings(redis_url))
    try:
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port_b}", timeout=10) as http:
            b = Running(f"http://127.0.0.1:{port_b}", app_b, http)
            table = await finished(b, game_id, 60)
            assert table["status"] == "finished"
            assert table["version"] > stopped_at
    finally:
        await stop_server(srv_b, task_b)


async def test_two_replicas_share_the_bots_and_one_finishes_when_the_other_stops(
    redis: aioredis.Redis, redis_url: str
) -> None:
    servers = [await start_server(settings(redis_url, delay_ms=20)) for _ in range(2)]
    try:
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{servers[0][3]}", timeout=10) as http:
            a = Running(f"http://127.0.0.1:{servers[0][3]}", servers[0][2], http)
            game_id = await a.create(3, "vilar-de-mouros")
            for bot in ("greedy", "random", "greedy"):
                assert (await seat_bot(a, game_id, bot)).status_code == 201
            start = (await a.get(f"/api/v1/games/{game_id}")).json()["version"]
            while (await a.get(f"/api/v1/games/{game_id}")).json()["version"] < start + 5:
                await asyncio.sleep(0.02)
        srv, task, _, _ = servers.pop(0)
        await stop_server(srv, task)
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{servers[0][3]}", timeout=10) as http:
            b = Running(f"http://127.0.0.1:{servers[0][3]}", servers[0][2], http)
            table = await finished(b, game_id, 60)
            assert table["status"] == "finished", (table["version"], table["awaiting"], table["view"])
            # every version once: both replicas played, but each bot move landed once
            events = (await b.get(f"/api/v1/games/{game_id}/events", limit=1000)).json()["events"]
            assert [e["version"] for e in events] == list(range(1, table["version"] + 1))
    finally:
        for srv, task, _, _ in servers:
            await stop_server(srv, task)


def test_the_duel_command_prints_greedys_win_share(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["duel", "--games", "4", "--game", "miss-liz-parks"]) == 0
    out = capsys.readouterr().out
    [row] = [line.split() for line in out.splitlines() if line.startswith("miss-liz-parks")]
    greedy, ties, random_, share = row[1:]
    assert int(greedy) + int(ties) + int(random_) == 4 and share.endswith("%")
    assert main(["duel", "--game", "chess"]) == 2
