"""What the bots are told of Miss Liz's parks (domain/miss_liz_parks/strategy.py)."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from domain.miss_liz_parks.strategy import FIDGET, points

from .helpers import start


def test_each_employee_moved_this_turn_costs_the_seat_to_play_a_little() -> None:
    """A move of an employee is free and leaves the seat to play on; without a cost a searching bot
    moved employees back and forth every turn up to the rules' limit. The other seats pay nothing."""
    state, _ = start(2)
    seat = state.current
    assert seat is not None
    before = points(state)
    after = points(replace(state, moved=3))
    assert after[seat] == pytest.approx(before[seat] - 3 * FIDGET)
    assert after[1 - seat] == before[1 - seat]
