"""Command ids are their sender's own: nobody can freeze the server's bots or
its clock by landing a command under an id they will use, and a worker that meets one of its
own ids used for another command says so once and moves on.

Before, every seat and worker shared one namespace of ids per game: the bot's next id
(``bot:<seat>:<version>``) and the clock's (``deadline:<window>``) could be taken by any
player, and the bot or the window then stood still for good.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
import redis.asyncio as aioredis

from domain.catalog import GAMES
from domain.table import decide as decide_at_table
from server.service.codec import encode
from server.service.games import Games
from server.service.records import CommandRecord
from server.settings import Settings
from server.storage.store import CommandKey
from tests.server import countdown
from tests.server.conftest import NO_QUOTAS, Running, quick_settings, running, start_server, stop_server

pytestmark = pytest.mark.timeout(120)


@pytest.fixture
async def quick(redis: aioredis.Redis, redis_url: str) -> AsyncIterator[Running]:
    async with running(quick_settings(redis_url)) as api:
        yield api


def games_of(api: Running) -> Games:
    games: Games = api.app.state.games
    return games


async def version_of(api: Running, game_id: str) -> int:
    version: int = (await api.get(f"/api/v1/games/{game_id}")).json()["version"]
    return version


async def version_after(api: Running, game_id: str, seat: int, command: Any) -> tuple[int, int]:
    """The game's version now, and the version ``command`` from ``seat`` would bring it to (decided
    here as the server would: the players can tell from the events they are sent)."""
    games = games_of(api)
    game, table = await games.load(game_id)
    decoded = games.decode_command(game, encode(command))
    events = decide_at_table(game, table, decoded, seat, await games.ctx())
    return table.version, table.version + len(events)


async def moved_past(api: Running, game_id: str, version: int, seconds: float = 10) -> int:
    async with asyncio.timeout(seconds):
        while (now := await version_of(api, game_id)) <= version:
            await asyncio.sleep(0.02)
    return now


async def bot_moves_after_its_ids_are_taken(api: Running, game_id: str, tokens: dict[int, str], bot_seat: int) -> int:
    """The people play, each command under the id the bot would use right after it; the times the
    bot was awaited after such a command, and moved anyway."""
    hits = 0
    for _ in range(40):
        legal = None
        for seat, token in tokens.items():
            found = (await api.get(f"/api/v1/games/{game_id}/legal-commands", token)).json()
            if found["commands"]:
                legal, who = found, seat
                break
        if legal is None:  # the bot's turn (or the end): wait for it
            if (await api.get(f"/api/v1/games/{game_id}")).json()["status"] == "finished":
                break
            await asyncio.sleep(0.02)
            continue
        command = legal["commands"][0]
        before, after = await version_after(api, game_id, who, command)
        if before != legal["version"]:
            continue  # the bot moved meanwhile
        taken = f"bot:{bot_seat}:{after}"  # the bot's id once this command lands
        r = await api.send(game_id, tokens[who], command, command_id=taken, expected_version=before)
        if r.status_code != 200 or r.json()["version"] != after:
            continue
        table = (await api.get(f"/api/v1/games/{game_id}")).json()
        if table["status"] == "active" and any(a["seat"] == bot_seat for a in table["awaiting"]):
            await moved_past(api, game_id, after)  # frozen for good before ids were scoped
            hits += 1
            if hits == 3:
                break
    return hits


async def test_a_player_cannot_freeze_a_bot_by_taking_its_command_id(quick: Running) -> None:
    game_id = await quick.create(2, "vilar-de-mouros")
    ana = (await quick.http.post(f"/api/v1/games/{game_id}/seats", json={"name": "Ana", "seat": 0})).json()["token"]
    assert (await quick.http.post(f"/api/v1/games/{game_id}/seats", json={"bot": "greedy"})).status_code == 201
    assert await bot_moves_after_its_ids_are_taken(quick, game_id, {0: ana}, bot_seat=1) >= 1


async def test_a_player_cannot_freeze_the_bot_that_plays_a_resigned_seat(quick: Running) -> None:
    game_id = await quick.create(3, "vilar-de-mouros")
    tokens = await quick.seat_all(game_id, 3)
    r = await quick.send(game_id, tokens[2], {"type": "Resign"})
    assert r.status_code == 200, r.text
    table = (await quick.get(f"/api/v1/games/{game_id}")).json()
    assert table["status"] == "active" and table["resigned"] == [2]
    people = {0: tokens[0], 1: tokens[1]}
    assert await bot_moves_after_its_ids_are_taken(quick, game_id, people, bot_seat=2) >= 1


async def test_a_bot_that_meets_its_own_id_used_for_another_command_says_so_once_and_moves(
    redis: aioredis.Redis, redis_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    # Another replica's code (or an older one) chose otherwise at the same version, under the same id.
    async with running(quick_settings(redis_url)) as api:
        game_id = await api.create(2, "vilar-de-mouros")
        ana = (await api.http.post(f"/api/v1/games/{game_id}/seats", json={"seat": 0})).json()["token"]
        await api.http.post(f"/api/v1/games/{game_id}/seats", json={"bot": "greedy"})
        games = games_of(api)
        with caplog.at_level(logging.WARNING, logger="ludoteca.bots"):
            for _ in range(20):
                legal = (await api.get(f"/api/v1/games/{game_id}/legal-commands", ana)).json()
                if not legal["commands"]:
                    await asyncio.sleep(0.02)
                    continue
                command = legal["commands"][0]
                before, after = await version_after(api, game_id, 0, command)
                other = encode(CommandRecord(1, "another command's hash", after + 1, after + 1))
                await games.store.append(
                    game_id, before, [], command=CommandKey("bot:1", f"bot:1:{after}"), command_record=other
                )
                r = await api.send(game_id, ana, command, expected_version=before)
                assert r.status_code == 200, r.text
                awaiting = (await api.get(f"/api/v1/games/{game_id}")).json()["awaiting"]
                if any(a["seat"] == 1 for a in awaiting):
                    await moved_past(api, game_id, after)
                    break
            else:
                raise AssertionError("the bot was never awaited")
    warned = [r for r in caplog.records if "was used for another command" in r.getMessage()]
    assert len(warned) == 1


WITH_COUNTDOWN = {**GAMES, countdown.GAME.id: countdown.GAME}


async def test_a_player_cannot_keep_a_window_open_by_taking_the_clocks_command_id(
    redis: aioredis.Redis, redis_url: str
) -> None:
    settings = Settings(redis_url=redis_url, deadline_interval=0.05, **NO_QUOTAS)
    srv, task, _, port = await start_server(settings, WITH_COUNTDOWN)
    try:
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=10) as http:
            created = await http.post(
                "/api/v1/games", json={"game": "countdown", "players": 2, "options": {"window_ms": 200}}
            )
            game_id = created.json()["game_id"]
            tokens = [(await http.post(f"/api/v1/games/{game_id}/seats", json={})).json()["token"] for _ in range(2)]
            # Seat 0 opens the window under the id the clock closes it with ("deadline:<window>").
            r = await http.post(
                f"/api/v1/games/{game_id}/commands",
                json={"command": {"type": "OpenWindow"}, "command_id": "deadline:w1"},
                headers={"Authorization": f"Bearer {tokens[0]}"},
            )
            assert r.status_code == 200, r.text
            async with asyncio.timeout(5):  # it stood open for good before ids were scoped
                while True:
                    view = (await http.get(f"/api/v1/games/{game_id}")).json()["view"]
                    if view["window"] is None:
                        break
                    await asyncio.sleep(0.02)
            assert view["closed"] == ["w1:clock"]
    finally:
        await stop_server(srv, task)
