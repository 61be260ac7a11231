"""One test per rule of a turn: buying cards, moving, photos, planes, paying, drawing."""

from __future__ import annotations

from msgspec.structs import replace

from domain.i_love_portugal import GAME
from domain.i_love_portugal.cards import AIRPORTS, CONNECTION_KIND, NEIGHBOURS, PILE, RATING, REGION_INDEX
from domain.i_love_portugal.commands import BuyCard, BuyPhoto, EndTurnAndDraw, FlyTo, MoveTourist
from domain.i_love_portugal.events import (
    CardBought,
    DrawPileShuffled,
    HandDiscarded,
    HandDrawn,
    PhotoBought,
    PlaneFlown,
    TouristMoved,
    TurnPassedTo,
)
from domain.i_love_portugal.state import State

from .helpers import cards_of, play, rejection, started, with_hand

ONES = cards_of("backpack", "red", 1)
TWOS = cards_of("backpack", "red", 2)
PLANES = cards_of("plane")
ALBUMS = cards_of("album")


def rich(state: State, at: str | None = None) -> State:
    """The seat to play holds 2+2+2+1+1 = 8 EUR."""
    assert state.current is not None
    return with_hand(state, state.current, [*TWOS, *ONES[:2]], at=at)


def price_at(state: State, region: str) -> int:
    return RATING[state.ratings[REGION_INDEX[region]]].price


# -- buying cards on the board ---------------------------------------------------------------


def test_board_cards_cost_3_5_and_6_in_the_order_the_piles_are_listed() -> None:
    """ "Selfie cards, Album cards and Plane cards" ... "3 EUR, 5 EUR and 6 EUR" (rules version 2)."""
    assert (PILE["selfie"].price, PILE["album"].price, PILE["plane"].price) == (3, 5, 6)


def test_a_bought_card_goes_to_the_discard_pile_and_its_price_to_the_turn() -> None:
    state = rich(started(3))
    seat = state.current
    assert seat is not None
    top = state.piles[2][0]
    state, events = play(state, BuyCard(pile="plane"))
    assert events == [CardBought(seat=seat, pile="plane", card=top, price=6)]
    assert state.discards[seat] == (top,) and state.spent == 6 and top not in state.piles[2]


def test_no_card_is_bought_from_an_empty_pile() -> None:
    state = rich(started(3))
    state = replace(state, piles=(state.piles[0], (), state.piles[2]))
    assert BuyCard(pile="album") not in GAME.commands(state, state.current)  # type: ignore[arg-type]
    assert rejection(state, BuyCard(pile="album")).code == "pile_empty"


# -- paying: the golden rules ------------------------------------------------------------------


def test_a_step_the_hand_can_no_longer_pay_is_refused_at_that_step() -> None:
    state = rich(started(3))  # 8 EUR
    seat = state.current
    assert seat is not None
    state, _ = play(state, BuyCard(pile="album"))  # 5
    legal = GAME.commands(state, seat)
    assert BuyCard(pile="selfie") in legal and BuyCard(pile="album") not in legal
    refused = rejection(state, BuyCard(pile="album"))
    assert refused.code == "cannot_pay" and refused.details == {"cost": 10, "paying": "turn"}
    state, _ = play(state, BuyCard(pile="selfie"))  # 8: exactly the hand
    assert rejection(state, MoveTourist(to=NEIGHBOURS[state.tourists[seat] or ""][0])).code == "cannot_pay"
    assert GAME.commands(state, seat) == [EndTurnAndDraw()]


def test_payment_at_the_end_of_the_turn_discards_the_whole_hand_without_change() -> None:
    state = rich(started(3))
    seat = state.current
    assert seat is not None
    hand = state.hands[seat]
    state, _ = play(state, BuyCard(pile="selfie"))
    state, events = play(state, EndTurnAndDraw())
    assert events[0] == HandDiscarded(seat=seat, paid=3, cards=hand)
    assert set(hand) <= set(state.discards[seat]) and len(state.hands[seat]) == 5 and state.spent == 0


def test_ending_the_turn_is_always_allowed() -> None:
    state = with_hand(started(2), 0, [])
    state = replace(state, current=0)
    assert GAME.commands(state, 0) == [EndTurnAndDraw()]


def test_the_turn_ends_by_drawing_5_new_cards() -> None:
    state = started(4)
    seat = state.current
    assert seat is not None
    top5 = state.draw[seat][:5]
    state, events = play(state, EndTurnAndDraw())
    assert HandDrawn(seat=seat, count=5, cards=top5) in events
    assert state.hands[seat] == top5 and state.draw[seat] == ()


