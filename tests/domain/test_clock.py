"""Turn clocks for every game (domain/clock.py): the time is the shared clock's, carried
by the facts; a clock that runs out applies the table's policy."""

from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest

from domain.catalog import GAMES
from domain.clock import DAY, PRESETS, Clock, Clocks, bank_left, due_ms, preset, tick, window
from domain.engine import CLOCK, AnyGame, Ctx, Rejected
from domain.table import (
    ClockTicked,
    KeepWaiting,
    LetBotPlayOn,
    SeatResigned,
    Table,
    TimeExtended,
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


def test_a_clock_gives_up_to_thirty_days_and_a_bank_goes_with_a_clock_per_move() -> None:
    game = GAMES["itchy-feet"]
    open_table(game, 2, {}, Clock(seconds=30 * DAY))  # a month a move is fine
    refusals = {
        "clock.seconds": Clock(seconds=30 * DAY + 1),
        "clock.bank": Clock(per="game", seconds=600, bank=60),
        "clock.credit": Clock(seconds=60, bank=60, credit=61),
    }
    for field, bad in refusals.items():
        with pytest.raises(Rejected) as refused:
            open_table(game, 2, {}, bad)
        assert refused.value.code == "bad_clock" and refused.value.details["field"] == field


def test_presets_name_a_live_game_one_day_a_move_and_three_days_a_move() -> None:
    assert list(PRESETS) == ["live", "one-day", "three-days"]
    assert preset("one-day") == Clock(per="move", seconds=DAY, bank=2 * DAY, credit=DAY // 2, on_timeout="ask")
    assert preset("three-days").seconds == 3 * DAY and preset("live").on_timeout == "bot_move"
    with pytest.raises(Rejected) as refused:
        preset("one-week")
    assert refused.value.code == "bad_clock" and refused.value.details["presets"] == list(PRESETS)


def test_a_move_that_takes_longer_than_its_time_draws_on_the_bank() -> None:
    turn = Clock(seconds=10, bank=60, credit=5)
    clocks = tick(Clocks((None, None), (0, 0)), {0}, None, 0, turn)
    assert due_ms(turn, clocks, 0) == 10_000 + 60_000  # the move's time, then the whole bank
    clocks = tick(clocks, {1}, 0, 25_000, turn)  # 15 s over: drawn from the bank, then a credit of 5
    assert bank_left(turn, clocks, 0) == 60_000 - 15_000 + 5_000
    assert bank_left(turn, clocks, 1) == 60_000


def test_the_bank_grows_by_its_credit_after_each_move_never_above_its_start() -> None:
    turn = Clock(seconds=10, bank=20, credit=8)
    clocks = tick(Clocks((None,), (0,)), {0}, None, 0, turn)
    clocks = tick(clocks, {0}, 0, 24_000, turn)  # 14 s over the move's 10: 6 s left, then +8
    assert bank_left(turn, clocks, 0) == 14_000
    clocks = tick(clocks, {0}, 0, 26_000, turn)  # quick: +8, but never above the 20 it started with
    assert bank_left(turn, clocks, 0) == 20_000


def out_of_time(kind: str, players: int = 3) -> tuple[AnyGame, Table, int, int]:
    """A table that asks, with the awaited seat's time (and bank) run out: the game, the table
    after TimeUp, the late seat and the time it happened."""
    game = GAMES[kind]
    table = started(game, players, Clock(seconds=30, bank=60, credit=10, on_timeout="ask"))
    seat = awaited_seat(game, table)
    [deadline] = [d for d in deadlines(game, table) if d.window.startswith("clock:")]
    assert deadline.due_ms == 1_000 + 30_000 + 60_000
    events = decide(game, table, deadline.command, CLOCK, Ctx(rng=random.Random(5), now_ms=deadline.due_ms))
    assert events == [TimeRanOut(seat=seat), ClockTicked(at_ms=deadline.due_ms, seat=None)]
    return game, apply(game, table, events), seat, deadline.due_ms


@EVERY_GAME
def test_when_time_runs_out_at_a_table_that_asks_the_seat_stays_and_the_others_choose(kind: str) -> None:
    game, after, seat, _ = out_of_time(kind)
    assert after.out_of_time == (seat,) and after.resigned == ()  # never dropped silently
    assert after.clocks is not None and after.clocks.since[seat] is None  # its clock waits for the choice
    assert not [d for d in deadlines(game, after) if d.window.startswith(f"clock:{seat}:")]


@EVERY_GAME
def test_the_others_may_wait_for_a_seat_out_of_time_and_its_clock_runs_again_for_a_move(kind: str) -> None:
    game, after, seat, at = out_of_time(kind)
    other = (seat + 1) % 3
    events = decide(game, after, KeepWaiting(seat=seat), other, Ctx(rng=random.Random(6), now_ms=at + 500))
    assert events == [TimeExtended(seat=seat, by=other), ClockTicked(at_ms=at + 500, seat=other)]
    waited = apply(game, after, events)
    assert waited.out_of_time == () and waited.clocks is not None and waited.clocks.since[seat] == at + 500
    assert waited.clock is not None and due_ms(waited.clock, waited.clocks, seat) == at + 500 + 30_000  # bank spent


@EVERY_GAME
def test_the_others_may_let_the_bot_play_on_for_a_seat_out_of_time(kind: str) -> None:
    game, after, seat, at = out_of_time(kind)
    other = (seat + 2) % 3
    events = decide(game, after, LetBotPlayOn(seat=seat), other, Ctx(rng=random.Random(7), now_ms=at + 1))
    assert events[0] == SeatResigned(seat=seat, reason="timed_out", bot="greedy")
    played_on = apply(game, after, events)
    assert played_on.resigned == (seat,) and played_on.out_of_time == () and status(game, played_on) == "active"


def test_only_another_seat_still_in_the_game_chooses_for_a_seat_out_of_time() -> None:
    game, after, seat, at = out_of_time("vilar-de-mouros")
    ctx = Ctx(rng=random.Random(8), now_ms=at + 1)
    for command, chooser, code in [
        (KeepWaiting(seat=seat), seat, "not_yours_to_choose"),
        (LetBotPlayOn(seat=(seat + 1) % 3), seat, "not_out_of_time"),
    ]:
        with pytest.raises(Rejected) as refused:
            decide(game, after, command, chooser, ctx)
        assert refused.value.code == code


@EVERY_GAME
def test_a_seat_out_of_time_that_moves_before_the_others_choose_is_back_in_the_game(kind: str) -> None:
    game, after, seat, at = out_of_time(kind)
    command = next(game.walk(after.state, seat))
    back = apply(game, after, decide(game, after, command, seat, Ctx(rng=random.Random(9), now_ms=at + 2)))
    assert back.out_of_time == ()
    with pytest.raises(Rejected) as refused:
        decide(game, back, KeepWaiting(seat=seat), (seat + 1) % 3, Ctx(rng=random.Random(9), now_ms=at + 3))
    assert refused.value.code == "not_out_of_time"
