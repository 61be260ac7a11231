"""Moves built pick by pick: the contract (tests/domain/contract.py) on random reachable states of
every player count, with and without the expansions; the picks of each command; the FAQ's 3-for-2
trade; and the rulings that keep a seat from ever being stuck."""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from msgspec.structs import replace

from domain.engine import Awaited, Ctx, Pick
from domain.itchy_feet import GAME
from domain.itchy_feet.cards import CARDS, COUNTRIES
from domain.itchy_feet.commands import (
    AcceptTrade,
    DiscardDownToSeven,
    Draw,
    OfferTrade,
    PlaySpecial,
    Recycle,
    Steal,
)
from domain.itchy_feet.events import TradeCompleted, TravelTurnBegan, TurnPassed
from domain.itchy_feet.rules import Batch, in_play
from domain.itchy_feet.state import Options, State

from ..contract import accepted, check_complete, check_moves, check_never_stuck, check_sound
from .candidates import candidates
from .helpers import (
    ALL,
    arrange,
    kind,
    object_card,
    of_kind,
    play,
    play_on,
    spare_objects,
    start,
    types,
    with_character,
)

NONE = Options()
EXPANSIONS = {"none": NONE, "all": ALL}
seed_st = st.integers(min_value=0, max_value=2**32 - 1)
NODES = 20  # steps visited per seat by check_sound: the first ones, breadth first
NAMES = ("draw_two", "draw_one_free", "new_country", "swap_draw", "take_from_discard")  # played as actions


def picks(*pairs: tuple[str, Any]) -> tuple[Pick, ...]:
    return tuple(Pick(field, value) for field, value in pairs)


def built(state: State, seat: int, *pairs: tuple[str, Any]) -> Any:
    """The command these picks complete (each checked against the options offered before it)."""
    return GAME.step(state, seat, picks(*pairs)).command


# -- the contract on random reachable states ----------------------------------------------------------


@pytest.mark.parametrize("expansions", sorted(EXPANSIONS))
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@given(seed=seed_st, commands=st.integers(min_value=0, max_value=150), some=st.booleans())
def test_moves_are_sound_complete_small_and_never_stuck(
    players: int, expansions: str, seed: int, commands: int, some: bool
) -> None:
    rng = random.Random(seed)
    options = EXPANSIONS[expansions]
    if some and expansions == "all":  # now and then only some of them
        options = Options(
            **{
                name: rng.random() < 0.5
                for name in ("events", "special_objects", "forbidden_objects", "postcards", "characters")
            }
        )
    state, _ = start(players, options, seed)
    state, _ = play_on(state, rng, commands)
    made: dict[int, Iterable[Any]] = {a.seat: candidates(state, a.seat, rng) for a in GAME.awaited(state)}
    other = rng.randrange(players)  # a seat that may not be awaited: a sample of its candidates
    made.setdefault(other, rng.sample(candidates(state, other, rng), 100))
    check_moves(GAME, state, rng, made, nodes=NODES)


def test_a_seat_that_is_not_awaited_has_no_move_and_the_clock_none() -> None:
    state, _ = start(3)
    assert state.current is not None
    for seat in (-2, -1, 3, (state.current + 1) % 3):
        assert GAME.step(state, seat).empty
    assert types(state, state.current) == ["Draw", "OfferTrade", "Steal"]


# -- the picks of each command ---------------------------------------------------------------------


def test_recycle_pays_its_cards_in_any_order_then_takes_one_of_the_discard_pile() -> None:
    state, _ = start(3)
    seat = state.current
    assert seat is not None
    a, b, c, wanted, other = spare_objects(state, 5)
    state = arrange(state, hands={seat: [a, b, c]}, discard=[wanted, other])
    first = GAME.step(state, seat, picks(("type", "Recycle")))
    assert [o.value for o in first.options] == [a, b, c] and first.command is None
    for pay in ((a, b), (b, a)):
        after_pay = GAME.step(state, seat, picks(("type", "Recycle"), ("pay", pay[0]), ("pay", pay[1])))
        assert [(o.value, o.command) for o in after_pay.options] == [
            (wanted, Recycle(pay=pay, take=wanted)),
            (other, Recycle(pay=pay, take=other)),
        ]


def test_faq_trade_three_cards_for_two_is_built_and_played() -> None:
    """FAQ: "3 cards may be traded for 2, as long as both players agree"."""
    state, _ = start(3)
    seat = state.current
    assert seat is not None
    target = (seat + 1) % 3
    give = spare_objects(state, 3)
    get = spare_objects(state, 2, avoid=give)
    state = arrange(state, hands={seat: give, target: get})
    offer = built(
        state,
        seat,
        ("type", "OfferTrade"),
        ("target", target),
        ("give", give[2]),
        ("give", give[0]),
        ("give", give[1]),
        ("ask", kind(get[1])),
        ("ask", kind(get[0])),
    )
    assert offer == OfferTrade(target=target, give=(give[2], give[0], give[1]), ask=(kind(get[1]), kind(get[0])))
    state, _ = play(state, offer)
    assert AcceptTrade() in GAME.commands(state, target)
    state, events = play(state, AcceptTrade(), target)
    assert TradeCompleted(offerer=seat, target=target, given=offer.give, received=(get[1], get[0])) in events
    assert set(state.hands[target]) == set(give) and set(get) <= set(state.hands[seat])