def test_an_empty_draw_pile_is_refilled_by_shuffling_the_discard_pile() -> None:
    state = started(2)
    seat = state.current
    assert seat is not None
    state, _ = play(state, EndTurnAndDraw())  # 5 left in the draw pile, then none
    for _ in range(2):  # the other seat, then this one again
        state, events = play(state, EndTurnAndDraw())
    drawn_from = [e for e in events if isinstance(e, HandDrawn | DrawPileShuffled)]
    assert isinstance(drawn_from[0], DrawPileShuffled) and drawn_from[0].seat == seat
    assert drawn_from[0].count == 10 and isinstance(drawn_from[1], HandDrawn)
    assert len(state.hands[seat]) == 5 and len(state.draw[seat]) == 5 and state.discards[seat] == ()


def test_a_short_draw_pile_is_drawn_first_then_the_discard_pile_is_shuffled() -> None:
    state = started(2)
    seat = state.current
    assert seat is not None
    state = replace(state, draw=tuple(d[:2] if s == seat else d for s, d in enumerate(state.draw)))
    last_two = state.draw[seat]
    state, events = play(state, EndTurnAndDraw())
    kinds = [type(e).__name__ for e in events]
    assert kinds == ["HandDiscarded", "HandDrawn", "DrawPileShuffled", "HandDrawn", "TurnPassedTo"]
    assert events[1] == HandDrawn(seat=seat, count=2, cards=last_two)
    assert state.hands[seat][:2] == last_two and len(state.hands[seat]) == 5


def test_play_proceeds_clockwise() -> None:
    state = started(4, seed=5)
    first = state.current
    assert first is not None
    seen = []
    for _ in range(5):
        seen.append(state.current)
        state, events = play(state, EndTurnAndDraw())
        assert isinstance(events[-1], TurnPassedTo)
    assert seen == [first, (first + 1) % 4, (first + 2) % 4, (first + 3) % 4, first]


# -- moving the tourist -------------------------------------------------------------------------


def test_a_move_along_one_connection_costs_1() -> None:
    state = rich(started(3), at="coimbra")
    seat = state.current
    assert seat is not None
    state, events = play(state, MoveTourist(to="leiria"))
    assert events == [TouristMoved(seat=seat, origin="coimbra", to="leiria", cost=1)]
    assert state.tourists[seat] == "leiria" and state.spent == 1


def test_moves_go_only_along_connections() -> None:
    state = rich(started(3), at="coimbra")
    assert rejection(state, MoveTourist(to="faro")).code == "not_connected"
    assert rejection(state, MoveTourist(to="atlantis")).code == "no_such_circle"
    legal = {c.to for c in GAME.commands(state, state.current) if isinstance(c, MoveTourist)}  # type: ignore[arg-type]
    assert legal == set(NEIGHBOURS["coimbra"])


def test_a_sea_move_costs_1_like_a_land_move() -> None:
    state = rich(started(3), at="lisboa")
    waypoint = next(c for c in NEIGHBOURS["lisboa"] if CONNECTION_KIND[frozenset(("lisboa", c))] == "sea")
    state, events = play(state, MoveTourist(to=waypoint))
    assert events[0].cost == 1 and state.spent == 1  # type: ignore[union-attr]


def test_waypoints_are_grey_circles_between_black_circles() -> None:
    state = rich(started(3), at="lisboa")
    state, _ = play(state, MoveTourist(to="lisboa~setubal"))
    assert rejection(state, BuyPhoto()).code == "not_on_black_circle"
    state, _ = play(state, MoveTourist(to="setubal"))
    assert state.spent == 2


def test_any_number_of_tourists_share_a_circle() -> None:
    state = started(3)
    seat = state.current
    assert seat is not None
    other = state.tourists[(seat + 1) % 3]
    assert other is not None
    near = NEIGHBOURS[other][0]
    state = rich(state, at=near)
    state, _ = play(state, MoveTourist(to=other))
    assert state.tourists.count(other) == 2


# -- photos ------------------------------------------------------------------------------------


def test_a_photo_costs_the_rating_and_scores_as_many_points_at_once() -> None:
    state = rich(started(3), at="porto")
    seat = state.current
    assert seat is not None
    price = price_at(state, "porto")
    state, events = play(state, BuyPhoto())
    photo = events[0]
    assert isinstance(photo, PhotoBought) and photo.price == price and photo.region == "porto"
    assert state.scores[seat] == price and state.spent == price
    assert photo.card in state.discards[seat] and photo.card.startswith("photo-porto-")


