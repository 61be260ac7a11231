"""The expansions (each a game option), every designed card effect, and the deadlines."""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from domain.engine import CLOCK, Awaited
from domain.itchy_feet import GAME
from domain.itchy_feet.cards import CARDS
from domain.itchy_feet.commands import (
    AcceptTrade,
    CloseWindow,
    DiscardDownToSeven,
    DitchForbidden,
    Draw,
    OfferTrade,
    PassReaction,
    PlayMousetrap,
    PlaySpecial,
    Recycle,
    Smuggle,
    Steal,
    Travel,
)
from domain.itchy_feet.events import (
    ActionDeclared,
    CardPassed,
    CardsDiscarded,
    CountryReplaced,
    EventCardDrawn,
    ForbiddenHandedOver,
    ItchyCardDrawn,
    MousetrapSprung,
    ReactionWindowClosed,
    TradeRejected,
    Travelled,
    TravelTurnBegan,
    TripWon,
)
from domain.itchy_feet.state import Options

from .helpers import ALL, arrange, kind, objects_for, of_kind, play, rejection, spare_objects, start, with_character

SPECIALS = Options(special_objects=True)


def table(options: Options, players: int = 3, seed: int = 0, **kw: Any) -> tuple[Any, int]:
    state, _ = start(players, options, seed)
    seat = state.current
    assert seat is not None
    return arrange(state, **kw) if kw else state, seat


def card(effect: str) -> str:
    return next(c for c in sorted(CARDS) if CARDS[c].effect == effect)


def pass_all(state: Any) -> tuple[Any, list[Any]]:
    events: list[Any] = []
    while state.window is not None:
        state, more = play(state, PassReaction(), state.window.waiting[0])
        events += more
    return state, events


# -- events ----------------------------------------------------------------------------------


def test_events_are_resolved_the_moment_they_are_drawn_and_the_draw_is_replaced() -> None:
    state, seat = table(Options(events=True))
    duty_free, after = card("duty_free"), spare_objects(state, 4)
    state = arrange(state, deck=[duty_free, *after])
    state, events = play(state, Draw())
    assert events[0] == EventCardDrawn(seat=seat, card=duty_free)
    drawn = [e for e in events if isinstance(e, ItchyCardDrawn)]
    assert [(e.seat, e.card) for e in drawn] == [
        (seat, after[0]),
        ((seat + 1) % 3, after[1]),
        ((seat + 2) % 3, after[2]),
        (seat, after[3]),  # the replacement of the event
    ]
    assert duty_free in state.discard


def test_event_lost_luggage_every_player_discards_a_random_card_face_up() -> None:
    state, seat = table(Options(events=True))
    state = arrange(state, deck=[card("lost_luggage"), *spare_objects(state, 1)])
    sizes = [len(h) for h in state.hands]
    after, events = play(state, Draw())
    lost = [e for e in events if isinstance(e, CardsDiscarded)]
    assert [e.seat for e in lost] == [seat, (seat + 1) % 3, (seat + 2) % 3]
    assert all(GAME.redact(e, None) == e for e in lost)
    assert [len(h) for h in after.hands] == [n - 1 + (s == seat) for s, n in enumerate(sizes)]


def test_event_new_destination_replaces_the_centre_country() -> None:
    state, _seat = table(Options(events=True))
    state = arrange(state, deck=[card("new_destination"), *spare_objects(state, 1)])
    old = state.centre
    after, events = play(state, Draw())
    change = next(e for e in events if isinstance(e, CountryReplaced))
    assert change.seat is None and change.old == old and after.centre == change.new != old
    assert old in after.aside and change.new not in after.aside


def test_event_pass_the_souvenir_each_card_is_secret_to_giver_and_receiver() -> None:
    state, seat = table(Options(events=True))
    state = arrange(state, deck=[card("pass_left"), *spare_objects(state, 1)])
    _, events = play(state, Draw())
    passes = [e for e in events if isinstance(e, CardPassed)]
    assert [(p.giver, p.receiver) for p in passes] == [(s, (s + 1) % 3) for s in (seat, (seat + 1) % 3, (seat + 2) % 3)]
    for p in passes:
        assert p.card in state.hands[p.giver]  # chosen from the hands before any pass
        outsider = next(s for s in range(3) if s not in (p.giver, p.receiver)) if state.players > 2 else None
        assert GAME.redact(p, outsider) == CardPassed(giver=p.giver, receiver=p.receiver)
        assert GAME.redact(p, p.receiver) == p