def test_an_offer_may_be_sent_after_its_first_kind_asked_and_asks_kinds_again_up_to_the_limit() -> None:
    state, _ = start(2)
    seat = state.current
    assert seat is not None
    target = 1 - seat
    give = state.hands[seat][0]
    made = [("type", "OfferTrade"), ("target", target), ("give", give)]
    before_ask = GAME.step(state, seat, picks(*made))
    assert before_ask.command is None and {o.field for o in before_ask.options} == {"give", "ask"}
    made.append(("ask", "passport"))
    at = GAME.step(state, seat, picks(*made))
    assert at.command == OfferTrade(target=target, give=(give,), ask=("passport",))
    assert {o.field for o in at.options} == {"ask"}  # the first kind asked closes the cards given
    for _ in range(7):  # 8 kinds at most: one more than a hand of 7 can hold
        made.append(("ask", "passport"))
        at = GAME.step(state, seat, picks(*made))
    assert at.options == () and at.command == OfferTrade(target=target, give=(give,), ask=("passport",) * 8)


def test_steal_offers_a_target_only_with_cards_and_only_if_the_thief_can_pay() -> None:
    state, _ = start(3)
    seat = state.current
    assert seat is not None
    empty, full = (seat + 1) % 3, (seat + 2) % 3
    pay = state.hands[seat][1]
    state = arrange(state, hands={empty: []})
    assert [o.value for o in GAME.step(state, seat, picks(("type", "Steal"))).options] == [full]
    assert built(state, seat, ("type", "Steal"), ("target", full), ("pay", pay)) == Steal(target=full, pay=pay)
    forbidden_only = arrange(
        replace(state, options=Options(forbidden_objects=True)), hands={seat: of_kind("forbidden")[:1]}
    )
    assert "Steal" not in types(forbidden_only, seat)


def test_special_objects_name_their_cards_as_the_card_needs() -> None:
    state, _ = start(3, Options(special_objects=True))
    seat = state.current
    assert seat is not None
    post = next(c for c in sorted(CARDS) if CARDS[c].effect == "swap_draw")
    found = next(c for c in sorted(CARDS) if CARDS[c].effect == "take_from_discard")
    guide = next(c for c in sorted(CARDS) if CARDS[c].effect == "draw_two")
    mine = spare_objects(state, 4)
    pile = spare_objects(state, 2, avoid=mine)
    state = arrange(state, hands={seat: [post, found, guide, *mine]}, discard=pile)
    cards = {o.value: o for o in GAME.step(state, seat, picks(("type", "PlaySpecial"))).options}
    assert cards[guide].command == PlaySpecial(card=guide) and cards[post].command is None
    swap = [("type", "PlaySpecial"), ("card", post), ("cards", mine[3]), ("cards", mine[0])]
    at = GAME.step(state, seat, picks(*swap))
    assert at.command == PlaySpecial(card=post, cards=(mine[3], mine[0]))
    assert post not in [o.value for o in at.options]  # the other cards of the hand, not the Trading Post itself
    assert all(o.command is not None for o in at.options)  # the third card is the last
    take = GAME.step(state, seat, picks(("type", "PlaySpecial"), ("card", found), ("cards", pile[1])))
    assert take.command == PlaySpecial(card=found, cards=(pile[1],))
    assert [(o.value, o.command) for o in take.options] == [
        (pile[0], PlaySpecial(card=found, cards=(pile[1], pile[0])))
    ]


def test_the_hand_limit_discard_offers_every_card_but_forbidden_objects() -> None:
    state, _ = start(3, Options(forbidden_objects=True))
    seat = state.current
    assert seat is not None
    bad = of_kind("forbidden")[0]
    hand = [bad, *spare_objects(state, 6)]
    state, _ = play(arrange(state, hands={seat: hand}), Draw())
    assert GAME.awaited(state) == [Awaited(seat=seat, reason="discard")]
    assert GAME.commands(state, seat) == [DiscardDownToSeven(card=c) for c in state.hands[seat] if c != bad]


# -- never stuck --------------------------------------------------------------------------------------


def every_card_in_hand(needed: int) -> tuple[State, int]:
    """6 players, every card in a hand, deck and discard pile empty; the acting seat holds its
    passport and ``needed`` objects its country requires, the others 7 cards each."""
    state, _ = start(6)
    seat = state.current
    assert seat is not None
    country = state.own[seat]
    assert country is not None
    passport = next(c for c in state.hands[seat] if CARDS[c].type == "passport")
    mine = [passport, *[object_card(k) for k in COUNTRIES[country].requires[:needed]]]
    rest = [
        c
        for c in [*in_play(state), *(h for hand in state.hands for h in hand if CARDS[h].type == "passport")]
        if c not in mine
    ]
    others = [s for s in range(6) if s != seat]
    hands = {seat: mine} | {s: rest[i * 7 : (i + 1) * 7] for i, s in enumerate(others)}
    state = arrange(state, hands=hands, deck=[], discard=[])
    assert not state.deck and not state.discard and sum(len(h) for h in state.hands) == 38
    return state, seat


