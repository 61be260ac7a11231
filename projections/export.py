"""A game's export, as one viewpoint saw it: a documented, versioned NDJSON format (docs/API.md, "Exports").

The first line is the header: the format and its version, the viewpoint, the game, its rules and
event schema, seats, options, status, outcome, and the fair-play commitments (the seed's hash,
every seat's entropy, each deck's commitment). Then one line per fact, in version order, as the
viewpoint saw it: ``{"version", "schema", "event"}``, and on the first fact of a command's step,
``sent``: who sent which command, and the shared clock it was decided at (what a verifier needs
to decide it again, docs/fair-play.md).

Viewpoints: ``server`` (every fact whole and every command, at any time: the operator's),
``everyone`` (the same once the table is over, but for the words of private lines and of hidden
messages, domain/chat.py), ``seat`` (one seat's: the facts as that seat
was sent them, its own commands, at any time) and ``spectator`` (the public facts, no command).
Logs of the first format (fact lines alone, no header) are still read.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

import msgspec

from domain.chat import MessageSaid
from domain.engine import FULL, AnyGame, Viewer
from domain.table import SeatInfo, Table, event_union, outcome, status
from projections.views import redact

FORMAT = "ludoteca-export"
FORMAT_VERSION = 1
Viewpoint = Literal["server", "everyone", "seat", "spectator"]
VIEWPOINTS: tuple[Viewpoint, ...] = ("server", "everyone", "seat", "spectator")
WHOLE: tuple[Viewpoint, ...] = ("server", "everyone")  # the viewpoints that hold every fact whole


class Sent(msgspec.Struct, omit_defaults=True):
    """The command whose step begins at its line and ends at ``last``: its sender's scope
    (``seat:0``, ``bot:1``, ``clock``), its id, the seat it was decided for (-2: the clock), the
    command (``None`` in records from before commands were kept) and the shared clock it was
    decided at (0: a game that keeps no time)."""

    sender: str
    id: str
    seat: int
    last: int
    command: Any = None
    at_ms: int = 0


class DeckInfo(msgspec.Struct):
    """A commitment: the version of its ``DeckCommitted`` fact, how many items, and its top."""

    version: int
    count: int
    root: str


class Commitments(msgspec.Struct):
    """What the table committed to: the server seed's hash, each seat's entropy (by seat), the decks."""

    seed_hash: str | None
    entropies: list[str]
    decks: list[DeckInfo]


class ExportHeader(msgspec.Struct, kw_only=True):
    format: str = FORMAT
    format_version: int = FORMAT_VERSION
    viewpoint: Viewpoint
    seat: int | None = None  # the seat of a seat's export
    game_id: str
    game: str
    rules: int
    schema: int  # the event schema of the lines' events
    players: int
    options: dict[str, Any]
    seats: list[SeatInfo | None]
    status: str
    version: int
    outcome: Any = None
    commitments: Commitments


class Line(msgspec.Struct, omit_defaults=True):
    version: int
    event: msgspec.Raw
    schema: int = 1  # logs exported before lines carried their schema
    sent: Sent | None = None


class Written(msgspec.Struct, omit_defaults=True):
    """A fact's line as it is written: ``{"version", "schema", "event"}`` always, ``sent`` when there is one."""

    version: int
    schema: int
    event: msgspec.Raw
    sent: Sent | None = None


class Export(msgspec.Struct):
    """An export read back: its header (``None`` for a log of the first format) and its lines."""

    header: ExportHeader | None
    lines: list[Line]


class Entry(msgspec.Struct, frozen=True):
    """One stored fact: its version, schema and JSON."""

    version: int
    schema: int
    data: bytes


def header(game: AnyGame, game_id: str, table: Table, viewpoint: Viewpoint, seat: int | None) -> ExportHeader:
    current = status(game, table)
    return ExportHeader(
        viewpoint=viewpoint,
        seat=seat if viewpoint == "seat" else None,
        game_id=game_id,
        game=game.id,
        rules=table.rules,
        schema=game.event_schema,
        players=table.players,
        options=msgspec.to_builtins(table.options),
        seats=list(table.seats),
        status=current,
        version=table.version,
        outcome=outcome(game, table) if current == "finished" else None,
        commitments=Commitments(
            seed_hash=table.seed_hash,
            entropies=list(table.entropies),
            decks=[DeckInfo(c.version, len(c.items), c.root) for c in table.commitments],
        ),
    )


def lines(
    game: AnyGame,
    game_id: str,
    table: Table,
    entries: Sequence[Entry],
    sent: Mapping[int, Sent],
    viewpoint: Viewpoint,
    seat: int | None = None,
) -> list[bytes]:
    """The export of ``table`` (folded from ``entries``) as ``viewpoint`` saw it; ``sent``: the
    commands, by the version their step begins at. Who may ask for which viewpoint is the caller's
    to check."""
    encode = msgspec.json.encode
    out = [encode(header(game, game_id, table, viewpoint, seat))]
    viewer: Viewer = FULL if viewpoint in WHOLE else (seat if viewpoint == "seat" else None)
    decoder = msgspec.json.Decoder(event_union(game))
    for entry in entries:
        event, seen = msgspec.Raw(entry.data), None
        # Every fact as stored for the operator, each opening with its salt and path (made when
        # shown); for everyone else, the facts as the viewer saw them (``everyone``: every fact whole
        # but the words of private lines and hidden messages).
        opened = entry.data.startswith(b'{"type":"CardsOpened"')  # the tag comes first
        if viewer != FULL or opened or (viewpoint != "server" and b'"MessageSaid"' in entry.data):
            seen = redact(game, decoder.decode(entry.data), viewer, False, entry.version, table)
            if seen is None:
                continue
            event = msgspec.Raw(encode(seen))
        step = sent.get(entry.version)
        if step is not None and not (viewer == FULL or (viewer is not None and viewer == step.seat)):
            step = None  # a seat sees its own commands; the spectator none
        elif step is not None and isinstance(seen, MessageSaid) and seen.removed:
            step = msgspec.structs.replace(step, command=None)  # nor do a message's words stay in its command
        out.append(encode(Written(entry.version, entry.schema, event, step)))
    return out


def read(data: bytes) -> Export:
    """An export of either format, read (``msgspec.ValidationError``/``DecodeError`` when it is none)."""
    rows = [row for row in data.splitlines() if row.strip()]
    if not rows:
        raise msgspec.ValidationError("The log is empty.")
    head = None
    if b'"format"' in rows[0] and msgspec.json.decode(rows[0], type=dict).get("format") == FORMAT:
        head = msgspec.json.decode(rows[0], type=ExportHeader)
        if head.format_version > FORMAT_VERSION:
            raise msgspec.ValidationError(f"format_version {head.format_version} is newer than this code reads.")
        rows = rows[1:]
    line = msgspec.json.Decoder(Line)
    return Export(head, [line.decode(row) for row in rows])


def events(game: AnyGame, export: Export) -> list[Any]:
    """The export's facts as this code's events, lifted from the schema they were written in."""
    kind = event_union(game)
    decode = msgspec.json.decode
    return [msgspec.convert(game.upcast(decode(line.event, type=dict), line.schema), kind) for line in export.lines]
