"""Final happiness, line by line, and the tie-breakers."""

from __future__ import annotations

from msgspec.structs import replace

from domain.miss_liz_parks import GAME
from domain.miss_liz_parks.components import RESERVED
from domain.miss_liz_parks.scoring import score_park
from domain.miss_liz_parks.state import Options, State

from .helpers import OCEAN, WESTERN, WILD, park

ROAD = [(4, 3), (3, 3), (2, 3), (1, 3)]


def test_active_buildings_score_their_happiness_and_inactive_ones_do_not() -> None:
    p = park(WILD, [((3, 2), "oceanic-ride-3", 1), ((3, 4), "oceanic-ride-2", 0)], ROAD)
    assert score_park(0, p, side_b=False).buildings == 5


def test_own_theme_tiles_plus_one_no_theme_tiles_minus_one_active_or_not() -> None:
    p = park(OCEAN, [((3, 2), "oceanic-ride-1", 0), ((3, 4), "no-theme-ride-1", 0), ((2, 2), "wild-ride-1", 0)], ROAD)
    result = score_park(0, p, side_b=False)
    assert result.theme == 1 + 1 - 1  # the Entrance and the ride of the park's theme, the No Theme ride
    assert result.own_theme_tiles == 2


def test_theme_token_makes_a_no_theme_tile_count_as_its_new_theme() -> None:
    p = park(OCEAN, [((3, 2), "no-theme-shop-1", 0)], ROAD)
    token = replace(p.buildings[1], token=OCEAN)
    assert score_park(0, replace(p, buildings=(p.buildings[0], token)), side_b=False).theme == 2


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
    a = park(OCEAN, [((3, 2), "oceanic-ride-1", 0)], income=4)  # 2 own-theme tiles, 2 happiness
    b = park(WESTERN, [((3, 2), "wild-ride-1", 0)], income=9)  # 1 own-theme tile, 1 + 1 = 2
    outcome = GAME.outcome(_over(a, b))
    assert outcome is not None and outcome.scores == [2, 2] and outcome.winners == [0]
    c = park(WESTERN, [((3, 2), "western-ride-1", 0)], income=4)
    d = park(WILD, [((3, 2), "wild-ride-1", 0)], income=3)
    outcome = GAME.outcome(_over(c, d))
    assert outcome is not None and outcome.places == [1, 2]
    outcome = GAME.outcome(_over(c, c))
    assert outcome is not None and outcome.places == [1, 1] and outcome.winners == [0, 1]


def test_no_outcome_before_the_end() -> None:
    assert GAME.outcome(GAME.initial(2, None)) is None