def test_with_every_card_in_a_hand_the_active_player_may_still_trade_or_steal() -> None:
    """The reported case: nothing to draw or recycle, a passport and two needed objects in hand."""
    state, seat = every_card_in_hand(needed=2)
    assert types(state, seat) == ["OfferTrade", "Steal"]
    check_never_stuck(GAME, state, random.Random(0))
    check_sound(GAME, state, seat, random.Random(0), nodes=NODES)
    hits, _ = check_complete(GAME, state, seat, candidates(state, seat, random.Random(0)))
    assert hits > 0


def test_a_player_who_can_take_no_action_passes_the_turn() -> None:
    """Rulings, never without an action. No game gets there (the cards are counted in the docs), so
    the position is made by hand, with cards taken out of the game: the next player's hand is empty
    and the active player draws the last card. The empty hand draws what there is (nothing), the
    next player can take no action, and its turn passes."""
    state, _ = start(3)
    seat = state.current
    assert seat is not None
    following, last = (seat + 1) % 3, (seat + 2) % 3
    x, y, z = spare_objects(state, 3)
    hands = {seat: (x,), following: (), last: (y,)}
    out = [c for c in [*(c for hand in state.hands for c in hand), *state.deck] if c not in (x, y, z)]
    state = replace(
        state,
        hands=tuple(hands[s] for s in range(3)),
        deck=(z,),
        discard=(),
        passports_aside=(*state.passports_aside, *out),
    )
    state, events = play(state, Draw())
    assert events[-3:] == [TravelTurnBegan(seat=following), TurnPassed(seat=following), TravelTurnBegan(seat=last)]
    assert GAME.awaited(state) == [Awaited(seat=last, reason="action")]
    assert types(state, last) == ["OfferTrade", "Steal"]


def test_a_made_up_table_where_nobody_can_act_passes_round_once_and_stops() -> None:
    """The guard of that ruling: every hand, the deck and the discard pile empty (cards out of the
    game). Each player passes once; then the game is left as it is rather than pass for ever."""
    state, _ = start(3)
    out = [c for c in [*(c for hand in state.hands for c in hand), *state.deck]]
    state = replace(state, hands=((),) * 3, deck=(), passports_aside=(*state.passports_aside, *out), phase="end")
    batch = Batch(state, Ctx(rng=random.Random(0)))
    batch.begin_turn(0)
    passed = [e.seat for e in batch.events if isinstance(e, TurnPassed)]
    assert passed == [0, 1, 2] and batch.state.current == 0 and GAME.step(batch.state, 0).empty


# -- completeness where the random states seldom go ----------------------------------------------------


def reached(state: State, seat: int) -> dict[str, int]:
    """check_complete on the seat's candidates; the accepted ones (all reached) by type."""
    made = candidates(state, seat, random.Random(1))
    check_complete(GAME, state, seat, made)
    found: dict[str, int] = {}
    for command in made:
        if accepted(GAME, state, command, seat):
            found[type(command).__name__] = found.get(type(command).__name__, 0) + 1
    return found


def test_every_special_object_played_as_an_action_is_reachable_with_every_choice_of_its_cards() -> None:
    state, _ = start(3, Options(special_objects=True))
    seat = state.current
    assert seat is not None
    specials = [next(c for c in sorted(CARDS) if CARDS[c].effect == e) for e in NAMES]
    mine = spare_objects(state, 2)
    pile = spare_objects(state, 3, avoid=mine)
    state = arrange(state, hands={seat: [*specials, *mine]}, discard=pile)
    found = reached(state, seat)
    # Local Guide, Phrasebook, Poorly Drawn Map alone; the Trading Post with 1-3 of the 6 other
    # cards (6 + 30 + 120 orders); Lost and Found with 1 or 2 of the 3 (3 + 6 orders): the
    # candidates try each set in one or two orders, so they reach a part of those, all accepted.
    assert found["PlaySpecial"] >= 3 + 6 + 3
    check_sound(GAME, state, seat, random.Random(0), nodes=NODES)


def test_the_characters_moves_are_reachable() -> None:
    state, _ = start(3, Options(characters=True, forbidden_objects=True))
    seat = state.current
    assert seat is not None
    bad = of_kind("forbidden")[:2]
    mine, pile = spare_objects(state, 2), spare_objects(state, 1, avoid=spare_objects(state, 2))
    state = arrange(state, hands={seat: [*bad, *mine]}, discard=pile)
    for character, move in (("smuggler", "Smuggle"), ("pickpocket", "Steal"), ("bargain-hunter", "Recycle")):
        found = reached(with_character(state, seat, character), seat)
        assert found[move] > 0 and found["DitchForbidden"] == 4, (character, found)
