"""Codes and events in the reader's language, from the catalogs the server serves (GET /api/v1/words/{lang}).

The server sends codes with their parameters (a refusal's ``error`` and ``details``, an event's fields); a
client renders them where the reader is::

    words = await client.words()                     # the client's language: LANG, else English
    say = Phrasebook(words, "vilar-de-mouros", names=["Ana", "Rui"])
    say.event({"type": "CardDrawn", "seat": 0, "source": "deck"})   # "Ana draws a card from the deck."
    say.refusal("not_your_turn", {"names": ["Rui"]})                 # "It is not your turn: ..."
    say.term("move", "PlaceCards")                                  # "Place cards"

The message format is written out in docs/i18n.md (``clients.python.message_format`` renders it).
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any

from clients.python import message_format as words
from clients.python.message_format import Words as Formatter
from clients.python.message_format import parse
from clients.python.models import Words


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

    def format(self, message: str, params: Mapping[str, Any] | None = None) -> str:
        return Formatter(self.lang, self.terms, self.names).format(message, params)

    def event(self, event: Mapping[str, Any]) -> str:
        """One event as a sentence of the game's log (its type, when no line is written for it)."""
        line = self.log.get(str(event.get("type")))
        return self.format(line, event) if line is not None else str(event.get("type"))

    def refusal(self, code: str, details: Mapping[str, Any] | None = None) -> str | None:
        """A refusal's sentence from its code and details, ``None`` for a code no catalog knows."""
        text = self.refusals.get(code)
        return self.format(text, details) if text is not None else None

    def term(self, kind: str, value: Any) -> str:
        """The word for ``value`` of ``kind`` (``move``, ``awaiting``, ``field``...), or the value itself."""
        return Formatter(self.lang, self.terms, self.names).term(kind, value)

    def seat(self, seat: int) -> str:
        return Formatter(self.lang, self.terms, self.names).seat(seat)


__all__ = ["Phrasebook", "parse", "user_language"]
