"""What one viewer may see: the table's view and the event feed, from one rule.

A seat sees the public state and its own secrets; a spectator (``None``) sees the
public state only. Events pass through the game's ``redact`` for the viewer, the same
rule its ``view`` follows, so a feed and a view cannot disagree.

Once the table is over, everything is revealed, whatever ended it: the game's own end,
a resignation or a drop that left too few, a clock that ran out, a table called off.
:func:`is_revealed` is that rule, and both the feed and the view follow it: a view of a
revealed table is the full view, naming the viewer in its ``viewer`` field.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import msgspec

from domain import chat
from domain.chat import CHAT_FACT_TYPES
from domain.clock import Clock, bank_left
from domain.engine import FULL, NO_MOVE, AnyGame, Awaited, Pick, Rejected, Step, Viewer
from domain.fair import CardsOpened
from domain.table import (
    TABLE_FACT_TYPES,
    TAKEOVER_BOT,
    SeatInfo,
    Status,
    Table,
    openings_shown,
    outcome,
    redact_fact,
    status,
)


class VersionedEvent(msgspec.Struct):
    version: int
    event: Any


class SeatClock(msgspec.Struct):
    """One seat's turn clock: running since when (None: stopped), and the time left then."""

    seat: int
    running_since_ms: int | None
    left_ms: int
    bank_ms: int = 0  # what is left in the seat's time bank, drawn on once ``left_ms`` is spent


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
    out_of_time: list[int] = []  # seats whose time ran out, the others to choose: KeepWaiting or LetBotPlayOn
    presence: Present | None = None  # who is connected now (the server fills it in)
    takeover: str = TAKEOVER_BOT  # the bot that plays on a seat that leaves ("greedy", "strong:2"...)
    # While the game is under way: each seat's score if it ended now, null where it rests on cards
    # this viewer cannot see (empty: the game says none, or it is not under way; see ``outcome``).
    standing: list[int | None] = []


def redact(game: AnyGame, event: Any, viewer: Viewer, revealed: bool, version: int, table: Table) -> Any | None:
    """One stored event (at ``version``) as ``viewer`` may see it (``None``: not at all): the table's
    own facts by the table's declarations (the server seed, what a commitment covers, other seats'
    openings are hidden; an opening shown with its salt and path), the game's by the game's; chat by
    its own rule, over or not. ``table``: the table now (its chat knows the messages hidden and the
    seats muted since; its key and commitments make the openings' salts and paths)."""
    kind = type(event)
    if kind in CHAT_FACT_TYPES:
        return chat.seen(event, version, viewer, revealed, table.chat)
    if kind is CardsOpened:
        return openings_shown(table, event if revealed else redact_fact(event, viewer))
    if revealed:
        return event
    if kind in TABLE_FACT_TYPES:  # a set look-up: isinstance would try each class in turn
        return redact_fact(event, viewer)
    return game.redact(event, viewer)


def feed(
    game: AnyGame, events: Iterable[tuple[int, Any]], viewer: Viewer, revealed: bool, table: Table
) -> list[VersionedEvent]:
    """A viewer's feed of ``(version, event)`` pairs: each event redacted, hidden ones left out
    (``table``: the table now)."""
    out = []
    for version, event in events:
        seen = redact(game, event, viewer, revealed, version, table)
        if seen is not None:
            out.append(VersionedEvent(version, seen))
    return out


def is_revealed(game: AnyGame, table: Table) -> bool:
    """Everything is public once the table is over, however it ended."""
    return status(game, table) == "finished"


def game_view(game: AnyGame, table: Table, viewer: Viewer, current: Status | None = None) -> Any:
    """The game's view of the table for ``viewer`` (``None`` before play starts): everything,
    once the table is revealed, as it would be for ``FULL`` but naming the viewer and awaiting
    nobody (a resignation can end a game whose rules still wait for a seat to move).
    ``current``: the table's status, if the caller has it already."""
    if table.state is None:
        return None
    if (current or status(game, table)) != "finished":
        return game.view(table.state, viewer)
    everything = game.view(table.state, FULL)
    fields = getattr(everything, "__struct_fields__", ())
    over: dict[str, Any] = {name: value for name, value in (("viewer", viewer), ("awaiting", [])) if name in fields}
    return msgspec.structs.replace(everything, **over) if over else everything


FORMER_PLAYER = "A former player"  # the name of a seat whose player erased itself


