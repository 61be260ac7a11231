"""The edge every HTTP request passes (server/web/middleware.py): its request id, the security headers,
its timing by route, and CORS for a request that carries an Origin, all on one answer."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
import redis.asyncio as aioredis

from server.settings import Settings
from tests.server.conftest import ADMIN, NO_QUOTAS, Running, running

TABLE = "https://table.example"


@pytest.fixture
async def site(redis: aioredis.Redis, redis_url: str) -> AsyncIterator[Running]:
    """A server whose API a web table on another origin may call."""
    settings = Settings(redis_url=redis_url, admin_token=ADMIN, allowed_origins=(TABLE,), **NO_QUOTAS)
    async with running(settings) as api:
        yield api


async def test_an_answer_to_a_request_with_no_origin_carries_its_id_the_security_headers_and_vary(
    site: Running,
) -> None:
    r = await site.http.get("/api/v1/games/catalog", headers={"X-Request-Id": "table-42"})
    assert r.status_code == 200
    assert r.headers["x-request-id"] == "table-42"
    assert "frame-ancestors 'none'" in r.headers["content-security-policy"]
    assert r.headers["x-content-type-options"] == "nosniff"
    assert r.headers["referrer-policy"] == "no-referrer"
    assert r.headers["x-frame-options"] == "DENY"
    assert r.headers["vary"] == "Origin"  # a cache keeps apart the answers to other origins
    assert "access-control-allow-origin" not in r.headers


async def test_an_allowed_origin_is_answered_with_cors_as_well_as_the_edges_headers(site: Running) -> None:
    r = await site.http.get("/api/v1/games/catalog", headers={"Origin": TABLE})
    assert r.headers["access-control-allow-origin"] == TABLE
    assert r.headers["x-content-type-options"] == "nosniff" and r.headers["x-request-id"]
    preflight = await site.http.options(
        "/api/v1/games", headers={"Origin": TABLE, "Access-Control-Request-Method": "POST"}
    )
    assert preflight.status_code == 200
    assert preflight.headers["access-control-allow-origin"] == TABLE
    assert "POST" in preflight.headers["access-control-allow-methods"]
    foreign = await site.http.get("/api/v1/games/catalog", headers={"Origin": "https://evil.example"})
    assert "access-control-allow-origin" not in foreign.headers


async def test_the_docs_page_admits_its_own_inline_blocks_and_no_other_page_does(site: Running) -> None:
    docs = (await site.http.get("/docs")).headers["content-security-policy"]
    api = (await site.http.get("/api/v1/games/catalog")).headers["content-security-policy"]
    assert "'sha256-" in docs and "'sha256-" not in api


async def test_every_request_is_timed_by_its_route_even_one_that_fails(site: Running) -> None:
    assert (await site.http.get("/api/v1/games/0123456789abcdef")).status_code in (401, 404)
    text = (await site.http.get("/metrics", headers={"Authorization": f"Bearer {ADMIN}"})).text
    assert 'ludoteca_request_seconds_count{method="GET",route="/api/v1/games/{game_id}"' in text
