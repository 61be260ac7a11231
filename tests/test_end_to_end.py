"""A whole 4-player game against the real server process, over HTTP and WebSocket."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
from typing import Any

import httpx
import redis.asyncio as aioredis
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from tests.support.processes import Serve, free_port


async def listen(ws: ClientConnection, inbox: list[dict[str, Any]]) -> None:
    with contextlib.suppress(ConnectionClosed):
        async for raw in ws:
            inbox.append(json.loads(raw))


async def until(predicate: Any, seconds: float = 10) -> None:
    async with asyncio.timeout(seconds):
        while not predicate():
            await asyncio.sleep(0.01)


async def test_a_four_player_game_is_played_to_its_final_scores_and_every_seat_sees_every_version(
    redis: aioredis.Redis, redis_url: str
) -> None:
    rng = random.Random(2026)
    # The seats' rate wide: four seats played as fast as a script goes (tests/security/test_rest_rate.py checks it).
    with Serve(free_port(), redis_url=redis_url, LUDOTECA_WS_RATE="10000", LUDOTECA_WS_BURST="10000") as serve:
        async with httpx.AsyncClient(base_url=serve.url, timeout=10) as http:
            created = await http.post("/api/v1/games", json={"game": "vilar-de-mouros", "players": 4})
            game_id = created.json()["game_id"]
            tokens = [
                (await http.post(f"/api/v1/games/{game_id}/seats", json={"name": n})).json()["token"]
                for n in ("Ana", "Bea", "Carlos", "Duarte")
            ]
            auth = [{"Authorization": f"Bearer {t}"} for t in tokens]
            ws_url = serve.url.replace("http", "ws") + f"/api/v1/games/{game_id}/ws"
            sockets = [await connect(ws_url) for _ in range(5)]
            inboxes: list[list[dict[str, Any]]] = [[] for _ in sockets]
            for ws, token in zip(sockets, [*tokens, None], strict=True):
                await ws.send(json.dumps({"type": "hello", "token": token, "after": 0}))
            readers = [asyncio.create_task(listen(ws, box)) for ws, box in zip(sockets, inboxes, strict=True)]

            for step in range(1000):
                legal = [(await http.get(f"/api/v1/games/{game_id}/legal-commands", headers=h)).json() for h in auth]
                awaited = [seat for seat, answer in enumerate(legal) if answer["commands"]]
                if not awaited:
                    break
                seat = rng.choice(awaited)
                command = rng.choice(legal[seat]["commands"])
                command_id = f"e2e-{step}"
                if step % 3:
                    r = await http.post(
                        f"/api/v1/games/{game_id}/commands",
                        headers=auth[seat],
                        json={"command": command, "command_id": command_id},
                    )
                    assert r.status_code == 200, r.text
                else:  # every third command goes over the seat's socket
                    await sockets[seat].send(
                        json.dumps({"type": "command", "command": command, "command_id": command_id})
                    )
                    await until(lambda box=inboxes[seat], cid=command_id: any(m.get("command_id") == cid for m in box))
                    answer = next(m for m in inboxes[seat] if m.get("command_id") == command_id)
                    assert answer["type"] == "ack"

            final = (await http.get(f"/api/v1/games/{game_id}")).json()
            assert final["status"] == "finished"
            outcome = final["outcome"]
            assert len(outcome["scores"]) == 4 and set(outcome["winners"]) <= {0, 1, 2, 3}
            assert sorted(outcome["places"])[0] == 1

            def updates(box: list[dict[str, Any]]) -> list[dict[str, Any]]:
                return [m for m in box if m["type"] == "update"]

            await until(lambda: all(updates(b) and updates(b)[-1]["version"] == final["version"] for b in inboxes))
            for box, headers in zip(inboxes, [*auth, {}], strict=True):
                versions = [e["version"] for u in updates(box) for e in u["events"]]
                assert versions == list(range(1, final["version"] + 1))
                assert [u["version"] for u in updates(box)] == sorted({u["version"] for u in updates(box)})
                seen = (await http.get(f"/api/v1/games/{game_id}", headers=headers)).json()["view"]
                assert updates(box)[-1]["view"] == seen
            for ws in sockets:
                await ws.close()
            await asyncio.gather(*readers)
