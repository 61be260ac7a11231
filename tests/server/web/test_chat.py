"""Table chat over the API (docs/API.md, "Table chat"): seats' commands, the spectators' channel, an
operator's hiding; who reads what over REST and the socket; bad chat refused, the stream unchanged."""

from __future__ import annotations

import json
from typing import Any

import redis.asyncio as aioredis
from websockets.asyncio.client import connect

from tests.server.conftest import ADMIN, Running
from tests.server.web.test_bad_input import snapshot
from tests.server.web.test_rest import play_to_the_end

API = "/api/v1"


async def said(server: Running, game_id: str, token: str | None) -> list[dict[str, Any]]:
    """The chat messages ``token``'s seat (or a spectator) reads in its feed."""
    r = await server.get(f"{API}/games/{game_id}/events", token)
    assert r.status_code == 200, r.text
    return [e["event"] for e in r.json()["events"] if e["event"]["type"] == "MessageSaid"]


async def test_seats_chat_to_the_table_and_on_a_private_line_only_its_two_seats_read(server: Running) -> None:
    game_id, (ana, rui, eva) = await server.started(3)
    r = await server.send(game_id, ana, {"type": "Say", "text": "Boa sorte!"})
    assert r.status_code == 200, r.text
    assert [e["event"] for e in r.json()["events"]] == [{"type": "MessageSaid", "text": "Boa sorte!", "seat": 0}]
    r = await server.send(game_id, rui, {"type": "Say", "text": "Cuidado com a Eva", "to": 0})
    assert r.status_code == 200, r.text
    table = [{"type": "MessageSaid", "text": "Boa sorte!", "seat": 0}]
    private = {"type": "MessageSaid", "text": "Cuidado com a Eva", "seat": 1, "to": 0}
    assert await said(server, game_id, ana) == await said(server, game_id, rui) == [*table, private]
    assert await said(server, game_id, eva) == await said(server, game_id, None) == table
    # live: the socket of the seat a line is private to receives it; another seat's does not
    async with (
        connect(f"{server.ws_url}{API}/games/{game_id}/ws") as to_ana,
        connect(f"{server.ws_url}{API}/games/{game_id}/ws") as to_eva,
    ):
        version = (await server.get(f"{API}/games/{game_id}", ana)).json()["version"]
        for ws, token in ((to_ana, ana), (to_eva, eva)):
            await ws.send(json.dumps({"type": "hello", "token": token, "after": version}))
            assert json.loads(await ws.recv())["type"] == "update"
        await server.send(game_id, rui, {"type": "Say", "text": "psst", "to": 0})
        await server.send(game_id, rui, {"type": "Say", "text": "Olá a todos"})
        got_ana = [json.loads(await to_ana.recv()) for _ in range(2)]
        got_eva = [json.loads(await to_eva.recv()) for _ in range(2)]
    assert [e["event"]["text"] for u in got_ana for e in u["events"]] == ["psst", "Olá a todos"]
    assert [u["version"] for u in got_eva] == [version + 1, version + 2]  # a version passes, unread
    assert [e["event"]["text"] for u in got_eva for e in u["events"]] == ["Olá a todos"]


async def test_a_move_decided_before_a_message_still_lands(server: Running) -> None:
    game_id, tokens = await server.started(2)
    seat, commands = await server.awaited(game_id, tokens)
    version = (await server.get(f"{API}/games/{game_id}", tokens[seat])).json()["version"]
    await server.send(game_id, tokens[1 - seat], {"type": "Say", "text": "Pensa bem..."})
    r = await server.send(game_id, tokens[seat], commands[0], expected_version=version)
    assert r.status_code == 200, r.text
    r = await server.send(game_id, tokens[1 - seat], {"type": "Say", "text": "?"}, expected_version=version)
    assert r.status_code == 409 and r.json()["error"] == "version_conflict"  # a move came since: stale


async def test_bad_chat_is_refused_with_its_code_and_changes_nothing(server: Running, redis: aioredis.Redis) -> None:
    game_id, (ana, _) = await server.started(2)
    before = await snapshot(redis, game_id)
    for command, status, code in (
        ({"type": "Say", "text": " \u200b "}, 422, "empty_message"),
        ({"type": "Say", "text": "x" * 501}, 422, "message_too_long"),
        ({"type": "Say", "text": "eco", "to": 0}, 422, "no_such_seat"),
        ({"type": "Say", "text": 5}, 400, "malformed"),
        ({"type": "HideMessage", "version": 3}, 422, "no_such_message"),
        ({"type": "Mute", "seat": 7}, 422, "no_such_seat"),
    ):
        r = await server.send(game_id, ana, command)
        assert (r.status_code, r.json()["error"]) == (status, code), (command, r.text)
        assert r.json()["message"]
    r = await server.send(game_id, None, {"type": "Say", "text": "olá"})
    assert r.status_code == 403 and r.json()["error"] == "spectator"
    assert await snapshot(redis, game_id) == before


