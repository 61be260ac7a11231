"""One test per rule of play (setup, turns, bonus cards, the end)."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from domain.engine import Awaited
from domain.vilar_de_mouros import GAME
from domain.vilar_de_mouros.cards import BONUS_CARDS, GAME_CARDS, TARGET
from domain.vilar_de_mouros.commands import DrawFromCentre, DrawFromDeck, PlaceCards, TakeBonus
from domain.vilar_de_mouros.events import (
    BonusRevealed,
    BonusTaken,
    CardDrawn,
    CardsDealt,
    CardsPlaced,
    DeckShuffled,
    FirstPlayerDrawn,
    GameEnded,
    TurnStarted,
)
from domain.vilar_de_mouros.state import bonus_count

from .helpers import auto_turn, bonus_turn, draw_turn, fold, play, rejection, start

# -- setup ---------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3])
def test_deal_12_cards_each_with_2_or_3_players(players: int) -> None:
    state, _ = start(players)
    assert [len(hand) for hand in state.hands] == [12] * players


@pytest.mark.parametrize(("players", "cards"), [(4, 10), (5, 8), (6, 6)])
def test_deal_10_8_6_cards_each_with_4_5_6_players(players: int, cards: int) -> None:
    state, _ = start(players)
    assert [len(hand) for hand in state.hands] == [cards] * players


def test_deal_comes_from_the_top_of_the_shuffled_deck() -> None:
    state, events = start(3, seed=4)
    shuffled = events[0]
    assert isinstance(shuffled, DeckShuffled) and shuffled.order is not None
    order = shuffled.order
    dealt = [e for e in events if isinstance(e, CardsDealt)]
    assert [d.cards for d in dealt] == [order[0:12], order[12:24], order[24:36]]
    assert state.deck == order[36:]


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_bonus_row_holds_players_plus_one(players: int) -> None:
    state, _ = start(players)
    assert len(state.bonus_row) == players + 1
    assert all(card in BONUS_CARDS for card in state.bonus_row)


def test_first_player_is_drawn_at_random() -> None:
    firsts = set()
    for seed in range(30):
        state, events = start(4, seed)
        drawn = [e for e in events if isinstance(e, FirstPlayerDrawn)]
        assert len(drawn) == 1 and state.current == drawn[0].seat
        firsts.add(drawn[0].seat)
    assert firsts == {0, 1, 2, 3}


def test_play_proceeds_clockwise() -> None:
    state, _ = start(3, seed=1)
    first = state.current
    assert first is not None
    seen = []
    for _ in range(4):
        seen.append(state.current)
        state = draw_turn(state)
    assert seen == [first, (first + 1) % 3, (first + 2) % 3, first]


# -- a drawing turn --------------------------------------------------------------------------


def test_turn_draws_two_then_places_one_in_centre_and_one_in_personal_area() -> None:
    state, _ = start(2)
    seat = state.current
    assert seat is not None
    state, events = play(state, DrawFromDeck())
    assert events == [CardDrawn(seat=seat, source="deck", card=events[0].card)]  # type: ignore[union-attr]
    assert GAME.awaited(state) == [Awaited(seat=seat, reason="draw")]
    state, _ = play(state, DrawFromDeck())
    assert GAME.awaited(state) == [Awaited(seat=seat, reason="place")]
    hand = state.hands[seat]
    assert len(hand) == 14
    state, events = play(state, PlaceCards(centre=hand[3], personal=hand[5]))
    assert events == [CardsPlaced(seat=seat, centre=hand[3], personal=hand[5]), TurnStarted(seat=1 - seat)]
    assert state.centre == (hand[3],) and state.personal[seat] == (hand[5],)
    assert len(state.hands[seat]) == 12


def test_draw_falls_back_to_deck_when_centre_empty() -> None:
    state, _ = start(2)
    assert state.centre == ()
    assert GAME.commands(state, state.current) == [  # type: ignore[arg-type]
        *[TakeBonus(card=c) for c in state.bonus_row],
        DrawFromDeck(),
    ]
    assert rejection(state, DrawFromCentre(card=state.deck[0])).code == "centre_empty"


def test_draw_falls_back_to_centre_when_deck_empty() -> None:
    state, _ = start(2)
    state = draw_turn(state)  # one card in the centre now
    state = replace(state, deck=())  # as if the deck had run out
    legal = GAME.commands(state, state.current)  # type: ignore[arg-type]
    assert DrawFromDeck() not in legal and DrawFromCentre(card=state.centre[0]) in legal
    assert rejection(state, DrawFromDeck()).code == "deck_empty"
    state, events = play(state, DrawFromCentre(card=state.centre[0]))
    assert events[0] == CardDrawn(seat=events[0].seat, source="centre", card=events[0].card)  # type: ignore[union-attr]


def test_draw_from_centre_takes_the_named_card() -> None:
    state, _ = start(2)
    state = draw_turn(state)
    card = state.centre[0]
    seat = state.current
    assert seat is not None
    assert rejection(state, DrawFromCentre(card=state.hands[seat][0])).code == "not_in_centre"
    state, _ = play(state, DrawFromCentre(card=card))
    assert card in state.hands[seat] and state.centre == ()


def test_place_cards_needs_two_different_hand_cards() -> None:
    state, _ = start(2)
    state, _ = play(state, DrawFromDeck())
    state, _ = play(state, DrawFromDeck())
    seat = state.current
    assert seat is not None
    hand = state.hands[seat]
    assert rejection(state, PlaceCards(centre=hand[0], personal=hand[0])).code == "same_card"
    other = state.hands[1 - seat][0]
    assert rejection(state, PlaceCards(centre=hand[0], personal=other)).code == "not_in_hand"
    assert rejection(state, PlaceCards(centre=other, personal=hand[0])).code == "not_in_hand"


def test_place_before_drawing_two_is_refused() -> None:
    state, _ = start(2)
    hand = state.hands[state.current]  # type: ignore[index]
    assert rejection(state, PlaceCards(centre=hand[0], personal=hand[1])).code == "draw_first"
    state, _ = play(state, DrawFromDeck())
    assert rejection(state, PlaceCards(centre=hand[0], personal=hand[1])).code == "draw_first"


def test_third_draw_is_refused() -> None:
    state, _ = start(2)
    state, _ = play(state, DrawFromDeck())
    state, _ = play(state, DrawFromDeck())
    assert rejection(state, DrawFromDeck()).code == "already_drew"


def test_drawing_commits_the_turn_to_drawing() -> None:
    state, _ = start(2)
    state, _ = play(state, DrawFromDeck())
    assert rejection(state, TakeBonus(card=state.bonus_row[0])).code == "drawing_started"
    assert all(not isinstance(c, TakeBonus) for c in GAME.commands(state, state.current))  # type: ignore[arg-type]


def test_only_the_seat_whose_turn_it_is_may_act() -> None:
    state, _ = start(3)
    assert state.current is not None
    other = (state.current + 1) % 3
    error = rejection(state, DrawFromDeck(), seat=other)
    assert (error.code, error.message) == (
        "not_your_turn",
        f"It is not your turn: the game awaits Player {state.current + 1}.",
    )
    assert GAME.commands(state, other) == []


def test_personal_area_cards_never_move_again() -> None:
    state, _ = start(2)
    seat = state.current
    assert seat is not None
    state = draw_turn(state)
    state = draw_turn(state)
    kept = state.personal[seat][0]
    state, _ = play(state, DrawFromDeck())
    state, _ = play(state, DrawFromDeck())
    assert rejection(state, PlaceCards(centre=kept, personal=state.hands[seat][0])).code == "not_in_hand"
    assert rejection(state, DrawFromCentre(card=kept)).code == "already_drew"
    assert all(kept not in (c.centre, c.personal) for c in GAME.commands(state, seat))  # type: ignore[union-attr]


# -- bonus cards ---------------------------------------------------------------------------------


def test_take_bonus_goes_to_personal_area_and_row_is_refilled() -> None:
    state, _ = start(2)
    seat = state.current
    assert seat is not None
    card, top = state.bonus_row[1], state.bonus_deck[0]
    state, events = play(state, TakeBonus(card=card))
    assert events == [BonusTaken(seat=seat, card=card), BonusRevealed(card=top), TurnStarted(seat=1 - seat)]
    assert state.personal[seat] == (card,)
    assert len(state.bonus_row) == 3 and top in state.bonus_row and card not in state.bonus_row


def test_bonus_row_shrinks_when_bonus_deck_is_empty() -> None:
    state, _ = start(2)
    state = replace(state, bonus_deck=())
    state, events = play(state, TakeBonus(card=state.bonus_row[0]))
    assert not any(isinstance(e, BonusRevealed) for e in events)
    assert len(state.bonus_row) == 2


def test_take_bonus_must_name_a_face_up_bonus_card() -> None:
    state, _ = start(2)
    assert rejection(state, TakeBonus(card=state.bonus_deck[0])).code == "not_in_bonus_row"
    assert rejection(state, TakeBonus(card=state.deck[0])).code == "not_in_bonus_row"


def test_fourth_bonus_card_is_refused() -> None:
    state, _ = start(2)
    first = state.current
    for _ in range(3):
        state = bonus_turn(state)  # this seat
        state = draw_turn(state)  # the other seat
    assert state.current == first and bonus_count(state, first) == 3  # type: ignore[arg-type]
    error = rejection(state, TakeBonus(card=state.bonus_row[0]))
    assert error.code == "bonus_limit"
    assert all(not isinstance(c, TakeBonus) for c in GAME.commands(state, first))  # type: ignore[arg-type]


def test_player_who_needs_bonus_cards_can_only_take_bonus() -> None:
    state, _ = start(6)  # 9 turns each: after 7 drawing turns the 2 bonus cards are forced
    first = state.current
    assert first is not None
    for _ in range(7 * 6):
        state = draw_turn(state)
    assert state.current == first and len(state.personal[first]) == 7
    assert GAME.awaited(state) == [Awaited(seat=first, reason="bonus")]
    assert GAME.commands(state, first) == [TakeBonus(card=c) for c in state.bonus_row]
    assert rejection(state, DrawFromDeck()).code == "bonus_required"
    assert rejection(state, DrawFromCentre(card=state.centre[0])).code == "bonus_required"


def test_player_with_one_bonus_card_is_forced_only_in_their_last_turn() -> None:
    state, _ = start(6)
    first = state.current
    assert first is not None
    state = bonus_turn(state)
    while not (state.current == first and len(state.personal[first]) == 7):
        state = auto_turn(state)
    assert GAME.awaited(state) == [Awaited(seat=first, reason="action")]  # 2 turns left, 1 card short
    state = draw_turn(state)
    while state.current != first:
        state = auto_turn(state)
    assert GAME.awaited(state) == [Awaited(seat=first, reason="bonus")]  # 1 turn left, 1 card short


# -- the end ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_game_ends_when_every_personal_area_is_full(players: int) -> None:
    state, _ = start(players, seed=players)
    while state.phase != "over":
        state = auto_turn(state)
    assert [len(p) for p in state.personal] == [TARGET[players]] * players
    assert [bonus_count(state, s) for s in range(players)] == [2] * players
    assert GAME.outcome(state) is not None and GAME.awaited(state) == []
    assert all(GAME.commands(state, s) == [] for s in range(players))
    assert rejection(state, DrawFromDeck(), seat=0).code == "game_over"


def test_game_ended_event_carries_the_scores() -> None:
    state, _ = start(2)
    while True:
        seat = state.current
        assert seat is not None
        if len(state.personal[seat]) >= TARGET[2] - 2:
            state, events = play(state, TakeBonus(card=state.bonus_row[0]))
        else:
            state = draw_turn(state)
            continue
        if state.phase == "over":
            break
    assert isinstance(events[-1], GameEnded)
    outcome = GAME.outcome(state)
    assert outcome is not None and list(events[-1].scores) == outcome.scores


def test_seat_with_full_personal_area_is_skipped() -> None:
    state, _ = start(3, seed=2)
    first = state.current
    assert first is not None
    skipped = (first + 1) % 3
    full = tuple(sorted(GAME_CARDS))[-TARGET[3] :]
    state = replace(state, personal=(*state.personal[:skipped], full, *state.personal[skipped + 1 :]))
    state = draw_turn(state)
    assert state.current == (first + 2) % 3


def test_no_command_before_setup() -> None:
    state = GAME.initial(2, None)
    assert GAME.awaited(state) == [] and GAME.commands(state, 0) == []
    assert rejection(state, DrawFromDeck(), seat=0).code == "game_not_started"
    assert fold(state, []) == state
