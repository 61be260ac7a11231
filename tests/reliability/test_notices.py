"""Notifications survive replicas killed mid-send: delivered at least once, under the same id.

Two ``ludoteca serve`` replicas on one Redis; a player sits at a table against a bot and has a
webhook to a receiver in this process. The game moves only when the player is told: each
notice that its move has come, once received, is answered by the player's move, and the bot's
answer makes the next one. In some rounds the receiver holds the delivery without answering and
both replicas are SIGKILLed while it is being sent, then started again: the notice must come
again, with the same ``Ludoteca-Delivery`` id, once the dead claim's lease runs out. A notice
that never came would stall the game: the round would time out.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import pytest

from server.storage.keys import OUTBOX_DUE, OUTBOX_TRIES
from tests.reliability.harness import Api, auth, figure, own_redis, redis_client, replicas, sigkill
from tests.reliability.sizes import SIZE, limit
from tests.support.processes import Serve
from tests.support.receiver import Delivery, Receiver

ROUND_SECONDS = 30  # a notice not received within this long is lost


async def new_table(api: Api, token: str) -> str:
    """A table the player sits at (seat 0) with a random bot (seat 1): it starts at once."""
    game_id = await api.create(2)
    r = await api.at(0).post(f"/api/v1/games/{game_id}/seats", json={}, headers=auth(token))
    assert r.status_code == 201 and r.json()["seat"] == 0, r.text
    r = await api.at(0).post(f"/api/v1/games/{game_id}/seats", json={"bot": "random"})
    assert r.status_code == 201, r.text
    return game_id


async def my_moves(api: Api, game_id: str, token: str) -> None:
    """The player's moves, until the game awaits the bot (or is over)."""
    for _ in range(20):
        table = await api.table(game_id)
        if table["status"] != "active" or all(a["seat"] != 0 for a in table["awaiting"]):
            return
        r = await api.at().get(f"/api/v1/games/{game_id}/legal-commands", headers=auth(token))
        sent = await api.send(game_id, token, r.json()["commands"][-1], f"move-{table['version']}")
        assert sent.status_code == 200, sent.text


async def outbox_state(redis_url: str) -> str:
    """What the outbox holds, for a failure's message."""
    probe = redis_client(redis_url)
    try:
        due = await probe.zrange(OUTBOX_DUE.at(), 0, -1, withscores=True)
        return f"outbox: {due}, tries: {await probe.hgetall(OUTBOX_TRIES.at())}"
    finally:
        await probe.aclose()


def restart(serves: list[Serve]) -> None:
    with ThreadPoolExecutor(len(serves)) as pool:
        list(pool.map(Serve.start, serves))


def new_notice(received: list[Delivery], seen: set[str]) -> Delivery | None:
    return next((d for d in received if d.headers["ludoteca-delivery"] not in seen), None)


@pytest.mark.timeout(limit(150))
async def test_notifications_are_delivered_at_least_once_across_replicas_killed_mid_send() -> None:
    env = {
        "LUDOTECA_WEBHOOK_ALLOW": "127.0.0.1",
        "LUDOTECA_WEBHOOK_TIMEOUT": "3",  # a held delivery is still under way when the replicas die...
        "LUDOTECA_OUTBOX_LEASE": "4",  # ...and is claimed again once its claim's lease runs out
        "LUDOTECA_OUTBOX_INTERVAL": "0.05",
        "LUDOTECA_OUTBOX_RETRY": "0.2",
        "LUDOTECA_BOT_DELAY_MS": "0",
        "LUDOTECA_BOT_PACE_MS": "0",
        "LUDOTECA_BOT_PACE_SPREAD_MS": "0",
    }
    rounds = SIZE.notice_kills * 3 + 1
    kills = 0
    seen: set[str] = set()
    async with Receiver() as receiver:
        with own_redis("everysec") as redis_server, replicas(redis_server.url, 2, **env) as serves:
            urls = [s.url for s in serves]
            async with Api(urls) as api:
                r = await api.at(0).post("/api/v1/players", json={"name": "Ana"})
                token = r.json()["token"]
                api.at(0).cookies.clear()  # an API client: its bearer token, not the browser's cookie
                hook = await api.at(0).put(
                    "/api/v1/players/me/webhook", json={"url": receiver.url + "/hook"}, headers=auth(token)
                )
                assert hook.status_code == 200, hook.text
                game_id = await new_table(api, token)
            for n in range(rounds):
                kill = n % 3 == 1  # the receiver holds this round's notice: it was told to before the move
                async with Api(urls) as api:
                    try:
                        async with asyncio.timeout(ROUND_SECONDS):
                            while (got := new_notice(receiver.received, seen)) is None:
                                receiver.arrived.clear()
                                with contextlib.suppress(TimeoutError):
                                    await asyncio.wait_for(receiver.arrived.wait(), 0.5)
                    except TimeoutError:
                        table = await api.table(game_id)
                        raise AssertionError(
                            f"round {n}: the notice never came (lost); the table at {table['version']} awaits "
                            f"{table['awaiting']} ({table['status']}); received {receiver.ids()}; "
                            f"{await outbox_state(redis_server.url)}"
                        ) from None
                    sent = got.headers["ludoteca-delivery"]
                    if kill:  # the delivery is under way, held by the receiver: kill every replica
                        assert sent in receiver.held, f"round {n}: {sent} was not held"
                        for serve in serves:
                            sigkill(serve)
                        kills += 1
                        receiver.hang = False
                        await asyncio.to_thread(restart, serves)
                        try:
                            await receiver.wait_for(
                                lambda r, sent=sent: sum(d.headers["ludoteca-delivery"] == sent for d in r) >= 2,  # type: ignore[misc]
                                seconds=ROUND_SECONDS,
                            )
                        except TimeoutError:
                            raise AssertionError(
                                f"round {n}: {sent}, under way when the replicas died, never came again (lost); "
                                f"received {receiver.ids()}; {await outbox_state(redis_server.url)}"
                            ) from None
                    seen.add(sent)
                    body = json.loads(got.body)
                    receiver.hang = (n + 1) % 3 == 1  # before the move that makes the next notice
                    if body["event"] == "ended":
                        game_id = await new_table(api, token)
                    else:
                        game_id = body["game_id"]
                        await my_moves(api, game_id, token)
    deliveries = Counter(receiver.ids())
    assert kills == SIZE.notice_kills and len(seen) == rounds
    assert all(deliveries[i] >= 1 for i in seen)
    again = sum(count - 1 for count in deliveries.values())
    figure(
        "notifications across replica kills",
        f"{rounds} notices told by webhook, {kills} rounds with both replicas SIGKILLed mid-send: deliveries lost 0, "
        f"{again} delivered again under the same id (the receiver dedupes on it)",
    )
