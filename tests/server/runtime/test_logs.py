"""Logs are JSON lines with the request id and game id, and never hold a token or a card."""

from __future__ import annotations

import json

import httpx
import redis.asyncio as aioredis

from domain.vilar_de_mouros.cards import BONUS_CARDS, GAME_CARDS
from tests.support.processes import Serve, free_port


async def test_every_log_line_is_json_with_its_request_and_game_and_no_secret(
    redis: aioredis.Redis, redis_url: str
) -> None:
    with Serve(free_port(), redis_url=redis_url, log_level="debug") as serve:
        async with httpx.AsyncClient(base_url=serve.url) as http:
            created = await http.post("/api/v1/games", json={"game": "vilar-de-mouros", "players": 2})
            game_id = created.json()["game_id"]
            tokens = [(await http.post(f"/api/v1/games/{game_id}/seats", json={})).json()["token"] for _ in range(2)]
            for step in range(12):
                for token in tokens:
                    headers = {"Authorization": f"Bearer {token}", "X-Request-Id": f"step-{step}"}
                    legal = (await http.get(f"/api/v1/games/{game_id}/legal-commands", headers=headers)).json()
                    if legal["commands"]:
                        body = {"command": legal["commands"][0], "command_id": f"c{step}"}
                        r = await http.post(f"/api/v1/games/{game_id}/commands", json=body, headers=headers)
                        assert r.headers["x-request-id"] == f"step-{step}"
                await http.get(f"/api/v1/games/{game_id}/events", headers={"Authorization": f"Bearer {tokens[0]}"})
        serve.stop()
        output = serve.output()
    lines = [json.loads(line) for line in output.splitlines() if line.strip()]
    requests = [line for line in lines if line["logger"] == "uvicorn.access"]
    assert requests, "access lines are logged at debug level"
    assert all(line["request_id"] for line in requests)
    assert any(line["request_id"] == "step-3" and line["game_id"] == game_id for line in requests)
    for secret in [*tokens, *(t.partition(".")[2] for t in tokens), *GAME_CARDS, *BONUS_CARDS]:
        assert secret not in output


async def test_a_token_sent_in_a_query_string_is_never_logged(redis: aioredis.Redis, redis_url: str) -> None:
    """Tokens are read from headers only; one a client puts in a URL is masked in the access log."""
    with Serve(free_port(), redis_url=redis_url, log_level="info") as serve:
        async with httpx.AsyncClient(base_url=serve.url) as http:
            created = await http.post("/api/v1/games", json={"game": "vilar-de-mouros", "players": 2})
            game_id = created.json()["game_id"]
            token = (await http.post(f"/api/v1/games/{game_id}/seats", json={})).json()["token"]
            for name in ("token", "access_token", "auth", "t"):
                await http.get(f"/api/v1/games/{game_id}", params={name: token})
                await http.get(f"/api/v1/games/{game_id}/events", params={"after": 0, name: token})
            await http.get(f"/api/v1/games/{game_id}/{token}")
        serve.stop()
        output = serve.output()
    assert token not in output and token.partition(".")[2] not in output
    assert "token=***" in output and "after=0" in output  # the API's own parameters stay readable
