"""Turn clocks for every game (domain/clock.py): the time is the shared clock's, carried
by the facts; a clock that runs out applies the table's policy."""

from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest

from domain.catalog import GAMES
from domain.clock import Clock, Clocks, due_ms, tick, window
from domain.engine import CLOCK, AnyGame, Ctx, Rejected
from domain.table import (
    ClockTicked,
    SeatResigned,
    Table,
    TimeRanOut,
    TimeUp,
    deadlines,
    decide,
    evolve,
    open_table,
    status,
    take_seat,
)

EVERY_GAME = pytest.mark.parametrize("kind", sorted(GAMES))


def started(game: AnyGame, players: int, turn_clock: Clock, at_ms: int = 1_000) -> Table:
    table = evolve(game, None, open_table(game, players, {}, turn_clock))
    for _ in range(players):
        for event in take_seat(game, table, None, "", None, Ctx(rng=random.Random(1), now_ms=at_ms)):
            table = evolve(game, table, event)
    return table


def apply(game: AnyGame, table: Table, events: list[Any]) -> Table:
    for event in events:
        table = evolve(game, table, event)
    return table


def awaited_seat(game: AnyGame, table: Table) -> int:
    return next(s for s in range(table.players) if not game.step(table.state, s).empty)


def test_a_clock_runs_while_its_seat_is_awaited_and_is_charged_when_it_acts() -> None:
    clocks = tick(Clocks((None, None), (0, 0)), {0}, None, 1_000)
    assert clocks == Clocks((1_000, None), (0, 0))
    clocks = tick(clocks, {1}, 0, 4_000)  # seat 0 moved after 3 s; seat 1's turn
    assert clocks == Clocks((None, 4_000), (3_000, 0))
    clocks = tick(clocks, {1}, 1, 6_000)  # seat 1 acts and goes on: charged, and running again
    assert clocks == Clocks((None, 6_000), (3_000, 2_000))
    per_game = Clock(per="game", seconds=10)
    assert due_ms(per_game, clocks, 1) == 6_000 + 8_000
    assert due_ms(Clock(per="move", seconds=10), clocks, 1) == 16_000
    assert due_ms(per_game, clocks, 0) is None
    assert window(clocks, 1) == "clock:1:6000"


@EVERY_GAME
def test_the_clock_starts_with_the_game_and_every_step_ticks_it(kind: str) -> None:
    game = GAMES[kind]
    table = started(game, 2, Clock(per="game", seconds=60))
    seat = awaited_seat(game, table)
    assert table.clocks is not None and table.clocks.since[seat] == 1_000
    [found] = [d for d in deadlines(game, table) if d.window.startswith("clock:")]
    assert found.due_ms == 61_000 and found.command == TimeUp(window=f"clock:{seat}:1000")
    command = next(game.walk(table.state, seat))  # the first command (listing them all can explode)
    events = decide(game, table, command, seat, Ctx(rng=random.Random(2), now_ms=5_000))
    assert events[-1] == ClockTicked(at_ms=5_000, seat=seat)
    table = apply(game, table, events)
    assert table.clocks is not None and table.clocks.spent[seat] == 4_000


@EVERY_GAME
def test_when_time_runs_out_the_default_move_is_played(kind: str) -> None:
    game = GAMES[kind]
    table = started(game, 2, Clock(per="move", seconds=30, on_timeout="bot_move"))
    seat = awaited_seat(game, table)
    [deadline] = [d for d in deadlines(game, table) if d.window.startswith("clock:")]
    move = next(game.walk(table.state, seat))
    early = TimeUp(window=deadline.window, move=msgspec.to_builtins(move))
    with pytest.raises(Rejected) as not_yet:
        decide(game, table, early, CLOCK, Ctx(rng=random.Random(3), now_ms=deadline.due_ms - 1))
    assert not_yet.value.code == "not_yet"
    events = decide(game, table, early, CLOCK, Ctx(rng=random.Random(3), now_ms=deadline.due_ms))
    assert events[0] == TimeRanOut(seat=seat)
    assert events[-1] == ClockTicked(at_ms=deadline.due_ms, seat=seat)
    after = apply(game, table, events)
    assert after.version == table.version + len(events)
    with pytest.raises(Rejected) as twice:  # the same window fired again: it closed with the move
        decide(game, after, early, CLOCK, Ctx(rng=random.Random(3), now_ms=deadline.due_ms + 1))
    assert twice.value.code in ("window_closed", "not_yet")


@EVERY_GAME
def test_when_time_runs_out_under_time_out_the_seat_leaves_and_a_bot_plays_it(kind: str) -> None:
    game = GAMES[kind]
    table = started(game, 3, Clock(seconds=30, on_timeout="time_out"))
    seat = awaited_seat(game, table)
    [deadline] = [d for d in deadlines(game, table) if d.window.startswith("clock:")]
    events = decide(game, table, deadline.command, CLOCK, Ctx(rng=random.Random(4), now_ms=deadline.due_ms))
    assert events[:2] == [TimeRanOut(seat=seat), SeatResigned(seat=seat, reason="timed_out", bot="greedy")]
    after = apply(game, table, events)
    assert after.resigned == (seat,) and status(game, after) == "active"


def test_only_the_clock_says_time_is_up() -> None:
    game = GAMES["vilar-de-mouros"]
    table = started(game, 2, Clock(seconds=30))
    [deadline] = deadlines(game, table)
    with pytest.raises(Rejected) as refused:
        decide(game, table, deadline.command, 0, Ctx(rng=random.Random(), now_ms=10**9))
    assert refused.value.code == "not_the_clock"


def test_a_table_without_a_clock_writes_no_ticks() -> None:
    game = GAMES["miss-liz-parks"]
    table = evolve(game, None, open_table(game, 2, {}))
    for _ in range(2):
        for event in take_seat(game, table, None, "", None, Ctx(rng=random.Random(1))):
            assert not isinstance(event, ClockTicked)
            table = evolve(game, table, event)
    assert deadlines(game, table) == []


def test_a_clock_must_give_a_sensible_time() -> None:
    with pytest.raises(Rejected) as refused:
        open_table(GAMES["itchy-feet"], 2, {}, Clock(seconds=0))
    assert refused.value.code == "bad_clock"
