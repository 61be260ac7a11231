"""The lobby's endpoints: tables opened (by hand, by quick play, from an export), listed, joined,
called off and sat at again (a rematch)."""

from __future__ import annotations

from typing import Annotated, Any, Literal, get_args

import msgspec
from starlette.requests import HTTPConnection, Request
from starlette.responses import Response

from domain.bots import BOTS, bot_spec, parse_bot
from domain.clock import Clock
from domain.clock import preset as clock_preset
from domain.engine import Rejected
from domain.fair import ENTROPY_MOST
from domain.table import TAKEOVER_BOT
from projections.lobby import LobbyEntry
from server.service.errors import Forbidden, Invalid, Refused, refused
from server.service.lobby import Invite, Joined, Lobby, NewGame, QuickPlayed, Rematch, Wanted, seat_name
from server.service.tokens import is_player_token
from server.web.auth import bearer, require_admin
from server.web.requests import (
    JSON_LINES,
    Endpoint,
    answer,
    client_address,
    flag_param,
    int_param,
    read_body,
    read_json,
)

# -- bodies and answers -----------------------------------------------------------


# What a seat's own device drew for the table's chance (docs/fair-play.md): letters, digits, - and _.
Entropy = Annotated[str, msgspec.Meta(max_length=ENTROPY_MOST, pattern="^[A-Za-z0-9_-]*$")]


class CreateGame(msgspec.Struct, forbid_unknown_fields=True):
    game: str
    players: int
    options: dict[str, Any] = {}
    # A turn clock for every seat, or a preset's name ("live", "one-day", "three-days"; docs/table-services.md).
    clock: Clock | str | None = None
    takeover: str | None = None  # the bot that plays on a seat that leaves: "greedy" (default), "strong:2"...
    rated: bool = False  # the result counts on the players' ratings (players only, no bots)
    lang: Lang | None = None  # the language its people speak, for the lobby's filter


# A table's language, for the lobby's filter: one this server speaks.
Lang = Literal["pt", "gl", "es", "en"]


# A table's clock in the lobby's filter and quick play: a preset's name, "custom", or "none".
ClockName = Literal["live", "one-day", "three-days", "custom", "none"]


class QuickPlay(msgspec.Struct, forbid_unknown_fields=True):
    """Sit at the oldest open table of ``game`` that fits, or open one (docs/API.md, "Quick play")."""

    game: str
    players: int | None = None  # the table's size (a new table: 2, or the game's least)
    clock: ClockName | None = None  # None: any clock (a new table: none)
    rated: bool | None = None  # None: rated or not (a new table: not)
    lang: Lang | None = None  # None: any language (a new table: none said)
    name: str = ""  # a stranger's name (a player sits under its own)
    entropy: Entropy = ""  # the person's own randomness (docs/fair-play.md)


class TakeSeat(msgspec.Struct, forbid_unknown_fields=True):
    name: str = ""
    seat: int | None = None
    bot: str | None = None  # "random", "greedy" or "strong": a bot the server plays takes the seat
    level: int | None = None  # the bot's level, for a bot that has levels (strong: 1 to 5; default 3)
    entropy: Entropy = ""  # a person's own randomness, mixed into every shuffle and draw (a bot's seat: none)
    invite: str | None = None  # an invitation to take over a vacated seat (POST .../invites)


class SitAgain(msgspec.Struct, forbid_unknown_fields=True):
    entropy: Entropy = ""


class OfferSeat(msgspec.Struct, forbid_unknown_fields=True):
    seat: int  # a seat the bot plays on for since its person left


class GameList(msgspec.Struct):
    games: list[LobbyEntry]
    next_cursor: int | None = None


class Imported(msgspec.Struct, omit_defaults=True):
    game_id: str
    # With ?play=true: a new token for each person's seat (null for a bot's seat or an empty one).
    tokens: list[str | None] | None = None


# -- endpoints -------------------------------------------------------------------------


def lobby_of(request: HTTPConnection) -> Lobby:
    lobby: Lobby = request.app.state.lobby
    return lobby


