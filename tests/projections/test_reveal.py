"""One rule for what is revealed: once a table is over, however it ended, the view and the feed
reveal the same (everything), for every viewer, live or caught up."""

from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest

from domain.catalog import GAMES
from domain.engine import FULL, AnyGame, Ctx
from domain.table import Table, cancel, decide, evolve, fold, open_table, resign, status, take_seat
from projections.updates import update
from projections.views import feed, game_view, is_revealed, table_view

KIND = "vilar-de-mouros"


def started(game: AnyGame, players: int, seed: int, steps: int) -> tuple[Table, list[Any]]:
    """A table after its seats are taken and ``steps`` random commands: the table and its log."""
    rng = random.Random(seed)
    ctx = Ctx(rng=rng)
    log: list[Any] = [open_table(game, players, {})]
    table = evolve(game, None, log[0])
    for _ in range(players):
        for event in take_seat(game, table, None, "", None, ctx):
            log.append(event)
            table = evolve(game, table, event)
    for _ in range(steps):
        seat, command = next(
            (s, c) for s in range(players) if (c := game.random_command(table.state, s, rng)) is not None
        )
        for event in decide(game, table, command, seat, ctx):
            log.append(event)
            table = evolve(game, table, event)
    return table, log


def numbered(log: list[Any]) -> list[tuple[int, Any]]:
    return list(enumerate(log, start=1))


def plain(value: Any) -> Any:
    return msgspec.to_builtins(value)


def test_after_a_resignation_ends_the_game_the_view_reveals_what_the_feed_does() -> None:
    # The case that once leaked: seat 0 resigns a two-seat game, which ends it. Seat 1's event feed
    # shows seat 0's dealt cards, so seat 1's table view shows seat 0's hand too.
    game = GAMES[KIND]
    table, log = started(game, 2, seed=7, steps=5)
    hand = list(table.state.hands[0])
    assert hand, "seat 0 holds cards"
    assert game_view(game, table, 1).seats[0].hand is None  # hidden while the game goes on
    left = resign(game, table, 0)
    after = fold(game, table, left)
    assert after is not None and status(game, after) == "finished" and is_revealed(game, after)
    log += left
    everything = plain(feed(game, numbered(log), FULL, True, after))
    for viewer in (0, 1, None):
        assert plain(feed(game, numbered(log), viewer, is_revealed(game, after), after)) == everything
        view = table_view(game, "g", after, viewer).view
        assert view.seats[0].hand == hand
        assert plain(view) == {**plain(game.view(after.state, FULL)), "viewer": viewer, "awaiting": []}
        # The socket's update (live, and the last one of a catch-up) says the same.
        sent = update(game, after, numbered(log), viewer)
        assert plain(sent.events) == everything and plain(sent.view) == plain(view)
        assert sent.status == "finished" and sent.outcome is not None and sent.step is None


@pytest.mark.parametrize("kind", sorted(GAMES))
def test_a_table_a_resignation_ended_awaits_nobody(kind: str) -> None:
    # The game's rules would still await a seat to move; the table is over, so nobody is:
    # neither in the table's `awaiting` nor in the game's own view.
    game = GAMES[kind]
    table, _ = started(game, 2, seed=7, steps=5)
    assert table_view(game, "g", table, None).awaiting
    after = fold(game, table, resign(game, table, 0))
    assert after is not None and status(game, after) == "finished"
    assert after.state is not None and game.awaited(after.state), "the rules alone still await a seat"
    for viewer in (0, 1, None, FULL):
        seen = table_view(game, "g", after, viewer)
        assert seen.awaiting == [] and seen.view.awaiting == []


def test_a_game_played_on_reveals_nothing_early() -> None:
    game = GAMES[KIND]
    table, log = started(game, 3, seed=11, steps=8)
    assert not is_revealed(game, table)
    hidden = plain(feed(game, numbered(log), 1, False, table))
    assert hidden != plain(feed(game, numbered(log), FULL, True, table))
    assert plain(update(game, table, numbered(log), 1).events) == hidden
    assert game_view(game, table, 1).seats[0].hand is None


def test_a_resignation_that_leaves_enough_players_reveals_nothing() -> None:
    game = GAMES[KIND]
    table, _ = started(game, 3, seed=3, steps=4)
    after = fold(game, table, resign(game, table, 0, bot="greedy"))
    assert after is not None and status(game, after) == "active" and not is_revealed(game, after)
    assert game_view(game, after, 1).seats[0].hand is None


def test_a_table_called_off_is_revealed_and_has_nothing_to_hide() -> None:
    game = GAMES[KIND]
    opened = open_table(game, 2, {})
    empty = evolve(game, None, opened)
    seat = take_seat(game, empty, None, "Ana", None, Ctx(rng=random.Random(1)))
    table = fold(game, empty, seat)
    assert table is not None
    off = fold(game, table, cancel(game, table))
    assert off is not None and status(game, off) == "finished" and is_revealed(game, off)
    log = numbered([opened, *seat, *cancel(game, table)])
    for viewer in (0, None):
        assert plain(feed(game, log, viewer, True, off)) == plain(feed(game, log, FULL, True, off))
        assert update(game, off, log, viewer).view is None  # play never started: there is no game view
