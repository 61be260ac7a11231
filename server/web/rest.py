"""The REST endpoints, as data: each ``Endpoint`` is both a route and its OpenAPI entry. Here the
catalog, the words and health, and every module's endpoints in the order they are matched: the
lobby's (server/web/tables.py), a table's (server/web/play.py), chat, players, notices, sign-in
and the operator's."""

from __future__ import annotations

import logging

import msgspec
from starlette.requests import Request
from starlette.responses import Response

from domain import words
from projections.lobby import CatalogEntry, GameComponents, catalog
from server.runtime.tasks import Trouble
from server.service.errors import NotFound, Unavailable
from server.service.words import words_of
from server.web.admin import ADMIN_ENDPOINTS
from server.web.chat import CHAT_ENDPOINTS
from server.web.notices import NOTICE_ENDPOINTS
from server.web.play import PLAY_ENDPOINTS, games_of
from server.web.players import PLAYER_ENDPOINTS
from server.web.requests import Endpoint, answer
from server.web.signin import SIGN_IN_ENDPOINTS
from server.web.tables import TABLE_ENDPOINTS

# -- answers -------------------------------------------------------------------------


Messages = dict[str, dict[str, str]]  # part ("refusals", "terms", "log") -> key -> message


class Words(msgspec.Struct):
    """Every message a frontend renders in one language (docs/i18n.md): the table's and the server's
    (``table``: refusals, terms, the table's log lines), and each game's, by game id."""

    lang: str
    table: Messages
    games: dict[str, Messages]


class Languages(msgspec.Struct):
    """The languages this server speaks: each has a full set of catalogs at ``/api/v1/words/{lang}``."""

    languages: list[str]
    default: str


class Catalog(msgspec.Struct):
    games: list[CatalogEntry]


class Health(msgspec.Struct):
    status: str


# -- endpoints -------------------------------------------------------------------------


async def get_catalog(request: Request) -> Response:
    return answer(Catalog(catalog(games_of(request).games.values())))


async def get_components(request: Request) -> Response:
    game = games_of(request).games.get(request.path_params["game"])
    if game is None:
        raise NotFound("not_found", "This server has no such game.", {"case": "game_type"})
    return answer(GameComponents(game.id, game.title, game.components))


async def get_languages(request: Request) -> Response:
    return answer(Languages(list(words.LANGUAGES), words.DEFAULT))


async def get_words(request: Request) -> Response:
    lang = request.path_params["lang"]
    if lang not in words.LANGUAGES:
        message = f"There is no catalog for that language; languages: {', '.join(words.LANGUAGES)}."
        raise NotFound("unknown_language", message, {"field": "lang", "languages": list(words.LANGUAGES)})
    found = words_of(games_of(request).games.values(), lang)
    return answer(Words(found["lang"], found["table"], found["games"]))


async def healthz(request: Request) -> Response:
    """Alive: the process serves, and its embedded Redis (when it runs one) runs. A dead embedded
    Redis is part of this process failing: 503 while it is being restarted."""
    embedded = getattr(request.app.state, "embedded", None)
    if embedded is not None and not embedded.running:
        raise Unavailable(
            "store_unavailable", "The embedded Redis is down; it is being restarted.", {"case": "restarting"}
        )
    return answer(Health("ok"))


# Requests that found the store down: logged once an outage (server/runtime/tasks.py), back when it answers.
STORE_TROUBLE = Trouble(logging.getLogger("ludoteca"), "store unavailable to requests")


async def readyz(request: Request) -> Response:
    await games_of(request).ping()
    STORE_TROUBLE.ok()
    return answer(Health("ready"))


# -- the routes, as data -----------------------------------------------------------------


WORD_ENDPOINTS: list[Endpoint] = [
    Endpoint("GET", "/words", get_languages, "The languages this server's messages are written in", Languages),
    Endpoint(
        "GET",
        "/words/{lang}",
        get_words,
        "Every message catalog in one language (refusals, terms, log lines), to render codes as words",
        Words,
        200,
        None,
        (),
        (404,),
    ),
]

CATALOG_ENDPOINTS: list[Endpoint] = [
    Endpoint("GET", "/games/catalog", get_catalog, "The games this server hosts, with their options", Catalog),
    Endpoint(
        "GET",
        "/games/catalog/{game}",
        get_components,
        "A game's printed parts as data, to draw it",
        GameComponents,
        200,
        None,
        (),
        (404,),
    ),
]

ENDPOINTS: list[Endpoint] = [
    *WORD_ENDPOINTS,
    *CATALOG_ENDPOINTS,
    *TABLE_ENDPOINTS,
    *PLAY_ENDPOINTS,
    *CHAT_ENDPOINTS,
    *PLAYER_ENDPOINTS,
    *NOTICE_ENDPOINTS,
    *SIGN_IN_ENDPOINTS,
    *ADMIN_ENDPOINTS,
]
