"""The state of one game: every card's place, whose turn it is, and how far the turn went."""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.vilar_de_mouros.cards import BONUS_CARDS, MAX_BONUS, MIN_BONUS, TARGET

# setup: before the opening facts; action: draw or take a bonus card; draw: one card
# drawn, one more to draw; place: two drawn, place two; turn_over: between a turn's
# last fact and the next TurnStarted; over: the game has ended.
Phase = Literal["setup", "action", "draw", "place", "turn_over", "over"]


class Options(msgspec.Struct, kw_only=True):
    """Vilar de Mouros has no table options."""


class State(msgspec.Struct, frozen=True, kw_only=True):
    players: int
    deck: tuple[str, ...] = ()  # top first
    bonus_deck: tuple[str, ...] = ()  # top first
    bonus_row: tuple[str, ...] = ()
    centre: tuple[str, ...] = ()
    hands: tuple[tuple[str, ...], ...]
    personal: tuple[tuple[str, ...], ...]  # game and bonus cards, in the order placed
    current: int | None = None
    phase: Phase = "setup"


def initial(players: int, options: Options | None = None) -> State:
    empty: tuple[tuple[str, ...], ...] = ((),) * players
    return State(players=players, hands=empty, personal=empty)


def target(state: State) -> int:
    return TARGET[state.players]


def bonus_count(state: State, seat: int) -> int:
    """The bonus cards in a seat's personal area."""
    return len(BONUS_IDS & state.personal[seat])  # card ids are unique: a set's size counts them


BONUS_IDS = BONUS_CARDS.keys()


def turns_left(state: State, seat: int) -> int:
    """Each turn adds exactly one card to the personal area."""
    return target(state) - len(state.personal[seat])


def bonus_required(state: State, seat: int) -> bool:
    """Still short of the minimum bonus cards with no turn to spare."""
    short = MIN_BONUS - bonus_count(state, seat)
    return short > 0 and short >= turns_left(state, seat)


def bonus_allowed(state: State, seat: int) -> bool:
    return bonus_count(state, seat) < MAX_BONUS


def next_seat(state: State, after: int) -> int | None:
    """The next seat clockwise whose personal area is not full; None when all are."""
    for step in range(1, state.players + 1):
        seat = (after + step) % state.players
        if turns_left(state, seat) > 0:
            return seat
    return None
