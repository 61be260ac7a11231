"""Building a move, pick by pick (the contract is in domain/engine.py; each command's picks are
listed in docs/games/itchy-feet.md, "How a move is built").

Every command decide accepts can be built, and nothing else: no option is left out to steer play
(a bot that wants to play well weighs the commands itself). Options come only from what the seat
sees: its own hand, the discard pile, the countries, the others' hand counts and characters, the
open offer or window. A tuple field is picked one value at a time, in any order decide accepts.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache, partial

from domain.engine import NO_MOVE, Option, Pick, Seat, Step
from domain.itchy_feet.cards import effect
from domain.itchy_feet.commands import (
    AcceptTrade,
    DiscardDownToSeven,
    DitchForbidden,
    Draw,
    OfferTrade,
    PassReaction,
    PlayMousetrap,
    PlaySpecial,
    Recycle,
    RejectTrade,
    Smuggle,
    Steal,
    Travel,
)
from domain.itchy_feet.rules import (
    ask_limit,
    awaited,
    kinds_in_play,
    matching,
    may_ditch,
    may_travel,
    offers_left,
    others,
    payable,
    playable_specials,
    recycle_cost,
    smuggled,
    steal_targets,
    takeable,
)
from domain.itchy_feet.state import Options, State, card_type, destination, power
from domain.moves import Chosen, menu, offer, pick_one, send

SWAP_MOST = 3  # the Trading Post discards 1 to 3 other cards
FOUND_MOST = 2  # Lost and Found takes 1 or 2 cards of the discard pile
NAMES_NO_CARDS = ("draw_two", "draw_one_free", "new_country")  # special objects played on their own


def moves(state: State, seat: Seat, picks: tuple[Pick, ...]) -> Step:
    return _first_step(state, seat) if not picks else _step(state, seat, picks)


@lru_cache(maxsize=16)
def _first_step(state: State, seat: Seat) -> Step:
    """The first step, kept for the last few states: a bot building moves at random starts from
    it every time (it asks every kind of move whether it has a first pick)."""
    return _step(state, seat, ())


def _step(state: State, seat: Seat, picks: tuple[Pick, ...]) -> Step:
    reasons = {a.reason for a in awaited(state) if a.seat == seat}
    if "discard" in reasons:
        discardable = payable(state, seat)
        return menu(picks, {"DiscardDownToSeven": pick_one("card", "card", discardable, _discard)})
    if "react" in reasons:
        traps = [c for c in state.hands[seat] if card_type(c) == "special" and effect(c) == "mousetrap"]
        return menu(
            picks,
            {"PlayMousetrap": pick_one("card", "card", traps, _mousetrap), "PassReaction": send(PassReaction())},
        )
    if "trade_answer" in reasons and state.trade is not None:
        able = matching(state.hands[seat], state.trade.ask) is not None
        return menu(picks, {"AcceptTrade": send(AcceptTrade() if able else None), "RejectTrade": send(RejectTrade())})
    if "action" in reasons:
        if picks and picks[0].value in ACTIONS:  # past the type: that action's builder alone
            return ACTIONS[str(picks[0].value)](state, seat, Chosen(picks[1:]))
        return menu(picks, {name: partial(build, state, seat) for name, build in ACTIONS.items()})
    return NO_MOVE


def _discard(card: str) -> DiscardDownToSeven:
    return DiscardDownToSeven(card=card)


def _mousetrap(card: str) -> PlayMousetrap:
    return PlayMousetrap(card=card)


def _draw(state: State, seat: int, chosen: Chosen) -> Step:
    return Step(command=Draw()) if state.deck or state.discard else NO_MOVE


def _travel(state: State, seat: int, chosen: Chosen) -> Step:
    """The country travelled to: the seat's own, then the centre one."""
    country = destination(state, seat)
    if country is None or not may_travel(state, seat):
        return NO_MOVE
    travel = Travel(country=country)
    return Step(command=travel) if chosen else Step((Option("country", country, "country", travel),))


def _recycle(state: State, seat: int, chosen: Chosen) -> Step:
    """Pay the cost's cards one by one (any order), then take a card of the discard pile."""
    cost, cards, pile = recycle_cost(state, seat), payable(state, seat), takeable(state)
    if len(cards) < cost or not pile:
        return NO_MOVE
    pay = chosen.many("pay")
    if len(pay) < cost:
        return Step(tuple(offer("pay", "card", [c for c in cards if c not in pay])))
    take = chosen.one("take")
    if take is not None:
        return Step(command=Recycle(pay=pay, take=take))
    return Step(tuple(offer("take", "card", pile, lambda card: Recycle(pay=pay, take=card))))


