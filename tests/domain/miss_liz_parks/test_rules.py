"""One test per rule: setup, rounds, each action, free actions, activation, bonuses, the end."""

from __future__ import annotations

from collections import Counter

import pytest
from msgspec.structs import replace

from domain.engine import Awaited
from domain.miss_liz_parks import GAME
from domain.miss_liz_parks.commands import (
    AssignEmployee,
    BuildTile,
    BuyPlanningCard,
    BuyStreets,
    BuyTile,
    ChooseTheme,
    EndTurn,
    HireEmployees,
    KeepPlanningCard,
    MoveEmployee,
    PassRound,
    PlaceEntrance,
    PlaceFirstStreet,
    PlaceThemeToken,
    ReturnPlanningCard,
    TakeInvestment,
)
from domain.miss_liz_parks.components import ENTRANCES, PLANNING, THEME_IDS, TILES
from domain.miss_liz_parks.events import (
    ActivationRewarded,
    ActivationRewardReturned,
    IncomeCollected,
    ParkGameEnded,
    ParkRoundBegan,
    ParkTurnBegan,
    PlanningCardKept,
    ProjectsLaidOut,
    StartingPlayerDrawn,
)
from domain.miss_liz_parks.state import Options, active, building_at, connected, income_due, theme_of
from domain.miss_liz_parks.views import view

from .helpers import (
    OCEAN,
    WESTERN,
    WILD,
    commands_of,
    ctx,
    fold,
    offered,
    park,
    pass_all,
    play,
    rejection,
    start,
    themes_chosen,
    with_park,
)

# -- setup -------------------------------------------------------------------------------------


def test_first_player_is_drawn_at_random() -> None:
    firsts = set()
    for seed in range(40):
        events = GAME.setup(GAME.initial(4, None), ctx(seed))
        assert isinstance(events[0], StartingPlayerDrawn)
        firsts.add(events[0].seat)
    assert firsts == {0, 1, 2, 3}


def test_themes_are_chosen_in_turn_from_the_first_player_one_each() -> None:
    state = fold(GAME.initial(3, None), GAME.setup(GAME.initial(3, None), ctx(5)))
    first = state.first
    assert GAME.awaited(state) == [Awaited(seat=first, reason="theme")]
    assert rejection(state, ChooseTheme(theme=OCEAN), (first + 1) % 3).code == "not_your_turn"
    state, _ = play(state, ChooseTheme(theme=OCEAN))
    assert state.current == (first + 1) % 3
    assert rejection(state, ChooseTheme(theme=OCEAN)).code == "theme_taken"
    assert rejection(state, ChooseTheme(theme="space")).code == "unknown_theme"
    assert ChooseTheme(theme=OCEAN) not in GAME.commands(state, state.current)


@pytest.mark.parametrize(("players", "pile"), [(2, 6), (3, 8), (4, 10), (5, 12)])
def test_tiles_removed_unseen_and_five_piles_per_player_count(players: int, pile: int) -> None:
    state, _ = themes_chosen(players)
    themes = set(THEME_IDS[:players])
    assert [len(p) for p in state.piles] == [pile] * 5
    removed = Counter(TILES[t].theme for t in state.removed)
    assert removed == {**dict.fromkeys(themes, 5), "none": 5}
    in_play = [t for p in state.piles for t in p]
    assert all(TILES[t].theme in themes | {"none"} and TILES[t].type != "Entrance" for t in in_play)
    assert len(set(in_play) | set(state.removed)) == 15 * players + 15


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_each_player_starts_with_income_10_two_tokens_two_employees_two_planning_cards(players: int) -> None:
    state, _ = themes_chosen(players)
    for p in state.parks:
        assert (p.income, p.purchase_tokens, p.employees, len(p.looking)) == (10, 2, 2, 2)
    dealt = [c for p in state.parks for c in p.looking]
    assert len(set(dealt)) == 2 * players


