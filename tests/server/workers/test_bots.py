"""Bots the server plays, against the real server: seating them (with a level), tables of bots
alone, a person among bots, a bot seat surviving the replica that played it, unknown bots and
levels refused, and no bot's choice a client could work out beforehand."""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any

import httpx
import pytest
import redis.asyncio as aioredis

from domain.bots import random_bot
from domain.catalog import GAMES
from server import duel
from server.cli import main
from server.settings import Settings
from server.storage.botqueue import DUE_KEY
from server.workers.bots import think
from tests.projections.test_no_leak import ENCODE, play, tables
from tests.server.conftest import ADMIN, NO_QUOTAS, Running, quick_settings, running, start_server, stop_server


def settings(redis_url: str, delay_ms: int = 0) -> Settings:
    return quick_settings(redis_url, delay_ms)


async def seat_bot(api: Running, game_id: str, bot: str, **extra: Any) -> httpx.Response:
    return await api.http.post(f"/api/v1/games/{game_id}/seats", json={"bot": bot, **extra})


async def finished(api: Running, game_id: str, timeout: float) -> dict[str, Any]:
    """The table once it is finished (fails after ``timeout`` seconds)."""
    deadline = time.monotonic() + timeout
    while True:
        r = await api.get(f"/api/v1/games/{game_id}")
        assert r.status_code == 200, r.text
        table: dict[str, Any] = r.json()
        if table["status"] == "finished" or time.monotonic() > deadline:
            return table
        await asyncio.sleep(0.05)


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_a_table_of_bots_plays_to_the_end_by_itself(quick: Running, game: str) -> None:
    game_id = await quick.create(3, game)
    for bot in ("greedy", "random", "random"):
        r = await seat_bot(quick, game_id, bot)
        assert r.status_code == 201, r.text
        assert r.json()["token"] is None  # nobody may act for a bot
    table = await finished(quick, game_id, 60)
    assert table["status"] == "finished", f"stuck at version {table['version']}: {table['awaiting']}"
    assert [s["bot"] for s in table["seats"]] == ["greedy", "random", "random"]
    assert [s["name"] for s in table["seats"]] == ["Greedy bot 1", "Random bot 2", "Random bot 3"]
    assert table["outcome"]["winners"]
    # The lobby index files a game under its new status just after the append that ended it lands.
    for _ in range(100):
        r = await quick.get("/api/v1/games", status="finished")
        entry = next((e for e in r.json()["games"] if e["game_id"] == game_id), None)
        if entry is not None:
            break
        await asyncio.sleep(0.02)
    assert entry is not None, "the finished game is not listed under finished"
    assert entry["bots"] == [0, 1, 2]
    for _ in range(100):  # out of the bots' queue
        if await quick.app.state.games.store.redis.zscore(DUE_KEY, game_id) is None:
            break
        await asyncio.sleep(0.02)
    else:
        raise AssertionError("a finished game stays in the bots' queue")
    metrics = (await quick.http.get("/metrics", headers={"Authorization": f"Bearer {ADMIN}"})).text
    assert f'ludoteca_bot_moves_total{{bot="greedy",game="{game}"}}' in metrics


async def test_a_person_plays_among_bots(quick: Running) -> None:
    game_id = await quick.create(3, "vilar-de-mouros")
    r = await quick.http.post(f"/api/v1/games/{game_id}/seats", json={"name": "Ana", "seat": 1})
    token = r.json()["token"]
    assert (await seat_bot(quick, game_id, "greedy", seat=0)).status_code == 201
    listed = await quick.get("/api/v1/games", status="open")
    assert next(e for e in listed.json()["games"] if e["game_id"] == game_id)["bots"] == [0]
    r = await seat_bot(quick, game_id, "random", name="Robo")
    assert r.status_code == 201 and r.json()["seat"] == 2
    moves = 0
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        table = (await quick.get(f"/api/v1/games/{game_id}", token)).json()
        if table["status"] == "finished":
            break
        legal = (await quick.get(f"/api/v1/games/{game_id}/legal-commands", token)).json()
        if legal["commands"]:
            command = legal["commands"][0]
            r = await quick.send(game_id, token, command, expected_version=legal["version"])
            assert r.status_code in (200, 409), r.text
            moves += r.status_code == 200
        else:
            await asyncio.sleep(0.02)
    assert table["status"] == "finished"
    assert moves > 3  # the person played their share...
    assert [s["bot"] for s in table["seats"]] == ["greedy", None, "random"]
    assert table["seats"][2]["name"] == "Robo"
    events = (await quick.get(f"/api/v1/games/{game_id}/events", token, limit=1000)).json()["events"]
    assert len(events) == table["version"]  # ...and the bots theirs, through the same stream


