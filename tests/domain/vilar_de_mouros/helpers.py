"""Shared helpers for the Vilar de Mouros tests: start a game, play commands, look at cards."""

from __future__ import annotations

from collections.abc import Iterable

from msgspec.structs import replace

from domain.vilar_de_mouros import GAME
from domain.vilar_de_mouros.cards import BONUS_CARDS, GAME_CARDS
from domain.vilar_de_mouros.commands import Command, DrawFromCentre, DrawFromDeck, PlaceCards, TakeBonus
from domain.vilar_de_mouros.events import Event
from domain.vilar_de_mouros.state import State, bonus_required

from ..contract import Rules
from ..contract import ctx as ctx

ALL_IDS = sorted(GAME_CARDS) + sorted(BONUS_CARDS)

RULES = Rules(GAME, turn=lambda state: state.current)
fold, play, rejection, result = RULES.fold, RULES.play, RULES.rejection, RULES.result


def start(players: int, seed: int = 0) -> tuple[State, list[Event]]:
    """A game right after setup, and its opening events."""
    return RULES.start(players, None, seed)


def draw_one(state: State) -> State:
    """Draw from the centre when it holds a card, else from the deck."""
    state, _ = play(state, DrawFromCentre(card=state.centre[0]) if state.centre else DrawFromDeck())
    return state


def draw_turn(state: State) -> State:
    """A whole drawing turn: two draws, then the first two hand cards placed."""
    state = draw_one(draw_one(state))
    assert state.current is not None
    hand = state.hands[state.current]
    state, _ = play(state, PlaceCards(centre=hand[0], personal=hand[1]))
    return state


def bonus_turn(state: State) -> State:
    state, _ = play(state, TakeBonus(card=state.bonus_row[0]))
    return state


def auto_turn(state: State) -> State:
    """A bonus turn when the rules force one, else a drawing turn."""
    assert state.current is not None
    return bonus_turn(state) if bonus_required(state, state.current) else draw_turn(state)


def over(hands: list[list[str]]) -> State:
    """A finished game where each seat holds these cards (for scoring tests)."""
    empty: tuple[tuple[str, ...], ...] = tuple(() for _ in hands)
    return State(players=len(hands), hands=tuple(tuple(h) for h in hands), personal=empty, phase="over")


def zones(state: State) -> list[tuple[str, ...]]:
    return [state.deck, state.bonus_deck, state.bonus_row, state.centre, *state.hands, *state.personal]


def swap(state: State, a: str, b: str) -> State:
    """The same state with cards a and b exchanged wherever they lie."""

    def sw(cards: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(b if c == a else a if c == b else c for c in cards)

    return replace(
        state,
        deck=sw(state.deck),
        bonus_deck=sw(state.bonus_deck),
        bonus_row=sw(state.bonus_row),
        centre=sw(state.centre),
        hands=tuple(sw(h) for h in state.hands),
        personal=tuple(sw(p) for p in state.personal),
    )


def universe(place_ids: Iterable[str]) -> list[Command]:
    """Every command over all card ids, except PlaceCards limited to pairs of ``place_ids``."""
    ids = list(place_ids)
    commands: list[Command] = [DrawFromDeck()]
    commands += [DrawFromCentre(card=c) for c in ALL_IDS]
    commands += [TakeBonus(card=c) for c in ALL_IDS]
    commands += [PlaceCards(centre=a, personal=b) for a in ids for b in ids]
    return commands
