"""What a viewer may see: ``view`` of a state and ``redact`` of one event.

A seat sees the public table and its own hand; the spectator sees the public table;
``FULL`` sees everything, deck orders included. Once the game is over every viewer
sees everything. Event visibility is declared per type in ``REDACTIONS``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from domain.engine import FULL, Awaited, Viewer
from domain.vilar_de_mouros.cards import TARGET
from domain.vilar_de_mouros.events import BonusDeckShuffled, CardDrawn, CardsDealt, DeckShuffled, Event
from domain.vilar_de_mouros.rules import awaited
from domain.vilar_de_mouros.state import BONUS_IDS, State
from domain.visibility import Rule, redactor, secret, seen_by


class SeatView(msgspec.Struct, kw_only=True):
    seat: int
    hand_count: int
    hand: list[str] | None = None  # None when hidden from the viewer
    personal: list[str]  # game and bonus cards, face up, in the order placed
    bonus_cards: int
    turns_left: int


class VilarView(msgspec.Struct, kw_only=True, tag="vilar-de-mouros", tag_field="type"):
    players: int
    viewer: int | None
    phase: str
    turn: int | None  # whose turn it is
    awaiting: list[Awaited]
    centre: list[str]
    bonus_row: list[str]
    deck_count: int
    bonus_deck_count: int
    seats: list[SeatView]
    finished: bool
    deck: list[str] | None = None  # top first; only for FULL and once the game is over
    bonus_deck: list[str] | None = None


def view(state: State, viewer: Viewer) -> VilarView:
    everything = viewer == FULL or state.phase == "over"
    target = TARGET[state.players]
    # Built straight from the state's tuples, not by helpers asked per seat: the feeds render a
    # view for every seat on every move, so this is one of the server's busiest functions.
    seats = [
        SeatView(
            seat=seat,
            hand_count=len(hand),
            hand=list(hand) if everything or viewer == seat else None,
            personal=list(personal),
            bonus_cards=len(BONUS_IDS & personal),  # state.bonus_count, without a call a seat
            turns_left=target - len(personal),  # each turn adds one card (state.turns_left)
        )
        for seat, (hand, personal) in enumerate(zip(state.hands, state.personal, strict=True))
    ]
    return VilarView(
        players=state.players,
        viewer=viewer,
        phase=state.phase,
        turn=state.current,
        awaiting=awaited(state),
        centre=list(state.centre),
        bonus_row=list(state.bonus_row),
        deck_count=len(state.deck),
        bonus_deck_count=len(state.bonus_deck),
        seats=seats,
        finished=state.phase == "over",
        deck=list(state.deck) if everything else None,
        bonus_deck=list(state.bonus_deck) if everything else None,
    )


# -- redaction: one entry per private event type; every other type is public ---------------


def _drawn(event: Any, viewer: Viewer) -> Any:
    # from the centre a card was face up already; from the deck only the drawer sees it
    return event if event.source == "centre" else seen_by("seat", hides=("card",))(event, viewer)


REDACTIONS: dict[type[Any], Rule] = {
    DeckShuffled: secret("order"),
    BonusDeckShuffled: secret("order"),
    CardsDealt: seen_by("seat", hides=("cards",)),
    CardDrawn: _drawn,
}


redact: Callable[[Event, Viewer], Event | None] = redactor(REDACTIONS)
