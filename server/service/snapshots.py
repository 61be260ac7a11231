"""Snapshots of a game's table beside its stream: a cache that lets a long game be folded
from a recent version rather than from version 1.

A snapshot is the :class:`~domain.table.Table` at one version, with the chain link of the
event at that version and a fingerprint of the code that folded it. A reader uses one only
when the stream still holds that link at that version (so the snapshot is of this very
history, not of writes Redis lost) and the fingerprint is this code's (same game, same
rules version, same shape of every state class); anything else, or any decoding failure,
and the reader folds from an older snapshot or from version 1. So a snapshot can make a
fold shorter, never different. The store keeps them (``lt:{<game_id>}:snapshots``,
server/storage/store.py); this module encodes, checks and decodes them.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any, Final

import msgspec

from domain.engine import AnyGame
from domain.table import Checkpoint, Table
from server.storage.store import Head

EVERY: Final = 500  # one snapshot every this many events: a fold from one holds the loop a few ms at most
FORMAT: Final = 1  # bumped when what a snapshot holds changes without any state class changing shape


class Envelope(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """What is stored: whose table, at which version and link, folded by which code."""

    game: str
    version: int
    link: str
    fingerprint: str
    table: bytes  # the table, msgpack, decoded with the game's exact types


@dataclass(frozen=True, slots=True)
class Snapshot:
    table: Table
    head: Head  # the version of ``table`` and the link of the event at that version


class Shapes:
    """One game's snapshot types: the table with its ``Any`` fields given the game's own types,
    so decoding is strict, and the fingerprint of them all."""

    def __init__(self, game: AnyGame) -> None:
        self.game = game
        state = type(game.initial(game.min_players, game.options_type()))
        checkpoint: Any = msgspec.defstruct(
            "SnapshotCheckpoint",
            [("version", int), ("seat", int), ("state", state)],
            frozen=True,
            forbid_unknown_fields=True,
        )
        typed = {"options": game.options_type, "state": state | None, "checkpoints": tuple[checkpoint, ...]}
        fields = [(f.name, typed.get(f.name, f.type)) for f in msgspec.structs.fields(Table)]
        self.names = [name for name, _ in fields]
        self.table_type: Any = msgspec.defstruct("SnapshotTable", fields, frozen=True, forbid_unknown_fields=True)
        self.decoder = msgspec.msgpack.Decoder(self.table_type)
        shape = msgspec.json.encode(msgspec.json.schema(self.table_type))
        self.fingerprint = hashlib.sha256(
            b"%s %d %d " % (game.id.encode(), game.rules_version, FORMAT) + shape
        ).hexdigest()

    def decode_table(self, data: bytes) -> Table:
        typed: Any = self.decoder.decode(data)
        parts = {name: getattr(typed, name) for name in self.names}
        parts["checkpoints"] = tuple(Checkpoint(c.version, c.seat, c.state) for c in typed.checkpoints)
        return Table(**parts)


ENVELOPE: Final = msgspec.msgpack.Decoder(Envelope)


class Snapshots:
    """Every game's snapshot types, by kind."""

    def __init__(self, games: dict[str, AnyGame], every: int = EVERY) -> None:
        self.shapes = {kind: Shapes(game) for kind, game in games.items()}
        self.every = every

    def encode(self, table: Table, head: Head) -> bytes | None:
        """The snapshot of ``table`` (at ``head``); ``None`` if it would not decode back to the same table."""
        shapes = self.shapes[table.game]
        data = msgspec.msgpack.encode(table)
        try:
            same = shapes.decode_table(data) == table
        except (msgspec.DecodeError, msgspec.ValidationError, TypeError, ValueError):
            same = False
        if not same:
            return None
        return msgspec.msgpack.encode(Envelope(table.game, head.version, head.link, shapes.fingerprint, data))

    def decode(self, data: bytes) -> Snapshot | None:
        """The snapshot in ``data`` if this code folded it and it decodes strictly, else ``None``.

        Its link is not checked here: the caller compares it with the stream's."""
        try:
            envelope = ENVELOPE.decode(data)
            shapes = self.shapes.get(envelope.game)
            if shapes is None or envelope.fingerprint != shapes.fingerprint:
                return None
            table = shapes.decode_table(envelope.table)
        except (msgspec.DecodeError, msgspec.ValidationError, TypeError, ValueError):
            return None
        if table.version != envelope.version or table.game != envelope.game:
            return None
        return Snapshot(table, Head(envelope.version, envelope.link))

    def due(self, before: int, after: int) -> bool:
        """Whether an append from version ``before`` to ``after`` crossed a multiple of ``every``."""
        return after // self.every > before // self.every
