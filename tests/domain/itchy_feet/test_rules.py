"""One test per rule of the base game: setup, the five actions, and the standing rules."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from domain.engine import Awaited
from domain.itchy_feet import GAME
from domain.itchy_feet.cards import CARDS, distance_km
from domain.itchy_feet.commands import (
    AcceptTrade,
    DiscardDownToSeven,
    Draw,
    OfferTrade,
    Recycle,
    RejectTrade,
    Steal,
    Travel,
)
from domain.itchy_feet.events import (
    CardsDiscarded,
    CardStolen,
    CardTakenFromDiscard,
    DiscardPileReshuffled,
    FirstTravellerChosen,
    ItchyCardDrawn,
    TradeCompleted,
    TradeOffered,
    TradeRejected,
    Travelled,
    TravelTurnBegan,
    TripWon,
    TurnEnded,
)
from domain.itchy_feet.state import Options, State

from .helpers import arrange, kind, objects_for, of_kind, play, rejection, spare_objects, start, types

# -- setup ---------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_setup_one_passport_into_every_hand_and_the_rest_set_aside(players: int) -> None:
    state, _ = start(players)
    for hand in state.hands:
        assert sum(CARDS[c].type == "passport" for c in hand) == 1
    assert len(state.passports_aside) == 12 - players


@pytest.mark.parametrize("players", [2, 6])
def test_setup_a_random_country_before_each_player_and_one_in_the_centre(players: int) -> None:
    state, _ = start(players, seed=5)
    assert len(set(state.own)) == players and state.centre not in state.own
    assert len(state.aside) == 13 - players - 1
    assert {start(players, seed=s)[0].centre for s in range(20)} != {state.centre}  # random


def test_setup_the_objects_form_the_deck_and_each_player_draws_three() -> None:
    state, _ = start(4)
    assert all(len(hand) == 4 for hand in state.hands)  # the passport and 3 objects
    assert all(CARDS[c].type == "object" for c in state.deck)
    assert len(state.deck) == 32 - 12


def test_first_player_is_the_one_whose_country_is_closest_to_the_centre_one() -> None:
    for seed in range(10):
        state, events = start(4, seed=seed)
        chosen = next(e for e in events if isinstance(e, FirstTravellerChosen))
        assert state.centre is not None
        distances = [distance_km(c, state.centre) for c in state.own if c is not None]
        assert chosen.seat == distances.index(min(distances)) == state.current


def test_play_continues_clockwise() -> None:
    state, _ = start(3)
    first = state.current
    assert first is not None
    state, events = play(state, Draw())
    assert events[-1] == TravelTurnBegan(seat=(first + 1) % 3)


# -- the actions -----------------------------------------------------------------------------


def test_draw_takes_the_top_card_of_the_deck_and_ends_the_turn() -> None:
    state, _ = start(3)
    seat, top = state.current, state.deck[0]
    assert seat is not None
    state, events = play(state, Draw())
    assert events[0] == ItchyCardDrawn(seat=seat, reason="draw", card=top)
    assert isinstance(events[1], TurnEnded) and top in state.hands[seat]


def test_recycle_costs_two_cards_and_takes_any_card_from_the_discard_pile() -> None:
    state, _ = start(3)
    seat = state.current
    assert seat is not None
    a, b, wanted, other = spare_objects(state, 4)
    state = arrange(state, hands={seat: [a, b]}, discard=[wanted, other])
    assert rejection(state, Recycle(pay=(a,), take=wanted)).code == "recycle_cost"
    assert rejection(state, Recycle(pay=(a, a), take=wanted)).code == "same_card"
    assert rejection(state, Recycle(pay=(a, b), take=a)).code == "not_in_discard"  # not the cards just paid
    state, events = play(state, Recycle(pay=(a, b), take=wanted))
    assert events[:2] == [
        CardsDiscarded(seat=seat, cards=(a, b), reason="recycle"),
        CardTakenFromDiscard(seat=seat, card=wanted),
    ]
    assert state.hands[seat] == (wanted,) and state.discard == (other, a, b)


def test_faq_recycle_you_may_look_through_the_discard_pile() -> None:
    state, _ = start(3)
    state = arrange(state, discard=spare_objects(state, 3))
    for viewer in (None, 0, 1, 2):
        assert GAME.view(state, viewer).discard == list(state.discard)


def _trade_table() -> tuple[State, int, int, list[str]]:
    state, _ = start(3)
    seat = state.current
    assert seat is not None
    target = (seat + 1) % 3
    give1, give2, get1, get2, extra = spare_objects(state, 5)
    state = arrange(state, hands={seat: [give1, give2], target: [get1, get2, extra]})
    return state, seat, target, [give1, give2, get1, get2, extra]


def test_trade_accepted_cards_change_hands_face_up_and_the_active_player_draws_a_bonus_card() -> None:
    state, seat, target, (give1, give2, get1, _get2, _) = _trade_table()
    offer = OfferTrade(target=target, give=(give1, give2), ask=(kind(get1),))
    state, events = play(state, offer)
    assert isinstance(events[0], TradeOffered) and events[0].give == (give1, give2)
    assert GAME.awaited(state) == [Awaited(seat=target, reason="trade_answer")]
    assert rejection(state, Draw()).code == "not_your_turn"  # the offerer waits for the answer
    top = state.deck[0]
    state, events = play(state, AcceptTrade(), target)
    assert TradeCompleted(offerer=seat, target=target, given=(give1, give2), received=(get1,)) in events
    assert ItchyCardDrawn(seat=seat, reason="bonus", card=top) in events
    assert set(state.hands[seat]) == {get1, top} and give1 in state.hands[target]


def test_faq_trade_the_numbers_of_cards_given_and_received_may_differ() -> None:
    state, seat, target, (give1, _give2, get1, get2, extra) = _trade_table()
    state, _ = play(state, OfferTrade(target=target, give=(give1,), ask=(kind(get1), kind(get2), kind(extra))))
    state, _ = play(state, AcceptTrade(), target)
    assert {get1, get2, extra} <= set(state.hands[seat]) and state.hands[target] == (give1,)


def test_faq_trade_rejected_the_active_player_may_take_another_action_and_draws_no_bonus() -> None:
    state, seat, target, (give1, _, get1, _, _) = _trade_table()
    state, _ = play(state, OfferTrade(target=target, give=(give1,), ask=(kind(get1),)))
    deck = state.deck
    state, events = play(state, RejectTrade(), target)
    assert events == [TradeRejected(window=events[0].window)]  # type: ignore[union-attr]
    assert state.deck == deck and GAME.awaited(state) == [Awaited(seat=seat, reason="action")]
    state, events = play(state, Draw())
    assert isinstance(events[-1], TravelTurnBegan)


def test_faq_trade_you_may_lie_but_a_player_who_lacks_the_cards_can_only_reject() -> None:
    state, _seat, target, (give1, _, _, _, _) = _trade_table()
    missing = spare_objects(state, 1, avoid=[c for h in state.hands for c in h])[0]
    state, _ = play(state, OfferTrade(target=target, give=(give1,), ask=(kind(missing),)))
    assert GAME.commands(state, target) == [RejectTrade()]
    assert rejection(state, AcceptTrade(), target).code == "lacks_cards"
    _, events = play(state, RejectTrade(), target)
    assert events == [TradeRejected(window=events[0].window)]  # type: ignore[union-attr]


def test_a_rejection_for_lack_of_cards_looks_like_any_other_to_everyone() -> None:
    state, _seat, target, (give1, _, get1, _, _) = _trade_table()
    missing = spare_objects(state, 1, avoid=[c for h in state.hands for c in h])[0]
    able, _ = play(state, OfferTrade(target=target, give=(give1,), ask=(kind(get1),)))
    unable, _ = play(state, OfferTrade(target=target, give=(give1,), ask=(kind(missing),)))
    _, by_choice = play(able, RejectTrade(), target)
    _, by_need = play(unable, RejectTrade(), target)
    for viewer in (None, 0, 1, 2):
        assert [GAME.redact(e, viewer) for e in by_choice] == [GAME.redact(e, viewer) for e in by_need]


def test_trade_three_rejected_offers_in_a_turn_and_the_player_must_do_something_else() -> None:
    state, seat, target, (give1, _, get1, _, _) = _trade_table()
    offer = OfferTrade(target=target, give=(give1,), ask=(kind(get1),))
    for _ in range(3):
        state, _ = play(state, offer)
        state, _ = play(state, RejectTrade(), target)
    assert rejection(state, offer).code == "too_many_offers"
    assert "OfferTrade" not in types(state, seat)


def test_trade_offer_checks_its_cards_whole() -> None:
    state, seat, target, (give1, _, get1, _, _) = _trade_table()
    other = state.hands[target][0]
    assert rejection(state, OfferTrade(target=seat, give=(give1,), ask=(kind(get1),))).code == "bad_target"
    assert rejection(state, OfferTrade(target=target, give=(), ask=(kind(get1),))).code == "empty_trade"
    assert rejection(state, OfferTrade(target=target, give=(other,), ask=(kind(get1),))).code == "not_in_hand"
    assert rejection(state, OfferTrade(target=target, give=(give1,), ask=("postcard",))).code == "unknown_kind"
    assert rejection(state, OfferTrade(target=target, give=(give1,), ask=("smuggler",))).code == "unknown_kind"


def test_trade_asks_by_kind_any_passport_will_do() -> None:
    state, seat, target, (give1, _, _, _, _) = _trade_table()
    passport = of_kind("passport")[-1]
    state = arrange(state, hands={target: [passport]})
    state, _ = play(state, OfferTrade(target=target, give=(give1,), ask=("passport",)))
    state, _ = play(state, AcceptTrade(), target)
    assert passport in state.hands[seat]


def test_steal_costs_one_card_and_takes_a_random_card_that_only_the_two_players_learn() -> None:
    state, _ = start(3)
    seat = state.current
    assert seat is not None
    victim, bystander = (seat + 1) % 3, (seat + 2) % 3
    pay, *victims = spare_objects(state, 4)
    state = arrange(state, hands={seat: [pay], victim: victims})
    assert rejection(state, Steal(target=victim)).code == "steal_cost"
    stolen = set()
    for seed in range(12):
        after, events = play(state, Steal(target=victim, pay=pay), seed=seed)
        assert events[0] == CardsDiscarded(seat=seat, cards=(pay,), reason="steal")
        steal = events[1]
        assert isinstance(steal, CardStolen) and steal.card in victims
        assert GAME.redact(steal, seat) == steal and GAME.redact(steal, victim) == steal
        assert GAME.redact(steal, bystander) == CardStolen(thief=seat, victim=victim)
        assert GAME.redact(steal, None) == CardStolen(thief=seat, victim=victim)
        assert after.hands[seat] == (steal.card,)
        stolen.add(steal.card)
    assert len(stolen) > 1  # random


def test_steal_needs_a_card_in_the_other_hand() -> None:
    state, _ = start(3)
    seat = state.current
    assert seat is not None
    state = arrange(state, hands={(seat + 1) % 3: []})
    pay = state.hands[seat][1]
    assert rejection(state, Steal(target=(seat + 1) % 3, pay=pay)).code == "empty_hand"


def _traveller(centre_done: bool = False) -> tuple[State, int, str]:
    state, _ = start(3)
    seat = state.current
    assert seat is not None
    country = state.centre if centre_done else state.own[seat]
    assert country is not None
    passport = next(c for c in state.hands[seat] if CARDS[c].type == "passport")
    extra = spare_objects(state, 1)
    hand = [passport, *objects_for(country), *extra]
    own = tuple(None if s == seat else c for s, c in enumerate(state.own)) if centre_done else state.own
    return arrange(state, hands={seat: hand}, own=own), seat, country


def test_travel_reveals_the_whole_hand_discards_the_three_objects_keeps_the_passport_and_draws_one() -> None:
    state, seat, country = _traveller()
    hand = state.hands[seat]
    top = state.deck[0]
    after, events = play(state, Travel(country=country))
    travelled = events[0]
    assert travelled == Travelled(seat=seat, country=country, hand=hand, used=tuple(objects_for(country)))
    assert GAME.redact(travelled, None) == travelled  # the hand is shown to everyone
    assert events[1] == ItchyCardDrawn(seat=seat, reason="travel", card=top)
    assert after.own[seat] is None and after.travelled[seat] == (country,)
    assert set(after.hands[seat]) == {hand[0], hand[4], top}


def test_travel_to_your_own_country_first_then_the_centre_one() -> None:
    state, _seat, _ = _traveller()
    assert state.centre is not None
    assert rejection(state, Travel(country=state.centre)).code == "wrong_country"


def test_travel_needs_the_three_objects_and_a_passport() -> None:
    state, seat, country = _traveller()
    hand = state.hands[seat]
    no_object = arrange(state, hands={seat: [hand[0], hand[1], hand[2]]})
    assert rejection(no_object, Travel(country=country)).code == "missing_objects"
    no_passport = arrange(state, hands={seat: list(hand[1:])})
    assert rejection(no_passport, Travel(country=country)).code == "no_passport"
    assert "Travel" not in types(no_passport, seat)


def test_faq_travel_any_passport_is_good() -> None:
    state, seat, country = _traveller()
    hand = state.hands[seat]
    other = next(p for p in of_kind("passport") if p not in hand)
    state = arrange(state, hands={seat: [other, *hand[1:]]})
    state, events = play(state, Travel(country=country))
    assert isinstance(events[0], Travelled) and other in state.hands[seat]


def test_the_first_to_travel_to_the_centre_country_wins() -> None:
    state, seat, centre = _traveller(centre_done=True)
    state, events = play(state, Travel(country=centre))
    assert events[-1] == TripWon(seat=seat, how="centre")
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == [seat] and outcome.places[seat] == 1
    assert GAME.awaited(state) == [] and GAME.commands(state, seat) == []
    assert rejection(state, Draw()).code == "game_over"


# -- standing rules ------------------------------------------------------------------------------


def test_faq_draw_you_may_draw_with_a_full_hand_then_discard_down_to_seven() -> None:
    state, _ = start(3)
    seat = state.current
    assert seat is not None
    hand = spare_objects(state, 7)
    state = arrange(state, hands={seat: hand})
    state, events = play(state, Draw())
    assert isinstance(events[-1], TurnEnded) and len(state.hands[seat]) == 8
    assert GAME.awaited(state) == [Awaited(seat=seat, reason="discard")]
    assert rejection(state, Draw(), (seat + 1) % 3).code == "not_your_turn"  # the next turn waits
    state, events = play(state, DiscardDownToSeven(card=hand[2]), seat)
    assert events == [
        CardsDiscarded(seat=seat, cards=(hand[2],), reason="hand_limit"),
        TravelTurnBegan(seat=(seat + 1) % 3),
    ]


def test_hand_limit_holds_at_every_moment_even_out_of_turn() -> None:
    state, _ = start(3)
    seat = state.current
    assert seat is not None
    target = (seat + 1) % 3
    give = spare_objects(state, 2)
    state = arrange(state, hands={seat: give, target: spare_objects(state, 7, avoid=give)})
    state, _ = play(state, OfferTrade(target=target, give=tuple(give), ask=(kind(state.hands[target][0]),)))
    state, _ = play(state, AcceptTrade(), target)
    assert len(state.hands[target]) == 8 and len(state.hands[seat]) == 2  # 1 received + the bonus card
    assert GAME.awaited(state) == [Awaited(seat=target, reason="discard")]
    assert GAME.commands(state, seat) == []


def test_empty_hand_draws_three_at_the_start_of_the_turn_without_using_the_action() -> None:
    state, _ = start(3)
    seat = state.current
    assert seat is not None
    following = (seat + 1) % 3
    state = arrange(state, hands={following: []})
    top3 = state.deck[1:4]
    state, events = play(state, Draw())
    assert events[-4:] == [TravelTurnBegan(seat=following)] + [
        ItchyCardDrawn(seat=following, reason="empty_hand", card=c) for c in top3
    ]
    assert GAME.awaited(state) == [Awaited(seat=following, reason="action")]


def test_the_discard_pile_is_shuffled_into_a_new_deck_when_the_last_card_is_taken() -> None:
    state, _ = start(3)
    seat = state.current
    assert seat is not None
    last, *discarded = spare_objects(state, 5)
    rest = [c for c in state.deck if c not in (last, *discarded)]
    state = arrange(state, deck=[last], discard=discarded + rest)
    state, events = play(state, Draw())
    assert events[0] == ItchyCardDrawn(seat=seat, reason="draw", card=last)
    shuffled = events[1]
    assert isinstance(shuffled, DiscardPileReshuffled) and sorted(shuffled.order or ()) == sorted(discarded + rest)
    assert GAME.redact(shuffled, seat) == DiscardPileReshuffled(count=len(discarded) + len(rest))
    assert state.discard == () and len(state.deck) == len(discarded) + len(rest)


def test_draw_with_deck_and_discard_pile_both_empty_is_refused() -> None:
    state, _ = start(2)
    state = replace(state, deck=(), discard=(), passports_aside=(*state.passports_aside, *state.deck))
    assert rejection(state, Draw()).code == "deck_empty"
    assert "Draw" not in types(state, state.current)  # type: ignore[arg-type]


def test_options_default_to_the_base_game_and_the_answer_times() -> None:
    options = Options()
    assert not any([options.events, options.special_objects, options.forbidden_objects, options.postcards])
    assert (options.trade_answer_ms, options.reaction_ms) == (60000, 10000)
    assert GAME.id == "itchy-feet" and (GAME.min_players, GAME.max_players) == (2, 6)
