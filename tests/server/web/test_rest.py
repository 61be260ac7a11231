"""The REST API over a real server and a real Redis: the envelope, paging, and play."""

from __future__ import annotations

import json

import redis.asyncio as aioredis

from domain.catalog import GAMES
from tests.server.conftest import ADMIN, Running
from tests.support.replies import entries_of


async def test_catalog_lists_every_game_with_its_players_and_options(server: Running) -> None:
    r = await server.http.get("/api/v1/games/catalog")
    assert r.status_code == 200
    games = {g["game"]: g for g in r.json()["games"]}
    assert games["vilar-de-mouros"]["min_players"] == 2
    assert games["vilar-de-mouros"]["max_players"] == 6
    assert isinstance(games["vilar-de-mouros"]["options"], dict)


async def test_each_games_printed_parts_are_served_as_data(server: Running) -> None:
    for game in GAMES:
        r = await server.http.get(f"/api/v1/games/catalog/{game}")
        assert r.status_code == 200 and r.json()["game"] == game
        assert r.json()["components"]
    r = await server.http.get("/api/v1/games/catalog/chess")
    assert r.status_code == 404 and r.json()["error"] == "not_found"


async def test_create_answers_201_with_an_open_table(server: Running) -> None:
    r = await server.http.post("/api/v1/games", json={"game": "vilar-de-mouros", "players": 3})
    assert r.status_code == 201
    body = r.json()
    assert body["status"] == "open" and body["players"] == 3 and body["seats_taken"] == 0
    assert body["game"] == "vilar-de-mouros" and body["game_id"]


async def test_the_game_starts_when_its_last_seat_is_taken(server: Running) -> None:
    game_id = await server.create(2)
    r = await server.http.post(f"/api/v1/games/{game_id}/seats", json={"name": "Ana"})
    assert r.status_code == 201 and r.json()["seat"] == 0
    assert (await server.get(f"/api/v1/games/{game_id}")).json()["status"] == "open"
    r = await server.http.post(f"/api/v1/games/{game_id}/seats", json={})
    assert r.json()["seat"] == 1
    body = (await server.get(f"/api/v1/games/{game_id}")).json()
    assert body["status"] == "active"
    assert body["seat"] is None and body["view"]["type"] == "vilar-de-mouros"


async def test_a_chosen_seat_is_taken_and_a_taken_seat_is_refused(server: Running) -> None:
    game_id = await server.create(3)
    r = await server.http.post(f"/api/v1/games/{game_id}/seats", json={"seat": 2})
    assert r.status_code == 201 and r.json()["seat"] == 2
    r = await server.http.post(f"/api/v1/games/{game_id}/seats", json={"seat": 2})
    assert r.status_code == 409 and r.json()["error"] == "seat_taken"
    r = await server.http.post(f"/api/v1/games/{game_id}/seats", json={})
    assert r.json()["seat"] == 0


async def test_seat_tokens_are_stored_only_as_hashes(server: Running, redis: aioredis.Redis) -> None:
    game_id, tokens = await server.started(2)
    stored = await redis.hgetall(f"lt:{{{game_id}}}:tokens")
    assert len(stored) == 2
    for token in tokens:
        assert len(token.partition(".")[2]) >= 43  # 256 random bits, URL-safe base64
        for key, value in stored.items():
            assert token.encode() not in key and token.encode() not in value
    keys = await redis.keys("*")
    for key in keys:
        if await redis.type(key) == b"stream":
            for _, fields in entries_of(await redis.xrange(key)):
                assert not any(t.encode() in v for t in tokens for v in fields.values())


async def test_open_games_are_listed_in_pages(server: Running) -> None:
    ids = [await server.create(2) for _ in range(5)]
    seen: list[str] = []
    cursor = None
    while True:
        params: dict[str, str | int] = {"status": "open", "limit": 2}
        if cursor:
            params["cursor"] = cursor
        page = (await server.http.get("/api/v1/games", params=params)).json()
        seen += [g["game_id"] for g in page["games"]]
        cursor = page["next_cursor"]
        if cursor is None:
            break
    assert seen == ids
    await server.seat_all(ids[0], 2)
    active = (await server.http.get("/api/v1/games", params={"status": "active"})).json()["games"]
    assert [g["game_id"] for g in active] == [ids[0]]
    assert active[0]["seats_taken"] == 2


