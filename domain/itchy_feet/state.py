"""The state of one game: every card's place, the countries, and who the game waits for."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from domain.itchy_feet.cards import CARDS, CHARACTERS, HAND_LIMIT, CardType
from domain.itchy_feet.commands import Action

# setup: before the opening facts; action: the current seat takes its action (or has a trade
# offer or a reaction window open); end: the action is done, the next turn starts once nobody is
# over the hand limit; over: someone won.
Phase = Literal["setup", "action", "end", "over"]


# An answer time, in milliseconds on the shared clock: from a tenth of a second (a window the
# deadline worker closes at its next look, for quick tables and tests) to 7 days (the longest turn clock).
AnswerMs = Annotated[
    int, msgspec.Meta(ge=100, le=7 * 24 * 3600 * 1000, description="Milliseconds, 100 to 604800000 (7 days).")
]


class Options(msgspec.Struct, kw_only=True, frozen=True):
    """One switch per expansion, and the answer times (milliseconds on the shared clock)."""

    events: bool = False
    special_objects: bool = False
    forbidden_objects: bool = False
    postcards: bool = False
    characters: bool = False
    trade_answer_ms: AnswerMs = 60000  # how long a trade's target has to answer
    reaction_ms: AnswerMs = 10000  # how long a reaction window stays open


class Trade(msgspec.Struct, frozen=True, kw_only=True):
    """An open trade offer, waiting for the target's answer."""

    window: str
    offerer: int
    target: int
    give: tuple[str, ...]
    ask: tuple[str, ...]
    opened_at_ms: int
    accepted: bool = False  # accepted and waiting in a reaction window


class Window(msgspec.Struct, frozen=True, kw_only=True):
    """A reaction window: ``action`` waits while ``waiting`` seats may spring a Mousetrap or pass."""

    window: str
    seat: int
    action: Action
    opened_at_ms: int
    waiting: tuple[int, ...]


# What each viewer has seen go into each hand (memory.py): ``known[viewer][holder]``, a row per
# seat and a last one for the public (a spectator); a viewer's own column stays empty.
Known = tuple[tuple[tuple[str, ...], ...], ...]


class State(msgspec.Struct, frozen=True, kw_only=True):
    players: int
    options: Options = Options()
    deck: tuple[str, ...] = ()  # top first
    discard: tuple[str, ...] = ()  # bottom first, face up
    hands: tuple[tuple[str, ...], ...]
    passports_aside: tuple[str, ...] = ()
    own: tuple[str | None, ...] = ()  # each seat's country, None once travelled
    centre: str | None = None
    aside: tuple[str, ...] = ()  # countries set aside (public: every other country is on the table)
    travelled: tuple[tuple[str, ...], ...] = ()
    characters: tuple[str, ...] = ()  # by seat; empty without the characters expansion
    current: int | None = None
    phase: Phase = "setup"
    trade: Trade | None = None
    window: Window | None = None
    rejected_offers: int = 0  # this turn
    windows_opened: int = 0  # numbers the windows: their ids never repeat
    winner: int | None = None
    won_by: str = ""
    known: Known = ()
    # The cards the deck was last formed from when the discard pile, face up, was shuffled into it
    # (sorted; empty while the deck is the one shuffled at setup): it holds none but those.
    reshuffled: tuple[str, ...] = ()


def initial(players: int, options: Options | None = None) -> State:
    empty: tuple[tuple[str, ...], ...] = ((),) * players
    return State(
        players=players, options=options or Options(), hands=empty, travelled=empty, known=nobody_knows(players)
    )


def nobody_knows(players: int) -> Known:
    """Nobody has seen a card go into any hand yet: a row per seat and one for the public."""
    return tuple(((),) * players for _ in range(players + 1))


def card_type(card: str) -> CardType:
    return CARDS[card].type


def power(state: State, seat: int) -> str:
    return CHARACTERS[state.characters[seat]].power if state.characters else ""


def hand_limit(state: State, seat: int) -> int:
    return HAND_LIMIT + 1 if power(state, seat) == "backpacker" else HAND_LIMIT


def over_limit(state: State) -> list[int]:
    # The character is looked up only past the common limit (this runs for every step of every move).
    return [s for s, hand in enumerate(state.hands) if len(hand) > HAND_LIMIT and len(hand) > hand_limit(state, s)]


def destination(state: State, seat: int) -> str | None:
    """The country this seat travels to next: its own, then the centre one."""
    return state.own[seat] if state.own[seat] is not None else state.centre


def next_seat(state: State, after: int) -> int:
    return (after + 1) % state.players


def window_id(state: State, kind: str) -> str:
    return f"{kind}-{state.windows_opened + 1}"