def _offer_trade(state: State, seat: int, chosen: Chosen) -> Step:
    """A target, the cards given (1 or more, any order), then the kinds asked (1 or more, repeats
    allowed up to the limit); the first kind asked closes the cards given."""
    hand = state.hands[seat]
    if not offers_left(state) or not hand:
        return NO_MOVE
    target = chosen.one("target")
    if target is None:
        return Step(tuple(offer("target", "seat", others(state, seat))))
    give, ask = chosen.many("give"), chosen.many("ask")
    left = ask_limit(state, target) - len(ask)
    if not ask:
        options = offer("give", "card", [c for c in hand if c not in give])
        return Step((*options, *_asks(state, target, give, ask, left)) if give else tuple(options))
    command = OfferTrade(target=target, give=give, ask=ask)
    return Step(_asks(state, target, give, ask, left), command)


def _asks(state: State, target: int, give: tuple[str, ...], ask: tuple[str, ...], left: int) -> tuple[Option, ...]:
    """One more kind to ask (any kind in play, repeats allowed) while the limit allows; the last ends the offer."""
    if left <= 0:
        return ()
    if left > 1:
        return _ask_options(state.options)
    return tuple(
        Option("ask", k, "kind", OfferTrade(target=target, give=give, ask=(*ask, k)))
        for k in kinds_in_play(state.options)
    )


@lru_cache(maxsize=64)
def _ask_options(options: Options) -> tuple[Option, ...]:
    """The ask options that leave the offer open (the same at every step: built once per table's options)."""
    return tuple(Option("ask", k, "kind") for k in kinds_in_play(options))


def _steal(state: State, seat: int, chosen: Chosen) -> Step:
    """A target with cards, then the card paid (the Pickpocket pays none)."""
    targets = steal_targets(state, seat)
    if power(state, seat) == "thief":
        return pick_one("target", "seat", targets, lambda t: Steal(target=t))(chosen)
    if not targets:
        return NO_MOVE
    target = chosen.one("target")
    if target is None:
        return Step(tuple(offer("target", "seat", targets)))
    pay = chosen.one("pay")
    if pay is not None:
        return Step(command=Steal(target=target, pay=pay))
    return Step(tuple(offer("pay", "card", payable(state, seat), lambda card: Steal(target=target, pay=card))))


def _ditch(state: State, seat: int, chosen: Chosen) -> Step:
    """A forbidden object, then the other card discarded with it (not a forbidden one)."""
    if not may_ditch(state, seat):
        return NO_MOVE
    forbidden = chosen.one("forbidden")
    if forbidden is None:
        return Step(tuple(offer("forbidden", "card", [c for c in state.hands[seat] if card_type(c) == "forbidden"])))
    other = chosen.one("other")
    if other is not None:
        return Step(command=DitchForbidden(forbidden=forbidden, other=other))
    cards = payable(state, seat)
    return Step(tuple(offer("other", "card", cards, lambda card: DitchForbidden(forbidden=forbidden, other=card))))


def _smuggle(state: State, seat: int, chosen: Chosen) -> Step:
    """The Smuggler: a forbidden object, then the player it goes to."""
    cards = smuggled(state, seat)
    if not cards:
        return NO_MOVE
    card = chosen.one("card")
    if card is None:
        return Step(tuple(offer("card", "card", cards)))
    target = chosen.one("target")
    if target is not None:
        return Step(command=Smuggle(card=card, target=target))
    return Step(tuple(offer("target", "seat", others(state, seat), lambda t: Smuggle(card=card, target=t))))


def _special(state: State, seat: int, chosen: Chosen) -> Step:
    """A special object, then the cards it names: the Trading Post 1 to 3 other cards of the hand,
    Lost and Found 1 or 2 cards of the discard pile (any order; it may be sent after the first)."""
    playable = playable_specials(state, seat)
    card = chosen.one("card")
    if card is None:
        return Step(
            tuple(
                Option("card", c, "card", PlaySpecial(card=c) if effect(c) in NAMES_NO_CARDS else None)
                for c in playable
            )
        )
    if effect(card) in NAMES_NO_CARDS:
        return Step(command=PlaySpecial(card=card))
    if effect(card) == "swap_draw":
        pool, most = [c for c in payable(state, seat) if c != card], SWAP_MOST
    else:
        pool, most = takeable(state), FOUND_MOST
    cards = chosen.many("cards")
    command = PlaySpecial(card=card, cards=cards) if cards else None
    left = [c for c in pool if c not in cards]
    if len(cards) >= most or not left:
        return Step(command=command)
    last = len(cards) + 1 == most or len(left) == 1  # after this pick nothing is left to choose

    def complete(other: str) -> PlaySpecial:
        return PlaySpecial(card=card, cards=(*cards, other))

    return Step(tuple(offer("cards", "card", left, complete if last else None)), command)


ActionBuilder = Callable[[State, int, Chosen], Step]
ACTIONS: dict[str, ActionBuilder] = {  # in the order the first step offers them
    "Draw": _draw,
    "Recycle": _recycle,
    "OfferTrade": _offer_trade,
    "Steal": _steal,
    "Travel": _travel,
    "DitchForbidden": _ditch,
    "Smuggle": _smuggle,
    "PlaySpecial": _special,
}