async def test_an_unknown_bot_is_refused_and_nothing_is_written(quick: Running) -> None:
    game_id = await quick.create(2)
    before = (await quick.get(f"/api/v1/games/{game_id}")).json()["version"]
    r = await seat_bot(quick, game_id, "clever")
    assert r.status_code == 422
    body = r.json()
    assert body["error"] == "no_such_bot"
    assert body["details"]["bots"] == ["beginner", "casual", "expert", "greedy", "random", "skilled", "strong"]
    table = (await quick.get(f"/api/v1/games/{game_id}")).json()
    assert table["version"] == before and table["seats"] == [None, None]
    assert await quick.app.state.games.store.redis.zscore(DUE_KEY, game_id) is None


async def test_a_level_the_bot_does_not_have_is_refused(quick: Running) -> None:
    game_id = await quick.create(2)
    cases: list[tuple[dict[str, Any], list[int]]] = [
        ({"bot": "strong", "level": 9}, [1, 2, 3, 4, 5]),
        ({"bot": "greedy", "level": 2}, []),
    ]
    for body, levels in cases:
        r = await seat_bot(quick, game_id, **body)
        assert r.status_code == 422 and r.json()["error"] == "no_such_level", r.text
        assert r.json()["details"]["levels"] == levels
    r = await quick.http.post(f"/api/v1/games/{game_id}/seats", json={"name": "Ana", "level": 2})
    assert r.status_code == 422 and r.json()["error"] == "no_such_level"
    assert (await quick.get(f"/api/v1/games/{game_id}")).json()["seats"] == [None, None]


async def test_a_named_level_takes_a_seat_beside_todays_bots(quick: Running) -> None:
    """{"bot": "casual"} seats the named level (greedy), named after it; today's names stay."""
    game_id = await quick.create(3, "vilar-de-mouros")
    for body in ({"bot": "casual"}, {"bot": "beginner"}, {"bot": "greedy"}):
        r = await seat_bot(quick, game_id, **body)
        assert r.status_code == 201, r.text
    table = await finished(quick, game_id, 60)
    assert [s["bot"] for s in table["seats"]] == ["casual", "beginner", "greedy"]
    assert [s["name"] for s in table["seats"]] == ["Casual bot 1", "Beginner bot 2", "Greedy bot 3"]
    r = await seat_bot(quick, await quick.create(2), "casual", level=2)
    assert r.status_code == 422 and r.json()["error"] == "no_such_level"  # a named level is one budget


@pytest.mark.timeout(120)
async def test_a_strong_bot_at_a_level_plays_a_game_through_the_pool(quick: Running) -> None:
    """The searching bot thinks in a process of the worker's pool, the event loop free meanwhile."""
    game_id = await quick.create(2, "vilar-de-mouros")
    assert (await seat_bot(quick, game_id, "strong", level=1)).status_code == 201
    assert (await seat_bot(quick, game_id, "greedy")).status_code == 201
    table = await finished(quick, game_id, 100)
    assert table["status"] == "finished", table["version"]
    assert [s["bot"] for s in table["seats"]] == ["strong:1", "greedy"]
    assert [s["name"] for s in table["seats"]] == ["Strong bot 1", "Greedy bot 2"]


