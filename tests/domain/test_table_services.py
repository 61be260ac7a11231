"""Leaving, calling off and rematching: table facts that work the same for every game."""

from __future__ import annotations

import dataclasses
import random

import msgspec
import pytest

from domain.catalog import GAMES
from domain.engine import AnyGame, Ctx, Rejected
from domain.table import (
    Abandoned,
    Resign,
    SeatInfo,
    SeatResigned,
    SeatTakenOver,
    Table,
    TableCancelled,
    Tenure,
    Undo,
    cancel,
    decide,
    default_name,
    event_union,
    evolve,
    fold,
    offer_seat,
    open_rematch,
    open_table,
    outcome,
    resign,
    status,
    take_over,
    take_seat,
)
from tests.support.games import play_to_end

EVERY_GAME = pytest.mark.parametrize("kind", sorted(GAMES))


def opened(game: AnyGame, players: int) -> Table:
    return evolve(game, None, open_table(game, players, {}))


def started(game: AnyGame, players: int, bots: tuple[int, ...] = ()) -> Table:
    table = opened(game, players)
    ctx = Ctx(rng=random.Random(1))
    for seat in range(players):
        table_ = fold(game, table, take_seat(game, table, seat, "", "random" if seat in bots else None, ctx))
        assert table_ is not None
        table = table_
    assert status(game, table) == "active"
    return table


def apply(game: AnyGame, table: Table, events: list[object]) -> Table:
    after = fold(game, table, events)
    assert after is not None
    return after


@EVERY_GAME
def test_a_seat_that_resigns_is_played_on_by_a_bot(kind: str) -> None:
    game = GAMES[kind]
    table = started(game, 3)
    events = resign(game, table, 1, bot="greedy")
    assert events == [SeatResigned(seat=1, reason="resigned", bot="greedy")]
    table = apply(game, table, events)
    assert status(game, table) == "active"
    assert table.resigned == (1,)
    assert table.seats[1] is not None and table.seats[1].bot == "greedy"


@EVERY_GAME
def test_the_game_ends_when_fewer_than_two_seats_remain(kind: str) -> None:
    game = GAMES[kind]
    table = started(game, 2)
    events = resign(game, table, 0, bot="greedy")
    assert events == [SeatResigned(seat=0, reason="resigned", bot=None)]  # nobody to play against: no bot
    table = apply(game, table, events)
    assert status(game, table) == "finished"
    assert outcome(game, table) == Abandoned(scores=[0, 0], places=[2, 1], winners=[1], reason="resigned")


@EVERY_GAME
def test_the_game_ends_when_no_person_remains(kind: str) -> None:
    game = GAMES[kind]
    table = started(game, 3, bots=(1, 2))
    table = apply(game, table, resign(game, table, 0, reason="dropped", bot="greedy"))
    assert status(game, table) == "finished"
    assert outcome(game, table) == Abandoned(scores=[0] * 3, places=[3, 1, 1], winners=[1, 2], reason="resigned")


def test_those_who_left_rank_behind_those_who_stayed_the_last_to_leave_first() -> None:
    game = GAMES["vilar-de-mouros"]
    table = started(game, 4)
    for seat in (2, 0, 3):
        table = apply(game, table, resign(game, table, seat, bot="random"))
    assert outcome(game, table) == Abandoned(scores=[0] * 4, places=[3, 1, 4, 2], winners=[1], reason="resigned")


def test_a_seat_resigns_once_and_only_from_a_game_under_way() -> None:
    game = GAMES["miss-liz-parks"]
    with pytest.raises(Rejected) as before:
        resign(game, opened(game, 3), 0)
    assert before.value.code == "game_not_active"
    table = started(game, 3)
    table = apply(game, table, resign(game, table, 2, bot="random"))
    with pytest.raises(Rejected) as twice:
        resign(game, table, 2)
    assert twice.value.code == "already_resigned"
    _, finished = play_to_end(game, 2, {}, seed=3)
    with pytest.raises(Rejected) as after:
        resign(game, finished, 0)
    assert after.value.code == "game_not_active"


def test_an_outcome_of_a_game_played_to_its_end_is_the_games_own() -> None:
    game = GAMES["vilar-de-mouros"]
    _, table = play_to_end(game, 3, {}, seed=2)
    assert outcome(game, table) == game.outcome(table.state)


@EVERY_GAME
def test_the_creator_calls_off_a_table_only_before_it_starts(kind: str) -> None:
    game = GAMES[kind]
    table = opened(game, 2)
    table = apply(game, table, take_seat(game, table, 0, "", None, Ctx(rng=random.Random(0))))
    assert cancel(game, table) == [TableCancelled()]
    called_off = apply(game, table, cancel(game, table))
    assert status(game, called_off) == "finished"
    assert outcome(game, called_off) == Abandoned(scores=[0, 0], places=[1, 1], winners=[], reason="cancelled")
    with pytest.raises(Rejected) as again:
        cancel(game, called_off)
    assert again.value.code == "game_started"
    with pytest.raises(Rejected) as under_way:
        cancel(game, started(game, 2))
    assert under_way.value.code == "game_started"


def test_a_finished_game_links_to_one_rematch() -> None:
    game = GAMES["i-love-portugal"]
    with pytest.raises(Rejected) as early:
        open_rematch(game, started(game, 2), "next")
    assert early.value.code == "game_not_over"
    _, table = play_to_end(game, 2, {}, seed=4)
    events = open_rematch(game, table, "next")
    table = apply(game, table, events)
    assert table.rematch == "next"
    assert open_rematch(game, table, "another") == []  # already linked: the same rematch for everyone


