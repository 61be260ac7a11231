"""Quotas: tables opened and seats taken per client address an hour (on by default), open games in
total, answered with 429; the address is the peer's, or what a trusted proxy says."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Any

import httpx
import pytest
import redis.asyncio as aioredis

from server.settings import Settings
from server.storage.keys import QUOTA_HITS, QUOTA_HITTERS
from server.storage.quotas import HITTERS_KEPT, HOUR_MS, HourlyCounts
from tests.reliability.harness import figure
from tests.server.conftest import ADMIN, start_server, stop_server
from tests.support.replies import key_names

NEW_GAME = {"game": "vilar-de-mouros", "players": 2}
Serve = Callable[..., AbstractAsyncContextManager[httpx.AsyncClient]]


@pytest.fixture
def serve(redis: aioredis.Redis, redis_url: str) -> Serve:
    @asynccontextmanager
    async def running(**changes: Any) -> AsyncIterator[httpx.AsyncClient]:
        server, task, _, port = await start_server(Settings(redis_url=redis_url, admin_token=ADMIN, **changes))
        try:
            async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=10) as http:
                yield http
        finally:
            await stop_server(server, task)

    return running


async def test_an_address_past_its_hourly_quota_gets_429(serve: Serve, redis: aioredis.Redis) -> None:
    async with serve(create_per_hour=3, seats_per_hour=0, max_open_games=0) as http:
        for _ in range(3):
            assert (await http.post("/api/v1/games", json=NEW_GAME)).status_code == 201
        r = await http.post("/api/v1/games", json=NEW_GAME)
        assert r.status_code == 429, r.text
        body = r.json()
        assert body["error"] == "too_many_games" and "3 games an hour" in body["message"]
        assert body["details"]["limit"] == 3
        assert 0 < int(r.headers["Retry-After"]) <= 3601 and body["details"]["retry_after"] == int(
            r.headers["Retry-After"]
        )
        listed = (await http.get("/api/v1/games")).json()["games"]
        assert len(listed) == 3  # the refused one was not created
        # Operators see quotas hit (docs/operations.md, the dashboard's "Quotas hit").
        metrics = (await http.get("/metrics", headers={"Authorization": f"Bearer {ADMIN}"})).text
        assert 'ludoteca_quota_refusals_total{quota="games"} 1.0' in metrics, metrics[-2000:]
        # The counter is one expiring key in the quota slot.
        [key] = key_names(await redis.keys("lt:{quota}:*"))
        assert key.startswith(b"lt:{quota}:games:127.0.0.1:")
        assert 0 < await redis.ttl(key) <= 3660


async def test_the_quota_is_shared_by_every_replica(serve: Serve) -> None:
    async with serve(create_per_hour=2, max_open_games=0) as one, serve(create_per_hour=2, max_open_games=0) as two:
        assert (await one.post("/api/v1/games", json=NEW_GAME)).status_code == 201
        assert (await two.post("/api/v1/games", json=NEW_GAME)).status_code == 201
        assert (await one.post("/api/v1/games", json=NEW_GAME)).status_code == 429
        assert (await two.post("/api/v1/games", json=NEW_GAME)).status_code == 429
        # The operator sees both replicas' refusals, and who was refused (docs/API.md, "Admin").
        r = await two.get("/api/v1/admin/quotas", headers={"Authorization": f"Bearer {ADMIN}"})
        assert r.status_code == 200, r.text
        games = next(q for q in r.json()["quotas"] if q["quota"] == "games")
        assert games == {
            "quota": "games", "limit": 2, "refused": 2, "refused_last_hour": 0,
            "top": [{"client": "127.0.0.1", "refused": 2}],
        }  # fmt: skip
        assert {q["quota"] for q in r.json()["quotas"]} == {
            "games", "seats", "players", "codes", "destinations", "sign_ins", "passkeys"
        }  # fmt: skip


async def test_the_clients_refused_most_are_kept_and_no_more(redis: aioredis.Redis) -> None:
    counts = HourlyCounts(redis)
    now = 5 * HOUR_MS + 1
    for _ in range(3):
        await counts.refused("seats", "198.51.100.7", now)
    for n in range(HITTERS_KEPT + 50):  # a client of many addresses, each refused once
        await counts.refused("seats", f"10.0.{n // 256}.{n % 256}", now)
    await counts.refused("games", "198.51.100.7", now - HOUR_MS)
    this_hour, ranked = await counts.hits(5, ["seats", "games"], 10)
    assert this_hour == {"seats": HITTERS_KEPT + 53}
    assert ranked["seats"][0] == ("198.51.100.7", 3) and len(ranked["seats"]) == 10 and ranked["games"] == []
    assert await redis.zcard(QUOTA_HITTERS.at(what="seats", hour=5)) == HITTERS_KEPT
    last_hour, _ = await counts.hits(4, [], 10)
    assert last_hour == {"games": 1}
    assert 2 * 3600 < await redis.ttl(QUOTA_HITS.at(hour=5)) <= 2 * 3600 + 60


async def test_past_the_open_games_limit_creating_is_429_until_one_fills(serve: Serve) -> None:
    async with serve(max_open_games=2) as http:
        first = (await http.post("/api/v1/games", json=NEW_GAME)).json()["game_id"]
        assert (await http.post("/api/v1/games", json=NEW_GAME)).status_code == 201
        r = await http.post("/api/v1/games", json=NEW_GAME)
        assert r.status_code == 429 and r.json()["error"] == "too_many_open_games"
        assert r.json()["details"] == {"limit": 2} and "Retry-After" not in r.headers
        for _ in range(2):  # the first game fills and starts: one open game fewer
            assert (await http.post(f"/api/v1/games/{first}/seats", json={})).status_code == 201
        assert (await http.post("/api/v1/games", json=NEW_GAME)).status_code == 201


async def test_bad_requests_are_refused_before_they_count(serve: Serve) -> None:
    async with serve(create_per_hour=1) as http:
        r = await http.post("/api/v1/games", json={"game": "no-such-game", "players": 2})
        assert r.status_code == 400
        assert (await http.post("/api/v1/games", json=NEW_GAME)).status_code == 201


def test_the_quotas_are_settings_on_by_default() -> None:
    settings = Settings.from_env(
        {"LUDOTECA_CREATE_PER_HOUR": "7", "LUDOTECA_SEATS_PER_HOUR": "8", "LUDOTECA_MAX_OPEN_GAMES": "9"}
    )
    assert (settings.create_per_hour, settings.seats_per_hour, settings.max_open_games) == (7, 8, 9)
    default = Settings()
    assert (default.create_per_hour, default.seats_per_hour, default.max_open_games) == (60, 240, 10_000)
    assert default.trusted_proxies == ()


async def test_one_address_cannot_fill_the_server_with_tables(serve: Serve) -> None:
    """With the default quotas one address opens 60 tables an hour; the server-wide cap is 10,000."""
    async with serve() as http:
        codes = [(await http.post("/api/v1/games", json=NEW_GAME)).status_code for _ in range(61)]
    assert codes == [201] * 60 + [429]
    figure("quotas: tables one address may open an hour", "60 by default (LUDOTECA_CREATE_PER_HOUR)")


async def test_an_address_past_its_hourly_seats_gets_429(serve: Serve) -> None:
    async with serve(seats_per_hour=3) as http:
        games = [(await http.post("/api/v1/games", json=NEW_GAME)).json()["game_id"] for _ in range(2)]
        codes = [(await http.post(f"/api/v1/games/{g}/seats", json={})).status_code for g in games for _ in range(2)]
        assert codes == [201, 201, 201, 429]
        refused = await http.post(f"/api/v1/games/{games[1]}/seats", json={})
        assert refused.json()["error"] == "too_many_seats" and "3 seats an hour" in refused.json()["message"]
        table = (await http.get(f"/api/v1/games/{games[1]}")).json()
        assert table["seats"][1] is None  # the refused seat was not taken
    figure("quotas: seats one address may take an hour", "240 by default (LUDOTECA_SEATS_PER_HOUR)")


async def test_a_forwarded_address_is_believed_only_from_a_trusted_proxy(serve: Serve, redis: aioredis.Redis) -> None:
    spoofed = {"X-Forwarded-For": "203.0.113.9"}
    async with serve(create_per_hour=1, seats_per_hour=0) as http:
        assert (await http.post("/api/v1/games", json=NEW_GAME, headers=spoofed)).status_code == 201
        # The header is ignored: the second table still counts against 127.0.0.1.
        assert (
            await http.post("/api/v1/games", json=NEW_GAME, headers={"X-Forwarded-For": "198.51.100.1"})
        ).status_code == 429
    assert [k async for k in redis.scan_iter("lt:{quota}:games:127.0.0.1:*")]
    await redis.flushall()
    async with serve(create_per_hour=1, seats_per_hour=0, trusted_proxies=("127.0.0.1",)) as http:
        assert (await http.post("/api/v1/games", json=NEW_GAME, headers=spoofed)).status_code == 201
        other = {"X-Forwarded-For": "198.51.100.1"}
        assert (await http.post("/api/v1/games", json=NEW_GAME, headers=other)).status_code == 201  # another client
        assert (await http.post("/api/v1/games", json=NEW_GAME, headers=spoofed)).status_code == 429
    assert [k async for k in redis.scan_iter("lt:{quota}:games:203.0.113.9:*")]
