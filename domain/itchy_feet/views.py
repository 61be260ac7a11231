"""What a viewer may see: ``view`` of a state and ``redact`` of one event.

A seat sees the public table and its own hand; the spectator sees the public table; ``FULL``
sees everything, the deck order included. Once the game is over every viewer sees every hand.
Event visibility is declared per type in ``REDACTIONS``; every other type is public.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from domain.engine import FULL, Awaited, Viewer
from domain.itchy_feet.commands import Action
from domain.itchy_feet.events import (
    CardPassed,
    CardStolen,
    DiscardPileReshuffled,
    Event,
    ItchyCardDrawn,
    ItchyDeckShuffled,
    PassportReceived,
    StartingHandDealt,
)
from domain.itchy_feet.rules import awaited, deadlines
from domain.itchy_feet.state import State, hand_limit
from domain.visibility import Rule, redactor, secret, seen_by


class SeatView(msgspec.Struct, kw_only=True):
    seat: int
    hand_count: int
    hand: list[str] | None = None  # None when hidden from the viewer
    hand_limit: int
    country: str | None  # own country still to travel to; None once travelled
    travelled: list[str]
    character: str | None = None
    # Cards the viewer has seen go into this hand and not seen leave it (memory.py); None for
    # the viewer's own hand and wherever the whole hand is shown.
    known: list[str] | None = None


class TradeView(msgspec.Struct, kw_only=True):
    window: str
    offerer: int
    target: int
    give: list[str]
    ask: list[str]
    accepted: bool
    due_ms: int


class WindowView(msgspec.Struct, kw_only=True):
    window: str
    seat: int  # whose action waits
    action: Action
    waiting: list[int]
    due_ms: int


class ItchyView(msgspec.Struct, kw_only=True, tag="itchy-feet", tag_field="type"):
    players: int
    viewer: int | None
    phase: str
    turn: int | None
    awaiting: list[Awaited]
    centre: str | None
    aside: list[str]  # countries set aside
    deck_count: int
    discard: list[str]  # bottom first, face up
    passports_aside: int
    seats: list[SeatView]
    trade: TradeView | None
    window: WindowView | None
    rejected_offers: int
    finished: bool
    winner: int | None
    won_by: str
    deck: list[str] | None = None  # top first; only for FULL and once the game is over


def view(state: State, viewer: Viewer) -> ItchyView:
    everything = viewer == FULL or state.phase == "over"
    due = {d.window: d.due_ms for d in deadlines(state)}
    seats = [
        SeatView(
            seat=seat,
            hand_count=len(state.hands[seat]),
            hand=list(state.hands[seat]) if everything or viewer == seat else None,
            hand_limit=hand_limit(state, seat),
            country=state.own[seat] if state.own else None,
            travelled=list(state.travelled[seat]),
            character=state.characters[seat] if state.characters else None,
            known=None if everything or viewer == seat else remembered(state, viewer, seat),
        )
        for seat in range(state.players)
    ]
    trade = state.trade
    window = state.window
    return ItchyView(
        players=state.players,
        viewer=viewer,
        phase=state.phase,
        turn=state.current,
        awaiting=awaited(state),
        centre=state.centre,
        aside=list(state.aside),
        deck_count=len(state.deck),
        discard=list(state.discard),
        passports_aside=len(state.passports_aside),
        seats=seats,
        trade=None
        if trade is None
        else TradeView(
            window=trade.window,
            offerer=trade.offerer,
            target=trade.target,
            give=list(trade.give),
            ask=list(trade.ask),
            accepted=trade.accepted,
            due_ms=due.get(trade.window, 0),
        ),
        window=None
        if window is None
        else WindowView(
            window=window.window,
            seat=window.seat,
            action=window.action,
            waiting=list(window.waiting),
            due_ms=due.get(window.window, 0),
        ),
        rejected_offers=state.rejected_offers,
        finished=state.phase == "over",
        winner=state.winner,
        won_by=state.won_by,
        deck=list(state.deck) if everything else None,
    )


def remembered(state: State, viewer: Viewer, holder: int) -> list[str]:
    """The cards ``viewer`` (a seat, or None: the public) has seen go into ``holder``'s hand."""
    if not state.known:
        return []
    row = state.players if viewer is None else viewer
    return list(state.known[row][holder])


# -- redaction: one entry per private event type; every other type is public ---------------


REDACTIONS: dict[type[Any], Rule] = {
    ItchyDeckShuffled: secret("order"),
    DiscardPileReshuffled: secret("order"),
    PassportReceived: seen_by("seat", hides=("card",)),
    StartingHandDealt: seen_by("seat", hides=("cards",)),
    ItchyCardDrawn: seen_by("seat", hides=("card",)),
    CardStolen: seen_by("thief", "victim", hides=("card",)),  # the others learn only that a card moved
    CardPassed: seen_by("giver", "receiver", hides=("card",)),
}


redact: Callable[[Event, Viewer], Event | None] = redactor(REDACTIONS)
