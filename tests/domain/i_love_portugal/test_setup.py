"""One test per setup rule: first player, rating tokens, colours, cards, cubes, spaces, tourists."""

from __future__ import annotations

from collections import Counter

import pytest

from domain.engine import Awaited
from domain.i_love_portugal import GAME
from domain.i_love_portugal.cards import BACKPACKS, COLOURS, REGION, REGIONS
from domain.i_love_portugal.commands import BuyPhoto, ChooseColour, EndTurnAndDraw, PlaceTourist
from domain.i_love_portugal.events import (
    ColourChosen,
    DrawPileShuffled,
    FirstPlayerCardGiven,
    HandDrawn,
    NeutralCubesPlaced,
    RatingTokensPlaced,
    TouristPlaced,
    TurnPassedTo,
)
from domain.i_love_portugal.state import free_spaces, order_from_first

from .helpers import choose_colours, opened, place_tourists, play, rejection, started


def test_first_player_is_drawn_at_random() -> None:
    firsts = set()
    for seed in range(40):
        state, events = opened(5, seed)
        given = [e for e in events if isinstance(e, FirstPlayerCardGiven)]
        assert len(given) == 1 and state.first == given[0].seat
        firsts.add(given[0].seat)
    assert firsts == set(range(5))


def test_rating_tokens_placed_at_random_one_per_region() -> None:
    layouts = set()
    for seed in range(5):
        _, events = opened(3, seed)
        placed = next(e for e in events if isinstance(e, RatingTokensPlaced))
        assert [r.region for r in placed.ratings] == list(REGIONS)
        assert sorted(Counter(r.token for r in placed.ratings).values()) == [2, 6, 6, 6]
        layouts.add(tuple(r.token for r in placed.ratings))
    assert len(layouts) > 1


def test_colours_are_chosen_in_turn_order_from_the_first_player() -> None:
    state, _ = opened(4, seed=3)
    order = order_from_first(state)
    seen = []
    while state.phase == "colour":
        assert GAME.awaited(state) == [Awaited(seat=state.current, reason="colour")]  # type: ignore[arg-type]
        seen.append(state.current)
        state, _ = play(state, GAME.commands(state, state.current)[-1])  # type: ignore[arg-type]
    assert seen == order


def test_a_colour_is_taken_once() -> None:
    state, _ = opened(3)
    state, _ = play(state, ChooseColour(colour="purple"))
    assert ChooseColour(colour="purple") not in GAME.commands(state, state.current)  # type: ignore[arg-type]
    assert rejection(state, ChooseColour(colour="purple")).code == "colour_taken"
    assert rejection(state, ChooseColour(colour="grey")).code == "no_such_colour"


def test_each_player_shuffles_their_10_backpacks_and_draws_5() -> None:
    state, _ = opened(2)
    seat = state.current
    assert seat is not None
    state, events = play(state, ChooseColour(colour="red"))
    assert isinstance(events[0], ColourChosen) and events[0].colour == "red"
    shuffled, drawn = events[1], events[2]
    assert isinstance(shuffled, DrawPileShuffled) and isinstance(drawn, HandDrawn)
    assert sorted(shuffled.order or ()) == sorted(BACKPACKS["red"]) and len(BACKPACKS["red"]) == 10
    assert drawn.cards == (shuffled.order or ())[:5]
    assert state.hands[seat] == drawn.cards and state.draw[seat] == (shuffled.order or ())[5:]
    values = Counter(c.split("-")[2] for c in BACKPACKS["red"])
    assert values == {"1eur": 7, "2eur": 3}


@pytest.mark.parametrize(("players", "cubes"), [(2, 12), (3, 11), (4, 13), (5, 10)])
def test_cubes_per_player_count(players: int, cubes: int) -> None:
    assert started(players).cubes_left == (cubes,) * players


@pytest.mark.parametrize(("players", "spaces"), [(3, 2), (4, 3), (5, 3)])
def test_spaces_per_region_three_with_4_or_5_players_two_with_3(players: int, spaces: int) -> None:
    state = started(players)
    assert [free_spaces(state, i) for i in range(len(REGIONS))] == [spaces] * 20
    assert state.neutral == ()


def test_two_players_neutral_cubes_leave_one_space_in_9_regions() -> None:
    state, _ = opened(2)
    state, _ = play(state, ChooseColour(colour="red"))
    state, events = play(state, ChooseColour(colour="blue"))
    neutral = next(e for e in events if isinstance(e, NeutralCubesPlaced))
    full = {"red", "blue", "grey", "orange"}
    assert set(neutral.regions) == {r for r in REGIONS if REGION[r].colour not in full}
    assert len(neutral.regions) == 9
    spaces = {r: free_spaces(state, i) for i, r in enumerate(REGIONS)}
    assert sum(1 for r in REGIONS if spaces[r] == 2) == 11
    assert all(spaces[r] == 1 for r in neutral.regions)


def test_tourists_are_placed_in_reverse_turn_order() -> None:
    state = choose_colours(opened(5, seed=2)[0])
    assert state.phase == "tourist"
    order = order_from_first(state)
    seen = []
    while state.phase == "tourist":
        assert GAME.awaited(state) == [Awaited(seat=state.current, reason="tourist")]  # type: ignore[arg-type]
        seen.append(state.current)
        state, events = play(state, GAME.commands(state, state.current)[0])  # type: ignore[arg-type]
    assert seen == list(reversed(order))
    assert events[-1] == TurnPassedTo(seat=order[0]) and state.current == order[0] and state.phase == "turn"


def test_tourist_starts_on_a_black_circle_not_grey_not_orange() -> None:
    state = choose_colours(opened(3)[0])
    legal = {c.region for c in GAME.commands(state, state.current)}  # type: ignore[arg-type,union-attr]
    assert legal == {r for r in REGIONS if REGION[r].colour not in ("grey", "orange")}
    assert rejection(state, PlaceTourist(region="madeira")).code == "not_a_starting_region"
    assert rejection(state, PlaceTourist(region="lisboa")).code == "not_a_starting_region"
    assert rejection(state, PlaceTourist(region="lisboa~setubal")).code == "no_such_region"


def test_tourist_cannot_start_in_a_region_already_taken() -> None:
    state = choose_colours(opened(3)[0])
    state, events = play(state, PlaceTourist(region="beja"))
    assert events == [TouristPlaced(seat=events[0].seat, region="beja")]  # type: ignore[union-attr]
    assert rejection(state, PlaceTourist(region="beja")).code == "region_occupied"
    assert PlaceTourist(region="beja") not in GAME.commands(state, state.current)  # type: ignore[arg-type]


def test_setup_steps_come_in_their_order() -> None:
    state, _ = opened(2)
    assert rejection(state, PlaceTourist(region="beja")).code == "choose_colour_first"
    assert rejection(state, EndTurnAndDraw()).code == "setup_under_way"
    state = choose_colours(state)
    assert rejection(state, ChooseColour(colour="green")).code == "colours_chosen"
    assert rejection(state, BuyPhoto()).code == "setup_under_way"
    state = place_tourists(state)
    assert rejection(state, PlaceTourist(region="beja")).code == "tourists_placed"


def test_only_the_awaited_seat_may_choose() -> None:
    state, _ = opened(3)
    other = ((state.current or 0) + 1) % 3
    assert GAME.commands(state, other) == []
    assert rejection(state, ChooseColour(colour="red"), seat=other).code == "not_your_turn"


def test_every_colour_is_offered() -> None:
    state, _ = opened(5)
    assert [c.colour for c in GAME.commands(state, state.current)] == list(COLOURS)  # type: ignore[arg-type,union-attr]