async def create_game(request: Request) -> Response:
    body = await read_json(request, CreateGame)
    if body.takeover is not None:
        try:
            parse_bot(body.takeover)
        except ValueError:
            known = sorted(BOTS)
            message = f"There is no bot {body.takeover!r} to play on for a seat that leaves; bots: {', '.join(known)}."
            raise Refused("no_such_bot", message, {"field": "takeover", "bots": known, "bot": body.takeover}) from None
    try:
        turn_clock = clock_preset(body.clock) if isinstance(body.clock, str) else body.clock
    except Rejected as exc:
        raise refused(exc) from None
    created = await lobby_of(request).create(
        body.game,
        body.players,
        body.options,
        client_address(request),
        turn_clock,
        takeover=body.takeover or TAKEOVER_BOT,
        rated=body.rated,
        lang=body.lang,
    )
    return answer(created, 201)


async def call_off(request: Request) -> Response:
    return answer(await lobby_of(request).call_off(request.path_params["game_id"], bearer(request)))


async def rematch(request: Request) -> Response:
    grace_ms = round(request.app.state.settings.rematch_grace * 1000)
    # The body is optional (clients from before fair play send none, so no Content-Type either).
    body = await read_json(request, SitAgain) if "content-type" in request.headers else SitAgain()
    game_id = request.path_params["game_id"]
    return answer(await lobby_of(request).rematch(game_id, bearer(request), grace_ms, body.entropy), 201)


async def list_games(request: Request) -> Response:
    status = request.query_params.get("status", "open")
    if status not in ("open", "active", "finished"):
        raise Invalid("malformed", "'status' is open, active or finished.", {"field": "status", "case": "status"})
    limit = int_param(request, "limit", 50, 1, 200)
    cursor = request.query_params.get("cursor")
    if cursor is not None and not (cursor.isascii() and cursor.isdigit()):
        raise Invalid(
            "malformed", "'cursor' is the next_cursor of the previous page.", {"field": "cursor", "case": "cursor"}
        )
    wanted = wanted_of(request)
    entries, next_cursor = await lobby_of(request).list_games(
        status, limit, int(cursor) if cursor else None, wanted if wanted != Wanted() else None
    )
    return answer(GameList(entries, next_cursor))


def wanted_of(request: Request) -> Wanted:
    """The lobby's filters from the query: ``game``, ``players``, ``clock``, ``rated``, ``lang``."""
    query = request.query_params
    game = query.get("game")
    if game is not None:
        lobby_of(request).hosted(game)
    players = int_param(request, "players", 0, 1, 99) or None
    rated = flag_param(request, "rated") if "rated" in query else None
    return Wanted(
        game, players, one_of(request, "clock", get_args(ClockName)), rated, one_of(request, "lang", get_args(Lang))
    )


def one_of(request: Request, name: str, allowed: tuple[str, ...]) -> str | None:
    raw = request.query_params.get(name)
    if raw is not None and raw not in allowed:
        details = {"field": name, "case": "one_of", "allowed": list(allowed)}
        raise Invalid("malformed", f"'{name}' is one of {', '.join(allowed)}.", details)
    return raw


async def quick_play(request: Request) -> Response:
    body = await read_json(request, QuickPlay)
    name = seat_name(body.name)
    token = bearer(request)
    player = await request.app.state.players.signed_in(token) if token is not None and is_player_token(token) else None
    wanted = Wanted(body.game, body.players, body.clock, body.rated, body.lang)
    played = await lobby_of(request).quick_play(wanted, name, client_address(request), player, body.entropy)
    return answer(played, 201 if played.opened else 200)


