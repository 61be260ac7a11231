"""What a finished rated table says of its players' places (projections/ratings.py)."""

from __future__ import annotations

import random

import msgspec

from domain.catalog import GAMES
from domain.engine import Ctx
from domain.table import (
    SeatTakenOver,
    Table,
    Tenure,
    cancel,
    decide,
    evolve,
    offer_seat,
    open_table,
    resign,
    status,
    take_over,
    take_seat,
)
from projections.ratings import standings

GAME = GAMES["vilar-de-mouros"]


def rated(players: int, rated: bool = True) -> Table:
    table = evolve(GAME, None, open_table(GAME, players, {}, rated=rated))
    assert table is not None
    for seat in range(players):
        for event in take_seat(GAME, table, None, "", None, Ctx(rng=random.Random(seat)), player=f"p{seat:016x}"):
            table = evolve(GAME, table, event)
    return table


def finished(table: Table, seed: int = 1) -> Table:
    """The table played on at random to its end (a seat that left plays as any: its bot's moves)."""
    rng = random.Random(seed)
    for step in range(20_000):
        if status(GAME, table) != "active":
            return table
        choices = [(s, c) for s in range(table.players) if (c := GAME.random_command(table.state, s, rng)) is not None]
        seat, command = rng.choice(choices)
        for event in decide(GAME, table, command, seat, Ctx(rng=rng, now_ms=step * 1000)):
            table = evolve(GAME, table, event)
    raise AssertionError("no end")


def test_a_finished_rated_table_places_each_player_as_the_game_ranked_it() -> None:
    table = finished(rated(3))
    ended = GAME.outcome(table.state)
    assert ended is not None
    places = msgspec.structs.asdict(ended)["places"]
    ranked = dict(standings(GAME, table) or [])
    assert set(ranked) == {f"p{seat:016x}" for seat in range(3)}
    for seat in range(3):  # the same order, places dense among the players
        for other in range(3):
            assert (places[seat] < places[other]) == (ranked[f"p{seat:016x}"] < ranked[f"p{other:016x}"])


def test_a_player_who_left_places_behind_everyone_who_stayed_whatever_the_bot_made_of_its_seat() -> None:
    table = rated(3)
    table = finished(evolve(GAME, table, resign(GAME, table, 1, bot="greedy")[0]))
    ranked = dict(standings(GAME, table) or [])
    assert (
        ranked["p0000000000000001"] == max(ranked.values()) and list(ranked.values()).count(max(ranked.values())) == 1
    )


def test_each_tenure_counts_the_seats_former_holder_behind_and_the_newcomer_with_the_seats_place() -> None:
    table = rated(3)
    table = evolve(GAME, table, resign(GAME, table, 2, bot="greedy")[0])
    table = evolve(GAME, table, offer_seat(GAME, table, 2, 0)[0])
    [taken] = take_over(GAME, table, 2, "", "pnewcomer0000000")
    assert taken == SeatTakenOver(seat=2, player="pnewcomer0000000")
    table = finished(evolve(GAME, table, taken))
    assert table.tenures == (Tenure(2, table.tenures[0].since, "p0000000000000002"),)
    ranked = dict(standings(GAME, table) or [])
    assert set(ranked) == {"p0000000000000000", "p0000000000000001", "p0000000000000002", "pnewcomer0000000"}
    assert ranked["p0000000000000002"] == max(ranked.values())


def test_an_unrated_table_or_one_called_off_rates_nobody() -> None:
    assert standings(GAME, finished(rated(2, rated=False))) is None
    opened = evolve(GAME, None, open_table(GAME, 2, {}, rated=True))
    assert opened is not None
    assert standings(GAME, evolve(GAME, opened, cancel(GAME, opened)[0])) is None
