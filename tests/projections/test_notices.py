"""What a player is told of an append: a seat the game now awaits, a game over, a rematch offered;
never the seat that made the append, never a seat no player holds, and every seat a hidden-seat
window is open to alike."""

from __future__ import annotations

import random
from typing import Any

from domain.catalog import GAMES
from domain.engine import AnyGame, Ctx
from domain.table import RematchOpened, Table, decide, evolve, open_table, status, take_seat
from projections.notices import Notice, told

VILAR = GAMES["vilar-de-mouros"]
ITCHY = GAMES["itchy-feet"]


def seated(game: AnyGame, players: list[str | None], options: dict[str, Any] | None = None) -> Table:
    """A started table whose seats ``players`` hold (``None``: a seat token, no player)."""
    ctx = Ctx(rng=random.Random(7))
    table = evolve(game, None, open_table(game, len(players), options or {}))
    for player in players:
        for event in take_seat(game, table, None, "", None, ctx, player=player):
            table = evolve(game, table, event)
    return table


def step(game: AnyGame, table: Table, seat: int, rng: random.Random) -> Table:
    command = game.random_command(table.state, seat, rng)
    assert command is not None
    for event in decide(game, table, command, seat, Ctx(rng=rng)):
        table = evolve(game, table, event)
    return table


def awaited_seats(game: AnyGame, table: Table) -> set[int]:
    return {a.seat for a in game.awaited(table.state)}


def test_a_player_is_told_when_the_turn_comes_to_it_and_not_while_it_plays_its_own() -> None:
    rng = random.Random(1)
    table = seated(VILAR, ["p-ana", None])
    told_ana: list[Notice] = []
    for _ in range(60):
        if status(VILAR, table) != "active":
            break
        seat = min(awaited_seats(VILAR, table))
        after = step(VILAR, table, seat, rng)
        notices = told(VILAR, "g1", table, after, f"seat:{seat}")
        came_to_ana = 0 in awaited_seats(VILAR, after) and 0 not in awaited_seats(VILAR, table)
        assert [n.seat for n in notices] == ([0] if came_to_ana and seat != 0 else [])
        told_ana += notices
        table = after
    assert len(told_ana) >= 5
    first = told_ana[0]
    assert first.event == "move" and first.reason == "action" and first.player == "p-ana" and first.seat == 0
    assert first.id == f"g1.{first.version}.0.move" and first.title == VILAR.title and first.game == VILAR.id


def test_the_seat_that_started_the_game_by_sitting_down_is_told_if_it_is_awaited() -> None:
    before = seated(VILAR, ["p-ana", None])
    opened = evolve(VILAR, None, open_table(VILAR, 2, {}))
    table = opened
    for player in ["p-ana", None]:
        last = table
        for event in take_seat(VILAR, table, None, "", None, Ctx(rng=random.Random(7)), player=player):
            table = evolve(VILAR, table, event)
    notices = told(VILAR, "g", last, table)  # the last seat taken starts the game: a table fact
    assert table == before
    assert [n.seat for n in notices] == ([0] if 0 in awaited_seats(VILAR, table) else [])


def test_seats_without_a_player_and_seats_that_left_are_told_nothing() -> None:
    table = seated(VILAR, [None, None])
    rng = random.Random(2)
    seat = min(awaited_seats(VILAR, table))
    assert told(VILAR, "g", table, step(VILAR, table, seat, rng), f"seat:{seat}") == []


def test_every_player_still_in_the_game_is_told_it_ended_with_its_place_and_then_of_its_rematch() -> None:
    rng = random.Random(3)
    table = seated(VILAR, ["p-ana", "p-rui"])
    while status(VILAR, table) == "active":
        before = table
        table = step(VILAR, table, min(awaited_seats(VILAR, table)), rng)
    ended = told(VILAR, "g", before, table, "seat:0")
    assert sorted((n.seat, n.event) for n in ended) == [(0, "ended"), (1, "ended")]
    outcome = VILAR.outcome(table.state)
    assert outcome is not None
    for n in ended:
        assert n.place == outcome.places[n.seat] and n.winners == list(outcome.winners) and n.ending is None
    rematch = evolve(VILAR, table, RematchOpened(game_id="g2"))
    offered = told(VILAR, "g", table, rematch)
    assert [(n.seat, n.event, n.rematch) for n in offered] == [(0, "rematch", "g2"), (1, "rematch", "g2")]
    assert told(VILAR, "g", rematch, rematch) == []


def test_a_reaction_window_is_announced_alike_to_every_seat_it_is_open_to() -> None:
    # Itchy Feet with special objects: every action waits in a window open to every other seat,
    # whatever each holds (the rules hide who could spring a Mousetrap).
    rng = random.Random(4)
    table = seated(ITCHY, ["p0", "p1", "p2"], {"special_objects": True})
    windows = 0
    for _ in range(200):
        if status(ITCHY, table) != "active" or windows >= 3:
            break
        seat = min(awaited_seats(ITCHY, table))
        after = step(ITCHY, table, seat, rng)
        notices = told(ITCHY, "g", table, after, f"seat:{seat}")
        react = [n for n in notices if n.event == "window"]
        if react and after.state.window is not None:
            windows += 1
            assert {n.seat for n in react} == set(after.state.window.waiting)
            # The same notice for each, but for whose seat it is.
            shapes = {(n.event, n.reason, n.version, n.game, n.place, n.rematch) for n in react}
            assert len(shapes) == 1
        table = after
    assert windows >= 1
