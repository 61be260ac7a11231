"""Encoders and decoders, built once per game: stored events, commands, answers."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

import msgspec

from domain.engine import AnyGame
from domain.table import TableOpened, command_union, event_union

ENCODER = msgspec.json.Encoder()
TABLE_OPENED = msgspec.json.Decoder(TableOpened)


class Stored(Protocol):
    """A stream entry: its version, the schema its event was written in, and the event."""

    @property
    def version(self) -> int: ...

    @property
    def schema(self) -> int: ...

    @property
    def data(self) -> bytes: ...


class GameCodec:
    """One game's decoders: everything in its stream, and the commands it takes."""

    def __init__(self, game: AnyGame) -> None:
        self.game = game
        self.events_type = event_union(game)
        self.events: msgspec.json.Decoder[Any] = msgspec.json.Decoder(self.events_type)
        # The table's own commands (Resign, Undo, TimeUp) beside the game's.
        self.commands: msgspec.json.Decoder[Any] = msgspec.json.Decoder(command_union(game))

    def decode_entries(self, entries: Sequence[Stored]) -> list[tuple[int, Any]]:
        return list(zip([e.version for e in entries], self.decode_events(entries), strict=True))

    def decode_events(self, entries: Sequence[Stored]) -> list[Any]:
        """The events of ``entries``: a replay decodes thousands, so the current schema is looked up once."""
        current, decode = self.game.event_schema, self.events.decode
        return [decode(e.data) if e.schema >= current else self.decode_stored(e.data, e.schema) for e in entries]

    def decode_stored(self, data: bytes, schema: int) -> Any:
        """A stored event of any schema: one written by older code is lifted by the game's upcasters."""
        if schema >= self.game.event_schema:
            return self.events.decode(data)
        return msgspec.convert(self.game.upcast(msgspec.json.decode(data), schema), self.events_type)


def encode(value: Any) -> bytes:
    return ENCODER.encode(value)
