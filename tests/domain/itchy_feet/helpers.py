"""Shared helpers for the Itchy Feet tests: start a game, arrange cards, play commands."""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

from msgspec.structs import replace

from domain.engine import Ctx, Rejected
from domain.itchy_feet import GAME
from domain.itchy_feet.cards import CARDS, COUNTRIES
from domain.itchy_feet.commands import Command
from domain.itchy_feet.events import Event
from domain.itchy_feet.rules import in_play
from domain.itchy_feet.state import Options, State

ALL = Options(events=True, special_objects=True, forbidden_objects=True, postcards=True, characters=True)


def ctx(seed: int = 0, now_ms: int = 0) -> Ctx:
    return Ctx(rng=random.Random(seed), now_ms=now_ms)


def fold(state: State, events: Iterable[Event]) -> State:
    for event in events:
        state = GAME.evolve(state, event)
    return state


def start(players: int = 3, options: Options | None = None, seed: int = 0) -> tuple[State, list[Event]]:
    initial = GAME.initial(players, options or Options())
    events = GAME.setup(initial, ctx(seed))
    return fold(initial, events), events


def play(state: State, command: Command, seat: int | None = None, **kw: Any) -> tuple[State, list[Event]]:
    who = state.current if seat is None else seat
    assert who is not None
    events = GAME.decide(state, command, who, ctx(**kw))
    return fold(state, events), events


def rejection(state: State, command: Command, seat: int | None = None, **kw: Any) -> Rejected:
    who = state.current if seat is None else seat
    assert who is not None
    try:
        GAME.decide(state, command, who, ctx(**kw))
    except Rejected as exc:
        return exc
    raise AssertionError(f"{command} was accepted")


def arrange(
    state: State,
    hands: dict[int, list[str]] | None = None,
    deck: list[str] | None = None,
    discard: list[str] | None = None,
    **changes: Any,
) -> State:
    """The same game with some hands, the deck or the discard pile set (other cards kept elsewhere).

    Cards named here are taken out of wherever they were; cards displaced go to the bottom of the deck,
    so every card stays in exactly one place."""
    named = [c for h in (hands or {}).values() for c in h] + (deck or []) + (discard or [])
    taken = set(named)
    new_hands = [tuple(c for c in h if c not in taken) for h in state.hands]
    displaced: list[str] = []
    for seat, cards in (hands or {}).items():
        displaced += new_hands[seat]
        new_hands[seat] = tuple(cards)
    rest_deck = [c for c in state.deck if c not in taken]
    rest_discard = [c for c in state.discard if c not in taken]
    if deck is not None:
        displaced += rest_deck
        rest_deck = list(deck)
    if discard is not None:
        displaced += rest_discard
        rest_discard = list(discard)
    return replace(
        state,
        hands=tuple(new_hands),
        deck=(*rest_deck, *displaced),
        discard=tuple(rest_discard),
        passports_aside=tuple(c for c in state.passports_aside if c not in taken),
        **changes,
    )


def objects_for(country: str) -> list[str]:
    """The object cards a country requires."""
    return [object_card(kind) for kind in COUNTRIES[country].requires]


def kind(card: str) -> str:
    return CARDS[card].kind


def object_card(kind: str) -> str:
    return next(c for c in sorted(CARDS) if CARDS[c].type == "object" and CARDS[c].kind == kind)


def of_kind(kind: str, state: State | None = None) -> list[str]:
    cards = in_play(state) if state is not None else list(CARDS)
    return sorted(c for c in cards if CARDS[c].type == kind)


def spare_objects(state: State, count: int, avoid: Iterable[str] = ()) -> list[str]:
    """Objects required by no country of this table (and not in ``avoid``)."""
    used = {o for c in [*state.own, state.centre] if c is not None for o in COUNTRIES[c].requires} | set(avoid)
    return [c for c in of_kind("object") if CARDS[c].kind not in used and c not in used][:count]


def zones(state: State) -> list[tuple[str, ...]]:
    return [state.deck, state.discard, state.passports_aside, *state.hands]


def result(state: State, command: Command, seat: int, seed: int = 0) -> Any:
    try:
        return GAME.decide(state, command, seat, ctx(seed))
    except Rejected as exc:
        return ("rejected", exc.code, exc.message, exc.details)
