"""Every game's table options are booleans or bounded whole numbers, whose defaults lie within
their bounds, and a new table refuses a number outside them (``out_of_bounds``, naming the option)."""

from __future__ import annotations

import msgspec
import pytest

from domain.catalog import GAMES
from domain.engine import AnyGame, Rejected
from domain.table import open_table, option_bounds


@pytest.mark.parametrize("game", GAMES.values(), ids=GAMES.keys())
def test_every_option_is_a_boolean_or_a_bounded_number_with_its_default_within(game: AnyGame) -> None:
    bounds = option_bounds(game.options_type)
    defaults = msgspec.to_builtins(game.options_type())
    for name, default in defaults.items():
        if name in bounds:
            least, most = bounds[name]
            assert least <= default <= most, name
        else:
            assert isinstance(default, bool), f"{game.id} option {name} is neither a boolean nor bounded"


@pytest.mark.parametrize("game", GAMES.values(), ids=GAMES.keys())
def test_a_number_option_outside_its_bounds_is_refused_naming_it(game: AnyGame) -> None:
    for name, (least, most) in option_bounds(game.options_type).items():
        for value in (least - 1, most + 1, -(10**30), 10**30):
            with pytest.raises(Rejected) as refused:
                open_table(game, game.min_players, {name: value})
            assert refused.value.code == "out_of_bounds"
            assert refused.value.details == {
                "field": f"options.{name}",
                "minimum": least,
                "maximum": most,
                "option": name,
                "title": game.title,
            }
        for value in (least, most):
            assert open_table(game, game.min_players, {name: value}).options[name] == value


def test_itchy_feet_answer_times_run_from_a_tenth_of_a_second_to_seven_days() -> None:
    bounds = option_bounds(GAMES["itchy-feet"].options_type)
    assert bounds == {"trade_answer_ms": (100, 604_800_000), "reaction_ms": (100, 604_800_000)}
