"""Candidate commands for the completeness check, made without the pick code (domain/itchy_feet/moves.py).

Every field takes its plausible values: cards in the hand, cards elsewhere, the discard pile,
every seat (itself and out of range too), every kind in play and a few that are not. Tuple
fields are combined up to the rule's limits: every pair of hand cards (both orders) for a
recycle's cost with every discard card; for trades every target with every set of up to 3 given
cards, every single kind asked and a sample of the pairs, plus random larger offers up to the ask
limit; every steal target with every payment; and so on. decide sorts out which are accepted;
``check_complete`` (tests/domain/contract.py) then finds the picks of each accepted one.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator

from domain.itchy_feet.cards import CARDS, of_type
from domain.itchy_feet.commands import (
    AcceptTrade,
    Command,
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
from domain.itchy_feet.rules import in_play
from domain.itchy_feet.state import State, hand_limit

NOT_KINDS = ("smuggler", "event", "duty-free")  # a character, no kind at all, an event's kind
PAIRS_ASKED = 40  # a sample of the pairs of kinds asked (every single kind is asked)
PAIRS_TAKEN = 20  # a sample of the pairs of discard cards Lost and Found takes (every single one is)
LARGER = 12  # random offers larger than the sets above, up to the limits


def candidates(state: State, seat: int, rng: random.Random) -> list[Command]:
    return list(dict.fromkeys(_every(state, seat, rng)))


def _every(state: State, seat: int, rng: random.Random) -> Iterator[Command]:
    hand = list(state.hands[seat]) if 0 <= seat < state.players else []
    everywhere = sorted({*in_play(state), *of_type("passport")})
    elsewhere = rng.sample([c for c in everywhere if c not in hand], 3)
    discard = list(dict.fromkeys(state.discard))
    cards = hand + elsewhere
    seats = list(range(-1, state.players + 1))
    kinds = sorted({CARDS[c].kind for c in everywhere if CARDS[c].type != "event"}) + list(NOT_KINDS)
    countries = [c for c in (state.centre, *state.own, *state.aside[:1]) if c is not None]

    yield from (Draw(), AcceptTrade(), RejectTrade(), PassReaction())
    yield from (Travel(country=c) for c in countries)
    yield from (DiscardDownToSeven(card=c) for c in cards)
    yield from (PlayMousetrap(card=c) for c in cards)

    # Recycle: one card (the Bargain Hunter), every ordered pair, a card twice, three cards.
    pays: list[tuple[str, ...]] = [(a,) for a in cards] + list(itertools.permutations(hand, 2))
    pays += [(a, a) for a in hand[:2]] + [(a, b) for a in hand[:2] for b in elsewhere[:1]]
    pays += [tuple(hand[:3])]
    takes = discard + hand[:1] + elsewhere[:1]
    yield from (Recycle(pay=pay, take=take) for pay in pays for take in takes)

    # Steal: every seat, every payment, none (the Pickpocket).
    for target in seats:
        yield Steal(target=target)
        yield from (Steal(target=target, pay=c) for c in cards)

    # Trades: every target with every set of up to 3 cards given (in hand order; one target also
    # in a random order), a kind asked; every kind alone and a sample of pairs; random larger ones.
    gives = [g for n in (1, 2, 3) for g in itertools.combinations(hand, n)]
    some_kind = rng.choice(kinds[: -len(NOT_KINDS)])
    for target in seats:
        yield from (OfferTrade(target=target, give=give, ask=(some_kind,)) for give in gives)
    target = rng.choice([s for s in range(state.players) if s != seat] or [0])
    for give in [*gives, (), (*elsewhere[:1],), (*hand[:1], *hand[:1])]:
        yield OfferTrade(target=target, give=tuple(rng.sample(give, len(give))), ask=(some_kind,))
    target = rng.choice([s for s in range(state.players) if s != seat] or [0])
    give = tuple(hand[:1]) or (elsewhere[0],)
    yield OfferTrade(target=target, give=give, ask=())
    yield from (OfferTrade(target=target, give=give, ask=(k,)) for k in kinds)
    pairs = list(itertools.product(kinds, repeat=2))
    yield from (OfferTrade(target=target, give=give, ask=pair) for pair in rng.sample(pairs, PAIRS_ASKED))
    if 0 <= target < state.players:
        limit = hand_limit(state, target) + 1
        for size in (limit - 1, limit, limit + 1):
            yield OfferTrade(target=target, give=give, ask=tuple(rng.choices(kinds[: -len(NOT_KINDS)], k=size)))
    for _ in range(LARGER):
        size = rng.randint(1, max(1, len(hand)))
        given = tuple(rng.sample(hand, size)) if hand else give
        asked = tuple(rng.choices(kinds, k=rng.randint(1, 9)))
        yield OfferTrade(target=rng.choice(seats), give=given, ask=asked)

    # Ditch a forbidden object, the Smuggler's hand-over: every pair of cards, every seat.
    yield from (DitchForbidden(forbidden=a, other=b) for a in cards for b in cards)
    yield from (Smuggle(card=c, target=t) for c in cards for t in seats)

    # Special objects: each card alone and with itself; a special object of the hand also with
    # every set of up to 3 other cards (and one random order) and 4 of them, every card of the
    # discard pile, a sample of its pairs (both orders) and 3 of its cards.
    for special in cards:
        yield PlaySpecial(card=special)
        yield PlaySpecial(card=special, cards=(special,))
        if CARDS[special].type != "special":
            yield PlaySpecial(card=special, cards=tuple(discard[:1]))
            continue
        others = [c for c in hand if c != special]
        for n in (1, 2, 3):
            for chosen in itertools.combinations(others, n):
                yield PlaySpecial(card=special, cards=chosen)
                yield PlaySpecial(card=special, cards=tuple(rng.sample(chosen, n)))
        yield PlaySpecial(card=special, cards=tuple(others[:4]))
        yield from (PlaySpecial(card=special, cards=(c,)) for c in [*discard, *elsewhere[:1]])
        for a, b in rng.sample(
            list(itertools.combinations(discard, 2)), min(PAIRS_TAKEN, len(discard) * (len(discard) - 1) // 2)
        ):
            yield from (PlaySpecial(card=special, cards=(a, b)), PlaySpecial(card=special, cards=(b, a)))
        yield PlaySpecial(card=special, cards=tuple(discard[:3]))