def test_new_table_facts_round_trip_through_the_stored_form() -> None:
    game = GAMES["itchy-feet"]
    union = event_union(game)
    for event in (SeatResigned(seat=1, reason="timed_out", bot="greedy"), TableCancelled()):
        assert msgspec.json.decode(msgspec.json.encode(event), type=union) == event


@EVERY_GAME
def test_a_game_whose_log_reaches_its_most_events_is_over_with_no_winner(kind: str) -> None:
    """The longest a stream may grow (Game.most_events): the step that reaches it is played
    whole, then the game is over, played to no end, and every command is refused."""
    game = dataclasses.replace(GAMES[kind], most_events=80)
    table = started(game, 3)
    rng = random.Random(2)
    while status(game, table) == "active":
        seat, command = next((s, c) for s in range(3) if (c := game.random_command(table.state, s, rng)) is not None)
        events = decide(game, table, command, seat, Ctx(rng=rng))
        assert table.version < game.most_events
        table = apply(game, table, events)
    assert table.version >= game.most_events
    assert outcome(game, table) == Abandoned(scores=[0] * 3, places=[1] * 3, winners=[], reason="too_long")
    for command in (game.random_command(table.state, 0, rng) or Resign(), Resign(), Undo()):
        with pytest.raises(Rejected) as refused:
            decide(game, table, command, 0, Ctx(rng=rng))
        assert refused.value.code == "game_too_long" and "nothing more can be played" in refused.value.message


def test_every_game_may_grow_many_times_longer_than_a_long_random_game() -> None:
    """Random play is the longest play there is (I Love Portugal's five seats: about 3,000 events)."""
    for game in GAMES.values():
        assert game.most_events >= 20_000


def test_a_vacated_seat_is_offered_by_a_seat_still_in_the_game_and_taken_over_as_a_new_tenure() -> None:
    game = GAMES["vilar-de-mouros"]
    table = started(game, 3)
    table = apply(game, table, resign(game, table, 2, bot="greedy"))
    for seat, by, code in [(1, 0, "seat_not_vacated"), (2, 2, "not_yours_to_offer"), (2, -1, "not_yours_to_offer")]:
        with pytest.raises(Rejected) as refused:
            offer_seat(game, table, seat, by)
        assert refused.value.code == code
    with pytest.raises(Rejected) as not_offered:
        take_over(game, table, 2, "Eva", None)
    assert not_offered.value.code == "seat_not_offered"
    offered = apply(game, table, offer_seat(game, table, 2, 0))
    assert offered.offered == (2,)
    events = take_over(game, offered, 2, "Eva", None)
    assert events == [SeatTakenOver(seat=2, name="Eva")]
    after = apply(game, offered, events)
    assert after.resigned == () and after.offered == () and after.tenures == (Tenure(2, after.version, None),)
    assert after.seats[2] == SeatInfo(2, "Eva") and status(game, after) == "active"
    by_player = take_over(game, offered, 2, "ignored", "p0123456789abcdef")
    assert by_player == [SeatTakenOver(seat=2, player="p0123456789abcdef")]  # a player's name stays out of the stream


def test_a_seat_taken_without_a_name_is_told_apart_from_one_named() -> None:
    """A default name ("Player 2", "Casual bot 3") is stored in English: the seat says it is one (``named``), so
    that a frontend says it in its reader's language (docs/i18n.md); a name given, a bot's too, is the seat's own."""
    game = GAMES["vilar-de-mouros"]
    table = opened(game, 4)
    ctx = Ctx(rng=random.Random(1))
    for seat, name, bot in [(0, "", None), (1, "Ana", None), (2, "", "casual"), (3, "Robotina", "strong:2")]:
        table = apply(game, table, take_seat(game, table, seat, name, bot, ctx))
    assert [s.named for s in table.seats if s is not None] == [False, True, False, True]
    assert [s.name for s in table.seats if s is not None] == ["Player 1", "Ana", "Casual bot 3", "Robotina"]
    # a name given that is the default is the default: evolve tells by the event, as an old stream folds
    table = apply(game, opened(game, 2), take_seat(game, opened(game, 2), 1, "Player 2", None, ctx))
    assert table.seats[1] == SeatInfo(1, "Player 2", named=False)
    assert default_name(3, "strong:2") == "Strong bot 4" and default_name(0) == "Player 1"


def test_a_default_named_seat_stays_so_when_it_leaves_and_a_takeover_is_told_by_its_own_name() -> None:
    game = GAMES["vilar-de-mouros"]
    table = started(game, 3, bots=(1,))
    assert [s.named for s in table.seats if s is not None] == [False, False, False]
    left = apply(game, table, resign(game, table, 2, bot="greedy"))
    assert left.seats[2] == SeatInfo(2, "Player 3", "greedy", named=False)  # a person's default, a bot playing on
    offered = apply(game, left, offer_seat(game, left, 2, 0))
    unnamed = apply(game, offered, take_over(game, offered, 2, "", None))
    assert unnamed.seats[2] == SeatInfo(2, "Player 3", named=False)
    named = apply(game, offered, take_over(game, offered, 2, "Eva", None))
    assert named.seats[2] == SeatInfo(2, "Eva", named=True)
    by_player = apply(game, offered, take_over(game, offered, 2, "", "p0123456789abcdef"))
    assert by_player.seats[2] == SeatInfo(2, "", player="p0123456789abcdef", named=True)  # its player's name
