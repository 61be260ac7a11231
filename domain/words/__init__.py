"""Words in the reader's language: the languages, the catalogs, and (``domain.words.format``) the message format.

Used by each game (its catalogs beside its rules) and by the server (the ``message`` beside each code,
and the catalogs it serves at ``GET /api/v1/words/{lang}``); it knows no game, no route and no key. The
clients render those catalogs with a formatter of their own (clients/python/message_format.py). A
catalog is one JSON file per language in a package's ``words/`` folder
(``domain/vilar_de_mouros/words/gl.json``): adding a language is adding a file to each, no code.
"""

from __future__ import annotations

from importlib import resources

import msgspec


class Languages(msgspec.Struct):
    languages: list[str]
    cldr: dict[str, str]
    about: str = ""


# The languages, as data (domain/words/words/languages.json): adding one adds files, not code.
_RAW = resources.files(__package__).joinpath("words", "languages.json").read_bytes()
_KNOWN = msgspec.json.decode(_RAW, type=Languages)
LANGUAGES: tuple[str, ...] = tuple(_KNOWN.languages)  # every catalog has one file for each
DEFAULT = LANGUAGES[0]
CLDR: dict[str, str] = {lang: _KNOWN.cldr.get(lang, lang) for lang in LANGUAGES}  # pt is Portugal's: pt_PT

Catalog = dict[str, dict[str, str]]  # part ("refusals", "terms", "log", "lines") -> key -> message


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