async def test_a_seat_that_resigns_is_played_on_by_the_bot_the_table_chose(quick: Running) -> None:
    r = await quick.http.post("/api/v1/games", json={"game": "vilar-de-mouros", "players": 3, "takeover": "clever"})
    assert r.status_code == 422 and r.json()["details"]["field"] == "takeover", r.text
    r = await quick.http.post("/api/v1/games", json={"game": "vilar-de-mouros", "players": 3, "takeover": "random"})
    game_id = r.json()["game_id"]
    ana, _, _ = await quick.seat_all(game_id, 3)
    body = {"command": {"type": "Resign"}, "command_id": "leaving"}
    r = await quick.http.post(
        f"/api/v1/games/{game_id}/commands", json=body, headers={"Authorization": f"Bearer {ana}"}
    )
    assert r.status_code == 200, r.text
    table = (await quick.get(f"/api/v1/games/{game_id}")).json()
    assert table["seats"][0]["bot"] == "random" and table["resigned"] == [0]
    events = (await quick.get(f"/api/v1/games/{game_id}/events", limit=1)).json()["events"]
    assert events[0]["event"]["takeover"] == "random"
    other = await quick.create(2)  # the default: greedy
    assert (await quick.get(f"/api/v1/games/{other}/events", limit=1)).json()["events"][0]["event"][
        "takeover"
    ] == "greedy"


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_client_cannot_replay_a_bots_choice_from_public_values(game_id: str) -> None:
    """The worker's bots draw from the operating system: asked the same thing again, with every
    public value the same (game id, version, seat, the state itself), a bot answers otherwise,
    and the old seed made of those values no longer foretells its move."""
    game = GAMES[game_id]
    for steps in range(0, 200, 7):
        table = list(tables(game, play(game, 2, 5, steps)))[-1]
        few = [game.few_commands(table.state, s, 50) if table.state is not None else [] for s in range(2)]
        seats = [s for s in range(2) if few[s] is None or len(few[s] or []) > 3]  # None: more than 50
        if seats:
            break
    else:
        pytest.fail("no state with several moves")
    seat = seats[0]
    foretold = ENCODE(random_bot(game, table.state, seat, random.Random(f"g1:{table.version}:{seat}")))
    answers = [ENCODE(think(game, table.state, seat, "random")) for _ in range(30)]
    assert len(set(answers)) > 1
    assert answers.count(foretold) < 30


async def test_a_bot_seat_survives_the_replica_that_played_it(redis: aioredis.Redis, redis_url: str) -> None:
    # Replica A plays slowly (a think delay), and is stopped mid-game; replica B, started
    # afterwards on the same Redis, finds the game in the queue and finishes it.
    srv_a, task_a, app_a, port_a = await start_server(settings(redis_url, delay_ms=30))
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port_a}", timeout=10) as http:
        a = Running(f"http://127.0.0.1:{port_a}", app_a, http)
        game_id = await a.create(2, "vilar-de-mouros")
        for bot in ("greedy", "random"):
            assert (await seat_bot(a, game_id, bot)).status_code == 201
        start = (await a.get(f"/api/v1/games/{game_id}")).json()["version"]
        while (await a.get(f"/api/v1/games/{game_id}")).json()["version"] < start + 5:
            await asyncio.sleep(0.02)
    await stop_server(srv_a, task_a)
    stopped_at = int(await redis.xlen(f"lt:{{{game_id}}}:events"))
    await asyncio.sleep(0.2)
    assert int(await redis.xlen(f"lt:{{{game_id}}}:events")) == stopped_at  # nobody plays while A is gone
    srv_b, task_b, app_b, port_b = await start_server(settings(redis_url))
    try:
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port_b}", timeout=10) as http:
            b = Running(f"http://127.0.0.1:{port_b}", app_b, http)
            table = await finished(b, game_id, 60)
            assert table["status"] == "finished"
            assert table["version"] > stopped_at
    finally:
        await stop_server(srv_b, task_b)


async def test_two_replicas_share_the_bots_and_one_finishes_when_the_other_stops(
    redis: aioredis.Redis, redis_url: str
) -> None:
    servers = [await start_server(settings(redis_url, delay_ms=20)) for _ in range(2)]
    try:
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{servers[0][3]}", timeout=10) as http:
            a = Running(f"http://127.0.0.1:{servers[0][3]}", servers[0][2], http)
            game_id = await a.create(3, "vilar-de-mouros")
            for bot in ("greedy", "random", "greedy"):
                assert (await seat_bot(a, game_id, bot)).status_code == 201
            start = (await a.get(f"/api/v1/games/{game_id}")).json()["version"]
            while (await a.get(f"/api/v1/games/{game_id}")).json()["version"] < start + 5:
                await asyncio.sleep(0.02)
        srv, task, _, _ = servers.pop(0)
        await stop_server(srv, task)
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{servers[0][3]}", timeout=10) as http:
            b = Running(f"http://127.0.0.1:{servers[0][3]}", servers[0][2], http)
            table = await finished(b, game_id, 60)
            assert table["status"] == "finished", (table["version"], table["awaiting"], table["view"])
            # every version once: both replicas played, but each bot move landed once
            events = (await b.get(f"/api/v1/games/{game_id}/events", limit=1000)).json()["events"]
            assert [e["version"] for e in events] == list(range(1, table["version"] + 1))
    finally:
        for srv, task, _, _ in servers:
            await stop_server(srv, task)


def test_the_duel_command_prints_greedys_win_share(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["duel", "--games", "4", "--game", "miss-liz-parks"]) == 0
    out = capsys.readouterr().out
    [row] = [line.split() for line in out.splitlines() if line.startswith("miss-liz-parks")]
    greedy, ties, random_, share = row[1:]
    assert int(greedy) + int(ties) + int(random_) == 4 and share.endswith("%")
    assert main(["duel", "--game", "chess"]) == 2


