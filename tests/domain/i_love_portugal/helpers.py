"""Shared helpers for the I Love Portugal tests: start a game, play commands, set up hands."""

from __future__ import annotations

from msgspec.structs import replace

from domain.i_love_portugal import GAME
from domain.i_love_portugal.cards import AIRPORTS, CARDS, CIRCLES, COLOURS, PILE_KINDS, REGIONS
from domain.i_love_portugal.commands import (
    BuyCard,
    BuyPhoto,
    ChooseColour,
    Command,
    EndTurnAndDraw,
    FlyTo,
    MoveTourist,
    PlaceTourist,
)
from domain.i_love_portugal.events import Event
from domain.i_love_portugal.state import State

from ..contract import Rules
from ..contract import ctx as ctx

ALL_IDS = sorted(CARDS)

RULES = Rules(GAME, turn=lambda state: state.current)
fold, play, rejection, result = RULES.fold, RULES.play, RULES.rejection, RULES.result


def opened(players: int, seed: int = 0) -> tuple[State, list[Event]]:
    """A game right after setup (first player drawn, ratings placed), and its opening events."""
    return RULES.start(players, None, seed)


def choose_colours(state: State, colours: list[str] | None = None) -> State:
    """Every seat takes a colour, in turn order: the given ones, or the first free ones."""
    wanted = list(colours or [])
    while state.phase == "colour":
        free = [c for c in COLOURS if c not in state.colours]
        state, _ = play(state, ChooseColour(colour=wanted.pop(0) if wanted else free[0]))
    return state


def place_tourists(state: State, regions: list[str] | None = None) -> State:
    wanted = list(regions or [])
    while state.phase == "tourist":
        legal = GAME.commands(state, state.current)  # type: ignore[arg-type]
        region = wanted.pop(0) if wanted else legal[0].region  # type: ignore[union-attr]
        state, _ = play(state, PlaceTourist(region=region))
    return state


def started(players: int, seed: int = 0) -> State:
    """A game at the first player's first turn."""
    state, _ = opened(players, seed)
    return place_tourists(choose_colours(state))


def with_hand(state: State, seat: int, cards: list[str], at: str | None = None) -> State:
    """The same state with this seat holding exactly these cards (and its tourist at ``at``)."""
    hands = (*state.hands[:seat], tuple(cards), *state.hands[seat + 1 :])
    state = replace(state, hands=hands)
    if at is not None:
        tourists = (*state.tourists[:seat], at, *state.tourists[seat + 1 :])
        state = replace(state, tourists=tourists)
    return state


def cards_of(kind: str, colour: str | None = None, value: int | None = None) -> list[str]:
    return [
        c.id
        for c in CARDS.values()
        if c.kind == kind and (colour is None or c.colour == colour) and (value is None or c.value == value)
    ]


def zones(state: State) -> list[tuple[str, ...]]:
    return [*state.piles, state.photo_pile, state.box, *state.draw, *state.hands, *state.discards]


def swap(state: State, a: str, b: str) -> State:
    """The same state with cards a and b exchanged wherever they lie."""

    def sw(cards: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(b if c == a else a if c == b else c for c in cards)

    return replace(
        state,
        piles=tuple(sw(p) for p in state.piles),
        photo_pile=sw(state.photo_pile),
        box=sw(state.box),
        draw=tuple(sw(p) for p in state.draw),
        hands=tuple(sw(h) for h in state.hands),
        discards=tuple(sw(d) for d in state.discards),
        photos=tuple(sw(p) for p in state.photos),
    )


def universe() -> list[Command]:
    """Every command over every finite choice (and one unknown name for each string field)."""
    commands: list[Command] = [ChooseColour(colour=c) for c in [*COLOURS, "grey", "nowhere"]]
    commands += [PlaceTourist(region=r) for r in [*REGIONS, "nowhere"]]
    commands += [BuyCard(pile=p) for p in PILE_KINDS]
    commands += [MoveTourist(to=c) for c in [*CIRCLES, "nowhere"]]
    commands += [FlyTo(airport=c) for c in [*AIRPORTS, *REGIONS[:3], "nowhere"]]
    commands += [BuyPhoto(), EndTurnAndDraw()]
    return commands