def souvenir_table(seed: int) -> tuple[Any, int, list[str]]:
    """Events and postcards, 3 seats: the drawer's only card is a postcard, the next player holds
    three postcards and an object, the third an object; the deck's top card is Pass the Souvenir."""
    state, seat = table(Options(events=True, postcards=True), seed=seed)
    cards = of_kind("postcard")
    a, b, c = spare_objects(state, 3)
    hands = {seat: [cards[0]], (seat + 1) % 3: [*cards[1:4], a], (seat + 2) % 3: [b]}
    return arrange(state, hands=hands, deck=[card("pass_left"), c]), seat, cards


def test_event_pass_the_souvenir_every_card_passes_at_once_then_four_postcards_win() -> None:
    """The card: every player passes 1 card to the next "all at once". The next player receives a
    fourth postcard while passing one of its own: it wins only if it still holds 4 once every card
    has passed, never in between."""
    outcomes = set()
    for seed in range(12):
        state, seat, _ = souvenir_table(seed)
        after, events = play(state, Draw(), seed=seed)
        passes = [i for i, e in enumerate(events) if isinstance(e, CardPassed)]
        assert len(passes) == 3 and passes == list(range(passes[0], passes[0] + 3))  # together, nothing between
        given = next(e for e in events if isinstance(e, CardPassed) and e.giver == (seat + 1) % 3)
        won = [e for e in events if isinstance(e, TripWon)]
        if CARDS[given.card or ""].type == "postcard":  # it passed a postcard on: 3 + 1 - 1, no win
            assert won == [] and after.phase != "over"
            outcomes.add("kept three")
        else:  # it passed the object: 4 postcards once every card has passed
            assert won == [TripWon(seat=(seat + 1) % 3, how="postcards")] and events.index(won[0]) == passes[-1] + 1
            outcomes.add("won")
    assert outcomes == {"kept three", "won"}


def test_event_pass_the_souvenir_cards_are_picked_from_the_hands_before_any_pass() -> None:
    state, _, _ = souvenir_table(0)
    _, events = play(state, Draw())
    for p in [e for e in events if isinstance(e, CardPassed)]:
        assert p.card in state.hands[p.giver]


def test_events_can_never_be_recycled_from_the_discard_pile() -> None:
    state, seat = table(Options(events=True))
    event = card("duty_free")
    pay = list(state.hands[seat][1:3])
    state = arrange(state, discard=[event])
    assert rejection(state, Recycle(pay=tuple(pay), take=event)).code == "events_not_recyclable"


# -- special objects: reaction windows and the Mousetrap -----------------------------------------------


def test_a_reaction_window_opens_after_every_action_whoever_holds_what() -> None:
    state, seat = table(SPECIALS)
    state, events = play(state, Draw(), now_ms=500)
    assert events == [ActionDeclared(window="react-1", seat=seat, action=Draw(), opened_at_ms=500)]
    others = [(seat + 1) % 3, (seat + 2) % 3]
    assert GAME.awaited(state) == [Awaited(seat=s, reason="react") for s in others]
    assert GAME.commands(state, others[0]) == [PassReaction()]  # nobody here holds a Mousetrap
    state, _ = play(state, PassReaction(), others[0])
    state, events = play(state, PassReaction(), others[1])
    assert events[1] == ReactionWindowClosed(window="react-1") and isinstance(events[2], ItchyCardDrawn)


def test_faq_a_mousetrap_interrupts_another_players_action_and_ends_their_turn() -> None:
    state, seat = table(SPECIALS)
    reactor = (seat + 2) % 3
    trap = card("mousetrap")
    state = arrange(state, hands={reactor: [trap]})
    deck = state.deck
    state, _ = play(state, Draw())
    assert PlayMousetrap(card=trap) in GAME.commands(state, reactor)
    state, events = play(state, PlayMousetrap(card=trap), reactor)
    assert events[0] == MousetrapSprung(window="react-1", seat=reactor, card=trap, interrupted=seat)
    assert events[-1] == TravelTurnBegan(seat=(seat + 1) % 3)
    assert state.deck == deck and trap in state.discard  # the draw never happened


