"""The message format on the client's side: a message of a catalog the server serves
(``GET /api/v1/words/{lang}``) in, the text in one language out.

The client speaks only HTTP and WebSocket, so it renders with a formatter of its own: the same
subset of ICU MessageFormat the server renders its ``message`` with (docs/i18n.md), on Babel.
tests/clients/test_message_format.py holds the two to each other over every message of every
catalog, and the languages here to the server's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

import msgspec
from babel import Locale
from babel.lists import format_list
from babel.numbers import format_decimal

# The languages every catalog has a file for, the first the default, and the CLDR locale of each whose
# rules are not those of its bare code (pt is Portugal's).
LANGUAGES: tuple[str, ...] = ("en", "pt", "gl", "es")
DEFAULT = LANGUAGES[0]
CLDR: dict[str, str] = {"en": "en", "pt": "pt_PT", "gl": "gl", "es": "es"}

Catalog = dict[str, dict[str, str]]  # part ("refusals", "terms", "log", "lines") -> key -> message


# CLDR: the locale of each language; ``pt`` is European Portuguese (its plural rules and list patterns
# differ from Brazil's: 0 is "other" in Portugal, "one" in Brazil).


class MessageError(ValueError):
    """A message that does not follow the format."""


@dataclass(frozen=True)
class Arg:
    name: str
    kind: str = ""  # "", "number", "list", "term", "seat"
    style: str = ""  # a term's kind


@dataclass(frozen=True)
class Choice:
    name: str
    kind: str  # "plural" or "select"
    cases: Mapping[str, tuple[Any, ...]] = field(default_factory=dict)


HASH = object()  # ``#`` in a plural case: the number
Node = str | Arg | Choice | object


@cache
def parse(message: str) -> tuple[Node, ...]:
    """The message's parts; :class:`MessageError` for one that does not follow the format."""
    nodes, end = _parse(message, 0, in_plural=False, nested=False)
    if end != len(message):
        raise MessageError(f"unmatched '}}' at {end} in {message!r}")
    return nodes


def _parse(text: str, at: int, in_plural: bool, nested: bool) -> tuple[tuple[Node, ...], int]:
    nodes: list[Node] = []
    plain: list[str] = []
    while at < len(text):
        ch = text[at]
        if ch == "}":
            if not nested:
                raise MessageError(f"unmatched '}}' at {at} in {text!r}")
            break
        if ch == "#" and in_plural:
            nodes += ["".join(plain), HASH]
            plain = []
            at += 1
        elif ch == "{":
            nodes.append("".join(plain))
            plain = []
            node, at = _argument(text, at + 1, in_plural)
            nodes.append(node)
        else:
            plain.append(ch)
            at += 1
    nodes.append("".join(plain))
    return tuple(n for n in nodes if n != ""), at


def _word(text: str, at: int) -> tuple[str, int]:
    start = at
    while at < len(text) and text[at] not in ",{}" and not text[at].isspace():
        at += 1
    return text[start:at], at


def _skip(text: str, at: int) -> int:
    while at < len(text) and text[at].isspace():
        at += 1
    return at


def _argument(text: str, at: int, in_plural: bool) -> tuple[Node, int]:
    name, at = _word(text, _skip(text, at))
    at = _skip(text, at)
    if not name.replace("_", "a").isalnum():
        raise MessageError(f"a parameter needs a name at {at} in {text!r}")
    if at < len(text) and text[at] == "}":
        return Arg(name), at + 1
    if at >= len(text) or text[at] != ",":
        raise MessageError(f"expected ',' or '}}' at {at} in {text!r}")
    kind, at = _word(text, _skip(text, at + 1))
    at = _skip(text, at)
    if kind in ("plural", "select"):
        if at >= len(text) or text[at] != ",":
            raise MessageError(f"{kind} needs its cases at {at} in {text!r}")
        cases: dict[str, tuple[Node, ...]] = {}
        at = _skip(text, at + 1)
        while at < len(text) and text[at] != "}":
            key, at = _word(text, at)
            at = _skip(text, at)
            if not key or at >= len(text) or text[at] != "{":
                raise MessageError(f"a case needs a name and {{text}} at {at} in {text!r}")
            body, at = _parse(text, at + 1, kind == "plural" or in_plural, nested=True)
            if at >= len(text):
                raise MessageError(f"unclosed case {key!r} in {text!r}")
            cases[key] = body
            at = _skip(text, at + 1)
        if "other" not in cases:
            raise MessageError(f"{kind} needs an 'other' case in {text!r}")
        if at >= len(text):
            raise MessageError(f"unclosed {kind} in {text!r}")
        return Choice(name, kind, cases), at + 1
    style = ""
    if at < len(text) and text[at] == ",":
        style, at = _word(text, _skip(text, at + 1))
        at = _skip(text, at)
    if kind not in ("list", "term", "seat", "number") or (kind == "term") != bool(style):
        raise MessageError(f"unknown argument type {kind!r} {style!r} in {text!r}")
    if at >= len(text) or text[at] != "}":
        raise MessageError(f"expected '}}' at {at} in {text!r}")
    return Arg(name, kind, style), at + 1