def test_planning_deck_holds_only_cards_of_themes_in_play_and_this_player_count() -> None:
    state, _ = themes_chosen(2)
    cards = [PLANNING[c] for c in (*state.planning_deck, *(c for p in state.parks for c in p.looking))]
    assert all(not c.themes or set(c.themes) & {OCEAN, THEME_IDS[1]} for c in cards)
    assert all(not c.players or 2 in c.players for c in cards)
    assert len(cards) == 2 + 7 + 2


def test_setup_choices_await_every_seat_at_once() -> None:
    state, _ = themes_chosen(3)
    assert GAME.awaited(state) == [Awaited(seat=s, reason="entrance") for s in range(3)]
    state, _ = play(state, PlaceEntrance(column=0), 1)
    assert Awaited(seat=1, reason="street") in GAME.awaited(state)


def test_entrance_goes_on_the_bottom_row_and_the_first_street_beside_it() -> None:
    state, _ = themes_chosen(2)
    assert rejection(state, PlaceFirstStreet(cell=(4, 3)), 0).code == "entrance_first"
    assert rejection(state, PlaceEntrance(column=7), 0).code == "off_grid"
    state, _ = play(state, PlaceEntrance(column=0), 0)
    gate = building_at(state.parks[0], (5, 0))
    assert gate is not None and gate.tile == ENTRANCES[state.parks[0].theme or ""]
    assert GAME.commands(state, 0)[:2] == [PlaceFirstStreet(cell=(4, 0)), PlaceFirstStreet(cell=(5, 1))]
    assert rejection(state, PlaceFirstStreet(cell=(3, 0)), 0).code == "not_beside_entrance"
    assert rejection(state, PlaceEntrance(column=1), 0).code == "entrance_placed"


def test_keep_one_planning_card_and_the_other_goes_under_the_deck() -> None:
    state, _ = themes_chosen(2)
    a, b = state.parks[0].looking
    state, events = play(state, KeepPlanningCard(card=b), 0)
    assert events == [PlanningCardKept(seat=0, card=b, returned=a)]
    assert state.parks[0].planning == (b,) and state.planning_deck[-1] == a


def test_round_1_starts_when_every_park_is_set_up_clockwise_from_the_first_player() -> None:
    state, log = start(3, seed=2)
    began = next(e for e in log if isinstance(e, ParkRoundBegan))
    assert began.order == tuple((state.first + i) % 3 for i in range(3))
    assert state.current == state.first and state.round == 1
    assert not any(isinstance(e, IncomeCollected) for e in log)  # no income phase in round 1


# -- rounds ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "row"), [(2, 3), (3, 4), (4, 5), (5, 6)])
def test_pile_laid_out_in_the_cost_4_row_then_the_cost_3_row(players: int, row: int) -> None:
    state, log = start(players)
    laid = next(e for e in log if isinstance(e, ProjectsLaidOut))
    assert len(laid.cost4) == len(laid.cost3) == row
    assert [t for t in state.projects[0] if t] == list(laid.cost4)
    assert state.piles[0] == ()


def test_income_phase_from_round_2_pays_active_buildings() -> None:
    state, _ = start(2)
    shop = park(OCEAN, [((3, 3), "oceanic-shop-1", 1)], [(4, 3)], income=4)
    state = with_park(state, 0, shop)
    state, events = pass_all(state)
    paid = [e for e in events if isinstance(e, IncomeCollected)]
    assert IncomeCollected(seat=0, amount=3, income=7) in paid and len(paid) == 2


def test_passing_order_is_next_rounds_turn_order_and_passed_players_are_skipped() -> None:
    state, _ = start(3)
    first = state.current
    assert first is not None
    second = (first + 1) % 3
    state, _ = play(state, HireEmployees(count=1))
    state, _ = play(state, EndTurn())
    state, _ = play(state, PassRound())  # second passes first
    third = (first + 2) % 3
    assert state.current == third
    state, _ = play(state, PassRound())
    assert state.current == first  # the second seat is skipped
    state, events = play(state, PassRound())
    began = next(e for e in events if isinstance(e, ParkRoundBegan))
    assert began.order == (second, third, first)


