"""What one viewer may see: the table's view and the event feed, from one rule.

A seat sees the public state and its own secrets; a spectator (``None``) sees the
public state only; once the game is over everything is revealed. Events pass through
the game's ``redact`` for the viewer, the same rule its ``view`` follows, so a feed
and a view cannot disagree.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import msgspec

from domain.clock import Clock
from domain.engine import FULL, AnyGame, Awaited, Viewer
from domain.table import TABLE_EVENTS, SeatInfo, Status, Table, outcome, status


class VersionedEvent(msgspec.Struct):
    version: int
    event: Any


class SeatClock(msgspec.Struct):
    """One seat's turn clock: running since when (None: stopped), and the time left then."""

    seat: int
    running_since_ms: int | None
    left_ms: int


class SeatPresence(msgspec.Struct, frozen=True):
    """A seat with at least one live connection, connected since ``since_ms`` (its oldest)."""

    seat: int
    since_ms: int


class Present(msgspec.Struct, frozen=True, tag="presence", tag_field="type"):
    """Who is at a game's table now: the connected seats and how many spectators watch."""

    seats: list[SeatPresence]
    spectators: int


class TableView(msgspec.Struct, kw_only=True):
    """The answer of ``GET /games/{id}``: the envelope every game shares."""

    game_id: str
    game: str
    status: Status
    version: int
    seat: int | None
    players: int
    seats: list[SeatInfo | None]
    awaiting: list[Awaited]  # who the game waits for now, and why (any game, any viewer)
    view: Any
    outcome: Any
    resigned: list[int] = []  # seats that left the game, in the order they left (a bot may play them on)
    rematch: str | None = None  # the finished game's rematch, once someone opened it
    rules: int = 1  # the rules version the table opened with
    clock: Clock | None = None  # the table's turn clock, if it has one
    clocks: list[SeatClock] = []  # each seat's clock, once the game has started
    presence: Present | None = None  # who is connected now (the server fills it in)


def redact(game: AnyGame, event: Any, viewer: Viewer, revealed: bool) -> Any | None:
    """One stored event as ``viewer`` may see it (``None``: not at all)."""
    if revealed or isinstance(event, TABLE_EVENTS):
        return event
    return game.redact(event, viewer)


def feed(game: AnyGame, events: Iterable[tuple[int, Any]], viewer: Viewer, revealed: bool) -> list[VersionedEvent]:
    """A viewer's feed of ``(version, event)`` pairs: each event redacted, hidden ones left out."""
    out = []
    for version, event in events:
        seen = redact(game, event, viewer, revealed)
        if seen is not None:
            out.append(VersionedEvent(version, seen))
    return out


def is_revealed(game: AnyGame, table: Table) -> bool:
    """Everything is public once the game is over."""
    return status(game, table) == "finished"


def table_view(game: AnyGame, game_id: str, table: Table, viewer: Viewer) -> TableView:
    """The table as ``viewer`` sees it now (``FULL`` for everything)."""
    current = status(game, table)
    ended = outcome(game, table) if current == "finished" else None
    return TableView(
        game_id=game_id,
        game=game.id,
        status=current,
        version=table.version,
        seat=viewer if viewer is not None and viewer != FULL else None,
        players=table.players,
        seats=list(table.seats),
        awaiting=[] if table.state is None else game.awaited(table.state),
        view=None if table.state is None else game.view(table.state, viewer),
        outcome=ended,
        resigned=list(table.resigned),
        rematch=table.rematch,
        rules=table.rules,
        clock=table.clock,
        clocks=seat_clocks(table),
    )


def seat_clocks(table: Table) -> list[SeatClock]:
    if table.clock is None or table.clocks is None:
        return []
    budget = table.clock.seconds * 1000
    out = []
    for seat, since in enumerate(table.clocks.since):
        left = budget if table.clock.per == "move" else budget - table.clocks.spent[seat]
        out.append(SeatClock(seat, since, max(0, left)))
    return out
