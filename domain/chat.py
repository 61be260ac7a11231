"""Table chat, kept in the game's stream: what was said, at which version, and to whom.

A message is a fact of the game's stream (``MessageSaid``), so a reload, a replay and an
export show it where it was said. Three channels: the table (every seat, and spectators),
a private line between two seats (``to``: only those two ever receive it; an export of
every fact keeps its place, not its words) and the spectators' own (``seat`` is ``None``:
read by spectators, and by the seats once the table is over, so that nobody watching can
tell a player what it should not know).

A seat mutes another for itself (``SeatMuted``, seen by that seat alone); the people at the
table hide a message for everyone by a majority of those who did not say it (each asks:
``HidingAsked``), an operator always (``MessageHidden``): the fact stays, its text is removed
from every view, replay and export. Chat is not play: its facts neither count towards a
game's longest stream nor make a move decided before them stale (``Table.chat_after``).
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from typing import Any, Literal

import msgspec

from domain import messages
from domain.engine import FULL, Rejected, Seat, Viewer
from domain.text import plain

TEXT_MOST = 500  # characters a message may have, once made plain
CHAT_MOST = 1_000  # chat facts a table may hold: one table's chat cannot grow its stream past it


# -- facts ----------------------------------------------------------------------------------


class MessageSaid(messages.Event, omit_defaults=True):
    """``text`` said by ``seat`` (``None``: a spectator, the player ``player``), to the table or,
    with ``to``, to that seat alone.

    ``removed`` is never stored: a viewer receives it, with the text emptied, for a message
    hidden since (``hidden``) or a private line it may know of but not read (``private``)."""

    text: str
    seat: int | None = None
    player: str | None = None
    to: int | None = None
    removed: Literal["hidden", "private"] | None = None


class HidingAsked(messages.Event):
    """``seat`` asked to hide the message said at ``version`` (seen by that seat alone)."""

    seat: int
    version: int


class MessageHidden(messages.Event):
    """The message said at ``version`` is hidden for everyone: by a majority of the table's
    people (``players``) or by an operator."""

    version: int
    by: Literal["players", "operator"] = "players"


class SeatMuted(messages.Event):
    """``seat`` no longer reads ``other``'s messages (or does again: ``muted`` false); seen by ``seat`` alone."""

    seat: int
    other: int
    muted: bool = True


CHAT_EVENTS: tuple[type[msgspec.Struct], ...] = (MessageSaid, HidingAsked, MessageHidden, SeatMuted)
CHAT_FACT_TYPES = frozenset(CHAT_EVENTS)


# -- commands --------------------------------------------------------------------------------


class Say(messages.Command, omit_defaults=True):
    """Say ``text`` to the table, or with ``to`` to that seat alone."""

    text: str
    to: int | None = None


class HideMessage(messages.Command):
    """Ask to hide the message said at ``version`` for everyone (a majority of the table's people hides it)."""

    version: int


class Mute(messages.Command, omit_defaults=True):
    """Stop reading ``seat``'s messages (``muted`` false: read them again)."""

    seat: int
    muted: bool = True


CHAT_COMMANDS: tuple[type[msgspec.Struct], ...] = (Say, HideMessage, Mute)
CHAT_COMMAND_TYPES = frozenset(CHAT_COMMANDS)


# -- the chat's state ------------------------------------------------------------------------


class Spoken(msgspec.Struct, frozen=True, array_like=True):
    """Who said the message at ``version``, and to whom (its words stay in the stream)."""

    version: int
    seat: int | None
    to: int | None


class Chat(msgspec.Struct, frozen=True):
    """What the table's chat is at one version."""

    facts: int = 0  # chat facts in the stream (outside the game's own length)
    said: tuple[Spoken, ...] = ()  # by version
    hidden: frozenset[int] = frozenset()  # versions of hidden messages
    asked: frozenset[tuple[int, int]] = frozenset()  # (version, seat): hiding asked
    muted: frozenset[tuple[int, int]] = frozenset()  # (seat, other): seat no longer reads other

    def spoken(self, version: int) -> Spoken | None:
        at = bisect.bisect_left(self.said, version, key=lambda s: s.version)
        return self.said[at] if at < len(self.said) and self.said[at].version == version else None


def evolve(chat: Chat, event: Any, version: int) -> Chat:
    """Apply one chat fact, stored at ``version``."""
    counted = chat.facts + 1
    if isinstance(event, MessageSaid):
        said = (*chat.said, Spoken(version, event.seat, event.to))
        return msgspec.structs.replace(chat, facts=counted, said=said)
    if isinstance(event, HidingAsked):
        return msgspec.structs.replace(chat, facts=counted, asked=chat.asked | {(event.version, event.seat)})
    if isinstance(event, MessageHidden):
        return msgspec.structs.replace(chat, facts=counted, hidden=chat.hidden | {event.version})
    assert isinstance(event, SeatMuted)
    pair = (event.seat, event.other)
    muted = chat.muted | {pair} if event.muted else chat.muted - {pair}
    return msgspec.structs.replace(chat, facts=counted, muted=muted)


