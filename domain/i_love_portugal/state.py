"""The state of one game: every card's place, the board, and how far the turn went."""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.i_love_portugal.cards import (
    BACKPACKS,
    GREY,
    ORANGE,
    PHOTOS,
    PILE,
    PILE_CARDS,
    PILE_KINDS,
    REGION,
    REGIONS,
    cubes_for,
    hand_value,
    spaces_for,
)

# setup: before the opening facts; colour: seats choose colours in turn order; tourist: seats
# place tourists in reverse turn order; turn: a seat plays its turn; over: the game has ended.
Phase = Literal["setup", "colour", "tourist", "turn", "over"]


# The rules version this code plays (GAME.rules_version); a game keeps the one its table opened with
# (``State.rules``, from ``played_by``). 2: a Selfie costs 3 EUR and an Album 5, in the order the
# rulebook lists the piles; rules 1 priced them the other way (``RULES_1_PRICES``). 3: the 12-round
# end below, which every game gets: only a game no photo moved for 12 rounds can tell.
RULES = 3
RULES_1_PRICES = {"selfie": 5, "album": 3}

# A ruling of ours (rules 3): the game also ends once no photo was bought in this many whole
# rounds. Only placing a last cube ends it in the rulebook, and a seat that could place its last
# cube may refuse to while the others cannot place theirs (every region they may still enter full),
# so a game could go on forever. All-greedy games went at most 9.5 rounds without a photo.
STILL_ROUNDS = 12


class PortugalOptions(msgspec.Struct, kw_only=True):
    """I Love Portugal has no table options."""


class State(msgspec.Struct, frozen=True, kw_only=True):
    players: int
    phase: Phase = "setup"
    first: int | None = None  # holder of the 1st player card
    current: int | None = None  # the seat awaited (a setup choice or a turn)
    colours: tuple[str | None, ...]
    ratings: tuple[str, ...] = ()  # rating token per region, board order
    capacity: tuple[int, ...]  # usable cube spaces per region (a neutral cube takes one)
    neutral: tuple[str, ...] = ()  # regions holding a neutral cube
    cubes: tuple[tuple[int, ...], ...]  # per region, the seats with a cube there, in order placed
    cubes_left: tuple[int, ...]
    tourists: tuple[str | None, ...]  # the circle of each seat's tourist
    scores: tuple[int, ...]  # victory points scored during the game
    piles: tuple[tuple[str, ...], ...]  # Selfie, Album, Plane piles on the board (top first)
    photo_pile: tuple[str, ...] = PHOTOS
    box: tuple[str, ...] = ()  # Backpacks of colours nobody chose
    draw: tuple[tuple[str, ...], ...]  # each seat's draw pile, top first
    hands: tuple[tuple[str, ...], ...]
    discards: tuple[tuple[str, ...], ...]  # bottom first
    photos: tuple[tuple[str, ...], ...]  # each seat's photos, in the order bought (public)
    spent: int = 0  # the running total of the turn under way
    final_round: bool = False  # someone placed their last cube
    quiet: int = 0  # turns begun since the turn of the last photo bought (``STILL_ROUNDS``)
    rules: int = RULES  # the rules version the game is played by (its table's)


def initial(players: int, options: PortugalOptions | None = None) -> State:
    empty: tuple[tuple[str, ...], ...] = ((),) * players
    return State(
        players=players,
        colours=(None,) * players,
        capacity=(spaces_for(players),) * len(REGIONS),
        cubes=((),) * len(REGIONS),
        cubes_left=(cubes_for(players),) * players,
        tourists=(None,) * players,
        scores=(0,) * players,
        piles=tuple(PILE_CARDS[kind] for kind in PILE_KINDS),
        box=tuple(c for cards in BACKPACKS.values() for c in cards),
        draw=empty,
        hands=empty,
        discards=empty,
        photos=empty,
    )


def played_by(state: State, rules: int) -> State:
    """A new game played by the rules version ``rules`` (its table's)."""
    return msgspec.structs.replace(state, rules=rules)


def pile_price(state: State, kind: str) -> int:
    """What a card of the board's ``kind`` pile costs in this game (its rules version's price)."""
    if state.rules < 2 and kind in RULES_1_PRICES:
        return RULES_1_PRICES[kind]
    return PILE[kind].price


def order_from_first(state: State) -> list[int]:
    """Seats in turn order (clockwise = increasing seat), the first player first."""
    first = state.first or 0
    return [(first + i) % state.players for i in range(state.players)]


def last_seat(state: State) -> int:
    """The player to the right of the first player: the last of every round."""
    return order_from_first(state)[-1]


def budget(state: State, seat: int) -> int:
    """What the seat's hand can pay this turn."""
    return hand_value(state.hands[seat])


def can_afford(state: State, seat: int, cost: int) -> bool:
    return state.spent + cost <= budget(state, seat)


def starting_regions(state: State) -> list[str]:
    """Regions a tourist may start on: not grey, not orange, no tourist yet."""
    taken = set(state.tourists)
    return [r for r in REGIONS if REGION[r].colour not in (GREY, ORANGE) and r not in taken]


def free_spaces(state: State, index: int) -> int:
    return state.capacity[index] - len(state.cubes[index])
