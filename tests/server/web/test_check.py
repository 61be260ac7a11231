"""POST /games/{id}/check against a real server: a command asked about without sending it is
answered with the refusal sending it would get (the same code, sentence and details), and nothing
is written."""

from __future__ import annotations

from typing import Any

import httpx
import redis.asyncio as aioredis

from tests.server.conftest import Running
from tests.server.web.test_bad_input import snapshot
from tests.server.web.test_moves import awaited_seat, hand, placing


async def check(server: Running, game_id: str, token: str | None, command: Any, lang: str = "en") -> httpx.Response:
    headers = {"Authorization": f"Bearer {token}", "Accept-Language": lang} if token else {}
    return await server.http.post(f"/api/v1/games/{game_id}/check", json={"command": command}, headers=headers)


async def test_a_check_answers_the_refusal_sending_would_get_and_writes_nothing(
    server: Running, redis: aioredis.Redis
) -> None:
    game_id, tokens, seat = await placing(server)
    other = 1 - seat
    mine = hand((await server.get(f"/api/v1/games/{game_id}", tokens[seat])).json(), seat)
    commands: list[tuple[str, Any]] = [
        (tokens[seat], {"type": "DrawFromDeck"}),  # a move of another phase: the cards drawn wait to be placed
        (tokens[seat], {"type": "PlaceCards", "centre": mine[0], "personal": mine[0]}),  # one card twice
        (tokens[seat], {"type": "PlaceCards", "centre": "no-such-card", "personal": mine[1]}),
        (tokens[other], {"type": "DrawFromDeck"}),  # not this seat's turn
        (tokens[seat], {"type": "Undo", "version": 1}),
    ]
    for token, command in commands:
        before = await snapshot(redis, game_id)
        checked = await check(server, game_id, token, command, "pt")
        assert await snapshot(redis, game_id) == before, command
        assert checked.status_code == 200, checked.text
        body = checked.json()
        assert body["lands"] is False and body["version"] == before_version(before), body
        sent = await server.http.post(
            f"/api/v1/games/{game_id}/commands",
            json={"command": command, "command_id": f"c-{len(command)}-{token[-4:]}"},
            headers={"Authorization": f"Bearer {token}", "Accept-Language": "pt"},
        )
        assert sent.status_code in (409, 422), sent.text
        assert body["refusal"] == sent.json(), command  # in the reader's language too
        assert await snapshot(redis, game_id) == before, command


def before_version(snapshot: dict[str, Any]) -> int:
    return len(snapshot["events"])


async def test_a_check_of_a_command_that_would_land_says_so_and_writes_nothing(
    server: Running, redis: aioredis.Redis
) -> None:
    game_id, tokens = await server.started(2)
    seat = await awaited_seat(server, game_id)
    before = await snapshot(redis, game_id)
    version = (await server.get(f"/api/v1/games/{game_id}")).json()["version"]
    # A draw from the deck: a card comes out of hiding when it is sent, and not when it is checked.
    for _ in range(3):
        checked = await check(server, game_id, tokens[seat], {"type": "DrawFromDeck"})
        assert (checked.status_code, checked.json()) == (200, {"version": version, "lands": True, "refusal": None})
    assert await snapshot(redis, game_id) == before
    sent = await server.send(game_id, tokens[seat], {"type": "DrawFromDeck"})
    assert sent.status_code == 200 and sent.json()["version"] > version


async def test_a_spectator_and_an_unreadable_body_are_refused_as_for_a_command(
    server: Running, redis: aioredis.Redis
) -> None:
    game_id, tokens = await server.started(2)
    before = await snapshot(redis, game_id)
    spectator = await check(server, game_id, None, {"type": "DrawFromDeck"})
    assert spectator.status_code == 403 and spectator.json()["error"] == "spectator"
    unreadable = await server.http.post(
        f"/api/v1/games/{game_id}/check",
        json={"command": {"type": "DrawFromDeck"}, "command_id": "x"},
        headers={"Authorization": f"Bearer {tokens[0]}"},
    )
    assert unreadable.status_code == 400 and unreadable.json()["details"]["field"] == "command_id"
    # a command that cannot be read is no rule's refusal: 400, as sending it would be
    flipped = await check(server, game_id, tokens[0], {"type": "FlipTable"})
    assert flipped.status_code == 400 and flipped.json()["details"]["field"] == "command.type"
    unknown = await check(server, "g-nope", tokens[0], {"type": "DrawFromDeck"})
    assert unknown.status_code == 404
    assert await snapshot(redis, game_id) == before
