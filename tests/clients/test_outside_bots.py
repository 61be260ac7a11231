"""An outside bot: a client that holds a seat and plays it over the public API (clients/bots.py), to the end
of the game, against the server's own bots; its share of the wins against a named level rates it on the
ladder (docs/bots.md, "Outside bots")."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from clients.bots import against, random_walk
from clients.python import AsyncMove
from tests.server.conftest import Running, quick  # noqa: F401


@pytest.mark.timeout(120)
async def test_an_outside_bot_plays_a_seat_to_the_end_against_a_named_level(quick: Running) -> None:  # noqa: F811
    walked = []

    async def walk(move: AsyncMove, rng: random.Random) -> dict[str, Any] | None:
        walked.append(move.version)
        return await random_walk(move, rng)

    shares = await asyncio.wait_for(against(quick.url, "vilar-de-mouros", walk, "casual", games=2), 100)
    assert len(shares) == 2 and all(s in (0.0, 0.5, 1.0) for s in shares)
    assert len(walked) > 10  # it played its seat, move after move, in both seats
