"""The standing: each seat's score if the game ended now, in the table view while the game is under
way, known where the viewer may know it and ``null`` where it rests on cards the viewer cannot see
(the twin-game oracle, tests/projections/test_no_leak.py, holds it to that as it does every view)."""

from __future__ import annotations

import random

import pytest

from domain.catalog import GAMES
from domain.engine import FULL
from domain.itchy_feet.state import State as ItchyState
from domain.miss_liz_parks.scoring import score as park_scores
from domain.miss_liz_parks.state import State as ParkState
from domain.table import evolve
from domain.vilar_de_mouros.scoring import score as vilar_scores
from domain.vilar_de_mouros.state import State as VilarState
from projections.twins import played
from projections.views import table_view

STEPS = [5, 40, 120]


def full_scores(state: object) -> list[int]:
    """What the game's own scoring says of every seat, from everything (the outcome's numbers)."""
    if isinstance(state, VilarState):
        return [s.points for s in vilar_scores(state)]
    if isinstance(state, ParkState):
        return [s.total for s in park_scores(state)]
    assert isinstance(state, ItchyState)
    return [len(t) for t in state.travelled]


def hidden(state: object, seat: int) -> bool:
    """Whether a seat's score rests on cards only that seat sees."""
    if isinstance(state, VilarState):
        return bool(state.hands[seat])
    if isinstance(state, ParkState):
        return bool(state.parks[seat].planning)
    return False


@pytest.mark.parametrize("game_id", ["vilar-de-mouros", "miss-liz-parks", "itchy-feet"])
@pytest.mark.parametrize("steps", STEPS)
def test_each_viewer_sees_the_scores_it_may_know_and_null_for_the_rest(game_id: str, steps: int) -> None:
    game = GAMES[game_id]
    rng = random.Random(f"{game_id}{steps}")
    players = rng.randint(game.min_players, game.max_players)
    table = None
    for event in played(game, players, rng, steps):
        table = evolve(game, table, event)
    assert table is not None and table.state is not None
    view = table_view(game, "g", table, FULL)
    if view.status != "active":
        assert view.standing == []  # over: the outcome says it
        return
    scores = full_scores(table.state)
    assert view.standing == scores
    for viewer in [*range(players), None]:
        standing = table_view(game, "g", table, viewer).standing
        assert standing == [
            None if hidden(table.state, seat) and viewer != seat else score for seat, score in enumerate(scores)
        ]


def test_a_game_that_says_no_standing_shows_none() -> None:
    game = GAMES["i-love-portugal"]
    table = None
    for event in played(game, 2, random.Random(3), 10):
        table = evolve(game, table, event)
    assert table is not None and table_view(game, "g", table, 0).standing == []
