"""What each seat has seen go into the other hands: a player's memory of the table, kept in the state.

At a real table a player remembers the cards that went into another hand face up (given in a
trade, taken from the discard pile, left in a hand shown by a travel) and the card stolen from or
by them; and forgets what a hand held once a card left it unseen (a steal, a card passed by an
event), since it cannot tell which one went. ``State.known`` holds that memory: a row for every
seat and a last one for the public (a spectator), each with the cards it knows to be in each hand
(its own hand left empty: it sees that). Every card in it is in that hand: it is only ever told
what its viewer saw, and forgotten as soon as the viewer could no longer tell.

Views show a seat its row (``seats[i].known``, docs/games/itchy-feet.md), so the bots' imagined
worlds keep those cards where they are (domain/bots/world.py) and a trade asks whom it should.
"""

from __future__ import annotations

from msgspec.structs import replace

from domain.cards import replaced, without
from domain.itchy_feet.events import (
    CardPassed,
    CardsDiscarded,
    CardStolen,
    CardTakenFromDiscard,
    Event,
    ForbiddenHandedOver,
    MousetrapSprung,
    SpecialPlayed,
    TradeCompleted,
    Travelled,
)
from domain.itchy_feet.state import Known, State

REMEMBERED = (
    CardsDiscarded,
    CardStolen,
    CardTakenFromDiscard,
    TradeCompleted,
    Travelled,
    MousetrapSprung,
    SpecialPlayed,
    ForbiddenHandedOver,
    CardPassed,
)


def remember(state: State, event: Event) -> State:
    """``state`` (the event already folded) with every viewer's memory brought up to ``event``."""
    if not isinstance(event, REMEMBERED) or not state.known:
        return state
    known = state.known
    match event:
        case CardsDiscarded(seat=seat, cards=cards):
            known = _gone(known, seat, cards)
        case MousetrapSprung(seat=seat, card=card) | SpecialPlayed(seat=seat, card=card):
            known = _gone(known, seat, (card,))
        case CardTakenFromDiscard(seat=seat, card=card):
            known = _seen(known, seat, (card,))
        case TradeCompleted(offerer=offerer, target=target, given=given, received=received):
            known = _seen(_gone(known, offerer, given), target, given)
            known = _seen(_gone(known, target, received), offerer, received)
        case ForbiddenHandedOver(giver=giver, receiver=receiver, card=card):
            known = _seen(_gone(known, giver, (card,)), receiver, (card,))
        case Travelled(seat=seat):
            known = _shown(known, seat, state.hands[seat])  # the hand as it is left: the objects used are gone
        case CardStolen(thief=thief, victim=victim, card=card) | CardPassed(giver=victim, receiver=thief, card=card):
            known = _moved_unseen(known, victim, thief, card or "")
    return replace(state, known=known)


def _row(known: Known, viewer: int, holder: int, cards: tuple[str, ...]) -> Known:
    return replaced(known, viewer, replaced(known[viewer], holder, cards))


def _gone(known: Known, holder: int, cards: tuple[str, ...]) -> Known:
    """Cards left ``holder``'s hand face up: nobody counts them there any more."""
    for viewer, row in enumerate(known):
        if any(c in row[holder] for c in cards):
            known = _row(known, viewer, holder, without(row[holder], *cards))
    return known


def _seen(known: Known, holder: int, cards: tuple[str, ...]) -> Known:
    """Cards went into ``holder``'s hand face up: every other viewer knows them there."""
    for viewer, row in enumerate(known):
        if viewer != holder:
            known = _row(known, viewer, holder, row[holder] + tuple(c for c in cards if c not in row[holder]))
    return known


def _shown(known: Known, holder: int, hand: tuple[str, ...]) -> Known:
    """The whole hand was shown: every other viewer knows it all."""
    for viewer in range(len(known)):
        if viewer != holder:
            known = _row(known, viewer, holder, hand)
    return known


def _moved_unseen(known: Known, source: int, to: int, card: str) -> Known:
    """A card went from ``source`` to ``to`` face down: the two know which, every other viewer
    forgets what ``source`` held (it cannot tell which card went)."""
    for viewer, row in enumerate(known):
        if viewer == to:
            known = _row(known, viewer, source, without(row[source], card))
        elif viewer == source:
            known = _row(known, viewer, to, row[to] if card in row[to] else (*row[to], card))
        elif row[source]:
            known = _row(known, viewer, source, ())
    return known