def test_game_ends_after_round_5_with_no_income_after_it() -> None:
    state, _ = start(2)
    events: list[object] = []
    for _ in range(5):
        state, events = pass_all(state)  # type: ignore[assignment]
    assert state.phase == "over" and isinstance(events[-1], ParkGameEnded)
    assert not any(isinstance(e, IncomeCollected | ProjectsLaidOut) for e in events)
    assert GAME.outcome(state) is not None


# -- actions -----------------------------------------------------------------------------------


def _with_tile(state, row: int, tile: str):  # type: ignore[no-untyped-def]
    rows = [list(r) for r in state.projects]
    rows[row][0] = tile
    return replace(state, projects=tuple(tuple(r) for r in rows))


def test_buying_a_tile_costs_its_rows_price_and_a_purchase_token() -> None:
    state, _ = start(2)
    seat = state.current
    state = _with_tile(state, 2, "wild-shop-1")
    state, _ = play(state, BuyTile(tile="wild-shop-1"))
    assert state.parks[seat].income == 8 and state.parks[seat].tokens_used == 1  # type: ignore[index]
    assert GAME.awaited(state) == [Awaited(seat=seat, reason="build")]  # type: ignore[arg-type]
    assert rejection(state, EndTurn()).code == "build_first"
    assert rejection(state, BuildTile(cell=(4, 3))).code == "cell_taken"
    assert rejection(state, BuildTile(cell=(6, 0))).code == "off_grid"
    state, _ = play(state, BuildTile(cell=(0, 0)))  # anywhere on the grid
    assert building_at(state.parks[seat], (0, 0)) is not None  # type: ignore[index]


def test_no_purchase_token_left_means_no_more_tiles_this_round() -> None:
    state, _ = start(2)
    seat = state.current
    assert seat is not None
    state = with_park(state, seat, replace(state.parks[seat], tokens_used=2))
    tile = next(t for t in state.projects[0] if t)
    assert rejection(state, BuyTile(tile=tile)).code == "no_purchase_token"
    assert "BuyTile" not in offered(state, seat)


def test_income_never_goes_below_zero() -> None:
    state, _ = start(2)
    seat = state.current
    assert seat is not None
    state = with_park(state, seat, replace(state.parks[seat], income=3))
    tile = next(t for t in state.projects[0] if t)
    assert rejection(state, BuyTile(tile=tile)).code == "cannot_afford"
    assert rejection(state, HireEmployees(count=4)).code == "cannot_afford"
    assert rejection(state, BuyStreets(cells=((0, 0), (0, 1), (0, 2), (0, 3)))).code == "cannot_afford"
    assert [c.count for c in commands_of(state, seat, "HireEmployees") if isinstance(c, HireEmployees)] == [1, 2, 3]


def test_streets_need_empty_cells_on_the_grid() -> None:
    state, _ = start(2)
    assert rejection(state, BuyStreets(cells=())).code == "no_cells"
    assert rejection(state, BuyStreets(cells=((4, 3),))).code == "cell_taken"
    assert rejection(state, BuyStreets(cells=((0, 0), (0, 0)))).code == "same_cell"
    assert rejection(state, BuyStreets(cells=((0, 9),))).code == "off_grid"


def test_employees_come_from_the_players_colour_15_in_all() -> None:
    state, _ = start(2)
    seat = state.current
    assert seat is not None
    state = with_park(state, seat, replace(state.parks[seat], income=30, employees=14))
    assert rejection(state, HireEmployees(count=2)).code == "no_employees_left"
    assert rejection(state, HireEmployees(count=0)).code == "bad_count"
    state, _ = play(state, HireEmployees(count=1))
    assert state.parks[seat].employees == 15


