"""Games played in process by random legal commands: the rules alone, building moves, and the streams the
bench stores.

A stream longer than one game can be: a game's log can hold any number of played
games back to back, because ``domain.table.evolve`` starts a fresh game state when a
``SeatTaken`` fills the table. So a long stream is the opening of a table, then for
each game played: the last ``SeatTaken`` with the game's setup facts, then the facts
of its commands, each one decided by the rules on the state it applies to. Every
event is real; the game is one long table where play started again many times.
"""

from __future__ import annotations

import random
import secrets
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import msgspec

from domain.engine import CLOCK, AnyGame, Ctx, Pick
from domain.table import Table, chance, decision, fold, open_table, status, take_seat
from domain.table import decide as decide_at_table
from projections.lobby import lobby_entry, meta_fields
from projections.views import LISTED
from server.service.codec import encode
from server.service.games import GAME_ID_BYTES
from server.service.tokens import new_token, token_hash
from server.storage.index import LobbyIndex
from server.storage.store import Appended, EventStore


def seat_counts(game: AnyGame) -> Iterator[int]:
    """Every table size the game allows, round and round."""
    while True:
        yield from range(game.min_players, game.max_players + 1)


def choose(game: AnyGame, table: Table, rng: random.Random) -> tuple[int, Any, int] | None:
    """A random legal command: ``(seat, command, now_ms)``; a due deadline when nobody may act; None when over."""
    if status(game, table) != "active":
        return None
    state = table.state
    seats = list(dict.fromkeys(a.seat for a in game.awaited(state)))
    rng.shuffle(seats)
    for seat in seats:
        command = game.random_command(state, seat, rng)
        if command is not None:
            return seat, command, 0
    deadlines = game.deadlines(state)
    if deadlines:
        first = min(deadlines, key=lambda d: d.due_ms)
        return CLOCK, first.command, first.due_ms
    return None


def opening(game: AnyGame, players: int, rng: random.Random) -> tuple[list[Any], list[Any]]:
    """A full table: the events up to the last seat, and the last seat's batch (its SeatTaken and the setup)."""
    events: list[Any] = [open_table(game, players, {})]
    table = fold(game, None, events)
    for _ in range(players - 1):
        assert table is not None
        batch = take_seat(game, table, None, "", None, Ctx(rng=rng))
        table = fold(game, table, batch)
        events += batch
    assert table is not None
    return events, take_seat(game, table, None, "", None, Ctx(rng=rng))


def play(game: AnyGame, table: Table, rng: random.Random, limit: int = 100_000) -> list[list[Any]]:
    """The batches of events of random legal commands from ``table`` to the end (or ``limit`` commands).

    A random game that does not end by itself (Itchy Feet's, mostly) is cut at a quarter of the
    most events a game may have: played on, it would end there as abandoned (``too_long``), and
    the streams the bench stacks from several games would end with it."""
    batches = []
    most = table.version + game.most_events // 4
    for _ in range(limit):
        if table.version >= most:
            break
        chosen = choose(game, table, rng)
        if chosen is None:
            break
        seat, command, now_ms = chosen
        batch = decide_at_table(game, table, command, seat, Ctx(rng=chance(table) or rng, now_ms=now_ms))
        folded = fold(game, table, batch)
        assert folded is not None
        table = folded
        batches.append(batch)
    return batches


def midplay(game: AnyGame, players: int, rng: random.Random, commands: int) -> list[Any]:
    """A table as the server stores one: opened with a seed and each seat's entropy (fair play, as
    the lobby opens every table), then up to ``commands`` random commands, decided with the
    table's own chance."""
    events, table = seated(game, players, rng)
    return events + [e for batch in play(game, table, rng, commands) for e in batch]


def seated(game: AnyGame, players: int, rng: random.Random) -> tuple[list[Any], Table]:
    """A new table opened with a seed, every seat taken with its entropy: its events and the table."""
    events: list[Any] = [open_table(game, players, {}, seed=rng.randbytes(32).hex())]
    table = fold(game, None, events)
    for _ in range(players):
        assert table is not None
        entropy = rng.randbytes(8).hex()
        batch = take_seat(game, table, None, "", None, Ctx(rng=chance(table, entropy) or rng), entropy=entropy)
        table = fold(game, table, batch)
        events += batch
    assert table is not None
    return events, table


def stream(game: AnyGame, players: int, rng: random.Random, at_least: int, tail: int | None) -> list[Any]:
    """A table's events: games played back to back until ``at_least`` events, the last one cut there.

    ``tail`` None: stop as soon as there are ``at_least`` events. ``tail`` n: then one more
    game's setup and n of its commands, so the stream ends mid-play. A game is played only
    for as many commands as the stream still needs (a command adds at least one event):
    random play may never end a game (Itchy Feet's often runs past 100,000 commands), and a
    game cut short folds like any other, since the next ``SeatTaken`` that fills the table
    starts a fresh game.
    """
    events, _ = opening(game, players, rng)
    while len(events) < at_least or tail is not None:
        head, last_seat = opening(game, players, rng)
        table = fold(game, None, [*head, *last_seat])
        assert table is not None
        if tail is not None and len(events) >= at_least:
            return events + last_seat + [e for b in play(game, table, rng, tail) for e in b]
        events += last_seat
        for batch in play(game, table, rng, max(1, at_least - len(events))):
            if len(events) >= at_least:
                break
            events += batch
    return events