def test_the_duel_counts_what_happened_and_pairs_deals(capsys: pytest.CaptureFixture[str]) -> None:
    """--count: how long the games ran and event types a seat (A/B a ratio); --paired: each deal
    played from both seats."""
    args = ["duel", "greedy", "random", "--games", "2", "--game", "vilar-de-mouros", "--paired"]
    assert main([*args, "--count", "DeckShuffled,CardsDealt/DeckShuffled"]) == 0
    out = capsys.readouterr().out
    assert "each deal from every seat" in out and "commands a game: median" in out
    assert "DeckShuffled: median" in out and "CardsDealt/DeckShuffled:" in out


def test_a_long_duel_says_how_far_it_has_come_on_stderr(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(duel, "PROGRESS_S", 0.0)  # a tally after every game
    assert main(["duel", "--games", "3", "--game", "miss-liz-parks"]) == 0
    said = capsys.readouterr()
    progress = [line for line in said.err.splitlines() if line.startswith("ludoteca duel: miss-liz-parks")]
    assert [line.split(": ")[2].split(" games")[0] for line in progress] == ["1 of 3", "2 of 3"]
    assert all("the first bot's share" in line for line in progress)
    assert "ludoteca duel" not in said.out  # the table stays as it was


def test_the_ladder_rates_a_rung_by_its_share_on_elos_curve() -> None:
    from server.duel import elo

    assert elo(0.5) == pytest.approx(0) and elo(10 / 11) == pytest.approx(400, abs=1)
    assert elo(1.0) == pytest.approx(elo(0.99))  # kept finite


def test_the_ladder_also_rates_the_levels_as_players_are_rated(capsys: pytest.CaptureFixture[str]) -> None:
    """The ladder's games rate the levels on the players' leaderboard's scale too (OpenSkill's
    Plackett-Luce, mu - 3 sigma: server/service/ratings.py), so a player can read a level against
    their own rating: the beginner, which beats the random bot, above it."""
    from server.duel import players_ratings
    from server.service.ratings import START, ordinal, rerate

    args = ["duel", "--ladder", "--games", "4", "--game", "vilar-de-mouros", "--up-to", "beginner"]
    assert main(args) == 0
    out = capsys.readouterr().out
    [line] = [line for line in out.splitlines() if "as players are rated" in line]
    rated = dict(part.split(" ")[:2] for part in line.split(": ", 1)[1].split("; "))
    assert set(rated) == {"random", "beginner"} and float(rated["beginner"]) > float(rated["random"])
    won = [duel.duel_game("vilar-de-mouros", "beginner", "random", 2, i, 0, paired=True) for i in range(2)]
    for seat, game in won:  # the beginner won each, from each seat in turn
        assert game.outcome is not None and game.outcome.winners == [seat]
    assert [seat for seat, _ in won] == [0, 1]
    ratings = players_ratings([("beginner", "random", won)])
    expected = rerate([("beginner", 1), ("random", 2)], {})
    expected = rerate([("beginner", 1), ("random", 2)], expected)  # as the leaderboard rates two tables
    assert ratings == expected and ordinal(ratings["beginner"]) > ordinal(START) > ordinal(ratings["random"])


async def test_a_paced_bot_answers_no_sooner_than_the_least_time_and_none_overruns(redis_url: str) -> None:
    """The worker hands every bot answer over through the pace (server/workers/pace.py): a table of
    bots paced at 0.25 s a decision moves no faster than that, and no answer overran its time."""
    paced = Settings(
        redis_url=redis_url, admin_token=ADMIN, bot_delay_ms=0, bot_pace_ms=250, bot_pace_spread_ms=0, **NO_QUOTAS
    )
    async with running(paced) as api:
        game_id = await api.create(2, "vilar-de-mouros")
        for bot in ("greedy", "random"):
            assert (await seat_bot(api, game_id, bot)).status_code == 201
        started = time.monotonic()
        await asyncio.sleep(2.0)
        elapsed = time.monotonic() - started
        metrics = (await api.http.get("/metrics", headers={"Authorization": f"Bearer {ADMIN}"})).text
    series = [line for line in metrics.splitlines() if line.startswith("ludoteca_bot_moves_total{")]
    played = sum(float(line.split()[-1]) for line in series)
    assert 1 <= played <= elapsed / 0.25 + 1, (played, elapsed)
    assert "ludoteca_bot_pace_overruns_total{" not in metrics
