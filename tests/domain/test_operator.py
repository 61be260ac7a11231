"""The operator's facts (server/service/admin.py): a table ended by the operator, a seat's player removed."""

from __future__ import annotations

import msgspec
import pytest

from domain.catalog import GAMES
from domain.engine import Rejected
from domain.table import (
    Abandoned,
    SeatResigned,
    TableCancelled,
    cancel,
    cancel_by_operator,
    event_union,
    outcome,
    remove_seat,
    status,
)
from tests.domain.test_table_services import EVERY_GAME, apply, opened, started
from tests.support.games import play_to_end


@EVERY_GAME
def test_the_operator_ends_an_active_table_called_off_with_no_winner(kind: str) -> None:
    game = GAMES[kind]
    table = started(game, 3)
    events = cancel_by_operator(game, table)
    assert events == [TableCancelled(by="operator")]  # with a seed, SeedRevealed follows (test_admin.py)
    table = apply(game, table, events)
    assert status(game, table) == "finished"
    assert outcome(game, table) == Abandoned(scores=[0] * 3, places=[1] * 3, winners=[], reason="cancelled")
    with pytest.raises(Rejected) as again:
        cancel_by_operator(game, table)
    assert again.value.code == "game_over"


def test_the_operator_ends_an_open_table_the_creator_only_one_not_started() -> None:
    game = GAMES["vilar-de-mouros"]
    table = opened(game, 2)
    assert apply(game, table, cancel_by_operator(game, table)).cancelled
    with pytest.raises(Rejected) as started_already:
        cancel(game, started(game, 2))
    assert started_already.value.code == "game_started"


def test_a_finished_game_is_not_the_operators_to_end() -> None:
    game = GAMES["i-love-portugal"]
    _, table = play_to_end(game, 2, {}, seed=4)
    with pytest.raises(Rejected) as over:
        cancel_by_operator(game, table)
    assert over.value.code == "game_over"


@EVERY_GAME
def test_a_removed_seat_is_played_on_by_the_tables_bot_until_too_few_remain(kind: str) -> None:
    game = GAMES[kind]
    table = started(game, 3)
    events = remove_seat(game, table, 1)
    assert events == [SeatResigned(seat=1, reason="removed", bot=table.takeover)]
    table = apply(game, table, events)
    assert status(game, table) == "active" and 1 in table.resigned
    for seat, code in ((1, "seat_already_left"), (3, "no_such_seat"), (-1, "no_such_seat")):
        with pytest.raises(Rejected) as refused:
            remove_seat(game, table, seat)
        assert refused.value.code == code
    events = remove_seat(game, table, 0)  # one person would remain: the game ends with it
    assert events[0] == SeatResigned(seat=0, reason="removed", bot=None)
    table = apply(game, table, events)
    ended = outcome(game, table)
    assert isinstance(ended, Abandoned) and ended.reason == "resigned" and ended.winners == [2]


def test_an_open_table_has_no_seat_to_remove() -> None:
    game = GAMES["itchy-feet"]
    with pytest.raises(Rejected) as refused:
        remove_seat(game, opened(game, 2), 0)
    assert (refused.value.code, refused.value.details) == ("game_not_active", {"case": "remove"})


def test_the_operators_facts_round_trip_and_a_creators_call_stays_as_it_was_stored() -> None:
    union = event_union(GAMES["miss-liz-parks"])
    for event in (TableCancelled(by="operator"), SeatResigned(seat=2, reason="removed", bot="greedy")):
        assert msgspec.json.decode(msgspec.json.encode(event), type=union) == event
    assert msgspec.json.encode(TableCancelled()) == b'{"type":"TableCancelled"}'  # logs from before: the same bytes
    assert msgspec.json.decode(b'{"type":"TableCancelled"}', type=union) == TableCancelled(by="creator")
