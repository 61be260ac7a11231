"""/metrics speaks Prometheus to the operator only: commands by game and result class, request
latency, games by status; nothing a game's viewer may not see."""

from __future__ import annotations

import asyncio
import gc
import json
import re
import time
from pathlib import Path

import redis.asyncio as aioredis
from websockets.asyncio.client import connect

from server.service import errors
from server.settings import Settings
from tests.server.conftest import ADMIN, NO_QUOTAS, Running, running

OPERATOR = {"Authorization": f"Bearer {ADMIN}"}


async def test_metrics_count_commands_by_game_and_result(server: Running) -> None:
    game_id, tokens = await server.started(2)
    seat, commands = await server.awaited(game_id, tokens)
    assert (await server.send(game_id, tokens[1 - seat], commands[0])).status_code == 422
    assert (await server.send(game_id, tokens[seat], commands[0])).status_code == 200
    r = await server.http.get("/metrics", headers=OPERATOR)
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/plain")
    text = r.text
    assert 'ludoteca_commands_total{game="vilar-de-mouros",result="accepted"} 1.0' in text
    assert 'ludoteca_commands_total{game="vilar-de-mouros",result="refused"} 1.0' in text
    assert "not_your_turn" not in text  # a rule's code is told only to the refused seat
    assert 'ludoteca_games{status="active"} 1.0' in text
    assert 'route="/api/v1/games/{game_id}/commands"' in text
    assert "ludoteca_redis_roundtrip_seconds_count 1.0" in text


async def test_metrics_count_websockets_and_their_messages(server: Running) -> None:
    game_id, tokens = await server.started(2)
    async with connect(f"{server.ws_url}/api/v1/games/{game_id}/ws") as ws:
        await ws.send(json.dumps({"type": "hello", "token": tokens[0], "after": 0}))
        await ws.recv()
        text = (await server.http.get("/metrics", headers=OPERATOR)).text
        assert "ludoteca_websockets 1.0" in text
        assert 'ludoteca_websocket_messages_total{direction="in"} 1.0' in text
        assert 'ludoteca_websocket_messages_total{direction="out"} 1.0' in text
    async with asyncio.timeout(5):
        while "ludoteca_websockets 0.0" not in (await server.http.get("/metrics", headers=OPERATOR)).text:
            await asyncio.sleep(0.02)


async def test_metrics_label_the_web_tables_files_by_their_mount_not_as_unmatched(server: Running) -> None:
    assert (await server.http.get("/web/js/live.js")).status_code == 200
    assert (await server.http.get("/no/such/page")).status_code == 404
    text = (await server.http.get("/metrics", headers=OPERATOR)).text
    assert 'route="/web/{path}"' in text
    assert 'route="unmatched"' in text  # what matches no route at all still says so
    assert "live.js" not in text


async def test_metrics_answer_the_operator_only(server: Running) -> None:
    _, tokens = await server.started(2)
    assert (await server.http.get("/metrics")).status_code == 401
    seat = {"Authorization": f"Bearer {tokens[0]}"}
    assert (await server.http.get("/metrics", headers=seat)).status_code == 403
    assert (await server.http.get("/metrics", headers=OPERATOR)).status_code == 200


async def test_metrics_count_no_refusal_code_a_seat_alone_was_told(server: Running) -> None:
    """Itchy Feet: accepting a trade one cannot pay is refused with lacks_cards, told only to that seat."""
    game_id = await server.create(2, "itchy-feet")
    tokens = await server.seat_all(game_id, 2)
    for token in tokens:
        await server.send(game_id, token, {"type": "AcceptTrade"})  # refused: no trade is open
    text = (await server.http.get("/metrics", headers=OPERATOR)).text
    assert 'ludoteca_commands_total{game="itchy-feet",result="refused"} 2.0' in text
    for line in text.splitlines():
        if line.startswith("ludoteca_commands_total"):
            assert 'result="' in line and line.split('result="')[1].split('"')[0] in (
                "accepted",
                "refused",
                "conflict",
                "malformed",
                "forbidden",
                "not_found",
            )


def test_every_kind_of_refusal_is_counted_under_a_result_the_operators_guide_names() -> None:
    kinds = [k for k in vars(errors).values() if isinstance(k, type) and issubclass(k, errors.AppError)]
    results = {k.result for k in kinds if k is not errors.AppError}
    guide = (Path(__file__).parents[3] / "docs" / "operations.md").read_text()
    row = next(line for line in guide.splitlines() if line.startswith("| `ludoteca_commands_total`"))
    named = set(re.findall(r"`(\w+)`", row.split("|")[4]))
    assert results | {"accepted"} <= named, sorted(results - named)


def gauge(text: str, name: str) -> float:
    [value] = re.findall(rf"^{name} (\S+)$", text, re.MULTILINE)
    return float(value)


async def test_metrics_tell_when_the_last_full_look_ended_so_that_looks_that_stopped_show(
    redis: aioredis.Redis, redis_url: str
) -> None:
    """The interval and the end of the last look (the server's start before the first): a look
    whose task ended without a word shows as a time that stops moving (LudotecaGarbageLooksStopped)."""
    started = time.time()
    settings = Settings(redis_url=redis_url, admin_token=ADMIN, gc_thaw_interval=0.2, **NO_QUOTAS)
    async with running(settings) as api:
        first = (await api.http.get("/metrics", headers=OPERATOR)).text
        assert gauge(first, "ludoteca_gc_look_interval_seconds") == 0.2
        start = gauge(first, "ludoteca_gc_look_last_timestamp_seconds")
        assert started - 1 <= start <= time.time()
        for _ in range(100):
            await asyncio.sleep(0.1)
            later = (await api.http.get("/metrics", headers=OPERATOR)).text
            if gauge(later, "ludoteca_gc_look_last_timestamp_seconds") > start:
                break
        assert start < gauge(later, "ludoteca_gc_look_last_timestamp_seconds") <= time.time()
        assert gauge(later, "ludoteca_gc_look_pause_seconds") > 0


def histogram_count(text: str, name: str, labels: str = "") -> float:
    [value] = re.findall(rf"^{name}_count{re.escape(labels)} (\S+)$", text, re.MULTILINE)
    return float(value)


async def test_metrics_time_the_event_loops_lateness_and_each_collection(redis_url: str) -> None:
    """What held a replica's loop, as its sockets felt it (``ludoteca_event_loop_lag_seconds``, a timer every
    10 ms), and the collector's share of it (``ludoteca_gc_pause_seconds``, by generation)."""
    settings = Settings(redis_url=redis_url, admin_token=ADMIN, **NO_QUOTAS)
    async with running(settings) as api:
        before = (await api.http.get("/metrics", headers=OPERATOR)).text
        time.sleep(0.1)  # the loop held, as a long collection would hold it
        gc.collect()
        await asyncio.sleep(0.1)
        after = (await api.http.get("/metrics", headers=OPERATOR)).text
    timers = histogram_count(after, "ludoteca_event_loop_lag_seconds")
    assert timers > histogram_count(before, "ludoteca_event_loop_lag_seconds")
    late = re.search(r'^ludoteca_event_loop_lag_seconds_bucket\{le="0.05"\} (\S+)$', after, re.MULTILINE)
    assert late is not None and float(late.group(1)) < timers  # the hold: a timer over 50 ms late
    assert histogram_count(after, "ludoteca_gc_pause_seconds", '{generation="2"}') >= 1
