"""The operator's routes (docs/API.md, "Admin"): the admin token only; tables by status; ending a table
and removing a seat's player as facts of the stream, each logged; a refused action changes nothing."""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest
import redis.asyncio as aioredis

from clients.python import AsyncClient
from tests.server.conftest import ADMIN, Running
from tests.server.web.test_bad_input import snapshot
from tests.server.web.test_rest import play_to_the_end

API = "/api/v1"
ADMIN_HEADERS = {"Authorization": f"Bearer {ADMIN}"}


async def admin_post(server: Running, path: str, **body: Any) -> Any:
    return await server.http.post(f"{API}{path}", json=body, headers=ADMIN_HEADERS)


async def facts(server: Running, game_id: str) -> list[dict[str, Any]]:
    """Every fact of the game's stream, as the server's export holds them."""
    r = await server.get(f"{API}/games/{game_id}/export", ADMIN, **{"as": "server"})
    assert r.status_code == 200, r.text
    return [json.loads(line)["event"] for line in r.content.splitlines()[1:]]


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("GET", "/admin/games"),
        ("GET", "/admin/outbox"),
        ("GET", "/admin/quotas"),
        ("POST", "/admin/games/0123456789abcdef/cancel"),
        ("POST", "/admin/games/0123456789abcdef/seats/0/remove"),
    ],
)
async def test_every_admin_route_refuses_no_token_401_and_another_token_403(
    server: Running, method: str, path: str
) -> None:
    _, tokens = await server.started(2)
    r = await server.http.request(method, f"{API}{path}")
    assert (r.status_code, r.json()["error"]) == (401, "missing_token")
    for token in (tokens[0], "not-the-admin"):
        r = await server.http.request(method, f"{API}{path}", headers={"Authorization": f"Bearer {token}"})
        assert (r.status_code, r.json()["error"]) == (403, "not_admin")


async def test_the_tables_by_status_carry_their_seats_whose_turn_and_version(server: Running) -> None:
    opened = await server.create(3)
    await server.seat_all(opened, 1)
    game_id, tokens = await server.started(2)
    r = await server.get(f"{API}/admin/games", ADMIN, status="active", limit=100)
    assert r.status_code == 200, r.text
    rows = {row["game_id"]: row for row in r.json()["games"]}
    row = rows[game_id]
    assert (row["status"], row["players"], row["game"]) == ("active", 2, "vilar-de-mouros")
    assert [(s["seat"], s["name"], s["taken"], s["left"], s["connected"]) for s in row["seats"]] == [
        (0, "P0", True, False, False),
        (1, "P1", True, False, False),
    ]
    seat, _ = await server.awaited(game_id, tokens)
    assert row["awaiting"] == [seat] and row["version"] > 3 and row["created_ms"] and row["outcome"] is None
    r = await server.get(f"{API}/admin/games", ADMIN, status="open", limit=100)
    row = {row["game_id"]: row for row in r.json()["games"]}[opened]
    assert [s["taken"] for s in row["seats"]] == [True, False, False] and row["awaiting"] == []
    r = await server.get(f"{API}/admin/games", ADMIN, status="lost")
    assert (r.status_code, r.json()["details"]["field"]) == (400, "status")


async def test_cancel_ends_an_active_table_as_a_fact_logged_and_a_second_cancel_changes_nothing(
    server: Running, redis: aioredis.Redis, caplog: pytest.LogCaptureFixture
) -> None:
    game_id, tokens = await server.started(2)
    with caplog.at_level(logging.INFO, logger="ludoteca.admin"):
        r = await admin_post(server, f"/admin/games/{game_id}/cancel", reason="abuse report")
    assert r.status_code == 200, r.text
    row = r.json()
    assert row["status"] == "finished" and row["finished_ms"]
    assert row["outcome"]["type"] == "abandoned" and row["outcome"]["reason"] == "cancelled"
    stream = await facts(server, game_id)
    assert {"type": "TableCancelled", "by": "operator"} in stream
    assert stream[-1]["type"] == "SeedRevealed"  # the table is over: its seed is shown
    assert any("cancel" in m and game_id in m for m in caplog.messages), caplog.messages
    table = (await server.get(f"{API}/games/{game_id}", tokens[0])).json()
    assert table["status"] == "finished" and table["outcome"]["reason"] == "cancelled"
    r = await server.get(f"{API}/admin/games", ADMIN, status="finished", limit=100)
    assert game_id in {row["game_id"] for row in r.json()["games"]}
    before = await snapshot(redis, game_id)
    r = await admin_post(server, f"/admin/games/{game_id}/cancel")
    assert (r.status_code, r.json()["error"]) == (422, "game_over")
    assert await snapshot(redis, game_id) == before


