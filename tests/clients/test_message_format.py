"""The clients' message format renders every message of every catalog as the server's does.

The client speaks only HTTP and WebSocket, so it has a formatter of its own
(clients/python/message_format.py) beside the domain's (domain/words/format.py); this holds the two
to each other, and the client's languages to the server's."""

from __future__ import annotations

from typing import Any

import pytest

from clients.python import message_format as client
from domain.catalog import GAMES
from domain.words import CLDR, DEFAULT, LANGUAGES, read
from domain.words import format as server


def test_the_clients_languages_are_the_servers() -> None:
    assert (client.LANGUAGES, client.DEFAULT, client.CLDR) == (LANGUAGES, DEFAULT, CLDR)


def sample(kind: str) -> Any:
    """A value of a parameter of ``kind`` (``plural``, ``term:card``...), to render a message with."""
    if kind in ("plural", "number"):
        return 3
    if kind == "list" or kind.startswith("term"):
        return ["a", "b"]
    if kind == "seat":
        return 1
    if kind == "select":
        return "other"
    return "x"


CATALOGS = {"server": read("server.service"), **{game.id: game.words for game in GAMES.values()}}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_catalog_message_renders_alike_on_both_sides(lang: str) -> None:
    rendered = 0
    for catalogs in CATALOGS.values():
        terms = {f"{kind}.{key}": text for kind, entries in catalogs[lang].items() for key, text in entries.items()}
        for part in catalogs[lang].values():
            for message in part.values():
                values = {name: sample(kind) for name, kind in server.parameters(message).items()}
                ours = server.Words(lang, terms, ["Ana", "Rui"]).format(message, values)
                theirs = client.Words(lang, terms, ["Ana", "Rui"]).format(message, values)
                assert ours == theirs, message
                rendered += 1
    assert rendered > 500
