"""A seat's REST commands, move building and legal commands take from the same token bucket as its
sockets' messages, and an unreadable command takes from it as a readable one does: one seat cannot
flood the log or the server over REST, however it words its requests, and the others keep playing."""

from __future__ import annotations

import asyncio
from collections import Counter

import pytest
import redis.asyncio as aioredis

from server.settings import Settings
from tests.server.conftest import ADMIN, Running, running

pytestmark = pytest.mark.timeout(120)

RATE, BURST = 5.0, 10


def limited(redis_url: str) -> Settings:
    return Settings(
        redis_url=redis_url, admin_token=ADMIN, ws_rate=RATE, ws_burst=BURST, create_per_hour=0, seats_per_hour=0
    )


async def statuses(api: Running, requests: int, request: object) -> list[int]:
    """The statuses of ``requests`` calls of ``request`` (an awaitable factory), one after another."""
    assert callable(request)
    return [(await request()).status_code for _ in range(requests)]


async def test_a_seat_cannot_flood_commands_over_rest(redis: aioredis.Redis, redis_url: str) -> None:
    settings = Settings(
        redis_url=redis_url, admin_token=ADMIN, ws_rate=RATE, ws_burst=BURST, create_per_hour=0, seats_per_hour=0
    )
    async with running(settings) as api:
        game_id, tokens = await api.started(2)
        seat, _ = await api.awaited(game_id, tokens)
        other = 1 - seat
        await asyncio.sleep(2 / RATE)  # what asking for legal commands took from the buckets is back
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


async def test_unreadable_commands_take_from_the_seats_bucket_as_readable_ones_do(
    redis: aioredis.Redis, redis_url: str
) -> None:
    """A command the game cannot read is refused 400 while the bucket holds, then 429: it is charged
    before it is read, so unreadable commands are no way around the rate."""
    async with running(limited(redis_url)) as api:
        game_id, tokens = await api.started(2)
        codes = await statuses(api, BURST + 10, lambda: api.send(game_id, tokens[0], {"type": "Nope"}))
        assert set(codes[:BURST]) == {400}, codes
        assert codes.count(429) >= 9, codes
        # Nothing was written: the stream is where the seats left it.
        version = (await api.get(f"/api/v1/games/{game_id}")).json()["version"]
        assert (await api.get(f"/api/v1/games/{game_id}/events", tokens[1])).json()["version"] == version


async def test_move_building_over_rest_takes_from_the_seats_bucket(redis: aioredis.Redis, redis_url: str) -> None:
    async with running(limited(redis_url)) as api:
        game_id, tokens = await api.started(2)
        auth = {"Authorization": f"Bearer {tokens[0]}"}

        def build() -> object:
            return api.http.post(f"/api/v1/games/{game_id}/moves", json={"picks": []}, headers=auth)

        codes = await statuses(api, BURST + 10, build)
        assert set(codes[:BURST]) == {200}, codes
        assert codes.count(429) >= 9, codes
        # An unreadable body is charged too, before it is read.
        await asyncio.sleep(2 / RATE)
        bad = await statuses(api, BURST + 10, lambda: api.http.post(
            f"/api/v1/games/{game_id}/moves", content=b"{", headers={**auth, "Content-Type": "application/json"}
        ))  # fmt: skip
        assert bad.count(429) >= 9 and set(bad) <= {400, 429}, bad


async def test_legal_commands_over_rest_take_from_the_seats_bucket(redis: aioredis.Redis, redis_url: str) -> None:
    async with running(limited(redis_url)) as api:
        game_id, tokens = await api.started(2)
        codes = await statuses(api, BURST + 10, lambda: api.get(f"/api/v1/games/{game_id}/legal-commands", tokens[1]))
        assert set(codes[:BURST]) == {200}, codes
        assert codes.count(429) >= 9, codes
        # A spectator's reading of the same is not a seat's to pay for (and lists nothing).
        assert (await api.get(f"/api/v1/games/{game_id}/legal-commands")).status_code == 200


async def test_checking_a_command_over_rest_takes_from_the_seats_bucket(redis: aioredis.Redis, redis_url: str) -> None:
    async with running(limited(redis_url)) as api:
        game_id, tokens = await api.started(2)
        auth = {"Authorization": f"Bearer {tokens[0]}"}

        def check(body: bytes) -> object:
            return api.http.post(
                f"/api/v1/games/{game_id}/check", content=body, headers={**auth, "Content-Type": "application/json"}
            )

        codes = await statuses(api, BURST + 20, lambda: check(b'{"command": {"type": "Undo"}}'))
        assert set(codes[:BURST]) == {200} and codes.count(429) >= 9, codes
        # An unreadable body is charged too, before it is read.
        await asyncio.sleep(2 / RATE)
        bad = await statuses(api, BURST + 20, lambda: check(b"{"))
        assert bad.count(429) >= 9 and set(bad) <= {400, 429}, bad
