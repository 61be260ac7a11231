"""Every game in the catalog, at every player count, played to its end over the API.

Seats choose among their legal commands at random, as a bot would (Itchy Feet's build
their moves with its leaning bot: uniformly random moves almost never end that game, see
docs/games/itchy-feet.md); each step goes over HTTP, and one seat also watches over its
WebSocket, which must see every version.
"""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import msgspec
import pytest
from websockets.asyncio.client import connect

from domain.catalog import GAMES
from tests.server.conftest import Running
from tests.server.itchy_bot import ItchyBot

MAX_STEPS = 20_000


def cases() -> list[tuple[str, int, dict[str, bool]]]:
    """Every player count with the default options; each on/off option switched on alone, and all
    of them together, at the fewest players."""
    found: list[tuple[str, int, dict[str, bool]]] = []
    for game in GAMES.values():
        found += [(game.id, n, {}) for n in range(game.min_players, game.max_players + 1)]
        switches = [f.name for f in msgspec.structs.fields(game.options_type) if f.type is bool]
        found += [(game.id, game.min_players, {name: True}) for name in switches]
        if len(switches) > 1:
            found.append((game.id, game.min_players, dict.fromkeys(switches, True)))
    return found


@pytest.mark.timeout(300)
@pytest.mark.parametrize(("game", "players", "options"), cases())
async def test_a_game_runs_to_its_final_scores_over_the_api(
    server: Running, game: str, players: int, options: dict[str, bool]
) -> None:
    # The deal and the choices are seeded: each game, and how long it takes, is the same on every
    # run. With the test player Itchy Feet at five or six seats is long-tailed (a few hundred to
    # several thousand commands), so a new seed can cost minutes: read the run's --durations.
    seed = f"{game}/{players}/{sorted(options)}/1"
    rng = random.Random(seed)
    server.deal_from(seed)
    game_id = await server.create(players, game, **options)
    tokens = await server.seat_all(game_id, players)
    bot = ItchyBot(rng.random(), postcards=options.get("postcards", False)) if game == "itchy-feet" else None
    async with connect(f"{server.ws_url}/api/v1/games/{game_id}/ws") as ws:
        await ws.send(json.dumps({"type": "hello", "token": tokens[0], "after": 0}))
        versions: list[int] = []

        async def follow() -> None:  # a client reads as it goes (a queue it never drains is closed)
            async for raw in ws:
                message = json.loads(raw)
                assert message["type"] == "update"
                versions.extend(e["version"] for e in message["events"])

        follower = asyncio.create_task(follow())
        for step in range(MAX_STEPS):
            awaiting = (await server.get(f"/api/v1/games/{game_id}")).json()["awaiting"]
            if not awaiting:
                break
            seat = rng.choice(sorted({a["seat"] for a in awaiting}))
            if bot is not None:
                command = await bot.move(server, game_id, tokens[seat], seat)
                assert command is not None, f"seat {seat} is awaited but may do nothing"
            else:
                legal = (await server.get(f"/api/v1/games/{game_id}/legal-commands", tokens[seat])).json()["commands"]
                assert legal, f"seat {seat} is awaited but may do nothing"
                command = rng.choice(legal)
            r = await server.send(game_id, tokens[seat], command, command_id=f"s{step}")
            assert r.status_code == 200, r.text
        table = (await server.get(f"/api/v1/games/{game_id}", tokens[0])).json()
        assert table["status"] == "finished", f"no end after {MAX_STEPS} steps"
        outcome: dict[str, Any] = table["outcome"]
        assert outcome["type"] == game and len(outcome["scores"]) == players
        assert outcome["winners"] and all(outcome["places"][w] == 1 for w in outcome["winners"])
        async with asyncio.timeout(10):
            while not versions or versions[-1] < table["version"]:
                assert not follower.done(), follower
                await asyncio.sleep(0.01)
        follower.cancel()
        assert versions == list(range(1, table["version"] + 1))
