"""Which language a request reads, and a refusal's ``message`` in it.

The codes and their ``details`` are the API; the ``message`` beside them is rendered here, for
every answer, from the catalogs (the game's own ``words/<lang>.json``, then the table's and the
server's, ``server/service/words/<lang>.json``), in the language the request negotiated
(docs/i18n.md).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from domain import words
from domain.engine import AnyGame
from domain.words.format import Words, negotiate
from server.service.errors import AppError

SHARED: dict[str, words.Catalog] = words.read(__package__ or "server.service")


def language(asked: str | None = None, accept_language: str | None = None, preference: str | None = None) -> str:
    """The language an answer is written in: what the request asks for by name (a socket's hello
    ``lang``), else the player's stored preference (``preference``: players are coming; pass theirs),
    else the first of ours its ``Accept-Language`` names (a language tag there works too, ``gl-ES``),
    else English. A language we have no catalog for is passed over, never refused."""
    for lang in (asked, preference):
        if lang is not None and lang in words.LANGUAGES:
            return lang
    return negotiate(accept_language) or words.DEFAULT


def catalog(game: AnyGame | None, lang: str) -> tuple[dict[str, str], dict[str, str]]:
    """The refusals and terms a message of ``game`` (or of no game) is rendered with in ``lang``:
    the game's own over the table's and the server's."""
    shared = SHARED.get(lang, SHARED[words.DEFAULT])
    own: Mapping[str, Mapping[str, str]] = game.words.get(lang, {}) if game is not None else {}
    refusals = {**shared.get("refusals", {}), **own.get("refusals", {})}
    terms = {**shared.get("terms", {}), **own.get("terms", {})}
    return refusals, terms


def message(exc: AppError, lang: str, games: Mapping[str, AnyGame]) -> str:
    """``exc``'s message in ``lang``, from its code and details (the English it was raised with when no
    catalog knows the code: the tests see that none is missing)."""
    refusals, terms = catalog(games.get(exc.game) if exc.game else None, lang)
    text = refusals.get(exc.code)
    if text is None:
        return exc.message
    render = Words(lang, terms)
    return render.format(text, render.seats_said(exc.details))  # a seat's default name in the language too


def notice_words(lang: str, game: AnyGame | None) -> tuple[Mapping[str, str], Words]:
    """The notices' messages in ``lang`` (a player's email and webhook) and what renders them with the
    game's terms (its name in that language)."""
    _, terms = catalog(game, lang)
    return SHARED.get(lang, SHARED[words.DEFAULT])["notices"], Words(lang, terms)


def words_of(games: Iterable[AnyGame], lang: str) -> dict[str, Any]:
    """Every catalog a frontend renders with in ``lang``: the table's and the server's, and each game's."""
    return {
        "lang": lang,
        # The notices' words are the server's own (its emails and webhooks), not a frontend's.
        "table": {part: messages for part, messages in SHARED[lang].items() if part != "notices"},
        "games": {game.id: dict(game.words.get(lang, {})) for game in games},
    }
