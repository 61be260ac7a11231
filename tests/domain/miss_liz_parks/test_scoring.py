"""Final happiness, line by line, and the tie-breakers."""

from __future__ import annotations

import msgspec
from msgspec.structs import replace

from domain.miss_liz_parks import GAME
from domain.miss_liz_parks.components import RESERVED
from domain.miss_liz_parks.scoring import score_park
from domain.miss_liz_parks.state import RULES, Options, State

from .helpers import OCEAN, WESTERN, WILD, ctx, park

ROAD = [(4, 3), (3, 3), (2, 3), (1, 3)]


def test_active_buildings_score_their_happiness_and_inactive_ones_do_not() -> None:
    p = park(WILD, [((3, 2), "oceanic-ride-3", 1), ((3, 4), "oceanic-ride-2", 0)], ROAD)
    assert score_park(0, p, side_b=False).buildings == 5


def test_buildings_only_generate_happiness_if_they_are_active_the_own_theme_bonus_too() -> None:
    """'Buildings only generate Income, Happiness and any bonuses if they are active.'"""
    staffed = [((3, 2), "oceanic-ride-1", 1), ((3, 4), "oceanic-ride-2", 0), ((2, 2), "wild-ride-1", 1)]
    result = score_park(0, park(OCEAN, staffed, ROAD), side_b=False)
    assert result.theme == 1  # the staffed Oceanic Ride; not the unstaffed one, nor the unstaffed Entrance
    tiles = {t.tile: t.happiness for t in result.tiles}
    assert tiles == {"oceanic-entrance": 0, "oceanic-ride-1": 3 + 1, "oceanic-ride-2": 0, "wild-ride-1": 3}
    assert result.own_theme_tiles == 3  # the tie-breaker counts built tiles, active or not


def test_the_entrance_staffed_is_active_and_takes_its_own_theme_bonus() -> None:
    p = park(OCEAN, [], ROAD)
    p = replace(p, buildings=(replace(p.buildings[0], employees=1),))
    assert score_park(0, p, side_b=False).tiles[0].happiness == 1 + 1  # printed 1, +1 own theme


def test_no_theme_tiles_cost_one_happiness_active_or_not() -> None:
    """A ruling: the penalty is the tile's, so leaving it unstaffed does not escape it."""
    p = park(OCEAN, [((3, 2), "no-theme-ride-1", 1), ((3, 4), "no-theme-shop-1", 0)], ROAD)
    result = score_park(0, p, side_b=False)
    assert result.theme == -2
    assert {t.tile: t.happiness for t in result.tiles}["no-theme-shop-1"] == -1


def test_a_game_begun_under_rules_1_keeps_its_plus_one_for_every_own_theme_tile() -> None:
    """A stored game's first fact written before the rules were recorded means rules 1."""
    old = msgspec.json.decode(b'{"type": "StartingPlayerDrawn", "seat": 0}', type=GAME.event_type)
    state = GAME.evolve(GAME.initial(2, None), old)
    assert state.rules == 1
    assert GAME.evolve(GAME.initial(2, None), GAME.setup(GAME.initial(2, None), ctx())[0]).rules == RULES == 3
    unstaffed = park(OCEAN, [((3, 2), "oceanic-ride-1", 0)], ROAD)
    assert score_park(0, unstaffed, side_b=False, rules=1).theme == 2  # the Entrance and the Ride
    assert score_park(0, unstaffed, side_b=False).theme == 0
    over = replace(state, parks=(unstaffed, unstaffed), phase="over")
    outcome = GAME.outcome(over)
    assert outcome is not None and outcome.scores == [2, 2]


def test_theme_token_makes_a_no_theme_tile_count_as_its_new_theme() -> None:
    p = park(OCEAN, [((3, 2), "no-theme-shop-1", 1), ((3, 4), "no-theme-shop-2", 0)], ROAD)
    tokens = (replace(p.buildings[1], token=OCEAN), replace(p.buildings[2], token=OCEAN))
    result = score_park(0, replace(p, buildings=(p.buildings[0], *tokens)), side_b=False)
    assert result.theme == 1  # the staffed one is an active Oceanic building; neither costs 1 any more


def test_board_of_directors_scores_active_buildings_halved_down() -> None:
    staffed = [((3, 2), "oceanic-board-of-directors", 1), ((3, 4), "oceanic-shop-1", 1), ((2, 2), "oceanic-shop-2", 1)]
    p = park(OCEAN, staffed, ROAD)
    assert score_park(0, p, side_b=False).buildings == 3 // 2 + 1 + 1


def test_rest_area_scores_one_per_employee_on_it() -> None:
    p = park(OCEAN, [((3, 2), "oceanic-rest-area", 3)], ROAD)
    assert score_park(0, p, side_b=False).buildings == 3


def test_show_scores_one_per_street_around_it() -> None:
    p = park(OCEAN, [((3, 2), "wild-show-1", 1)], ROAD)
    assert score_park(0, p, side_b=False).buildings == 5 + 3  # streets (3,3) beside it, (2,3) and (4,3) at its corners


def test_one_happiness_per_5_income_left() -> None:
    assert score_park(0, park(OCEAN, income=14), side_b=False).income == 2


def test_planning_cards_met_score_their_points() -> None:
    shops = [((3, 2), "oceanic-shop-1", 1), ((3, 4), "oceanic-shop-2", 1), ((2, 2), "oceanic-shop-3", 1)]
    p = park(OCEAN, shops, ROAD, planning=("plan-shopping-street", "plan-thrill-seekers"))
    result = score_park(0, p, side_b=False)
    assert result.planning_met == ["plan-shopping-street"] and result.planning == 4


def test_investment_is_paid_back_in_happiness() -> None:
    p = park(OCEAN, invested=7)
    assert score_park(0, p, side_b=False).investment == -7


def test_side_b_three_per_reserved_space_left_uncovered() -> None:
    covered = sorted(RESERVED)[0]
    p = park(OCEAN, [], [*ROAD, covered])
    assert score_park(0, p, side_b=True).reserved == 3 * (len(RESERVED) - 1)
    assert score_park(0, p, side_b=False).reserved == 0


def _over(*parks: object, options: Options | None = None) -> State:
    return State(players=len(parks), parks=tuple(parks), phase="over", options=options or Options())  # type: ignore[arg-type]


def test_tie_broken_by_own_theme_tiles_then_income_then_shared() -> None:
    a = park(OCEAN, [((3, 2), "oceanic-ride-1", 0)], income=5)  # 2 own-theme tiles (inactive), 1 happiness
    b = park(WESTERN, [((3, 2), "wild-ride-1", 0)], income=9)  # 1 own-theme tile, 1 happiness
    outcome = GAME.outcome(_over(a, b))
    assert outcome is not None and outcome.scores == [1, 1] and outcome.winners == [0]
    c = park(WESTERN, [((3, 2), "western-ride-1", 0)], income=4)
    d = park(WILD, [((3, 2), "wild-ride-1", 0)], income=3)
    outcome = GAME.outcome(_over(c, d))
    assert outcome is not None and outcome.scores == [0, 0] and outcome.places == [1, 2]
    outcome = GAME.outcome(_over(c, c))
    assert outcome is not None and outcome.places == [1, 1] and outcome.winners == [0, 1]


def test_no_outcome_before_the_end() -> None:
    assert GAME.outcome(GAME.initial(2, None)) is None
