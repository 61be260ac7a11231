"""Concurrency across replicas: racing commands and retried ones.

Three ``ludoteca serve`` processes share one Redis. Clients holding the awaited seat's
token send commands with the same ``expected_version`` through different replicas at
once: exactly one lands each round, the others get 409, and every game's versions run
1..N with no gap or duplicate. Commands sent three times at once under one command id,
through three replicas, land once and every copy is answered with the original result.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest

from tests.reliability.harness import Api, check_stream, figure, own_redis, redis_client, replicas
from tests.reliability.sizes import SIZE, limit


@pytest.fixture(scope="module")
def cluster() -> Iterator[tuple[list[str], str]]:
    with own_redis("everysec") as redis, replicas(redis.url, SIZE.replicas) as serves:
        yield [s.url for s in serves], redis.url


@pytest.fixture
async def api(cluster: tuple[list[str], str]) -> AsyncIterator[Api]:
    async with Api(cluster[0]) as api:
        yield api


async def new_game(api: Api, games: dict[str, int]) -> tuple[str, list[str]]:
    game_id, tokens = await api.started(2)
    games[game_id] = (await api.table(game_id))["version"]  # the table's own events end here
    return game_id, tokens


@pytest.mark.timeout(limit(120))
async def test_racing_commands_with_one_expected_version_land_exactly_once_per_round(
    api: Api, cluster: tuple[list[str], str]
) -> None:
    rng = random.Random(1)
    games: dict[str, int] = {}
    outcomes: dict[int, int] = {}
    rounds_per_game = SIZE.race_rounds // SIZE.race_games

    async def play(slot: int) -> int:
        game_id, tokens = await new_game(api, games)
        landed = 0
        for _ in range(rounds_per_game):
            version, seat, commands = await api.awaited(game_id, tokens)
            if seat < 0:
                game_id, tokens = await new_game(api, games)
                version, seat, commands = await api.awaited(game_id, tokens)
            answers = await asyncio.gather(
                *(
                    api.send(
                        game_id,
                        tokens[seat],
                        rng.choice(commands),
                        f"race-{slot}-{version}-{client}",
                        i=client,
                        expected_version=version,
                    )
                    for client in range(SIZE.race_clients)
                )
            )
            statuses = sorted(r.status_code for r in answers)
            assert statuses == [200] + [409] * (SIZE.race_clients - 1), [r.text for r in answers]
            assert all(r.json()["error"] == "version_conflict" for r in answers if r.status_code == 409), [
                r.text for r in answers
            ]
            winner = next(r for r in answers if r.status_code == 200).json()
            assert winner["version"] > version
            outcomes[200] = outcomes.get(200, 0) + 1
            outcomes[409] = outcomes.get(409, 0) + SIZE.race_clients - 1
            landed += 1
        return landed

    rounds = sum(await asyncio.gather(*(play(slot) for slot in range(SIZE.race_games))))
    redis = redis_client(cluster[1])
    try:
        landed = 0
        for game_id, setup in games.items():
            records = await check_stream(redis, game_id, setup)
            assert all(cid.startswith("race-") for cid in records)
            landed += len(records)
    finally:
        await redis.aclose()
    assert landed == rounds
    figure(
        "concurrency: racing rounds",
        f"{rounds} rounds x {SIZE.race_clients} clients over {SIZE.replicas} replicas, {len(games)} games: "
        f"{outcomes[200]} landed (1 per round), {outcomes[409]} x 409, 0 gaps or duplicates",
    )


@pytest.mark.timeout(limit(180))
async def test_a_command_sent_three_times_under_one_id_lands_once_and_every_copy_gets_the_first_answer(
    api: Api, cluster: tuple[list[str], str]
) -> None:
    rng = random.Random(2)
    games: dict[str, int] = {}
    sent: dict[str, tuple[str, str, Any, dict[str, Any]]] = {}  # command id -> game, token, command, answer
    per_game = -(-SIZE.retried_commands // SIZE.race_games)
    budget = iter(range(SIZE.retried_commands))

    async def play(slot: int) -> None:
        game_id, tokens = await new_game(api, games)
        for n in range(per_game):
            if next(budget, None) is None:
                return
            version, seat, commands = await api.awaited(game_id, tokens)
            if seat < 0:
                game_id, tokens = await new_game(api, games)
                version, seat, commands = await api.awaited(game_id, tokens)
            command, command_id = rng.choice(commands), f"retry-{slot}-{n}"
            extra = [{"expected_version": version}, {}, {"expected_version": version}]
            answers = await asyncio.gather(
                *(api.send(game_id, tokens[seat], command, command_id, i=i, **extra[i]) for i in range(3))
            )
            assert [r.status_code for r in answers] == [200, 200, 200], [r.text for r in answers]
            bodies = [r.json() for r in answers]
            assert bodies[0] == bodies[1] == bodies[2]
            sent[command_id] = (game_id, tokens[seat], command, bodies[0])

    await asyncio.gather(*(play(slot) for slot in range(SIZE.race_games)))
    # Later retries, once the games moved on, still get the first answer.
    late = rng.sample(sorted(sent), min(len(sent), 50))
    for command_id in late:
        game_id, token, command, first = sent[command_id]
        r = await api.send(game_id, token, command, command_id, expected_version=0)
        assert r.status_code == 200 and r.json() == first, r.text
    redis = redis_client(cluster[1])
    try:
        records: dict[str, Any] = {}
        for game_id, setup in games.items():
            records |= await check_stream(redis, game_id, setup)
    finally:
        await redis.aclose()
    assert set(records) == set(sent)
    for command_id, (_, _, _, answer) in sent.items():
        assert records[command_id].last == answer["version"]
        assert [e["version"] for e in answer["events"]] == list(
            range(records[command_id].first, records[command_id].last + 1)
        )
    figure(
        "concurrency: retried commands",
        f"{len(sent)} commands x 3 copies at once over {SIZE.replicas} replicas (+{len(late)} late retries): "
        f"{len(records)} sets of events, every copy answered the first answer",
    )
