"""The rulebook's nine worked examples, each as printed."""

from __future__ import annotations

from msgspec.structs import replace

from domain.miss_liz_parks.commands import AssignEmployee, BuildTile, BuyStreets, BuyTile, EndTurn, HireEmployees
from domain.miss_liz_parks.events import ParkRoundEnded, ParkTurnBegan, StreetsBuilt
from domain.miss_liz_parks.scoring import score_park
from domain.miss_liz_parks.state import active, building_at, building_income, food_courts, income_due

from .helpers import OCEAN, WESTERN, WILD, park, pass_all, play, start, with_park


def test_thaisa_buys_an_oceanic_ride_from_the_cost_4_row() -> None:
    """'She ... adds a Purchase Token in its place and subtracts 4 from her Income, placing the cube on 3.'"""
    state, _ = start(2)
    seat = state.current
    assert seat is not None
    ride = "oceanic-ride-1"
    projects = ((ride, *state.projects[0][1:]), *state.projects[1:])
    state = replace(state, projects=projects)
    state = with_park(state, seat, park(WILD, [((4, 2), "wild-restaurant-1", 0)], [(4, 3)], income=7))
    state, _ = play(state, BuyTile(tile=ride))
    assert state.parks[seat].income == 3 and state.parks[seat].tokens_used == 1
    assert state.projects[0][0] is None and state.pending_tile == ride
    state, _ = play(state, BuildTile(cell=(3, 2)))  # adjacent to the Wild Restaurant
    assert building_at(state.parks[seat], (3, 2)) is not None
    state, events = play(state, EndTurn())
    assert events == [ParkTurnBegan(seat=1 - seat)]


def test_daniel_builds_five_streets_for_5_in_one_action() -> None:
    state, _ = start(2)
    seat = state.current
    assert seat is not None
    before = state.parks[seat]
    cells = ((3, 3), (2, 3), (1, 3), (4, 2), (4, 1))
    state, events = play(state, BuyStreets(cells=cells))
    assert events == [StreetsBuilt(seat=seat, cells=cells, cost=5)]
    after = state.parks[seat]
    assert after.income == before.income - 5 and len(after.streets) == 6
    assert after.tokens_used == 0  # buying streets does not use purchase tokens
    assert state.step == "free"  # one action spent


def test_deborah_hires_three_employees_and_assigns_them_for_free() -> None:
    state, _ = start(2)
    seat = state.current
    assert seat is not None
    deborah = park(
        OCEAN,
        [((3, 2), "enchanted-ride-1", 0), ((3, 4), "enchanted-restaurant-1", 0), ((2, 3), "wild-show-1", 0)],
        [(4, 3), (3, 3)],
        income=8,
    )
    state = with_park(state, seat, deborah)
    state, _ = play(state, HireEmployees(count=3))
    assert state.parks[seat].income == 5 and state.parks[seat].employees == 3
    for cell in ((3, 2), (3, 4), (2, 3)):
        state, _ = play(state, AssignEmployee(cell=cell))
    assert state.parks[seat].employees == 0
    assert {b.tile for b in active(state.parks[seat])} == {"enchanted-ride-1", "enchanted-restaurant-1", "wild-show-1"}
    state, events = play(state, EndTurn())
    assert events == [ParkTurnBegan(seat=1 - seat)]


def test_daniels_shop_is_active_but_not_his_show_nor_his_entrance() -> None:
    """'+3$ from the Shop only ... he will receive only 2 Happiness Points from the Shop.'"""
    daniel = park(
        WESTERN,
        [((3, 3), "western-shop-1", 1), ((1, 0), "western-show-1", 1)],
        [(4, 3)],
        entrance=(5, 3),
    )
    assert [b.tile for b in active(daniel)] == ["western-shop-1"]
    assert income_due(daniel) == 3
    result = score_park(0, daniel, side_b=False)
    tiles = {t.tile: t for t in result.tiles}
    assert tiles["western-shop-1"].happiness == 2 and tiles["western-shop-1"].income == 3
    assert not tiles["western-show-1"].active and not tiles["western-entrance"].active
    # "only 2": the inactive Western Show and Western Entrance add no +1 for the Western park
    assert sum(t.happiness for t in result.tiles) == 2
    assert result.buildings + result.theme == 2


def test_maintenance_slides_cost_3_then_cost_4_and_discards() -> None:
    """Fifth column: No Theme Administration (cost 4) and Oceanic Ride (cost 3); the Ride is discarded."""
    state, _ = start(4)
    admin, ride, old = "no-theme-administration-1", "oceanic-ride-1", "wild-shop-2"
    column = 4
    rows = [list(row) for row in state.projects]
    rows[0] = [None] * len(rows[0])
    rows[1] = [None] * len(rows[1])
    rows[0][column], rows[1][column], rows[2][column] = admin, ride, old
    state = replace(state, projects=tuple(tuple(r) for r in rows))
    state, events = pass_all(state)
    ended = next(e for e in events if isinstance(e, ParkRoundEnded))
    assert ended.cost2[column] == admin
    assert ended.discarded == (old, ride)
    assert ride in state.discarded and state.projects[2][column] == admin


def test_a_ride_by_a_shop_and_a_restaurant_generates_4() -> None:
    thaisa = park(
        WILD,
        [((3, 3), "wild-ride-1", 1), ((3, 2), "wild-shop-1", 0), ((3, 4), "wild-restaurant-1", 0)],
        [(4, 3)],
    )
    ride = building_at(thaisa, (3, 3))
    assert ride is not None and ride in active(thaisa)
    assert building_income(thaisa, ride) == 4


def test_daniels_food_court_pays_5_and_scores_10() -> None:
    """3 Western Restaurants and 1 Wild Restaurant, each by at least two others, all active."""
    streets = [(4, 0), (3, 0), (5, 1), (5, 2), (5, 3), (4, 3), (3, 3)]
    daniel = park(
        WESTERN,
        [
            ((3, 1), "western-restaurant-1", 1),
            ((3, 2), "western-restaurant-2", 1),
            ((4, 1), "western-restaurant-3", 1),
            ((4, 2), "wild-restaurant-1", 1),
        ],
        streets,
        entrance=(5, 0),
    )
    assert len(active(daniel)) == 4 and len(food_courts(daniel)) == 1
    assert income_due(daniel) == 4 * 2 + 5
    assert score_park(0, daniel, side_b=False).food_courts == 10


def test_an_enchanted_show_with_five_streets_around_is_worth_10() -> None:
    deborah = park(
        OCEAN,  # not her park's theme, so no theme bonus: 5 + 5 exactly
        [((2, 3), "enchanted-show-1", 1)],
        [(4, 3), (3, 3), (2, 2), (2, 4), (1, 3), (1, 2)],
    )
    show = next(t for t in score_park(0, deborah, side_b=False).tiles if t.tile == "enchanted-show-1")
    assert show.active and show.happiness == 10


def test_three_adjacent_western_shops_pay_12() -> None:
    daniel = park(
        WESTERN,
        [((3, 2), "western-shop-1", 1), ((3, 3), "western-shop-2", 1), ((3, 4), "western-shop-3", 1)],
        [(4, 2), (4, 3), (4, 4)],
    )
    assert len(active(daniel)) == 3
    assert income_due(daniel) == 12