def test_buy_planning_card_see_two_keep_one_once_a_round() -> None:
    state, _ = start(2)
    seat = state.current
    assert seat is not None
    top = state.planning_deck[:2]
    state, _ = play(state, BuyPlanningCard())
    assert state.parks[seat].looking == top and state.parks[seat].income == 7
    assert rejection(state, KeepPlanningCard(card="plan-nothing")).code == "not_offered"
    state, _ = play(state, KeepPlanningCard(card=top[1]))
    assert state.parks[seat].planning[-1] == top[1] and state.planning_deck[-1] == top[0]
    state, _ = play(state, EndTurn())
    state, _ = play(state, PassRound())
    assert rejection(state, BuyPlanningCard()).code == "planning_once_a_round"


def test_a_fourth_planning_card_makes_the_player_return_one() -> None:
    state, _ = start(2)
    seat = state.current
    assert seat is not None
    held = state.parks[seat].planning + state.planning_deck[-2:]
    state = replace(state, planning_deck=state.planning_deck[:-2])
    state = with_park(state, seat, replace(state.parks[seat], planning=held))
    state, _ = play(state, BuyPlanningCard())
    state, _ = play(state, KeepPlanningCard(card=state.parks[seat].looking[0]))
    assert GAME.awaited(state) == [Awaited(seat=seat, reason="give_back")]
    assert rejection(state, EndTurn()).code == "give_back_first"
    state, _ = play(state, ReturnPlanningCard(card=held[0]))
    assert len(state.parks[seat].planning) == 3 and state.planning_deck[-1] == held[0]


def test_one_action_a_turn_then_free_actions_and_end_turn() -> None:
    state, _ = start(2)
    assert rejection(state, EndTurn()).code == "action_first"
    assert "PassRound" in offered(state, state.current)  # type: ignore[arg-type]
    state, _ = play(state, HireEmployees(count=1))
    assert rejection(state, HireEmployees(count=1)).code == "action_taken"
    assert rejection(state, PassRound()).code == "action_taken"
    assert rejection(state, HireEmployees(count=1), 1 - state.current).code == "not_your_turn"  # type: ignore[operator]


# -- free actions and activation -----------------------------------------------------------------


def test_active_needs_an_employee_and_a_street_path_to_the_entrance() -> None:
    p = park(OCEAN, [((3, 3), "oceanic-shop-1", 0), ((2, 0), "oceanic-shop-2", 1)], [(4, 3), (2, 1)])
    assert active(p) == []  # one unstaffed, the other's street is not joined to the entrance
    joined = replace(p, streets=(*p.streets, (3, 1), (4, 1), (4, 2)))
    assert [b.tile for b in active(joined)] == ["oceanic-shop-2"]


def test_buildings_block_streets() -> None:
    # street (4,3) - shop (3,3) - street (2,3) - ride (1,3): the path stops at the shop.
    p = park(OCEAN, [((3, 3), "oceanic-shop-1", 1), ((1, 3), "oceanic-ride-1", 1)], [(4, 3), (2, 3)])
    assert [b.tile for b in active(p)] == ["oceanic-shop-1"]
    assert (1, 3) not in connected(p)


def test_the_entrance_is_active_when_staffed() -> None:
    p = park(OCEAN, [], [(4, 3)])
    gate = replace(p.buildings[0], employees=1)
    assert active(replace(p, buildings=(gate,))) == [gate]


def test_assign_employees_to_unstaffed_buildings_any_number_on_a_rest_area() -> None:
    state, _ = start(2)
    seat = state.current
    assert seat is not None
    p = park(OCEAN, [((3, 3), "oceanic-rest-area", 0), ((3, 2), "oceanic-shop-1", 1)], [(4, 3)], employees=3)
    state = with_park(state, seat, p)
    assert rejection(state, AssignEmployee(cell=(3, 2))).code == "already_staffed"
    assert rejection(state, AssignEmployee(cell=(0, 0))).code == "no_building"
    state, _ = play(state, AssignEmployee(cell=(3, 3)))
    state, _ = play(state, AssignEmployee(cell=(3, 3)))
    assert building_at(state.parks[seat], (3, 3)).employees == 2  # type: ignore[union-attr]
    state = with_park(state, seat, replace(state.parks[seat], employees=0))
    assert rejection(state, AssignEmployee(cell=(3, 3))).code == "no_employee_in_supply"


