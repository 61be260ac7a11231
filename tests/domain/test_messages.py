"""Commands and events share one configuration (domain/messages.py): tagged, keyword-only,
frozen; a command refuses a field it does not have, an event keeps reading old logs."""

from __future__ import annotations

import typing
from typing import Any

import msgspec
import pytest

from domain import messages
from domain.catalog import GAMES
from domain.engine import AnyGame
from domain.table import TABLE_COMMANDS, TABLE_EVENTS, Undo, command_union, event_union


def members(union: Any) -> list[type[msgspec.Struct]]:
    return list(typing.get_args(union))


@pytest.mark.parametrize("game", GAMES.values(), ids=GAMES.keys())
def test_every_command_and_event_of_a_game_subclasses_the_shared_base(game: AnyGame) -> None:
    commands, events = members(command_union(game)), members(event_union(game))
    assert all(issubclass(c, messages.Command) for c in commands)
    assert all(issubclass(e, messages.Event) for e in events)
    for message in [*commands, *events]:
        config = message.__struct_config__
        assert config.frozen and config.tag_field == "type" and config.tag == message.__name__, message


def test_the_tables_own_commands_and_events_subclass_the_shared_base() -> None:
    assert all(issubclass(c, messages.Command) for c in TABLE_COMMANDS)
    assert all(issubclass(e, messages.Event) for e in TABLE_EVENTS)


@pytest.mark.parametrize("game", GAMES.values(), ids=GAMES.keys())
def test_a_command_with_a_misspelt_field_is_refused_naming_the_field(game: AnyGame) -> None:
    decoder = msgspec.json.Decoder(command_union(game))
    assert decoder.decode(b'{"type": "Undo", "version": 3}') == Undo(version=3)
    with pytest.raises(msgspec.ValidationError, match="unknown field `verison`"):
        decoder.decode(b'{"type": "Undo", "verison": 3}')


@pytest.mark.parametrize("game", GAMES.values(), ids=GAMES.keys())
def test_a_stored_event_with_a_field_this_code_no_longer_has_still_decodes(game: AnyGame) -> None:
    """A log written by older code may hold a field since dropped: it is read, the field left out."""
    decoder = msgspec.json.Decoder(event_union(game))
    event = decoder.decode(b'{"type": "SeatTaken", "seat": 0, "name": "Ana", "dropped_long_ago": true}')
    assert msgspec.to_builtins(event) == {
        "type": "SeatTaken", "seat": 0, "name": "Ana", "bot": None, "player": None, "entropy": ""
    }  # fmt: skip