def test_mousetrap_on_an_accepted_trade_cancels_the_exchange() -> None:
    state, seat = table(SPECIALS)
    target, reactor = (seat + 1) % 3, (seat + 2) % 3
    give, get = spare_objects(state, 2)
    trap = card("mousetrap")
    state = arrange(state, hands={seat: [give], target: [get], reactor: [trap]})
    state, _ = play(state, OfferTrade(target=target, give=(give,), ask=(kind(get),)))
    state, events = play(state, AcceptTrade(), target)
    assert isinstance(events[-1], ActionDeclared)
    state, _ = play(state, PlayMousetrap(card=trap), reactor)
    assert state.hands[seat] == (give,) and state.hands[target] == (get,)


def test_faq_local_guide_draws_two_from_the_deck_only() -> None:
    state, seat = table(SPECIALS)
    guide = card("draw_two")
    state = arrange(state, hands={seat: [guide]})
    top = state.deck[:2]
    state, _ = play(state, PlaySpecial(card=guide))
    state, events = pass_all(state)
    assert [e.card for e in events if isinstance(e, ItchyCardDrawn)] == list(top)
    assert guide in state.discard


def test_faq_trading_post_swaps_up_to_three_cards_with_the_deck_only() -> None:
    state, seat = table(SPECIALS)
    post = card("swap_draw")
    mine = spare_objects(state, 4)
    state = arrange(state, hands={seat: [post, *mine]})
    assert rejection(state, PlaySpecial(card=post, cards=tuple(mine))).code == "bad_cards"
    top = state.deck[:3]
    state, _ = play(state, PlaySpecial(card=post, cards=tuple(mine[:3])))
    state, _ = pass_all(state)
    assert set(state.hands[seat]) == {mine[3], *top}


def test_poorly_drawn_map_replaces_your_own_country_with_a_random_one_set_aside() -> None:
    state, seat = table(SPECIALS)
    chart = card("new_country")
    state = arrange(state, hands={seat: [chart]})
    old = state.own[seat]
    state, _ = play(state, PlaySpecial(card=chart))
    state, events = pass_all(state)
    change = next(e for e in events if isinstance(e, CountryReplaced))
    assert change.seat == seat and change.old == old and state.own[seat] == change.new != old


def test_lost_and_found_takes_up_to_two_cards_from_the_discard_pile() -> None:
    state, seat = table(SPECIALS)
    found = card("take_from_discard")
    pile = spare_objects(state, 3)
    state = arrange(state, hands={seat: [found]}, discard=pile)
    state, _ = play(state, PlaySpecial(card=found, cards=tuple(pile[:2])))
    state, _ = pass_all(state)
    assert set(state.hands[seat]) == set(pile[:2])


def test_phrasebook_draws_one_without_using_the_action() -> None:
    state, seat = table(SPECIALS)
    book = card("draw_one_free")
    state = arrange(state, hands={seat: [book]})
    state, events = play(state, PlaySpecial(card=book))
    assert isinstance(events[-1], ItchyCardDrawn) and state.window is None
    assert GAME.awaited(state) == [Awaited(seat=seat, reason="action")]


def _centre_ready(options: Options, stand_in: str) -> tuple[Any, int, str]:
    state, seat = table(options)
    centre = state.centre
    assert centre is not None
    passport = next(c for c in state.hands[seat] if CARDS[c].type == "passport")
    objects = objects_for(centre)
    own = tuple(None if s == seat else c for s, c in enumerate(state.own))
    return arrange(state, hands={seat: [passport, *objects]}, own=own), seat, centre