async def test_cancel_without_a_body_ends_an_open_table(server: Running) -> None:
    game_id = await server.create(2)
    r = await server.http.post(f"{API}/admin/games/{game_id}/cancel", headers=ADMIN_HEADERS)
    assert r.status_code == 200, r.text
    assert r.json()["status"] == "finished"
    assert {"type": "TableCancelled", "by": "operator"} in await facts(server, game_id)
    r = await admin_post(server, "/admin/games/0123456789abcdef/cancel")
    assert (r.status_code, r.json()["error"]) == (404, "unknown_game")


async def test_remove_a_seat_a_bot_plays_on_as_a_fact_and_refusals_change_nothing(
    server: Running, redis: aioredis.Redis, caplog: pytest.LogCaptureFixture
) -> None:
    game_id, tokens = await server.started(3)
    with caplog.at_level(logging.INFO, logger="ludoteca.admin"):
        r = await admin_post(server, f"/admin/games/{game_id}/seats/1/remove")
    assert r.status_code == 200, r.text
    seat = r.json()["seats"][1]
    assert seat["left"] and seat["bot"] == "greedy" and r.json()["status"] == "active"
    assert {"type": "SeatResigned", "seat": 1, "reason": "removed", "bot": "greedy"} in await facts(server, game_id)
    assert any("remove" in m and game_id in m and "seat 1" in m for m in caplog.messages), caplog.messages
    r = await server.send(game_id, tokens[1], {"type": "Resign"})
    assert (r.status_code, r.json()["error"]) == (403, "resigned")  # the removed seat's token acts no more
    before = await snapshot(redis, game_id)
    for path, status, code in (
        (f"/admin/games/{game_id}/seats/1/remove", 422, "seat_already_left"),
        (f"/admin/games/{game_id}/seats/3/remove", 422, "no_such_seat"),
        (f"/admin/games/{game_id}/seats/x/remove", 400, "malformed"),
    ):
        r = await admin_post(server, path)
        assert (r.status_code, r.json()["error"]) == (status, code), r.text
        assert r.json()["message"]
    assert await snapshot(redis, game_id) == before


async def test_removing_the_last_person_but_one_ends_the_game_and_an_open_table_has_no_seat_to_remove(
    server: Running, redis: aioredis.Redis
) -> None:
    game_id, _ = await server.started(2)
    r = await admin_post(server, f"/admin/games/{game_id}/seats/0/remove")
    assert r.status_code == 200, r.text
    assert r.json()["status"] == "finished" and r.json()["outcome"]["reason"] == "resigned"
    assert {"type": "SeatResigned", "seat": 0, "reason": "removed", "bot": None} in await facts(server, game_id)
    opened = await server.create(2)
    before = await snapshot(redis, opened)
    r = await admin_post(server, f"/admin/games/{opened}/seats/0/remove")
    assert (r.status_code, r.json()["error"], r.json()["details"]["case"]) == (422, "game_not_active", "remove")
    assert await snapshot(redis, opened) == before


async def test_a_finished_table_is_refused_byte_for_byte_unchanged(server: Running, redis: aioredis.Redis) -> None:
    game_id, tokens = await server.started(2)
    await play_to_the_end(server, game_id, tokens)
    before = await snapshot(redis, game_id)
    for path in (f"/admin/games/{game_id}/cancel", f"/admin/games/{game_id}/seats/0/remove"):
        r = await admin_post(server, path)
        assert r.status_code == 422, r.text
    assert await snapshot(redis, game_id) == before


async def test_the_outbox_in_figures_names_no_player(server: Running) -> None:
    r = await server.get(f"{API}/admin/outbox", ADMIN)
    assert r.status_code == 200, r.text
    figures = r.json()
    assert set(figures) == {"waiting", "due", "tried", "this_replica"}
    assert all(isinstance(figures[k], int) for k in ("waiting", "due", "tried"))
    assert set(figures["this_replica"]) >= {"posted", "sent", "failed"}


async def test_the_python_sdk_calls_every_admin_route(server: Running) -> None:
    game_id, _ = await server.started(3)
    async with AsyncClient(server.url, ADMIN) as admin:
        listed = await admin.admin_games("active", limit=100)
        assert game_id in {t.game_id for t in listed.games} and listed.now_ms > 0
        removed = await admin.admin_remove(game_id, 2)
        assert removed.seats[2].left and removed.seats[2].bot == "greedy"
        ended = await admin.admin_cancel(game_id, "a test")
        assert ended.status == "finished" and ended.outcome["reason"] == "cancelled"
        figures = await admin.admin_outbox()
        assert figures.waiting >= 0 and "sent" in figures.this_replica
        quotas = await admin.admin_quotas()
        assert quotas.hour_ms % 3_600_000 == 0 and "games" in {q.quota for q in quotas.quotas}
