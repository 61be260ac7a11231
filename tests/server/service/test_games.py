"""The command handler over a real Redis: a cached game's command in one round trip, and
what happens when the cache is behind or the command was sent before."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import msgspec
import pytest

from domain.catalog import GAMES
from server.runtime.metrics import Metrics
from server.service.codec import encode
from server.service.games import Games
from server.service.lobby import Lobby
from server.service.quotas import Quotas
from server.service.rates import SeatRates
from server.service.senders import Holder
from server.service.tables import Tables
from server.storage.botqueue import BotQueue
from server.storage.connection import Client
from server.storage.index import LobbyIndex
from server.storage.keys import EVENTS
from server.storage.players import PlayerRegistry
from server.storage.quotas import HourlyCounts
from server.storage.schedule import Schedule
from server.storage.store import EventStore

KIND = "vilar-de-mouros"  # keeps no time: its commands may be decided on the cached table


def replica(store: EventStore, tables: Tables | None = None) -> Games:
    """A replica's game service over ``store`` (its own table cache unless given one)."""
    tables = tables or Tables(store, GAMES, 1000)
    redis = store.redis
    return Games(store, tables, LobbyIndex(redis), Schedule(redis), SeatRates(20, 40), Metrics(), PlayerRegistry(redis))


def lobby_over(games: Games, index: LobbyIndex | None = None) -> Lobby:
    """A replica's lobby over ``games``, with no quotas."""
    redis = games.store.redis
    quotas = Quotas(HourlyCounts(redis), 0, 0)
    return Lobby(games, index or LobbyIndex(redis), quotas, BotQueue(redis), PlayerRegistry(redis))


async def started(games: Games, players: int = 2) -> tuple[str, list[str]]:
    lobby = lobby_over(games)
    game_id = (await lobby.create(KIND, players, {})).game_id
    tokens = []
    for _ in range(players):
        token = (await lobby.join(game_id, None, "", None)).token
        assert token is not None
        tokens.append(token)
    return game_id, tokens


async def a_legal_command(games: Games, game_id: str, tokens: list[str]) -> tuple[str, bytes]:
    """The awaited seat's token and its first legal command, encoded."""
    game, table = await games.load(game_id)
    seat = game.awaited(table.state)[0].seat
    return tokens[seat], encode(game.commands(table.state, seat)[0])


async def calls(redis: Client) -> dict[str, int]:
    """Redis commands run so far, by name."""
    stats: dict[str, Any] = await redis.info("commandstats")
    return {name.removeprefix("cmdstat_"): int(value["calls"]) for name, value in stats.items()}


async def test_a_command_on_a_game_this_replica_caches_takes_one_round_trip(store: EventStore) -> None:
    games = replica(store)
    game_id, tokens = await started(games)
    token, command = await a_legal_command(games, game_id, tokens)
    await games.seated(game_id, token)  # the token's seat is now known here
    assert games.tables.held(game_id) is not None
    before = await calls(store.redis)
    answer = await games.handle(game_id, Holder(token), command, "one-trip", None)
    after = await calls(store.redis)
    ran = {name: after[name] - before.get(name, 0) for name in after if after[name] != before.get(name, 0)}
    # Redis counts the commands a script runs too: one script ran (the append: its XADDs, and
    # the TIME it stamps the game with), and nothing read the stream or the clock first (the
    # look script's XRANGE, TIME).
    assert ran["evalsha"] == 1 and ran["xadd"] >= 1, ran
    assert "xrange" not in ran and ran["time"] == 1, ran
    assert answer.version == (await games.load(game_id))[1].version


async def test_a_command_retried_on_a_cached_game_gets_its_first_answer(store: EventStore) -> None:
    games = replica(store)
    game_id, tokens = await started(games)
    token, command = await a_legal_command(games, game_id, tokens)
    first = await games.handle(game_id, Holder(token), command, "sent-twice", None)
    cached = games.tables.held(game_id)
    assert cached is not None and cached.table.version == first.version
    # Decided again on the table it already changed, the command may now be refused: the
    # record of its id answers instead, as it would on any replica.
    again = await games.handle(game_id, Holder(token), command, "sent-twice", None)
    assert msgspec.to_builtins(again) == msgspec.to_builtins(first)


async def test_a_command_on_a_cache_that_is_behind_is_decided_again_on_the_stream(store: EventStore) -> None:
    here, there = replica(store), replica(store)  # two replicas
    game_id, tokens = await started(here)
    for token in tokens:  # this replica knows every seat
        await here.seated(game_id, token)
    behind = here.tables.cache[game_id].table
    # Another replica moves the game on; this one still caches the old table.
    token, command = await a_legal_command(there, game_id, tokens)
    moved = await there.handle(game_id, Holder(token), command, "elsewhere", None)
    token, command = await a_legal_command(there, game_id, tokens)
    cached = here.tables.held(game_id)
    assert cached is not None and cached.table is behind
    answer = await here.handle(game_id, Holder(token), command, "here", None)
    assert answer.events[0].version == moved.version + 1  # after the other replica's events
    assert answer.version == (await there.load(game_id))[1].version


async def test_a_read_overlapping_a_newer_cached_table_is_not_taken_for_lost_writes(
    store: EventStore, caplog: pytest.LogCaptureFixture
) -> None:
    here, there = replica(store), replica(store)
    game_id, tokens = await started(here)
    token, command = await a_legal_command(there, game_id, tokens)
    await there.handle(game_id, Holder(token), command, "elsewhere", None)
    newer = there.tables.cache[game_id]
    with caplog.at_level(logging.WARNING, logger="ludoteca.games"):
        reading = asyncio.create_task(here.tables.look(game_id))
        await asyncio.sleep(0)  # the read is on its way with the older cached table
        # Meanwhile another request of this replica caches the newer table.
        here.tables.remember(game_id, newer.table, newer.head)
        table = (await reading).table
    assert table.version == newer.table.version
    assert here.tables.cache[game_id].table.version == newer.table.version
    assert "lost versions" not in caplog.text


async def test_rebuilding_the_lobby_index_skips_a_stream_no_game_of_this_server_can_load(
    store: EventStore, caplog: pytest.LogCaptureFixture
) -> None:
    """A stream under an id this server would never make (another program's, a game it no
    longer hosts) is passed over with a warning, not a start-up that fails."""
    games = replica(store)
    game_id, _ = await started(games)
    await store.redis.xadd(EVENTS.at(game_id="bench bare 1"), {"e": "x"})
    index = LobbyIndex(store.redis)
    lobby = lobby_over(replica(store), index)
    assert await lobby.rebuild_index() == 1
    listed = [game for status in ("open", "active", "finished") for game in (await index.list_games(status, 10))[0]]
    assert listed == [game_id]
    assert "bench bare 1" in caplog.text