def test_faq_moms_credit_card_stands_in_for_an_object_but_not_for_a_passport() -> None:
    state, seat, centre = _centre_ready(SPECIALS, "wild_object")
    credit = card("wild_object")
    passport, *objects = state.hands[seat]
    with_card = arrange(state, hands={seat: [passport, credit, *objects[1:]]})
    state2, _ = play(with_card, Travel(country=centre))
    state2, events = pass_all(state2)
    travelled = next(e for e in events if isinstance(e, Travelled))
    assert credit in travelled.used and events[-1] == TripWon(seat=seat, how="centre")
    no_passport = arrange(state, hands={seat: [credit, *objects]})
    assert rejection(no_passport, Travel(country=centre)).code == "no_passport"


def test_tourist_visa_stands_in_for_a_passport_and_is_discarded() -> None:
    state, seat, centre = _centre_ready(SPECIALS, "visa")
    visa = card("visa")
    _, *objects = state.hands[seat]
    state = arrange(state, hands={seat: [visa, *objects]})
    state, _ = play(state, Travel(country=centre))
    state, events = pass_all(state)
    assert visa in next(e for e in events if isinstance(e, Travelled)).used


# -- forbidden objects ------------------------------------------------------------------------------------

FORBIDDEN = Options(forbidden_objects=True)


def test_a_forbidden_object_in_hand_blocks_travelling() -> None:
    state, seat, centre = _centre_ready(FORBIDDEN, "")
    bad = of_kind("forbidden")[0]
    state = arrange(state, hands={seat: [*state.hands[seat], bad]})
    assert rejection(state, Travel(country=centre)).code == "forbidden_in_hand"


def test_get_rid_of_a_forbidden_object_with_one_other_card_as_the_whole_turn() -> None:
    state, seat = table(FORBIDDEN)
    bad, worse = of_kind("forbidden")[:2]
    other = state.hands[seat][1]
    state = arrange(state, hands={seat: [bad, worse, other]})
    assert rejection(state, DitchForbidden(forbidden=bad, other=worse)).code == "forbidden_cost"  # FAQ
    state, events = play(state, DitchForbidden(forbidden=bad, other=other))
    assert events[0] == CardsDiscarded(seat=seat, cards=(bad, other), reason="ditch")
    assert isinstance(events[-1], TravelTurnBegan)


def test_faq_a_forbidden_object_cannot_pay_for_recycling_or_stealing() -> None:
    state, seat = table(FORBIDDEN)
    bad = of_kind("forbidden")[0]
    other, taken = spare_objects(state, 2)
    state = arrange(state, hands={seat: [bad, other]}, discard=[taken])
    assert rejection(state, Recycle(pay=(bad, other), take=taken)).code == "forbidden_cost"
    assert rejection(state, Steal(target=(seat + 1) % 3, pay=bad)).code == "forbidden_cost"


def test_faq_a_forbidden_object_cannot_be_a_hand_limit_discard() -> None:
    state, seat = table(FORBIDDEN)
    bad = of_kind("forbidden")[0]
    state = arrange(state, hands={seat: [bad, *spare_objects(state, 6)]})
    state, _ = play(state, Draw())
    assert rejection(state, DiscardDownToSeven(card=bad), seat).code == "forbidden_discard"
    assert DiscardDownToSeven(card=bad) not in GAME.commands(state, seat)


def test_faq_forbidden_objects_can_be_stolen_and_traded() -> None:
    state, seat = table(FORBIDDEN)
    victim = (seat + 1) % 3
    bad = of_kind("forbidden")[0]
    pay, give = spare_objects(state, 2)
    stealing = arrange(state, hands={seat: [pay], victim: [bad]})
    after, _events = play(stealing, Steal(target=victim, pay=pay))
    assert bad in after.hands[seat]
    trading = arrange(state, hands={seat: [give], victim: [bad]})
    trading, _ = play(trading, OfferTrade(target=victim, give=(give,), ask=(kind(bad),)))
    trading, _ = play(trading, AcceptTrade(), victim)
    assert bad in trading.hands[seat]


# -- postcards ----------------------------------------------------------------------------------------------