def parameters(message: str) -> dict[str, str]:
    """Every parameter a message names, with how it uses it (``""``, ``plural``, ``term``...)."""
    found: dict[str, str] = {}

    def walk(nodes: Sequence[Node]) -> None:
        for node in nodes:
            if isinstance(node, Arg):
                found.setdefault(node.name, node.kind + (f":{node.style}" if node.style else ""))
            elif isinstance(node, Choice):
                found.setdefault(node.name, node.kind)
                for body in node.cases.values():
                    walk(body)

    walk(parse(message))
    return found


def terms_named(message: str) -> set[str]:
    """The kinds of terms a message looks up (``{x, term, kind}``)."""
    return {kind.partition(":")[2] for kind in parameters(message).values() if kind.startswith("term:")}


def plural_category(lang: str, number: float) -> str:
    return str(_locale(lang).plural_form(number))


@cache
def _locale(lang: str) -> Locale:
    return Locale.parse(CLDR.get(lang, lang))


@dataclass(frozen=True)
class Words:
    """What a message is rendered with: the language, the terms it may name, the seats' names."""

    lang: str = DEFAULT
    terms: Mapping[str, str] = field(default_factory=dict)
    names: Sequence[str] = ()

    def format(self, message: str, params: Mapping[str, Any] | None = None) -> str:
        """``message`` with its parameters filled in; a parameter not given is left as ``{name}``."""
        return self._render(parse(message), params or {}, None)

    def _render(self, nodes: Sequence[Node], params: Mapping[str, Any], number: Any) -> str:
        out: list[str] = []
        for node in nodes:
            if isinstance(node, str):
                out.append(node)
            elif node is HASH:
                out.append(self.value(number))
            elif isinstance(node, Arg):
                out.append(self._arg(node, params))
            elif isinstance(node, Choice):
                value = params.get(node.name)
                body = self._case(node, value)
                count = len(value) if isinstance(value, list | tuple) else value
                out.append(self._render(body, params, count if node.kind == "plural" else number))
        return "".join(out)

    def _case(self, choice: Choice, value: Any) -> tuple[Node, ...]:
        cases = choice.cases
        if choice.kind == "plural" and isinstance(value, list | tuple):
            value = len(value)  # a list counts as how many it holds
        if choice.kind == "plural" and isinstance(value, int | float) and not isinstance(value, bool):
            exact = f"={value:g}"
            if exact in cases:
                return cases[exact]
            return cases.get(plural_category(self.lang, abs(value)), cases["other"])
        key = "null" if value is None else str(value).lower() if isinstance(value, bool) else str(value)
        return cases.get(key, cases["other"])

    def _arg(self, arg: Arg, params: Mapping[str, Any]) -> str:
        if arg.name not in params:
            return "{" + arg.name + "}"
        value = params[arg.name]
        if arg.kind == "term":
            if isinstance(value, list | tuple):
                return format_list([self.term(arg.style, v) for v in value], locale=_locale(self.lang))
            return self.term(arg.style, value)
        if arg.kind == "seat":
            return self.seat(value)
        if arg.kind == "list" and isinstance(value, list | tuple):
            return format_list([self.value(v) for v in value], locale=_locale(self.lang)) if value else ""
        return self.value(value, grouped=arg.kind == "number")

    def term(self, kind: str, value: Any) -> str:
        return self.terms.get(f"{kind}.{value}", self.value(value))

    def seat(self, seat: Any) -> str:
        if isinstance(seat, int) and 0 <= seat < len(self.names) and self.names[seat]:
            return self.names[seat]
        if isinstance(seat, int) and "seat" in self.terms:
            return self.format(self.terms["seat"], {"number": seat + 1})
        return self.value(seat)

    def default_seat(self, seat: int, bot: str | None = None) -> str:
        """The name of a seat taken without one, in this language: the term ``seat`` ("Xogador 2"), a bot's
        seat the term ``bot_seat``, with the bot's name ``bot_name.<bot>`` ("Bot casual 3"; a level is left out)."""
        if bot and "bot_seat" in self.terms:
            return self.format(self.terms["bot_seat"], {"bot": bot.partition(":")[0], "number": seat + 1})
        if not bot and "seat" in self.terms:
            return self.format(self.terms["seat"], {"number": seat + 1})
        return default_name(seat, bot)

    def seat_name(self, seat: int, name: str, bot: str | None = None, named: bool | None = None) -> str:
        """A seat's ``name`` as the reader reads it: a default name (``named`` false in a table view's seat,
        or, for an event's ``name`` that carries no ``named``, the default itself) in this language.

        A default-named seat a bot holds may have been a person's ("Player 2", who left, a bot playing on):
        the name tells which it was."""
        if named is None:
            if bot is None:  # a name given with no bot beside it: any bot the terms name may have its default
                bot = next((b for b in self.bots() if name == default_name(seat, b)), None)
            named = name != default_name(seat, bot)
        if named:
            return name
        return self.default_seat(seat, bot if bot and name != default_name(seat) else None)

    def bots(self) -> list[str]:
        """The bots the terms name (``bot_name.<bot>``)."""
        return [key.partition(".")[2] for key in self.terms if key.startswith("bot_name.")]

    def seats_said(self, details: Mapping[str, Any]) -> Mapping[str, Any]:
        """A refusal's ``details`` with the names it gives its seats (``names``, those of the seats in
        ``awaiting``, a default one stored in English: "Player 2") as the reader reads them: the names this
        knows of those seats, else each default one in the language ("Xogador 2")."""
        seats, names = details.get("awaiting"), details.get("names")
        if not isinstance(seats, list | tuple) or not isinstance(names, list | tuple) or len(seats) != len(names):
            return details
        said = [
            self.names[seat]
            if isinstance(seat, int) and 0 <= seat < len(self.names) and self.names[seat]
            else self.seat_name(seat, name)
            if isinstance(seat, int) and isinstance(name, str)
            else name
            for seat, name in zip(seats, names, strict=True)
        ]
        return {**details, "names": said}

    def value(self, value: Any, grouped: bool = False) -> str:
        if isinstance(value, bool) or value is None:
            return str(value).lower() if value is not None else ""
        if isinstance(value, int) and not grouped:
            return str(value)  # versions, seats, counts: digits as they are (``{n, number}`` groups them)
        if isinstance(value, int | float):
            return str(format_decimal(value, locale=_locale(self.lang)))
        if isinstance(value, list | tuple):
            return ", ".join(self.value(v) for v in value)
        return str(value)