def decide(chat: Chat, command: Any, seat: Seat, players: int, people: Sequence[Seat]) -> list[Any]:
    """A seat's chat command at a table of ``players`` seats, ``people`` the seats a person holds
    (still in the game); the caller has checked the table is not over."""
    room(chat)
    if isinstance(command, Say):
        return [said(command.text, seat, command.to, players)]
    if isinstance(command, Mute):
        if not 0 <= command.seat < players or command.seat == seat:
            raise Rejected("no_such_seat", "Mute another seat of this table.", {"field": "seat", "most": players - 1})
        return [SeatMuted(seat=seat, other=command.seat, muted=command.muted)]
    assert isinstance(command, HideMessage)
    return hide(chat, command.version, seat, people)


def room(chat: Chat) -> None:
    """Refuse a new fact once the table's chat holds its most."""
    if chat.facts >= CHAT_MOST:
        raise Rejected(
            "chat_full",
            f"This table's chat holds its most, {CHAT_MOST} messages: nothing more can be said.",
            {"most": CHAT_MOST},
        )


def said(text: str, seat: Seat | None, to: int | None, players: int, player: str | None = None) -> MessageSaid:
    """A message checked: not empty once plain, at most ``TEXT_MOST`` characters, to another seat."""
    words = plain(text)
    if not words:
        raise Rejected("empty_message", "Say something: the message is empty.", {"field": "text"})
    if len(words) > TEXT_MOST:
        raise Rejected(
            "message_too_long",
            f"A message has at most {TEXT_MOST} characters.",
            {"field": "text", "most": TEXT_MOST},
        )
    if to is not None and (not 0 <= to < players or to == seat or seat is None):
        raise Rejected(
            "no_such_seat", "A private line goes to another seat of this table.", {"field": "to", "most": players - 1}
        )
    return MessageSaid(text=words, seat=seat, player=player, to=to)


def spectator_said(chat: Chat, text: str, players: int, player: str) -> list[Any]:
    """A message of the player ``player``, watching, on the spectators' channel."""
    room(chat)
    return [said(text, None, None, players, player=player)]


def hide(chat: Chat, version: int, seat: Seat, people: Sequence[Seat]) -> list[Any]:
    """``seat`` asks to hide the message said at ``version``; hidden once most of the people who did
    not say it asked."""
    spoken = chat.spoken(version)
    if spoken is None or spoken.to is not None or version in chat.hidden:
        raise Rejected(
            "no_such_message",
            "There is no message at that version to hide: only one said to the table, not hidden yet.",
            {"field": "version", "version": version},
        )
    if spoken.seat == seat:
        raise Rejected("own_message", "A message is hidden by the others at the table, not by who said it.")
    if (version, seat) in chat.asked:
        return []  # asked already: nothing changes
    others = [p for p in people if p != spoken.seat]
    votes = 1 + sum(1 for p in others if (version, p) in chat.asked and p != seat)
    asked: list[Any] = [HidingAsked(seat=seat, version=version)]
    if votes * 2 > len(others):
        asked.append(MessageHidden(version=version, by="players"))
    return asked


def hidden_by_operator(chat: Chat, version: int) -> list[Any]:
    """An operator hides the message said at ``version`` (any channel); nothing if it is hidden already."""
    if chat.spoken(version) is None:
        raise Rejected(
            "no_such_message", "There is no message at that version.", {"field": "version", "version": version}
        )
    return [] if version in chat.hidden else [MessageHidden(version=version, by="operator")]


# -- who reads what --------------------------------------------------------------------------


def seen(event: Any, version: int, viewer: Viewer, revealed: bool, chat: Chat) -> Any | None:
    """A chat fact as ``viewer`` receives it (``None``: not at all), whether or not the table is over.

    ``FULL`` (an export of every fact, a finished table's full replay) keeps every fact's place,
    so that it still folds, but not the words of a private line or of a hidden message."""
    if isinstance(event, MessageSaid):
        return _message(event, version, viewer, revealed, chat)
    if isinstance(event, HidingAsked | SeatMuted):
        return event if viewer in (FULL, event.seat) else None
    return event  # MessageHidden: everyone learns which message went


def _message(event: MessageSaid, version: int, viewer: Viewer, revealed: bool, chat: Chat) -> MessageSaid | None:
    if event.to is not None and viewer not in (event.seat, event.to):
        return msgspec.structs.replace(event, text="", removed="private") if viewer == FULL else None
    if event.seat is None and viewer not in (None, FULL) and not revealed:
        return None  # the spectators' channel, while the game goes on
    if viewer is not None and viewer >= 0 and event.seat is not None and (viewer, event.seat) in chat.muted:
        return None
    if version in chat.hidden:
        return msgspec.structs.replace(event, text="", removed="hidden")
    return event