async def test_a_seat_chats_at_a_rate_of_its_own(server: Running) -> None:
    game_id, (ana, _) = await server.started(2)
    answers = [(await server.send(game_id, ana, {"type": "Say", "text": f"{n}"})) for n in range(7)]
    assert [r.status_code for r in answers][:5] == [200] * 5
    refused = answers[-1].json()
    assert answers[-1].status_code == 429 and refused["error"] == "too_many"
    assert refused["details"]["case"] == "chat" and "chat" in refused["message"]


async def test_the_others_hide_a_message_by_a_majority_and_an_operator_any(server: Running) -> None:
    game_id, (ana, rui, eva) = await server.started(3)
    r = await server.send(game_id, ana, {"type": "Say", "text": "palavrão"})
    at = r.json()["version"]
    await server.send(game_id, rui, {"type": "HideMessage", "version": at})
    assert (await said(server, game_id, eva))[0]["text"] == "palavrão"  # one of two: no majority yet
    await server.send(game_id, eva, {"type": "HideMessage", "version": at})
    gone = {"type": "MessageSaid", "text": "", "seat": 0, "removed": "hidden"}
    assert await said(server, game_id, ana) == await said(server, game_id, None) == [gone]
    r = await server.send(game_id, rui, {"type": "Say", "text": "segredo", "to": 2})
    private_at = r.json()["version"]
    admin = {"Authorization": f"Bearer {ADMIN}"}
    r = await server.http.post(f"{API}/games/{game_id}/chat/hidden", json={"version": private_at})
    assert r.status_code == 401, r.text
    r = await server.http.post(f"{API}/games/{game_id}/chat/hidden", json={"version": private_at}, headers=admin)
    assert r.status_code == 200, r.text
    assert r.json()["events"][0]["event"] == {"type": "MessageHidden", "version": private_at, "by": "operator"}
    assert (await said(server, game_id, eva))[-1] == {**gone, "seat": 1, "to": 2}
    r = await server.http.post(f"{API}/games/{game_id}/chat/hidden", json={"version": 2}, headers=admin)
    assert r.status_code == 422 and r.json()["error"] == "no_such_message"


async def test_a_watching_player_talks_on_the_spectators_channel_the_seats_read_it_once_the_game_is_over(
    server: Running,
) -> None:
    game_id, tokens = await server.started(2)
    r = await server.http.post(f"{API}/players", json={"name": "Xoán"})
    watcher = r.json()["token"]
    server.http.cookies.clear()
    url = f"{API}/games/{game_id}/spectators/chat"
    r = await server.http.post(url, json={"text": "Que partida!"})
    assert r.status_code == 401, r.text
    r = await server.http.post(url, json={"text": "Que partida!"}, headers={"Authorization": f"Bearer {watcher}"})
    assert r.status_code == 200, r.text
    spoken = r.json()["events"][0]["event"]
    assert "seat" not in spoken and spoken["player"] and spoken["text"] == "Que partida!"
    assert await said(server, game_id, None) == [spoken]
    assert await said(server, game_id, tokens[0]) == []
    await play_to_the_end(server, game_id, tokens)
    assert await said(server, game_id, tokens[0]) == [spoken]
    r = await server.http.post(url, json={"text": "gg"}, headers={"Authorization": f"Bearer {watcher}"})
    assert r.status_code == 422 and r.json()["error"] == "game_over"


async def test_an_export_for_everyone_keeps_a_private_lines_place_not_its_words(server: Running) -> None:
    game_id, tokens = await server.started(2)
    await server.send(game_id, tokens[0], {"type": "Say", "text": "só para ti", "to": 1})
    await play_to_the_end(server, game_id, tokens)
    everyone = (await server.get(f"{API}/games/{game_id}/export", **{"as": "everyone"})).text
    assert "só para ti" not in everyone and '"removed":"private"' in everyone
    whole = (await server.get(f"{API}/games/{game_id}/export", ADMIN, **{"as": "server"})).text
    assert "só para ti" in whole
    r = await server.http.post(f"{API}/games/import", content=everyone.encode(), headers={
        "Authorization": f"Bearer {ADMIN}", "Content-Type": "application/x-ndjson"})  # fmt: skip
    assert r.status_code == 201, r.text