def test_moving_employees_needs_an_active_rest_area() -> None:
    state, _ = start(2)
    seat = state.current
    assert seat is not None
    p = park(
        OCEAN,
        [((3, 3), "oceanic-rest-area", 0), ((3, 2), "oceanic-shop-1", 1), ((2, 2), "oceanic-shop-2", 0)],
        [(4, 3)],
    )
    state = with_park(state, seat, p)
    assert rejection(state, MoveEmployee(source=(3, 2), target=(2, 2))).code == "no_rest_area"
    state = with_park(state, seat, replace(p, employees=1))
    state, _ = play(state, AssignEmployee(cell=(3, 3)))
    state, _ = play(state, MoveEmployee(source=(3, 2), target=(2, 2)))
    assert building_at(state.parks[seat], (2, 2)).employees == 1  # type: ignore[union-attr]
    assert rejection(state, MoveEmployee(source=(3, 2), target=(3, 3))).code == "no_employee_there"


def test_employees_move_at_most_twice_as_many_times_a_turn_as_the_park_has_on_its_buildings() -> None:
    """A ruling of ours (rules 3): the rulebook sets no limit on a Rest Area's moves, and an
    employee moved back and forth forever would never end the turn (a bot did so; a player could
    grow the game to its most events). Twice the employees on the buildings allows any arrangement,
    each through the Rest Area. Games begun under older rules keep no limit."""
    state, _ = start(2)
    seat = state.current
    assert seat is not None
    p = park(
        OCEAN,
        [((3, 3), "oceanic-rest-area", 1), ((3, 2), "oceanic-shop-1", 1), ((2, 2), "oceanic-shop-2", 0)],
        [(4, 3)],
    )
    state = with_park(state, seat, p)
    back, forth = MoveEmployee(source=(3, 2), target=(2, 2)), MoveEmployee(source=(2, 2), target=(3, 2))
    for left, move in zip((4, 3, 2, 1), (back, forth, back, forth), strict=True):  # 2 employees on the buildings
        assert view(state, 1 - seat).employee_moves_left == left  # every seat sees what is left
        state, _ = play(state, move)
    assert view(state, seat).employee_moves_left == 0
    refused = rejection(state, back)
    assert (refused.code, refused.details) == ("moves_used", {"most": 4})
    assert "MoveEmployee" not in offered(state, seat)
    older = replace(state, rules=2)
    play(older, back)  # no limit under rules 2
    assert "MoveEmployee" in offered(older, seat)
    assert view(older, seat).employee_moves_left is None
    after = fold(state, [ParkTurnBegan(seat=seat)])
    assert after.moved == 0 and "MoveEmployee" in offered(after, seat)


def test_administration_gives_two_employees_and_two_theme_tokens_on_activation() -> None:
    state, _ = start(2)
    seat = state.current
    assert seat is not None
    state = with_park(state, seat, park(OCEAN, [((3, 3), "oceanic-administration", 0)], [(4, 3)], employees=1))
    state, events = play(state, AssignEmployee(cell=(3, 3)))
    assert events[-1] == ActivationRewarded(seat=seat, cell=(3, 3), employees=2, theme_tokens=2)
    assert state.parks[seat].employees == 2 and state.parks[seat].theme_tokens == 2
    assert state.theme_tokens == 22


def test_theme_token_changes_a_buildings_theme_for_the_rest_of_the_game() -> None:
    state, _ = start(2)
    seat = state.current
    assert seat is not None
    state = with_park(state, seat, park(OCEAN, [((3, 3), "no-theme-shop-1", 0)], [(4, 3)], theme_tokens=1))
    assert rejection(state, PlaceThemeToken(cell=(5, 3), theme=WILD)).code == "entrance_keeps_its_theme"
    state, _ = play(state, PlaceThemeToken(cell=(3, 3), theme=OCEAN))
    assert theme_of(building_at(state.parks[seat], (3, 3))) == OCEAN  # type: ignore[arg-type]
    assert rejection(state, PlaceThemeToken(cell=(3, 3), theme=WILD)).code == "no_theme_token"


