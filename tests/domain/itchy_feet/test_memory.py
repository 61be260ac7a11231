"""What each seat remembers of the other hands (memory.py): cards seen going in face up stay known
until they leave, a card that leaves unseen makes the others forget that hand, and the deck once
shuffled from the discard pile holds none but those cards (what the bots' imagined worlds keep)."""

from __future__ import annotations

import random

from domain.bots.world import Hidden
from domain.itchy_feet import GAME
from domain.itchy_feet.commands import AcceptTrade, Draw, OfferTrade, Recycle, Steal
from domain.itchy_feet.strategy import bounds

from .helpers import arrange, kind, play, spare_objects, start


def test_a_trade_shows_every_seat_the_cards_that_changed_hands() -> None:
    state, _ = start(3)
    seat = state.current
    assert seat is not None
    target, other = (seat + 1) % 3, (seat + 2) % 3
    give, get, spare = spare_objects(state, 3)
    state = arrange(state, hands={seat: [give, spare], target: [get]})
    state, _ = play(state, OfferTrade(target=target, give=(give,), ask=(kind(get),)))
    state, _ = play(state, AcceptTrade(), target)
    assert state.known[other][target] == (give,) and state.known[other][seat] == (get,)
    assert state.known[seat][target] == (give,) and state.known[target][seat] == (get,)
    assert state.known[3][target] == (give,), "the public (a spectator) saw it too"
    assert state.known[seat][seat] == (), "nobody keeps a memory of its own hand"
    assert GAME.view(state, other).seats[target].known == [give]
    assert GAME.view(state, seat).seats[seat].known is None


def test_a_steal_tells_the_two_which_card_and_makes_the_others_forget_the_victims_hand() -> None:
    state, _ = start(3)
    victim = state.current
    assert victim is not None
    thief, other = (victim + 1) % 3, (victim + 2) % 3
    pay, spare, taken, cost = spare_objects(state, 4)
    state = arrange(state, hands={victim: [pay, spare], thief: [cost]}, discard=[taken])
    state, _ = play(state, Recycle(pay=(pay, spare), take=taken))  # face up: everyone saw it taken
    assert all(state.known[v][victim] == (taken,) for v in (thief, other, 3))
    state, _ = play(state, Steal(target=victim, pay=cost))  # the victim's only card
    assert state.hands[thief] == (taken,)
    assert state.known[victim][thief] == (taken,), "the one robbed knows where its card went"
    assert state.known[thief][victim] == ()
    assert state.known[other][victim] == () and state.known[3][victim] == (), "the others cannot tell which"
    assert state.known[other][thief] == (), "nor what the thief took"


def test_the_deck_shuffled_from_the_discard_pile_holds_only_its_cards_in_every_imagined_world() -> None:
    state, _ = start(2)
    seat = state.current
    assert seat is not None
    assert bounds(state) == []  # the deck dealt at setup may hold any card out of sight
    pile = list(state.deck)
    state = arrange(state, deck=[pile[0]], discard=pile[1:])
    state, _ = play(state, Draw(), seat)  # the last card: the discard pile becomes the deck
    assert sorted(state.deck) == sorted(pile[1:]) and state.reshuffled == tuple(sorted(pile[1:]))
    state = arrange(state, hands={seat: [*state.hands[seat], *state.deck[:3]]})  # some of it drawn since
    hidden = Hidden(GAME, state, seat)
    for i in range(20):
        world = hidden.world(random.Random(i))
        assert set(world.deck) <= set(pile[1:]) and len(world.deck) == len(state.deck)
        assert world.hands[seat] == state.hands[seat]
        assert sorted([*world.deck, *world.hands[1 - seat]]) == sorted([*state.deck, *state.hands[1 - seat]])
