"""Strict input and safe answers: bodies only as JSON, no query number but ASCII digits, JSON nested
too deep refused plainly, a hello that would silence its socket refused, and the headers that keep
a browser safe on every answer. Each refusal is a 400 (or 415) naming the field, and changes nothing."""

from __future__ import annotations

import json

import pytest
from websockets.asyncio.client import connect

from tests.server.conftest import Running

NEW_GAME = {"game": "vilar-de-mouros", "players": 2}


@pytest.mark.parametrize(
    "content_type", [None, "text/plain", "application/x-www-form-urlencoded", "multipart/form-data"]
)
async def test_a_body_that_is_not_sent_as_json_is_refused_with_415(server: Running, content_type: str | None) -> None:
    """A cross-origin "simple" request (no preflight: text/plain, a form, an untyped blob) opens nothing."""
    headers = {"Content-Type": content_type} if content_type else {}
    r = await server.http.post("/api/v1/games", content=json.dumps(NEW_GAME).encode(), headers=headers)
    assert r.status_code == 415 and r.json()["error"] == "unsupported_media_type", r.text
    assert (await server.http.get("/api/v1/games")).json()["games"] == []
    game_id = await server.create(2)
    r = await server.http.post(f"/api/v1/games/{game_id}/seats", content=b"{}", headers=headers)
    assert r.status_code == 415
    assert (await server.get(f"/api/v1/games/{game_id}")).json()["seats"] == [None, None]


async def test_json_with_a_charset_is_json(server: Running) -> None:
    headers = {"Content-Type": "application/json; charset=utf-8"}
    r = await server.http.post("/api/v1/games", content=json.dumps(NEW_GAME).encode(), headers=headers)
    assert r.status_code == 201


async def test_every_answer_carries_the_headers_that_keep_a_browser_safe(server: Running) -> None:
    for path in ("/", "/docs", "/api/v1/games/catalog", "/web/js/main.js", "/no/such/page"):
        r = await server.http.get(path)
        assert r.headers["x-content-type-options"] == "nosniff", path
        assert r.headers["referrer-policy"] == "no-referrer", path
        assert r.headers["x-frame-options"] == "DENY", path
        policy = r.headers["content-security-policy"]
        assert "frame-ancestors 'none'" in policy and "default-src 'self'" in policy, path
        assert "'unsafe-inline'" not in policy and "'unsafe-eval'" not in policy, path


async def test_json_nested_two_thousand_deep_is_400_and_the_connection_stays(server: Running) -> None:
    game_id, tokens = await server.started(2)
    nested = "[" * 2000 + "]" * 2000  # too deep for Python's own json module to build
    command = '{"type": "Resign", "x": ' + nested + "}"
    body = ('{"command": ' + command + ', "command_id": "deep"}').encode()
    assert len(body) < 8_192
    headers = {"Authorization": f"Bearer {tokens[0]}", "Content-Type": "application/json"}
    for path in (f"/api/v1/games/{game_id}/commands", "/api/v1/games"):
        r = await server.http.post(path, content=body, headers=headers)
        assert r.status_code == 400 and r.json()["error"] == "malformed", r.text
    assert (await server.http.get("/healthz")).status_code == 200  # the same client, the same connection pool
    async with connect(f"{server.ws_url}/api/v1/games/{game_id}/ws") as ws:
        await ws.send(json.dumps({"type": "hello", "token": tokens[0], "after": 0}))
        assert json.loads(await ws.recv())["type"] == "update"
        await ws.send('{"type": "command", "command": ' + command + ', "command_id": "deep"}')
        refused = json.loads(await ws.recv())
        assert refused["type"] == "error" and refused["error"] == "malformed"
        await ws.send(json.dumps({"type": "command", "command": {"type": "Resign"}, "command_id": "after"}))
        assert json.loads(await ws.recv())["type"] in ("ack", "update")  # the socket still works


@pytest.mark.parametrize("value", ["²", "①", "٣", "³", "-1", "1e3", " 3"])
async def test_query_numbers_are_ascii_digits_only(server: Running, value: str) -> None:
    game_id, tokens = await server.started(2)
    auth = tokens[0]
    for path, name in (
        (f"/api/v1/games/{game_id}/events", "after"),
        (f"/api/v1/games/{game_id}/events", "limit"),
        (f"/api/v1/games/{game_id}/replay", "version"),
        ("/api/v1/games", "cursor"),
        ("/api/v1/games", "limit"),
    ):
        r = await server.get(path, auth, **{name: value})
        assert r.status_code == 400 and r.json()["details"]["field"] == name, (path, name, r.text)


async def test_a_hello_after_a_negative_version_is_refused(server: Running) -> None:
    game_id, tokens = await server.started(2)
    async with connect(f"{server.ws_url}/api/v1/games/{game_id}/ws") as ws:
        await ws.send(json.dumps({"type": "hello", "token": tokens[0], "after": -1}))
        refused = json.loads(await ws.recv())
        assert refused["type"] == "error" and refused["error"] == "malformed" and "after" in refused["details"]["field"]
