"""Who may see which fields of an event, declared per event type.

A game lists its private event types with a rule for each; every other type is
public. A private event keeps its type for everyone; what a viewer may not see is
replaced by ``None`` (the public form). ``FULL`` sees everything.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from msgspec.structs import replace

from domain.engine import FULL, Viewer

Rule = Callable[[Any, Viewer], Any]


def secret(*fields: str) -> Rule:
    """Fields no seat may see (a shuffled order, tiles removed unseen)."""

    def rule(event: Any, viewer: Viewer) -> Any:
        return replace(event, **dict.fromkeys(fields))

    return rule


def seen_by(*seat_fields: str, hides: tuple[str, ...]) -> Rule:
    """``hides`` may be seen only by the seats the event names in ``seat_fields``
    (the seat dealt the cards; the thief and the victim of a steal)."""

    def rule(event: Any, viewer: Viewer) -> Any:
        if viewer is not None and viewer in {getattr(event, f) for f in seat_fields}:
            return event
        return replace(event, **dict.fromkeys(hides))

    return rule


def redactor(rules: Mapping[type[Any], Rule]) -> Callable[[Any, Viewer], Any]:
    """A game's ``redact``: each event as one viewer may see it."""

    def redact(event: Any, viewer: Viewer) -> Any:
        rule = rules.get(type(event))
        return event if viewer == FULL or rule is None else rule(event, viewer)

    return redact
