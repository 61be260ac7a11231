"""The table's chat read out of a feed: its facts typed, its messages with their versions (docs/sdk.md, "Table chat").

A seat chats with commands (``client.say``, ``hide_message``, ``mute``); what was said arrives as facts of the
game's stream, in the same feed as the game's own events (``events``, ``all_events``, a command's answer, the
socket's updates)::

    for version, message in chat(client.all_events(game_id)):
        print(version, message.seat, message.to, message.text)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import msgspec

from clients.python.models import ChatFact, HidingAsked, MessageHidden, MessageSaid, SeatMuted, VersionedEvent

CHAT_FACTS: dict[str, type[ChatFact]] = {
    "MessageSaid": MessageSaid,
    "HidingAsked": HidingAsked,
    "MessageHidden": MessageHidden,
    "SeatMuted": SeatMuted,
}


def chat_fact(event: Mapping[str, Any]) -> ChatFact | None:
    """An event of a feed as its chat fact (``None``: not one of the chat's)."""
    kind = CHAT_FACTS.get(str(event.get("type")))
    return None if kind is None else msgspec.convert(event, kind)


def chat(events: Iterable[VersionedEvent]) -> list[tuple[int, MessageSaid]]:
    """The messages among ``events``, in order, each with the version it was said at (what ``hide_message``
    takes). A message that a ``MessageHidden`` among the same events hides is given as the server gives it
    once hidden: its text emptied, ``removed`` ``"hidden"``."""
    said: dict[int, MessageSaid] = {}
    for item in events:
        fact = chat_fact(item.event)
        if isinstance(fact, MessageSaid):
            said[item.version] = fact
        elif isinstance(fact, MessageHidden) and fact.version in said:
            said[fact.version] = msgspec.structs.replace(said[fact.version], text="", removed="hidden")
    return list(said.items())


__all__ = ["CHAT_FACTS", "chat", "chat_fact"]