def test_board_of_directors_gives_a_purchase_token_on_activation() -> None:
    state, _ = start(2)
    seat = state.current
    assert seat is not None
    state = with_park(state, seat, park(OCEAN, [((3, 3), "oceanic-board-of-directors", 1)], [], income=5))
    state, events = play(state, BuyStreets(cells=((4, 3),)))
    assert events[-1] == ActivationRewarded(seat=seat, cell=(3, 3), purchase_tokens=1)
    assert state.parks[seat].purchase_tokens == 3


def test_taking_the_employee_off_an_administration_gives_its_reward_back() -> None:
    state, _ = start(2)
    seat = state.current
    assert seat is not None
    admin = replace(
        park(
            OCEAN,
            [((3, 3), "oceanic-administration", 1), ((3, 2), "oceanic-rest-area", 1), ((2, 3), "oceanic-shop-1", 0)],
            [(4, 3), (4, 2)],
        ).buildings[1],
        reward=(2, 2, 0),
    )
    p = park(
        OCEAN,
        [((3, 2), "oceanic-rest-area", 1), ((2, 3), "oceanic-shop-1", 0)],
        [(4, 3), (4, 2)],
        employees=1,
        theme_tokens=2,
    )
    p = replace(p, buildings=(*p.buildings, admin))
    state = with_park(state, seat, p)
    move = MoveEmployee(source=(3, 3), target=(2, 3))
    assert rejection(state, move).code == "cannot_return_reward"  # only 1 employee in the supply
    assert move not in commands_of(state, seat, "MoveEmployee")
    state = with_park(state, seat, replace(p, employees=2))
    state, events = play(state, move)
    assert events[0] == ActivationRewardReturned(seat=seat, cell=(3, 3), employees=2, theme_tokens=2)
    assert state.parks[seat].employees == 0 and state.parks[seat].theme_tokens == 0


# -- end of round --------------------------------------------------------------------------------


def test_purchase_tokens_come_back_at_the_end_of_the_round() -> None:
    state, _ = start(2)
    state = replace(state, parks=tuple(replace(p, tokens_used=2) for p in state.parks))
    state, _ = pass_all(state)
    assert all(p.tokens_used == 0 for p in state.parks) and state.round == 2


def test_every_left_tile_slides_to_the_cost_2_row() -> None:
    state, _ = start(2)
    top, middle = state.projects[0][:3], state.projects[1][:3]
    state, _ = pass_all(state)
    assert state.projects[2][:3] == top  # each cost 4 tile pushed its cost 3 tile off
    assert set(middle) <= set(state.discarded)


# -- variants ------------------------------------------------------------------------------------


def test_investment_up_to_10_a_game_adds_income_now() -> None:
    state, _ = start(2, options=Options(investment=True))
    seat = state.current
    assert seat is not None
    state, _ = play(state, TakeInvestment(amount=7))
    assert state.parks[seat].income == 17 and state.parks[seat].invested == 7
    assert rejection(state, TakeInvestment(amount=4)).code == "investment_limit"
    assert [c.amount for c in commands_of(state, seat, "TakeInvestment") if isinstance(c, TakeInvestment)] == [1, 2, 3]


def test_investment_is_refused_without_the_variant() -> None:
    state, _ = start(2)
    assert rejection(state, TakeInvestment(amount=1)).code == "variant_off"
    assert "TakeInvestment" not in offered(state, state.current)  # type: ignore[arg-type]


def test_income_and_shop_neighbour_bonus_counts_any_adjacent_shop() -> None:
    p = park(WESTERN, [((3, 3), "western-shop-1", 1), ((2, 4), "western-shop-2", 0)], [(4, 3)])
    assert income_due(p) == 4  # a corner neighbour counts; the neighbour need not be active
