"""Encoders and decoders, built once per game: stored events, commands, answers."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from domain.engine import AnyGame
from domain.table import TableOpened, event_union

ENCODER = msgspec.json.Encoder()
TABLE_OPENED = msgspec.json.Decoder(TableOpened)
SCHEMA = 1  # the stored events' schema version; events only gain fields with defaults


class GameCodec:
    """One game's decoders: everything in its stream, and the commands it takes."""

    def __init__(self, game: AnyGame) -> None:
        self.game = game
        self.events_type = event_union(game)
        self.events: msgspec.json.Decoder[Any] = msgspec.json.Decoder(self.events_type)
        self.commands: msgspec.json.Decoder[Any] = msgspec.json.Decoder(game.command_type)

    def decode_entries(self, entries: Sequence[tuple[int, bytes]]) -> list[tuple[int, Any]]:
        return [(version, self.events.decode(data)) for version, data in entries]


def encode(value: Any) -> bytes:
    return ENCODER.encode(value)
