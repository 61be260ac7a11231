"""A rematch belongs to the finished game's people: its id is drawn at random (nothing public
derives it), and its seats are kept for them for a grace period, so a stranger who sees the
rematch in the lobby cannot sit in one first."""

from __future__ import annotations

import asyncio
import hashlib

import redis.asyncio as aioredis

from server.settings import Settings
from tests.reliability.harness import figure
from tests.server.conftest import ADMIN, Running, running

GRACE = 1.5  # seconds (600 by default)


async def finished_game(api: Running) -> tuple[str, list[str]]:
    """A finished two-seat game: both people resigned (its rematch is still theirs)."""
    game_id = await api.create(2, "vilar-de-mouros")
    tokens = await api.seat_all(game_id, 2)
    assert (await api.send(game_id, tokens[0], {"type": "Resign"})).status_code == 200
    assert (await api.get(f"/api/v1/games/{game_id}")).json()["status"] == "finished"
    return game_id, tokens


async def test_a_rematch_id_is_not_derived_from_public_values(redis: aioredis.Redis, redis_url: str) -> None:
    async with running(Settings(redis_url=redis_url, admin_token=ADMIN, rematch_grace=GRACE)) as api:
        game_id, tokens = await finished_game(api)
        r = await api.http.post(f"/api/v1/games/{game_id}/rematch", headers={"Authorization": f"Bearer {tokens[0]}"})
        assert r.status_code == 201, r.text
        new_id = r.json()["game_id"]
    assert new_id != hashlib.sha256(f"rematch:{game_id}".encode()).hexdigest()[:16]
    assert len(new_id) == 16 and new_id != game_id


async def test_a_rematch_keeps_its_peoples_seats_for_them_for_a_grace_period(
    redis: aioredis.Redis, redis_url: str
) -> None:
    async with running(Settings(redis_url=redis_url, admin_token=ADMIN, rematch_grace=GRACE)) as api:
        game_id, tokens = await finished_game(api)
        first = await api.http.post(
            f"/api/v1/games/{game_id}/rematch", headers={"Authorization": f"Bearer {tokens[0]}"}
        )
        new_id = first.json()["game_id"]
        listed = (await api.http.get("/api/v1/games")).json()["games"]
        assert new_id in {g["game_id"] for g in listed}  # a stranger can see it in the lobby...
        for body in ({"name": "Stranger"}, {"name": "Stranger", "seat": 1}):
            stolen = await api.http.post(f"/api/v1/games/{new_id}/seats", json=body)
            assert stolen.status_code == 409 and stolen.json()["error"] in ("seats_kept", "seat_kept"), stolen.text
        second = await api.http.post(
            f"/api/v1/games/{game_id}/rematch", headers={"Authorization": f"Bearer {tokens[1]}"}
        )
        assert second.status_code == 201 and second.json()["seat"] == 1  # ...but the seat waited for its player
        assert (await api.get(f"/api/v1/games/{new_id}")).json()["status"] == "active"


async def test_a_kept_seat_opens_to_anyone_once_the_grace_period_is_over(redis: aioredis.Redis, redis_url: str) -> None:
    async with running(Settings(redis_url=redis_url, admin_token=ADMIN, rematch_grace=GRACE)) as api:
        game_id, tokens = await finished_game(api)
        first = await api.http.post(
            f"/api/v1/games/{game_id}/rematch", headers={"Authorization": f"Bearer {tokens[0]}"}
        )
        new_id = first.json()["game_id"]
        assert (await api.http.post(f"/api/v1/games/{new_id}/seats", json={})).status_code == 409
        await asyncio.sleep(GRACE + 0.2)
        late = await api.http.post(f"/api/v1/games/{new_id}/seats", json={"name": "Late"})
        assert late.status_code == 201 and late.json()["seat"] == 1
    figure("rematch: how long a rematch keeps its people's seats", "600 s by default (LUDOTECA_REMATCH_GRACE)")
