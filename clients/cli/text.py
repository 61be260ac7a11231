"""What the CLI prints and how it says it: terminal-safe output, the command line's JSON values, and
the text for people (a table, its log, whom it awaits) in the user's language."""

from __future__ import annotations

import argparse
import re
import shutil
import sys
from collections.abc import Awaitable, Callable
from typing import Any, TypeAlias

import msgspec

from clients.python import (
    AsyncClient,
    TableView,
)
from clients.python import message_format as words
from clients.python.message_format import Words as Formatter
from clients.python.words import Phrasebook

Verb = Callable[[AsyncClient, argparse.Namespace], Awaitable[Any]]
Subparsers: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"


# Control characters (but newline and tab) and the bidirectional overrides: what could move the cursor, recolour
# or reorder the terminal if a name, a card or a message the server sends carried it.
CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def printable(text: str) -> str:
    """``text`` with every control character written as its ``\\uXXXX`` escape (inside a JSON string that is the
    same string, so JSON stays JSON)."""
    return CONTROL.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def emit(value: Any) -> None:
    sys.stdout.write(printable(msgspec.json.encode(value).decode()) + "\n")
    sys.stdout.flush()


def say(text: str = "") -> None:
    sys.stdout.write(printable(text) + "\n")
    sys.stdout.flush()


def note(text: str) -> None:
    sys.stderr.write(printable(text) + "\n")
    sys.stderr.flush()


def json_value(text: str) -> Any:
    try:
        return msgspec.json.decode(text)
    except msgspec.DecodeError:
        return text  # a bare word: a string option


def option(text: str) -> tuple[str, Any]:
    name, sep, value = text.partition("=")
    if not sep or not name:
        raise argparse.ArgumentTypeError(f"an option is NAME=VALUE, not {text!r}")
    return name, json_value(value)


def command_json(text: str) -> dict[str, Any]:
    try:
        value = msgspec.json.decode(text)
    except msgspec.DecodeError as exc:
        raise argparse.ArgumentTypeError(f"the command is not JSON: {exc}") from exc
    if not isinstance(value, dict):
        raise argparse.ArgumentTypeError("the command is a JSON object with a 'type'")
    return value


def seat_or_full(text: str) -> int | str:
    if text == "full":
        return text
    if text.isdigit():
        return int(text)
    raise argparse.ArgumentTypeError(f"a seat number or 'full', not {text!r}")


# --- text for people ---------------------------------------------------------------------------------

# The CLI's own lines, one catalog per language (clients/words/<lang>.json); the game's words (its log lines,
# terms and refusals) come from the server (GET /api/v1/words/{lang}). docs/i18n.md says how to add a language.
LINES: dict[str, words.Catalog] = words.read("clients")


class Trouble(ValueError):
    """A mistake on the command line, said with one of the CLI's lines (``key``) and its parameters."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.params = params


class Voice:
    """What the CLI says, in the user's language (LANG, else English): its own lines, and once it knows the
    game, the game's words over them (log lines, moves, fields, what a seat is awaited for, seat names)."""

    def __init__(self, lang: str) -> None:
        self.lang = lang
        self.lines = LINES.get(lang, LINES[words.DEFAULT])["lines"]
        self.book: Phrasebook | None = None
        self.game: str | None = None
        self.names: dict[int, str] = {}

    def __call__(self, key: str, **params: Any) -> str:
        return Formatter(self.lang, self.terms(), self.seat_list()).format(self.lines[key], params)

    def terms(self) -> dict[str, str]:
        return self.book.terms if self.book is not None else {}

    def seat_list(self) -> list[str]:
        return [self.names.get(s, "") for s in range(max(self.names, default=-1) + 1)]

    async def learn(self, client: AsyncClient, game: str) -> None:
        """Fetch the game's words (once), and the printed names of its parts (cards, places, tiles)."""
        if self.game == game:
            return
        self.book = Phrasebook(await client.words(self.lang), game)
        self.book.with_names(printed_names((await client.components(game)).components))
        self.game = game

    def event(self, event: dict[str, Any]) -> str:
        if self.book is None:
            return str(event.get("type", "?"))
        self.book.names = self.seat_list()
        return self.book.event(event)

    def term(self, kind: str, value: Any) -> str:
        return self.book.term(kind, value) if self.book is not None else value_text(value)

    def seat(self, seat: int) -> str:
        return self("seat_named", name=self.names[seat], seat=seat) if seat in self.names else self("seat", seat=seat)

    def seat_name(self, seat: int, name: str, bot: str | None = None, named: bool | None = None) -> str:
        """A seat's name, a default one in the user's language (``named``: the view's; an event's name is
        told by being the default)."""
        return Formatter(self.lang, self.terms()).seat_name(seat, name, bot, named)


