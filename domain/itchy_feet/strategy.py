"""What the bots are told of Itchy Feet (the contract: ``Strategy`` in domain/engine.py)."""

from __future__ import annotations

from domain.engine import Place, Strategy
from domain.itchy_feet.cards import CARDS, COUNTRIES
from domain.itchy_feet.state import State


def points(state: State) -> list[float]:
    return [_standing(state, s) for s in range(state.players)]


def _standing(state: State, seat: int) -> float:
    hand = state.hands[seat]
    country = state.own[seat] if state.own[seat] is not None else state.centre
    needed = set(COUNTRIES[country].requires) if country is not None else set()
    kinds = {CARDS[c].kind for c in hand}
    types = [CARDS[c].type for c in hand]
    passport = "passport" in types or any(CARDS[c].effect == "visa" for c in hand)
    return (
        10.0 * len(state.travelled[seat])
        + 3.0 * len(kinds & needed)
        + 3.0 * passport
        - 2.0 * types.count("forbidden")
        + 1.5 * types.count("postcard")
        + 0.1 * len(hand)
    )


def pool(place: Place, card: str) -> str:
    """The deck and the hands are one pool; the passports set aside stay aside."""
    return "aside" if place[0] == "passports_aside" else "card"


STRATEGY = Strategy(points=points, pool=pool, spread=10.0)
