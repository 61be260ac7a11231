"""Bad input gets a clear error and changes nothing: the status, the code, a sentence,
and a game whose keys in Redis are byte-for-byte what they were."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import httpx
import pytest
import redis.asyncio as aioredis

from tests.server.conftest import Running

JSON = {"Content-Type": "application/json"}
LINES = {"Content-Type": "application/x-ndjson"}


async def snapshot(redis: aioredis.Redis, game_id: str) -> dict[str, Any]:
    """Everything Redis holds for one game, raw."""
    tag = f"lt:{{{game_id}}}"
    return {
        "events": await redis.xrange(f"{tag}:events"),
        "commands": await redis.hgetall(f"{tag}:commands"),
        "meta": await redis.hgetall(f"{tag}:meta"),
        "tokens": await redis.hgetall(f"{tag}:tokens"),
    }


@pytest.fixture
async def table(server: Running) -> AsyncIterator[tuple[str, list[str]]]:
    yield await server.started(2)


async def refused(
    redis: aioredis.Redis, game_id: str, call: Callable[[], Awaitable[httpx.Response]], status: int, code: str
) -> dict[str, Any]:
    before = await snapshot(redis, game_id)
    r = await call()
    assert r.status_code == status, r.text
    body = r.json()
    assert body["error"] == code
    assert isinstance(body["message"], str) and len(body["message"]) > 10
    assert await snapshot(redis, game_id) == before
    details: dict[str, Any] = body["details"]
    return details


async def test_malformed_json_is_400_and_changes_nothing(server: Running, redis: aioredis.Redis, table: Any) -> None:
    game_id, tokens = table
    details = await refused(
        redis,
        game_id,
        lambda: server.http.post(
            f"/api/v1/games/{game_id}/commands",
            content=b"{not json",
            headers={"Authorization": f"Bearer {tokens[0]}", **JSON},
        ),
        400,
        "malformed",
    )
    assert details["case"] == "json" and "field" not in details


async def test_a_missing_field_is_400_naming_it(server: Running, redis: aioredis.Redis, table: Any) -> None:
    game_id, tokens = table
    details = await refused(
        redis,
        game_id,
        lambda: server.http.post(
            f"/api/v1/games/{game_id}/commands",
            json={"command": {"type": "DrawFromDeck"}},
            headers={"Authorization": f"Bearer {tokens[0]}"},
        ),
        400,
        "malformed",
    )
    assert details["field"] == "command_id"


async def test_an_unknown_command_type_is_400_naming_the_field(
    server: Running, redis: aioredis.Redis, table: Any
) -> None:
    game_id, tokens = table
    details = await refused(
        redis, game_id, lambda: server.send(game_id, tokens[0], {"type": "FlipTable"}), 400, "malformed"
    )
    assert details["field"] == "command.type"


async def test_a_command_field_of_the_wrong_type_is_400_naming_it(
    server: Running, redis: aioredis.Redis, table: Any
) -> None:
    game_id, tokens = table
    details = await refused(
        redis, game_id, lambda: server.send(game_id, tokens[0], {"type": "TakeBonus", "card": 7}), 400, "malformed"
    )
    assert details["field"] == "command.card"


async def test_a_spectators_command_is_403(server: Running, redis: aioredis.Redis, table: Any) -> None:
    game_id, _ = table
    await refused(redis, game_id, lambda: server.send(game_id, None, {"type": "DrawFromDeck"}), 403, "spectator")


async def test_a_missing_token_on_an_admin_route_is_401(server: Running) -> None:
    game_id, _ = await server.started(2)
    r = await server.get(f"/api/v1/games/{game_id}/export")
    assert r.status_code == 401 and r.json()["error"] == "missing_token"


async def test_an_unknown_body_field_is_400_naming_it(server: Running) -> None:
    r = await server.http.post("/api/v1/games", json={"game": "vilar-de-mouros", "players": 2, "speed": 3})
    assert r.status_code == 400 and r.json()["details"]["field"] == "speed"


async def test_an_unknown_option_is_422(server: Running) -> None:
    r = await server.http.post("/api/v1/games", json={"game": "vilar-de-mouros", "players": 2, "options": {"fast": 1}})
    assert r.status_code == 422 and r.json()["error"] == "bad_options"


async def test_an_unknown_token_is_401(server: Running, redis: aioredis.Redis, table: Any) -> None:
    game_id, _ = table
    forged = f"{game_id}.not-a-real-token"
    await refused(redis, game_id, lambda: server.send(game_id, forged, {"type": "DrawFromDeck"}), 401, "unknown_token")
    r = await server.get(f"/api/v1/games/{game_id}", forged)
    assert r.status_code == 401


async def test_another_games_token_is_403(server: Running, redis: aioredis.Redis, table: Any) -> None:
    game_id, _ = table
    _, other_tokens = await server.started(2)
    await refused(
        redis, game_id, lambda: server.send(game_id, other_tokens[0], {"type": "DrawFromDeck"}), 403, "not_seated"
    )


async def test_a_command_out_of_turn_is_422_not_your_turn(server: Running, redis: aioredis.Redis, table: Any) -> None:
    game_id, tokens = table
    seat, commands = await server.awaited(game_id, tokens)
    other = tokens[1 - seat]
    await refused(redis, game_id, lambda: server.send(game_id, other, commands[0]), 422, "not_your_turn")


async def test_a_stale_expected_version_is_409(server: Running, redis: aioredis.Redis, table: Any) -> None:
    game_id, tokens = table
    seat, commands = await server.awaited(game_id, tokens)
    version = (await server.get(f"/api/v1/games/{game_id}")).json()["version"]
    details = await refused(
        redis,
        game_id,
        lambda: server.send(game_id, tokens[seat], commands[0], expected_version=version - 1),
        409,
        "version_conflict",
    )
    assert details["version"] == version


async def test_a_command_id_reused_for_another_body_is_409(server: Running, redis: aioredis.Redis, table: Any) -> None:
    game_id, tokens = table
    seat, commands = await server.awaited(game_id, tokens)
    first = await server.send(game_id, tokens[seat], commands[0], command_id="same")
    assert first.status_code == 200
    again = await server.send(game_id, tokens[seat], commands[0], command_id="same")
    assert again.json() == first.json()
    _, others = await server.awaited(game_id, tokens)
    await refused(
        redis,
        game_id,
        lambda: server.send(game_id, tokens[seat], others[0], command_id="same"),
        409,
        "command_id_reused",
    )


async def test_an_unknown_game_is_404(server: Running) -> None:
    for path in ("/api/v1/games/0123456789abcdef", "/api/v1/games/nope/events", "/api/v1/games/0123456789abcdef/seats"):
        r = await (server.http.post(path, json={}) if path.endswith("seats") else server.http.get(path))
        assert r.status_code == 404, path
        assert r.json()["error"] == "unknown_game"


async def test_a_body_over_64_kib_is_413(server: Running, redis: aioredis.Redis, table: Any) -> None:
    game_id, tokens = table
    huge = {"type": "TakeBonus", "card": "x" * 70_000}
    await refused(redis, game_id, lambda: server.send(game_id, tokens[0], huge), 413, "too_large")


async def test_a_table_for_too_many_players_is_422(server: Running) -> None:
    r = await server.http.post("/api/v1/games", json={"game": "vilar-de-mouros", "players": 7})
    assert r.status_code == 422 and r.json()["error"] == "bad_players"
    assert (await server.http.get("/api/v1/games")).json()["games"] == []


async def test_an_unknown_game_type_is_400(server: Running) -> None:
    r = await server.http.post("/api/v1/games", json={"game": "chess", "players": 2})
    assert r.status_code == 400 and r.json()["error"] == "unknown_game_type"
    assert r.json()["details"]["field"] == "game"


async def test_a_seat_in_a_full_game_is_409(server: Running, redis: aioredis.Redis, table: Any) -> None:
    game_id, _ = table
    await refused(
        redis, game_id, lambda: server.http.post(f"/api/v1/games/{game_id}/seats", json={}), 409, "game_started"
    )


async def test_import_is_for_the_admin_only(server: Running) -> None:
    r = await server.http.post("/api/v1/games/import", content=b"{}", headers=LINES)
    assert r.status_code == 401
    r = await server.http.post("/api/v1/games/import", content=b"{}", headers={"Authorization": "Bearer nope", **LINES})
    assert r.status_code == 403 and r.json()["error"] == "not_admin"