def test_three_postcards_do_not_win_yet() -> None:
    state, seat = table(Options(postcards=True))
    target = (seat + 1) % 3
    cards = of_kind("postcard")
    state = arrange(state, hands={seat: [cards[0]], target: [*cards[1:4], spare_objects(state, 1)[0]]})
    state = arrange(state, hands={target: [*cards[1:3], spare_objects(state, 1)[0]]})
    offered = OfferTrade(target=target, give=(cards[0],), ask=(kind(state.hands[target][2]),))
    state, _ = play(state, offered)
    state = replace(state)  # the target holds 2 postcards and gets a third: no win yet
    after, events = play(state, AcceptTrade(), target)
    assert not any(isinstance(e, TripWon) for e in events)
    fourth = arrange(after, hands={target: [*after.hands[target], cards[4]]})
    assert sum(CARDS[c].type == "postcard" for c in fourth.hands[target]) == 4


def test_four_postcards_received_in_a_trade_win_for_the_player_out_of_turn() -> None:
    state, seat = table(Options(postcards=True))
    target = (seat + 1) % 3
    cards = of_kind("postcard")
    junk = spare_objects(state, 1)[0]
    state = arrange(state, hands={seat: [cards[0]], target: [*cards[1:4], junk]})
    state, _ = play(state, OfferTrade(target=target, give=(cards[0],), ask=(kind(junk),)))
    state, events = play(state, AcceptTrade(), target)
    assert events[-1] == TripWon(seat=target, how="postcards")
    assert not any(isinstance(e, ItchyCardDrawn) for e in events)  # the game ended before the bonus card
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == [target] and outcome.won_by == "postcards"


def test_faq_moms_credit_card_is_not_a_postcard() -> None:
    state, seat = table(Options(postcards=True, special_objects=True))
    cards = of_kind("postcard")
    state = arrange(state, hands={seat: [*cards[:3], card("wild_object")]})
    assert GAME.outcome(state) is None and state.phase != "over"


# -- characters ----------------------------------------------------------------------------------------------

CHARS = Options(characters=True, forbidden_objects=True)


def test_characters_are_dealt_face_up_one_per_player_and_never_traded() -> None:
    state, seat = table(CHARS)
    assert len(set(state.characters)) == 3
    assert all(GAME.view(state, None).seats[s].character == state.characters[s] for s in range(3))
    give = state.hands[seat][1]
    assert (
        rejection(state, OfferTrade(target=(seat + 1) % 3, give=(give,), ask=(state.characters[1],))).code
        == "unknown_kind"
    )


def test_faq_the_smuggler_hands_over_only_forbidden_objects() -> None:
    state, seat = table(CHARS)
    state = with_character(state, seat, "smuggler")
    bad = of_kind("forbidden")[0]
    plain = state.hands[seat][1]
    state = arrange(state, hands={seat: [bad, plain]})
    assert rejection(state, Smuggle(card=plain, target=(seat + 1) % 3)).code == "not_forbidden"
    _after, events = play(state, Smuggle(card=bad, target=(seat + 1) % 3))
    assert events[0] == ForbiddenHandedOver(giver=seat, receiver=(seat + 1) % 3, card=bad)
    other = with_character(state, seat, "backpacker")
    assert rejection(other, Smuggle(card=bad, target=(seat + 1) % 3)).code == "not_the_smuggler"


def test_the_backpacker_holds_eight_cards() -> None:
    state, seat = table(CHARS)
    state = with_character(arrange(state, hands={seat: spare_objects(state, 7)}), seat, "backpacker")
    state, _ = play(state, Draw())
    assert len(state.hands[seat]) == 8 and isinstance(GAME.awaited(state)[0], Awaited)
    assert GAME.awaited(state)[0].reason == "action"


def test_the_pickpocket_steals_without_paying() -> None:
    state, seat = table(CHARS)
    state = with_character(state, seat, "pickpocket")
    size = len(state.hands[seat])
    state, _events = play(state, Steal(target=(seat + 1) % 3))
    assert len(state.hands[seat]) == size + 1


def test_the_bargain_hunter_recycles_for_one_card() -> None:
    state, seat = table(CHARS)
    state = with_character(state, seat, "bargain-hunter")
    pay, take = spare_objects(state, 2)
    state = arrange(state, hands={seat: [pay]}, discard=[take])
    state, _ = play(state, Recycle(pay=(pay,), take=take))
    assert state.hands[seat] == (take,)