def test_a_photo_places_one_cube_in_the_region() -> None:
    state = rich(started(4), at="porto")
    seat = state.current
    assert seat is not None
    state, _ = play(state, BuyPhoto())
    assert state.cubes[REGION_INDEX["porto"]] == (seat,) and state.cubes_left[seat] == 12


def test_one_photo_per_region_per_player() -> None:
    state = rich(started(4), at="porto")
    state = replace(state, ratings=("rating-2",) * 20)
    state, _ = play(state, BuyPhoto())
    assert BuyPhoto() not in GAME.commands(state, state.current)  # type: ignore[arg-type]
    assert rejection(state, BuyPhoto()).code == "photo_already_bought"


def test_no_photo_when_the_region_has_no_free_space() -> None:
    state = rich(started(3), at="porto")
    seat = state.current
    assert seat is not None
    others = [s for s in range(3) if s != seat]
    index = REGION_INDEX["porto"]
    state = replace(state, cubes=(*state.cubes[:index], tuple(others), *state.cubes[index + 1 :]))
    assert rejection(state, BuyPhoto()).code == "region_full"


def test_photos_only_on_a_black_circle() -> None:
    state = rich(started(3), at="lisboa~setubal")
    assert BuyPhoto() not in GAME.commands(state, state.current)  # type: ignore[arg-type]
    assert rejection(state, BuyPhoto()).code == "not_on_black_circle"


def test_a_photo_the_hand_cannot_pay_is_refused() -> None:
    state = started(3)
    state = with_hand(state, state.current or 0, ONES[:1], at="porto")
    state = replace(state, ratings=("rating-3",) * 20)
    assert rejection(state, BuyPhoto()).code == "cannot_pay"


def test_no_photo_without_a_cube_left() -> None:
    state = rich(started(3), at="porto")
    seat = state.current or 0
    state = replace(state, cubes_left=tuple(0 if s == seat else c for s, c in enumerate(state.cubes_left)))
    assert rejection(state, BuyPhoto()).code == "no_cubes_left"


# -- the Plane card -------------------------------------------------------------------------------


def test_a_plane_flies_the_tourist_to_any_airport_from_anywhere() -> None:
    state = started(3)
    seat = state.current or 0
    state = with_hand(state, seat, [PLANES[0], *ONES[:2]], at="evora")
    legal = {c.airport for c in GAME.commands(state, seat) if isinstance(c, FlyTo)}
    assert legal == set(AIRPORTS)
    state, events = play(state, FlyTo(airport="madeira"))
    assert events == [PlaneFlown(seat=seat, card=PLANES[0], origin="evora", to="madeira")]
    assert state.tourists[seat] == "madeira" and PLANES[0] in state.discards[seat]
    assert PLANES[0] not in state.hands[seat] and state.spent == 0


def test_a_plane_is_worth_3_when_spent_instead() -> None:
    state = started(3)
    seat = state.current or 0
    state = with_hand(state, seat, [PLANES[0]])
    state, _ = play(state, BuyCard(pile="selfie"))
    assert state.spent == 3


def test_a_plane_flight_that_leaves_the_turn_unpaid_is_refused() -> None:
    state = started(3)
    seat = state.current or 0
    state = with_hand(state, seat, [PLANES[0], *ONES[:1]], at="porto")
    state, _ = play(state, BuyCard(pile="selfie"))  # 3 of the 4 EUR: the plane must pay
    assert not any(isinstance(c, FlyTo) for c in GAME.commands(state, seat))
    assert rejection(state, FlyTo(airport="faro")).code == "cannot_pay"


def test_planes_fly_only_to_airports_and_need_a_plane() -> None:
    state = started(3)
    seat = state.current or 0
    state = with_hand(state, seat, [*ONES[:3]], at="porto")
    assert rejection(state, FlyTo(airport="faro")).code == "no_plane"
    state = with_hand(state, seat, [PLANES[0]], at="porto")
    assert rejection(state, FlyTo(airport="beja")).code == "not_an_airport"
    assert rejection(state, FlyTo(airport="porto")).code == "already_there"


def test_album_cards_pay_2_and_make_photos_pay() -> None:
    state = started(3)
    seat = state.current or 0
    photos = cards_of("photo")[:2]
    state = with_hand(state, seat, [ALBUMS[0], *photos, ONES[0]])  # 2 + 1 + 1 + 1
    state, _ = play(state, BuyCard(pile="album"))
    assert state.spent == 5
