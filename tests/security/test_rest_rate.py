"""A seat's REST commands take from the same token bucket as its sockets' messages (issue 16,
item 2): one seat cannot flood the log over REST, and the others keep playing."""

from __future__ import annotations

import asyncio
from collections import Counter

import pytest
import redis.asyncio as aioredis

from server.settings import Settings
from tests.server.conftest import ADMIN, running

pytestmark = pytest.mark.timeout(120)

RATE, BURST = 5.0, 10


async def test_a_seat_cannot_flood_commands_over_rest(redis: aioredis.Redis, redis_url: str) -> None:
    settings = Settings(
        redis_url=redis_url, admin_token=ADMIN, ws_rate=RATE, ws_burst=BURST, create_per_hour=0, seats_per_hour=0
    )
    async with running(settings) as api:
        game_id, tokens = await api.started(2)
        seat, _ = await api.awaited(game_id, tokens)
        other = 1 - seat
        # Undo over and over: refused or not, every command takes one from the seat's bucket.
        answers = [await api.send(game_id, tokens[seat], {"type": "Undo"}) for _ in range(BURST + 10)]
        codes = Counter(r.status_code for r in answers)
        assert codes[429] >= 9, codes  # past the burst (plus what refilled meanwhile)
        assert all(r.status_code != 429 for r in answers[:BURST]), [r.status_code for r in answers[:BURST]]
        throttled = next(r for r in answers if r.status_code == 429)
        assert throttled.json()["error"] == "too_many" and throttled.headers["Retry-After"] == "1"
        # The other seat has a bucket of its own.
        assert (await api.send(game_id, tokens[other], {"type": "Undo"})).status_code != 429
        # The bucket refills at RATE a second.
        await asyncio.sleep(2 / RATE)
        assert (await api.send(game_id, tokens[seat], {"type": "Undo"})).status_code != 429