def test_the_diplomat_draws_two_bonus_cards() -> None:
    state, seat = table(CHARS)
    state = with_character(state, seat, "diplomat")
    give, get = spare_objects(state, 2)
    state = arrange(state, hands={seat: [give], (seat + 1) % 3: [get]})
    state, _ = play(state, OfferTrade(target=(seat + 1) % 3, give=(give,), ask=(kind(get),)))
    state, events = play(state, AcceptTrade(), (seat + 1) % 3)
    assert [e.reason for e in events if isinstance(e, ItchyCardDrawn)] == ["bonus", "bonus"]


def test_the_globetrotter_draws_two_after_travelling() -> None:
    state, seat = table(CHARS)
    state = with_character(state, seat, "globetrotter")
    country = state.own[seat]
    assert country is not None
    passport = next(c for c in state.hands[seat] if CARDS[c].type == "passport")
    state = arrange(state, hands={seat: [passport, *objects_for(country)]})
    state, events = play(state, Travel(country=country))
    assert [e.reason for e in events if isinstance(e, ItchyCardDrawn)] == ["travel", "travel"]


# -- deadlines -----------------------------------------------------------------------------------------------------


def test_deadline_closes_a_trade_offer_only_once_its_time_has_passed() -> None:
    state, seat = table(Options(trade_answer_ms=2000))
    target = (seat + 1) % 3
    give, get = state.hands[seat][1], state.hands[target][1]
    state, events = play(state, OfferTrade(target=target, give=(give,), ask=(kind(get),)), now_ms=1000)
    (deadline,) = GAME.deadlines(state)
    assert (deadline.window, deadline.due_ms, deadline.command) == ("trade-1", 3000, CloseWindow(window="trade-1"))
    assert rejection(state, deadline.command, CLOCK, now_ms=2999).code == "too_early"
    assert rejection(state, deadline.command, target, now_ms=5000).code == "clock_only"
    assert deadline.command not in GAME.commands(state, target)
    after, events = play(state, deadline.command, CLOCK, now_ms=3000)
    assert events == [TradeRejected(window="trade-1", timed_out=True)]
    assert (
        GAME.deadlines(after) == [] and rejection(after, deadline.command, CLOCK, now_ms=9000).code == "window_closed"
    )
    assert rejection(state, Draw(), CLOCK, now_ms=9000).code == "clock_closes_windows_only"
    assert rejection(after, Draw(), CLOCK, now_ms=9000).code == "window_closed"  # no window: the table's guard


def test_deadline_closes_a_reaction_window_only_once_its_time_has_passed() -> None:
    state, seat = table(Options(special_objects=True, reaction_ms=500))
    state, _ = play(state, Draw(), now_ms=100)
    state, _ = play(state, PassReaction(), (seat + 1) % 3, now_ms=200)  # an unrelated event keeps the deadline
    (deadline,) = GAME.deadlines(state)
    assert (deadline.window, deadline.due_ms) == ("react-1", 600)
    assert rejection(state, deadline.command, CLOCK, now_ms=599).code == "too_early"
    after, events = play(state, deadline.command, CLOCK, now_ms=600)
    assert events[0] == ReactionWindowClosed(window="react-1", timed_out=True)
    assert isinstance(events[1], ItchyCardDrawn) and isinstance(events[-1], TravelTurnBegan)
    assert rejection(after, deadline.command, CLOCK, now_ms=700).code == "window_closed"  # fired twice lands once


def test_window_ids_never_repeat() -> None:
    state, _seat = table(SPECIALS)
    seen = []
    for _ in range(4):
        state, events = play(state, Draw())
        declared = events[0]
        assert isinstance(declared, ActionDeclared)
        seen.append(declared.window)
        state, _ = pass_all(state)
        for s in [a.seat for a in GAME.awaited(state) if a.reason == "discard"]:
            state, _ = play(state, GAME.commands(state, s)[0], s)
    assert len(set(seen)) == 4


def test_all_five_expansions_together_start_a_game() -> None:
    state, _ = start(6, ALL)
    assert len(state.characters) == 6 and len(state.deck) == 54 - 18 - 0