def default_name(seat: int, bot: str | None = None) -> str:
    """The name the server gives a seat taken without one, in English as it stores it (domain/table/state.py's
    ``default_name``): "Player 2", "Casual bot 3" (the bot's name without its level, capitalised)."""
    if bot is None:
        return f"Player {seat + 1}"
    return f"{bot.partition(':')[0].capitalize()} bot {seat + 1}"


def negotiate(accept_language: str | None) -> str | None:
    """The first of our languages that an ``Accept-Language`` header asks for (by its weights), or
    ``None``: ``gl-ES;q=0.9, pt;q=0.8`` is ``gl``; a region is ignored (``pt-BR`` reads ``pt``)."""
    if not accept_language:
        return None
    asked: list[tuple[float, int, str]] = []
    for i, part in enumerate(accept_language.split(",")[:20]):
        tag, _, rest = part.strip().partition(";")
        weight = 1.0
        for param in rest.split(";"):
            key, _, number = param.strip().partition("=")
            if key.strip() == "q":
                try:
                    weight = float(number)
                except ValueError:
                    weight = 0.0
        lang = tag.strip().lower().replace("_", "-").split("-")[0]
        if weight > 0 and lang in LANGUAGES:
            asked.append((-weight, i, lang))
    return min(asked)[2] if asked else None


def read(package: str) -> dict[str, Catalog]:
    """The catalogs of ``package`` by language, read from its ``words/<lang>.json`` data files the way
    the games read their components (package data, once, at import); every language must be there."""
    folder = resources.files(package).joinpath("words")
    catalogs: dict[str, Catalog] = {}
    for lang in LANGUAGES:
        raw = folder.joinpath(f"{lang}.json").read_bytes()
        catalogs[lang] = msgspec.json.decode(raw, type=dict[str, dict[str, str]])
    return catalogs


def format_lang(locale: str | None) -> str | None:
    """One of our languages from a POSIX locale (``gl_ES.UTF-8``, ``pt_PT``, ``C``), or ``None``."""
    if not locale:
        return None
    lang = locale.split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()
    return lang if lang in LANGUAGES else None