def seats_named(table: Table, names: Mapping[str, str]) -> list[SeatInfo | None]:
    """The table's seats, a player's seat named as its player is now (``names``: player id -> name;
    a player missing from it is one that erased itself)."""
    return [seat if seat is None or seat.player is None else _named(seat, names) for seat in table.seats]


def _named(seat: SeatInfo, names: Mapping[str, str]) -> SeatInfo:
    """A player's seat with its player's name now; an erased player's is a default name (``named``
    false: a frontend says it in the reader's language, as a seat taken without a name)."""
    name = names.get(seat.player or "")
    if name is None:
        return msgspec.structs.replace(seat, name=FORMER_PLAYER, named=False)
    return msgspec.structs.replace(seat, name=name, named=True)


def table_view(
    game: AnyGame, game_id: str, table: Table, viewer: Viewer, names: Mapping[str, str] | None = None
) -> TableView:
    """The table as ``viewer`` sees it now (``FULL`` for everything); ``names``: the names of the
    players seated at it (see :func:`seats_named`), ``None`` for a table no player sits at."""
    current = status(game, table)
    ended = outcome(game, table) if current == "finished" else None
    return TableView(
        game_id=game_id,
        game=game.id,
        status=current,
        version=table.version,
        seat=viewer if viewer is not None and viewer != FULL else None,
        players=table.players,
        seats=list(table.seats) if names is None else seats_named(table, names),
        awaiting=[] if table.state is None or current == "finished" else game.awaited(table.state),
        view=game_view(game, table, viewer, current),
        outcome=ended,
        resigned=list(table.resigned),
        rematch=table.rematch,
        rules=table.rules,
        clock=table.clock,
        clocks=seat_clocks(table),
        out_of_time=list(table.out_of_time),
        takeover=table.takeover,
        standing=game.standing(table.state, viewer)
        if game.standing and table.state is not None and current == "active"
        else [],
    )


def seat_clocks(table: Table) -> list[SeatClock]:
    if table.clock is None or table.clocks is None:
        return []
    budget = table.clock.seconds * 1000
    out = []
    for seat, since in enumerate(table.clocks.since):
        left = budget if table.clock.per == "move" else budget - table.clocks.spent[seat]
        out.append(SeatClock(seat, since, max(0, left), bank_left(table.clock, table.clocks, seat)))
    return out


# -- building a move --------------------------------------------------------------------

LISTED = 200  # a move with at most this many complete commands is also listed whole


def may_move(game: AnyGame, table: Table, viewer: Viewer, current: Status | None = None) -> bool:
    """Whether ``viewer`` builds moves at all: a seat still in a game under way (``current``:
    the table's status, if the caller has it already)."""
    return (
        viewer is not None
        and viewer >= 0
        and viewer not in table.resigned
        and table.state is not None
        and (current or status(game, table)) == "active"
    )


def move_step(game: AnyGame, table: Table, viewer: Viewer, picks: tuple[Pick, ...] = ()) -> Step:
    """The step after ``picks`` for ``viewer`` (each pick checked; ``Rejected`` names the bad one).

    A viewer who builds no moves (a spectator, a seat that left, a game not under way) is
    offered nothing, so its first pick is refused as any pick not offered is."""
    if not may_move(game, table, viewer):
        if picks:
            raise Rejected(
                "not_offered",
                "Nothing can be picked now: this seat has no move to make.",
                {"field": "picks[0]", "pick": None},
            )
        return NO_MOVE
    assert viewer is not None
    return game.step(table.state, viewer, picks)


def first_step(game: AnyGame, table: Table, viewer: Viewer, current: Status | None = None) -> Step | None:
    """What an update tells a seat the game awaits: the first step of its move (else ``None``)."""
    if not may_move(game, table, viewer, current) or not any(a.seat == viewer for a in game.awaited(table.state)):
        return None
    assert viewer is not None
    return game.moves(table.state, viewer, ())


def listed_commands(game: AnyGame, table: Table, viewer: Viewer, first: Step) -> tuple[list[Any], bool]:
    """The complete commands of every move (first-step option) that has at most ``LISTED`` of
    them, and whether that is every command the seat may send (else build the rest by picks)."""
    if not may_move(game, table, viewer) or viewer is None:
        return [], True
    listed: list[Any] = []
    every = True
    for option in first.options:
        if option.command is not None:
            listed.append(option.command)
            continue
        few = game.few_commands(table.state, viewer, LISTED, (option.pick,))
        if few is None:
            every = False
        else:
            listed += few
    return listed, every
