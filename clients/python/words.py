"""Codes and events in the reader's language, from the catalogs the server serves (GET /api/v1/words/{lang}).

The server sends codes with their parameters (a refusal's ``error`` and ``details``, an event's fields); a
client renders them where the reader is::

    words = await client.words()                     # the client's language: LANG, else English
    say = Phrasebook(words, "vilar-de-mouros", names=["Ana", "Rui"])
    say.event({"type": "CardDrawn", "seat": 0, "source": "deck"})   # "Ana draws a card from the deck."
    say.refusal("not_your_turn", {"names": ["Rui"]})                 # "It is not your turn: ..."
    say.term("move", "PlaceCards")                                  # "Place cards"
    say.with_seats((await client.table(game_id)).seats)  # its seats' names: "Xogador 2" for "Player 2"

A seat taken without a name has a default one, stored in English ("Player 2", "Casual bot 3"); a table view's
seat says so (``named`` false), and the phrasebook names it in its language ("Xogador 2", "Bot casual 3").

The message format is written out in docs/i18n.md (``clients.python.message_format`` renders it).
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any

from clients.python import message_format as words
from clients.python.message_format import Words as Formatter
from clients.python.message_format import parse
from clients.python.models import SeatInfo, Words


def user_language(environ: Mapping[str, str] | None = None) -> str:
    """The user's language as POSIX says (LC_ALL, else LC_MESSAGES, else LANG) when it is one of ours, else
    English: ``LANG=gl_ES.UTF-8`` is ``gl``."""
    env = os.environ if environ is None else environ
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name)
        if value:  # the first one set decides, as in C: LC_ALL=C means the default, whatever LANG says
            return words.format_lang(value) or words.DEFAULT
    return words.DEFAULT


class Phrasebook:
    """One game's words in one language: its log lines, its refusals and its terms, over the table's."""

    def __init__(self, catalogs: Words, game: str | None = None, names: Sequence[str] = ()) -> None:
        own = catalogs.games.get(game, {}) if game is not None else {}
        self.lang = catalogs.lang
        self.log = {**catalogs.table.get("log", {}), **own.get("log", {})}
        self.refusals = {**catalogs.table.get("refusals", {}), **own.get("refusals", {})}
        self.terms = {**catalogs.table.get("terms", {}), **own.get("terms", {})}
        self.names: list[str] = list(names)

    def with_names(self, names: Mapping[str, str]) -> Phrasebook:
        """Also name what the catalogs leave as printed (``name.<id>`` terms: cards, places, tiles)."""
        self.terms = {**{f"name.{k}": v for k, v in names.items()}, **self.terms}
        return self

    def with_seats(self, seats: Sequence[SeatInfo | None]) -> Phrasebook:
        """Name the seats as a table view's ``seats`` do, each default name in the phrasebook's language."""
        self.names = [self.seat_name(s) if s is not None else "" for s in seats]
        return self

    def seat_name(self, seat: SeatInfo) -> str:
        """A table view's seat's name as the reader reads it: its own, or its default one in the language."""
        return Formatter(self.lang, self.terms).seat_name(seat.seat, seat.name, seat.bot, seat.named)

    def format(self, message: str, params: Mapping[str, Any] | None = None) -> str:
        return Formatter(self.lang, self.terms, self.names).format(message, params)

    def event(self, event: Mapping[str, Any]) -> str:
        """One event as a sentence of the game's log (its type, when no line is written for it)."""
        line = self.log.get(str(event.get("type")))
        if line is None:
            return str(event.get("type"))
        name, seat = event.get("name"), event.get("seat")
        if event.get("type") in ("SeatTaken", "SeatTakenOver") and isinstance(name, str) and isinstance(seat, int):
            # a seat taken with no name has its default one, in English: said in the language (a player's
            # seat keeps no name in the stream: it is the player's, as the phrasebook names the seat)
            bot = event.get("bot") if isinstance(event.get("bot"), str) else None
            said = Formatter(self.lang, self.terms).seat_name(seat, name, bot) if name else self.seat(seat)
            event = {**event, "name": said}
        return self.format(line, event)

    def refusal(self, code: str, details: Mapping[str, Any] | None = None) -> str | None:
        """A refusal's sentence from its code and details, ``None`` for a code no catalog knows."""
        text = self.refusals.get(code)
        if text is None:
            return None
        render = Formatter(self.lang, self.terms, self.names)
        return render.format(text, render.seats_said(details or {}))  # the seats as the phrasebook names them

    def term(self, kind: str, value: Any) -> str:
        """The word for ``value`` of ``kind`` (``move``, ``awaiting``, ``field``...), or the value itself."""
        return Formatter(self.lang, self.terms, self.names).term(kind, value)

    def seat(self, seat: int) -> str:
        return Formatter(self.lang, self.terms, self.names).seat(seat)


__all__ = ["Phrasebook", "parse", "user_language"]
