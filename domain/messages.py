"""The two message families every game and the table share: commands and events.

Each is a tagged struct (``{"type": "DrawFromDeck", ...}``), keyword-only and frozen; a
game's commands and events subclass these, so the configuration is written once.

A command refuses a field it does not have (``{"type": "Undo", "verison": 3}`` is a
typo, not an Undo of the last step): a client learns of its mistake, naming the field.
An event does not: stored events are read for ever, and a log written by older code may
hold a field this code no longer has (tests/domain/test_old_logs.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec

if TYPE_CHECKING:
    # mypy reads msgspec's dataclass_transform as if ``frozen`` were not inherited, and would
    # ask every subclass to repeat it: it is told the rest, and the frozen classes below are
    # what runs (a test checks that every command and event is frozen).
    class Command(msgspec.Struct, tag=True, tag_field="type", kw_only=True, forbid_unknown_fields=True):
        pass

    class Event(msgspec.Struct, tag=True, tag_field="type", kw_only=True):
        pass

else:

    class Command(msgspec.Struct, tag=True, tag_field="type", kw_only=True, frozen=True, forbid_unknown_fields=True):
        """What a seat asks for; a game's decide judges it."""

    class Event(msgspec.Struct, tag=True, tag_field="type", kw_only=True, frozen=True):
        """A fact of a game's stream; evolve applies it."""
