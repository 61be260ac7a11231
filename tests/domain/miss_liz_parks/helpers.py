"""Shared helpers for the Miss Liz tests: start a game, play commands, lay out parks by hand."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from msgspec.structs import replace

from domain.engine import Pick
from domain.miss_liz_parks import GAME
from domain.miss_liz_parks.commands import (
    ChooseTheme,
    Command,
    KeepPlanningCard,
    PassRound,
    PlaceEntrance,
    PlaceFirstStreet,
)
from domain.miss_liz_parks.components import ENTRANCES, THEME_IDS
from domain.miss_liz_parks.events import Event
from domain.miss_liz_parks.state import Building, Cell, Options, Park, State

from ..contract import Rules
from ..contract import ctx as ctx

OCEAN, CASTLE, TERROR, WILD, WESTERN = THEME_IDS

RULES = Rules(GAME, turn=lambda state: state.current)
fold, play, rejection, result = RULES.fold, RULES.play, RULES.rejection, RULES.result


def offered(state: State, seat: int) -> list[str]:
    """The kinds of command the seat may build now (the first step's types)."""
    return [str(o.value) for o in GAME.step(state, seat).options]


def commands_of(state: State, seat: int, kind: str, limit: int = 1000) -> list[Command]:
    """Every complete command of one kind (not BuyStreets: its cells combine past any limit)."""
    found = GAME.few_commands(state, seat, limit, (Pick("type", kind),)) if kind in offered(state, seat) else []
    assert found is not None, f"more than {limit} {kind} commands"
    return found


def themes_chosen(players: int, seed: int = 0, options: Options | None = None) -> tuple[State, list[Event]]:
    """A game whose players took the themes in THEME_IDS order (the first player the first theme)."""
    state = GAME.initial(players, options)
    log: list[Event] = GAME.setup(state, ctx(seed))
    state = fold(state, log)
    for theme in THEME_IDS[:players]:
        state, events = play(state, ChooseTheme(theme=theme), seed=seed)
        log += events
    return state, log


def start(players: int, seed: int = 0, options: Options | None = None) -> tuple[State, list[Event]]:
    """A game at the first turn of round 1: entrances in column 3, first street above, first card kept."""
    state, log = themes_chosen(players, seed, options)
    for seat in range(players):
        for command in (
            PlaceEntrance(column=3),
            PlaceFirstStreet(cell=(4, 3)),
            KeepPlanningCard(card=state.parks[seat].looking[0]),
        ):
            state, events = play(state, command, seat)
            log += events
    return state, log


def park(
    theme: str,
    buildings: Iterable[tuple[Cell, str, int]] = (),
    streets: Iterable[Cell] = (),
    income: int = 0,
    entrance: Cell = (5, 3),
    **fields: Any,
) -> Park:
    """A park laid out by hand: its Entrance (unstaffed), buildings as (cell, tile, employees), streets."""
    built = (
        Building(cell=entrance, tile=ENTRANCES[theme]),
        *(Building(cell=c, tile=t, employees=e) for c, t, e in buildings),
    )
    fields.setdefault("purchase_tokens", 2)
    return Park(theme=theme, buildings=built, streets=tuple(streets), income=income, **fields)


def with_park(state: State, seat: int, new: Park) -> State:
    return replace(state, parks=(*state.parks[:seat], new, *state.parks[seat + 1 :]))


def pass_all(state: State) -> tuple[State, list[Event]]:
    """Every seat passes, in turn, until the round ends."""
    log: list[Event] = []
    number = state.round
    while state.round == number and state.phase == "turns":
        state, events = play(state, PassRound())
        log += events
    return state, log