async def test_a_seat_sees_its_hand_and_a_spectator_does_not(server: Running) -> None:
    game_id, tokens = await server.started(2)
    mine = (await server.get(f"/api/v1/games/{game_id}", tokens[0])).json()
    spectator = (await server.get(f"/api/v1/games/{game_id}")).json()
    assert mine["seat"] == 0 and spectator["seat"] is None
    assert mine["view"] != spectator["view"]


async def test_legal_commands_are_empty_for_a_spectator(server: Running) -> None:
    game_id, _ = await server.started(2)
    r = await server.get(f"/api/v1/games/{game_id}/legal-commands")
    assert r.status_code == 200 and r.json()["commands"] == []


async def test_a_command_answers_the_new_version_and_the_callers_events(server: Running) -> None:
    game_id, tokens = await server.started(2)
    before = (await server.get(f"/api/v1/games/{game_id}")).json()["version"]
    seat, commands = await server.awaited(game_id, tokens)
    r = await server.send(game_id, tokens[seat], commands[0])
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["version"] > before
    assert [e["version"] for e in body["events"]] == list(range(before + 1, body["version"] + 1))


async def test_a_whole_game_is_played_to_its_final_scores_over_http(server: Running) -> None:
    game_id, tokens = await server.started(2)
    await play_to_the_end(server, game_id, tokens)
    body = (await server.get(f"/api/v1/games/{game_id}")).json()
    assert body["status"] == "finished"
    assert len(body["outcome"]["scores"]) == 2 and body["outcome"]["winners"]
    finished = (await server.http.get("/api/v1/games", params={"status": "finished"})).json()["games"]
    assert [g["game_id"] for g in finished] == [game_id]


async def test_the_event_feed_pages_after_a_version(server: Running) -> None:
    game_id, tokens = await server.started(2)
    everything = (await server.get(f"/api/v1/games/{game_id}/events", tokens[0])).json()
    assert [e["version"] for e in everything["events"]] == list(range(1, everything["version"] + 1))
    page = (await server.get(f"/api/v1/games/{game_id}/events", tokens[0], after=2, limit=2)).json()
    assert [e["version"] for e in page["events"]] == [3, 4]
    assert page["events"] == everything["events"][2:4]


async def test_replay_shows_the_table_as_it_was(server: Running) -> None:
    game_id, tokens = await server.started(2)
    r = await server.get(f"/api/v1/games/{game_id}/replay", tokens[0], version=1)
    assert r.status_code == 200
    assert r.json()["version"] == 1 and r.json()["status"] == "open" and r.json()["view"] is None
    r = await server.get(f"/api/v1/games/{game_id}/replay", tokens[0], version=2, **{"as": "1"})
    assert r.status_code == 403 and r.json()["error"] == "game_not_finished"


async def play_to_the_end(server: Running, game_id: str, tokens: list[str]) -> None:
    for _ in range(1000):
        seat, commands = await server.awaited(game_id, tokens)
        if seat < 0:
            return
        r = await server.send(game_id, tokens[seat], commands[-1])
        assert r.status_code == 200, r.text


async def test_export_needs_the_admin_until_the_game_is_over(server: Running) -> None:
    game_id, tokens = await server.started(2)
    assert (await server.get(f"/api/v1/games/{game_id}/export")).status_code == 401
    assert (await server.get(f"/api/v1/games/{game_id}/export", tokens[0])).status_code == 403
    admin = await server.get(f"/api/v1/games/{game_id}/export", ADMIN)
    assert admin.status_code == 200
    header, *lines = admin.content.splitlines()
    assert json.loads(header)["viewpoint"] == "server" and json.loads(header)["status"] == "active"
    assert [json.loads(line)["version"] for line in lines] == list(range(1, len(lines) + 1))
    await play_to_the_end(server, game_id, tokens)
    anyone = await server.get(f"/api/v1/games/{game_id}/export")
    header, *facts = anyone.content.splitlines()
    assert anyone.status_code == 200 and json.loads(header)["viewpoint"] == "everyone"
    assert facts[: len(lines)] == lines


async def test_a_finished_game_imports_back_to_the_same_log(server: Running) -> None:
    game_id, tokens = await server.started(2)
    await play_to_the_end(server, game_id, tokens)
    log = (await server.get(f"/api/v1/games/{game_id}/export")).content
    r = await server.http.post(
        "/api/v1/games/import",
        content=log,
        headers={"Authorization": f"Bearer {ADMIN}", "Content-Type": "application/x-ndjson"},
    )
    assert r.status_code == 201, r.text
    copy = r.json()["game_id"]
    again = (await server.get(f"/api/v1/games/{copy}/export")).content
    assert again.replace(copy.encode(), game_id.encode(), 1) == log  # its facts and commands, under its new id
    original = (await server.get(f"/api/v1/games/{game_id}")).json()
    imported = (await server.get(f"/api/v1/games/{copy}")).json()
    assert imported["outcome"] == original["outcome"] and imported["status"] == "finished"


