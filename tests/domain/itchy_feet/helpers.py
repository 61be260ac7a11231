"""Shared helpers for the Itchy Feet tests: start a game, arrange cards, play commands."""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

from msgspec.structs import replace

from domain.engine import Ctx, Pick
from domain.itchy_feet import GAME
from domain.itchy_feet.cards import CARDS, COUNTRIES
from domain.itchy_feet.commands import Command
from domain.itchy_feet.events import Event
from domain.itchy_feet.rules import in_play
from domain.itchy_feet.state import Options, State, destination
from domain.table import decide_game

from ..contract import Rules
from ..contract import ctx as ctx
from .player import Seen, choose

ALL = Options(events=True, special_objects=True, forbidden_objects=True, postcards=True, characters=True)

RULES = Rules(GAME, turn=lambda state: state.current)
fold, play, rejection, result = RULES.fold, RULES.play, RULES.rejection, RULES.result


def start(players: int = 3, options: Options | None = None, seed: int = 0) -> tuple[State, list[Event]]:
    return RULES.start(players, options or Options(), seed)


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


def with_character(state: State, seat: int, character: str) -> State:
    """The same table with ``character`` before ``seat`` (swapped with whoever had it)."""
    chars = list(state.characters)
    other = chars.index(character) if character in chars else None
    if other is not None:
        chars[other] = chars[seat]
    chars[seat] = character
    return replace(state, characters=tuple(chars))


def types(state: State, seat: int) -> list[object]:
    """The kinds of move (command types) the seat may start building now."""
    return [o.value for o in GAME.step(state, seat).options]


def seen_by(state: State, seat: int) -> Seen:
    """What the test player (player.py) leans on: what this seat sees."""
    country = destination(state, seat) if state.own else None
    return Seen(
        hand=state.hands[seat],
        discard=state.discard,
        country=country,
        postcards=state.options.postcards,
        deck=len(state.deck),
    )


def lean(state: State, seat: int, rng: random.Random) -> Command | None:
    """A legal command of ``seat``, built pick by pick by the test player (None: it has no move)."""
    seen = seen_by(state, seat)
    picks: tuple[Pick, ...] = ()
    at = GAME.moves(state, seat, picks)
    for _ in range(64):
        pairs = [(o.field, o.value) for o in at.options]
        index = choose(pairs, at.command is not None, [(p.field, p.value) for p in picks], seen, rng)
        if index is None:
            return at.command  # type: ignore[no-any-return]
        option = at.options[index]
        if option.command is not None:
            return option.command  # type: ignore[no-any-return]
        picks = (*picks, option.pick)
        at = GAME.moves(state, seat, picks)
    raise AssertionError(f"no command within 64 picks: {picks}")


def play_on(
    state: State, rng: random.Random, commands: int, uniform: float = 0.2, now_ms: int = 0
) -> tuple[State, list[Event]]:
    """``commands`` more commands of awaited seats (the test player's, or uniformly random ones with
    chance ``uniform``), stopping at the end of the game: a random reachable state."""
    log: list[Event] = []
    for step in range(commands):
        waiting = GAME.awaited(state)
        if GAME.outcome(state) is not None or not waiting:
            break
        seat = rng.choice(waiting).seat
        command = GAME.random_command(state, seat, rng) if rng.random() < uniform else lean(state, seat, rng)
        assert command is not None, f"seat {seat} is awaited with no move"
        events = decide_game(GAME, state, command, seat, Ctx(rng=rng, now_ms=now_ms + step))
        log += events
        state = fold(state, events)
    return state, log