async def take_seat(request: Request) -> Response:
    body = await read_json(request, TakeSeat)
    if body.bot is not None and body.bot not in BOTS:
        known = sorted(BOTS)
        message = f"There is no bot {body.bot!r}; bots: {', '.join(known)}."
        raise Refused("no_such_bot", message, {"field": "bot", "bots": known, "bot": body.bot})
    if body.level is not None:
        levels = list(BOTS[body.bot].levels) if body.bot is not None else []
        if body.level not in levels:
            whose = f"The {body.bot} bot" if body.bot is not None else "A person"
            message = f"{whose} has no level {body.level}" + (f"; levels: {levels}." if levels else ".")
            raise Refused(
                "no_such_level", message, {"field": "level", "levels": levels, "level": body.level, "bot": body.bot}
            )
    if body.bot is not None and body.entropy:  # the server would choose it: it could grind the deal
        raise Invalid(
            "malformed",
            "A bot's seat takes no entropy: only a person's own device draws it.",
            {"field": "entropy", "case": "bot_entropy"},
        )
    name = seat_name(body.name)
    game_id = request.path_params["game_id"]
    token = bearer(request)
    # A player's token seats the player (a seat token of another table is no one's to sit with).
    signed = body.bot is None and token is not None and is_player_token(token)
    player = await request.app.state.players.signed_in(token) if signed else None
    if body.invite is not None:
        if body.bot is not None or body.seat is not None:
            raise Invalid(
                "malformed", "An invitation names its seat, for a person.", {"field": "invite", "case": "invite"}
            )
        joined = await lobby_of(request).take_over(game_id, body.invite, name, client_address(request), player)
        return answer(joined, 201)
    bot = bot_spec(body.bot, body.level) if body.bot is not None else None
    joined = await lobby_of(request).join(
        game_id, body.seat, name, bot, client=client_address(request), player=player, entropy=body.entropy
    )
    return answer(joined, 201)


async def invite(request: Request) -> Response:
    token = bearer(request)
    if token is None:  # before the body: a spectator is told so whatever it sent
        raise Forbidden(
            "spectator",
            "Only a seat still in the game can offer a vacated one; take a seat first.",
            {"case": "offer"},
        )
    body = await read_json(request, OfferSeat)
    return answer(await lobby_of(request).invite(request.path_params["game_id"], token, body.seat), 201)


async def import_game(request: Request) -> Response:
    require_admin(request, request.app.state.settings.admin_token)
    body = await read_body(request, request.app.state.settings.max_import, JSON_LINES)
    playable = flag_param(request, "play")
    game_id, tokens = await lobby_of(request).import_log(body.splitlines(), playable)
    return answer(Imported(game_id, tokens if playable else None), 201)


# -- the routes, as data -----------------------------------------------------------------

TABLE_ENDPOINTS: list[Endpoint] = [
    Endpoint(
        "POST", "/games", create_game, "Open a new table", NewGame, 201, CreateGame, (), (400, 413, 415, 422, 429, 503)
    ),
    Endpoint(
        "POST",
        "/games/quick-play",
        quick_play,
        "Sit at the oldest open table that fits, or open one (201)",
        QuickPlayed,
        200,
        QuickPlay,
        (),
        (400, 403, 413, 415, 422, 429, 503),
    ),
    Endpoint(
        "DELETE",
        "/games/{game_id}",
        call_off,
        "Call off a table that has not started (its creator's token)",
        LobbyEntry,
        200,
        None,
        (),
        (401, 403, 404, 409, 422, 503),
    ),
    Endpoint(
        "POST",
        "/games/{game_id}/rematch",
        rematch,
        "Sit at the finished game's rematch, in the same seat (opened for everyone by the first to ask)",
        Rematch,
        201,
        SitAgain,
        (),
        (400, 401, 403, 404, 409, 413, 415, 422, 503),
        seat=True,
        body_required=False,
    ),
    Endpoint(
        "GET",
        "/games",
        list_games,
        "Tables by status, paged, filtered by game, size, clock, rated and language",
        GameList,
        200,
        None,
        ("status", "limit", "cursor", "game", "players", "clock", "rated", "lang"),
        (400, 503),
    ),
    Endpoint(
        "POST",
        "/games/import",
        import_game,
        "A game from an exported log (admin; ?play=true: an unfinished one too, to play on)",
        Imported,
        201,
        "ndjson",
        ("play",),
        (400, 401, 403, 413, 415, 503),
        admin=True,
    ),
    Endpoint(
        "POST",
        "/games/{game_id}/seats",
        take_seat,
        "Take a seat; the last one starts the game",
        Joined,
        201,
        TakeSeat,
        (),
        (400, 401, 403, 404, 409, 413, 415, 422, 429, 503),
    ),
    Endpoint(
        "POST",
        "/games/{game_id}/invites",
        invite,
        "Offer a seat a bot plays on for (its person left) to a newcomer: an invitation to hand on",
        Invite,
        201,
        OfferSeat,
        (),
        (400, 401, 403, 404, 409, 413, 415, 422, 503),
        seat=True,
    ),
]