async def test_an_unfinished_log_is_not_imported(server: Running) -> None:
    game_id, _ = await server.started(2)
    log = (await server.get(f"/api/v1/games/{game_id}/export", ADMIN)).content
    r = await server.http.post(
        "/api/v1/games/import",
        content=log,
        headers={"Authorization": f"Bearer {ADMIN}", "Content-Type": "application/x-ndjson"},
    )
    assert r.status_code == 400 and r.json()["error"] == "unfinished_log"


async def test_the_admin_imports_an_unfinished_log_to_play_on_with_a_new_token_a_seat(server: Running) -> None:
    """``?play=true`` (``ludoteca audit``'s twin games): the game comes back where it was, each seat with a
    new token that plays it; the old tokens are not part of a log and play nothing there."""
    game_id, tokens = await server.started(2)
    log = (await server.get(f"/api/v1/games/{game_id}/export", ADMIN)).content
    headers = {"Authorization": f"Bearer {ADMIN}", "Content-Type": "application/x-ndjson"}
    r = await server.http.post("/api/v1/games/import?play=maybe", content=log, headers=headers)
    assert r.status_code == 400 and r.json()["details"] == {
        "field": "play",
        "case": "one_of",
        "allowed": ["true", "false"],
    }
    r = await server.http.post("/api/v1/games/import?play=true", content=log, headers=headers)
    assert r.status_code == 201, r.text
    copy, new = r.json()["game_id"], r.json()["tokens"]
    assert len(new) == 2 and all(new) and not set(new) & set(tokens)
    original = (await server.get(f"/api/v1/games/{game_id}", tokens[0])).json()
    imported = (await server.get(f"/api/v1/games/{copy}", new[0])).json()
    assert imported["version"] == original["version"] and imported["status"] == "active"
    assert imported["view"] == original["view"] and imported["seat"] == 0
    assert (await server.get(f"/api/v1/games/{copy}", tokens[0])).json()["error"] == "not_seated"
    seat = imported["awaiting"][0]["seat"]
    legal = (await server.get(f"/api/v1/games/{copy}/legal-commands", new[seat])).json()
    body = {"command": legal["commands"][0], "command_id": "on", "expected_version": legal["version"]}
    r = await server.http.post(
        f"/api/v1/games/{copy}/commands", json=body, headers={"Authorization": f"Bearer {new[seat]}"}
    )
    assert r.status_code == 200, r.text


async def test_replay_as_every_seat_and_in_full_once_the_game_is_over(server: Running) -> None:
    game_id, tokens = await server.started(2)
    mine = await server.get(f"/api/v1/games/{game_id}/replay", tokens[0], version=5, **{"as": "0"})
    assert mine.status_code == 200
    await play_to_the_end(server, game_id, tokens)
    for as_ in ("0", "1", "full"):
        r = await server.get(f"/api/v1/games/{game_id}/replay", version=5, **{"as": as_})
        assert r.status_code == 200 and r.json()["version"] == 5 and r.json()["status"] == "active"
    r = await server.get(f"/api/v1/games/{game_id}/replay", version=5, **{"as": "7"})
    assert r.status_code == 400 and r.json()["details"]["field"] == "as"


async def test_openapi_declares_every_route_and_the_docs_page_renders_it(server: Running) -> None:
    doc = (await server.http.get("/openapi.json")).json()
    assert doc["openapi"].startswith("3.")
    assert "/api/v1/games/{game_id}/commands" in doc["paths"]
    post = doc["paths"]["/api/v1/games/{game_id}/commands"]["post"]
    assert {"400", "401", "403", "404", "409", "413", "422", "503"} <= set(post["responses"])
    assert doc["components"]["securitySchemes"]["seat"]["scheme"] == "bearer"
    assert "vilar-de-mouros.DrawFromDeck" in doc["components"]["schemas"]
    page = await server.http.get("/docs")
    assert page.status_code == 200 and "/openapi.json" in page.text


async def test_health_and_readiness(server: Running) -> None:
    assert (await server.http.get("/healthz")).json() == {"status": "ok"}
    assert (await server.http.get("/readyz")).json() == {"status": "ready"}