def printed_names(components: Any) -> dict[str, str]:
    """Every ``{"id", "name"}`` in a game's components: the names its parts are printed with."""
    found: dict[str, str] = {}
    stack = [components]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            if isinstance(value.get("id"), str) and isinstance(value.get("name"), str):
                found[value["id"]] = value["name"]
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
    return found


def compact(value: Any, limit: int = 60) -> str:
    text = value if isinstance(value, str) else msgspec.json.encode(value).decode()
    return text if len(text) <= limit else text[: limit - 1] + "…"


def event_line(voice: Voice, version: int, event: dict[str, Any]) -> str:
    return fit(f"{version:>6}  {voice.event(event)}")


def awaiting_text(voice: Voice, awaiting: Any) -> str:
    if not isinstance(awaiting, list):
        awaiting = []
    told = []
    for a in awaiting:
        seat, reason = (a.seat, a.reason) if not isinstance(a, dict) else (a.get("seat"), a.get("reason"))
        if isinstance(seat, int):
            told.append(voice("awaited", who=voice.seat(seat), reason=voice.term("awaiting", reason)))
    return voice("awaiting", who=told)


def names_of(voice: Voice, table: TableView) -> dict[int, str]:
    """The seats' names, a default one ("named": false) in the user's language."""
    return {s.seat: voice.seat_name(s.seat, s.name, s.bot, s.named) for s in table.seats if s is not None}


async def know_table(voice: Voice, client: AsyncClient, table: TableView) -> None:
    await voice.learn(client, table.game)
    voice.names.update(names_of(voice, table))


def outcome_lines(voice: Voice, table: TableView) -> list[str]:
    outcome = table.outcome or {}
    scores = outcome.get("scores") or []
    places = outcome.get("places") or [0] * len(scores)
    rows = sorted(range(len(scores)), key=lambda s: (places[s], s))
    return ["  " + voice("score", place=places[s], who=voice.seat(s), score=scores[s]) for s in rows]


def table_summary(voice: Voice, table: TableView) -> list[str]:
    seated = sum(1 for s in table.seats if s is not None)
    lines = [
        voice(
            "summary",
            game=table.game,
            game_id=table.game_id,
            status=table.status,
            version=table.version,
            seated=seated,
            players=table.players,
            viewer=viewer_of(table),
        )
    ]
    if table.status == "active":
        lines.append(awaiting_text(voice, table.awaiting))
    if table.finished:
        lines += [voice("final_scores"), *outcome_lines(voice, table)]
    return lines


def viewer_of(table: TableView) -> str | int:
    if isinstance(table.view, dict) and table.view.get("viewer") == -1:
        return "full"
    return "spectator" if table.seat is None else table.seat


def who_am_i(voice: Voice, table: TableView) -> str:
    return voice("spectator") if table.seat is None else voice.seat(table.seat)


def value_text(value: Any) -> str:
    """A pick's value as one types it after ``--pick``: a card or a number as it is, a cell as ``row,column``."""
    if isinstance(value, list) and all(isinstance(v, int) for v in value):
        return ",".join(str(v) for v in value)
    return value if isinstance(value, str) else msgspec.json.encode(value).decode()


def fit(line: str) -> str:
    """``line`` cut to the terminal's width."""
    width = max(60, shutil.get_terminal_size((160, 24)).columns)
    return line if len(line) <= width else line[: width - 1] + "…"