def rules_steps(game: AnyGame, seconds: float, rng: random.Random) -> tuple[int, float]:
    """Random legal steps (awaited, a random move by picks, decide, evolve) for ``seconds``: (steps, time)."""
    steps, spent = 0, 0.0
    sizes = seat_counts(game)
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        head, last_seat = opening(game, next(sizes), rng)
        table = fold(game, None, [*head, *last_seat])
        assert table is not None
        state = table.state
        start = time.perf_counter()
        for _ in range(100_000):
            if time.perf_counter() >= deadline:  # a random game may never end (Itchy Feet's often does not)
                break
            seats = list(dict.fromkeys(a.seat for a in game.awaited(state)))
            rng.shuffle(seats)
            choice = next(((s, c) for s in seats if (c := game.random_command(state, s, rng)) is not None), None)
            if choice is None:
                break
            seat, command = choice
            for event in game.decide(state, command, seat, Ctx(rng=rng)):
                state = game.evolve(state, event)
            steps += 1
        spent += time.perf_counter() - start
    return steps, spent


@dataclass
class StepCosts:
    """Seconds spent by each call, in process: first steps, deeper steps, decides and listings."""

    first: list[float] = field(default_factory=list)
    deeper: list[float] = field(default_factory=list)
    decide: list[float] = field(default_factory=list)
    listing: list[float] = field(default_factory=list)  # the commands legal-commands lists whole
    walks: int = 0


def step_costs(game: AnyGame, seconds: float, rng: random.Random) -> StepCosts:
    """What building a move costs, for ``seconds`` of random games: at each state, an awaited
    seat's first step (``moves`` with no picks, what every update to it carries), each deeper
    step of a random walk of picks down to a complete command (what POST /moves computes last),
    and, beside them, the decide of the command built, on the same state (which then plays on),
    and what GET legal-commands adds to the first step: the commands of every move with at most
    ``LISTED`` of them, walked whole."""
    costs = StepCosts()
    clock = time.perf_counter
    sizes = seat_counts(game)
    deadline = clock() + seconds
    while clock() < deadline:
        head, last_seat = opening(game, next(sizes), rng)
        table = fold(game, None, [*head, *last_seat])
        assert table is not None
        state = table.state
        for _ in range(100_000):
            seats = list(dict.fromkeys(a.seat for a in game.awaited(state)))
            if not seats or clock() >= deadline:
                break
            seat = rng.choice(seats)
            start = clock()
            step = game.moves(state, seat, ())
            costs.first.append(clock() - start)
            start = clock()
            for option in step.options:
                if option.command is None:
                    game.few_commands(state, seat, LISTED, (option.pick,))
            costs.listing.append(clock() - start)
            picks: tuple[Pick, ...] = ()
            command = None
            for _ in range(64):
                count = len(step.options) + (step.command is not None)
                if count == 0:
                    break
                choice = rng.randrange(count)
                if choice == len(step.options):
                    command = step.command
                    break
                option = step.options[choice]
                if option.command is not None:
                    command = option.command
                    break
                picks = (*picks, option.pick)
                start = clock()
                step = game.moves(state, seat, picks)
                costs.deeper.append(clock() - start)
            if command is None:
                break  # a seat awaited with no move: the game's own tests catch it
            costs.walks += 1
            start = clock()
            events = game.decide(state, command, seat, Ctx(rng=rng))
            costs.decide.append(clock() - start)
            for event in events:
                state = game.evolve(state, event)
    return costs


def sealing_costs(game: AnyGame, seconds: float, rng: random.Random) -> tuple[list[float], list[float]]:
    """What fair play adds to a step, for ``seconds`` of random games at tables with a seed: each
    step decided on the table (its events sealed: commitments, openings, whether it ends the
    table) and on the same table without its seed (nothing sealed), with the same chance. The
    seconds of each: (sealed, not sealed)."""
    sealed: list[float] = []
    bare: list[float] = []
    clock = time.perf_counter
    sizes = seat_counts(game)
    deadline = clock() + seconds
    while clock() < deadline:
        _, table = seated(game, next(sizes), rng)
        for _ in range(2_000):  # a random game may never end (Itchy Feet's often does not)
            chosen = choose(game, table, rng)
            if chosen is None or clock() >= deadline:
                break
            seat, command, now_ms = chosen
            unsealed = msgspec.structs.replace(table, seed=None)
            start = clock()
            decision(game, unsealed, command, seat, Ctx(rng=chance(table) or rng, now_ms=now_ms))
            bare.append(clock() - start)
            start = clock()
            table = decision(game, table, command, seat, Ctx(rng=chance(table) or rng, now_ms=now_ms)).after
            sealed.append(clock() - start)
    return sealed, bare


async def store_game(
    store: EventStore, index: LobbyIndex, game: AnyGame, events: list[Any], players: int, table: Table | None = None
) -> tuple[str, list[str]]:
    """Append ``events`` as a new game through the store (with seat tokens and lobby fields): its id and
    tokens. ``table``: the events folded, if the caller has it."""
    game_id = secrets.token_hex(GAME_ID_BYTES)
    tokens = [f"{game_id}.{new_token()}" for _ in range(players)]
    table = table or fold(game, None, events)
    assert table is not None
    entry = lobby_entry(game, game_id, table)
    sequence = await index.next_sequence()
    for start in range(0, len(events), 500):
        last = start + 500 >= len(events)
        result = await store.append(
            game_id,
            start,
            [encode(e) for e in events[start : start + 500]],
            schema=game.event_schema,
            meta={**meta_fields(entry), "sequence": sequence} if last else None,
            tokens={token_hash(t): seat for seat, t in enumerate(tokens)} if start == 0 else None,
        )
        assert isinstance(result, Appended), result
    await index.file(game_id, entry.status, sequence)
    return game_id, tokens
