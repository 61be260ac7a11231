"""The REST endpoints, as data: each ``Endpoint`` is both a route and its OpenAPI entry."""

from __future__ import annotations

import logging
from typing import Annotated, Any, Literal, get_args

import msgspec
from starlette.requests import HTTPConnection, Request
from starlette.responses import Response

from domain import words
from domain.bots import BOTS, bot_spec, parse_bot
from domain.clock import Clock
from domain.clock import preset as clock_preset
from domain.engine import Pick, Rejected, Step
from domain.fair import ENTROPY_MOST
from domain.table import TAKEOVER_BOT, status
from projections.export import VIEWPOINTS
from projections.lobby import CatalogEntry, GameComponents, LobbyEntry, catalog
from projections.views import TableView, VersionedEvent
from server.runtime.tasks import Trouble
from server.service.errors import (
    AppError,
    ErrorBody,
    Forbidden,
    Invalid,
    NotFound,
    Refused,
    Unavailable,
    refused,
)
from server.service.games import CommandAnswer, Games, Seated
from server.service.lobby import Invite, Joined, Lobby, NewGame, QuickPlayed, Rematch, Wanted, seat_name
from server.service.senders import Holder
from server.service.tokens import is_player_token
from server.service.words import words_of
from server.web.admin import ADMIN_ENDPOINTS
from server.web.auth import bearer, require_admin
from server.web.chat import CHAT_ENDPOINTS
from server.web.errors import reader
from server.web.notices import NOTICE_ENDPOINTS
from server.web.players import PLAYER_ENDPOINTS
from server.web.requests import (
    JSON_LINES,
    Endpoint,
    Picks,
    answer,
    client_address,
    flag_param,
    int_param,
    read_body,
    read_json,
)
from server.web.signin import SIGN_IN_ENDPOINTS

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


class SendCommand(msgspec.Struct, forbid_unknown_fields=True):
    command: msgspec.Raw
    command_id: str
    expected_version: int | None = None


class CheckCommand(msgspec.Struct, forbid_unknown_fields=True):
    command: msgspec.Raw


class CheckAnswer(msgspec.Struct):
    """Whether the command would land if it were sent now, at ``version``; if not, the rule's
    refusal sending it would get (its code, sentence and details)."""

    version: int
    lands: bool
    refusal: ErrorBody | None = None


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


class GameList(msgspec.Struct):
    games: list[LobbyEntry]
    next_cursor: int | None = None


class LegalCommands(msgspec.Struct):
    """What the caller's seat may do now: the first step of its move, and the commands of its moves that are few."""

    version: int
    step: Step  # the first step of every move the seat may make now (build a move from it)
    # The complete commands of every move that has at most 200 of them; ``complete``: that is
    # every command the seat may send (false: build the other moves pick by pick from ``step``).
    commands: list[Any]
    complete: bool
    # Versions the seat may go back to with {"type": "Undo", "version": V} (the last one: plain
    # {"type": "Undo"}); empty when it has no step of this turn to take back.
    undo: list[int] = []


class BuildMove(msgspec.Struct, forbid_unknown_fields=True):
    """The picks of a move so far: its type first, then a value for each field (a tuple field one value at a time)."""

    picks: Picks  # the picks made so far, in order, each as an option offered them


class MoveStep(msgspec.Struct):
    """The next step of a move after ``picks``: what may be picked next, and the command the picks already make."""

    version: int  # the version the step was computed at (picks made at another may no longer fit)
    picks: list[Pick]
    step: Step


class EventPage(msgspec.Struct):
    version: int
    events: list[VersionedEvent]


class Imported(msgspec.Struct, omit_defaults=True):
    game_id: str
    # With ?play=true: a new token for each person's seat (null for a bot's seat or an empty one).
    tokens: list[str | None] | None = None


class Health(msgspec.Struct):
    status: str


# -- helpers ---------------------------------------------------------------------------


def games_of(request: HTTPConnection) -> Games:
    games: Games = request.app.state.games
    return games


def lobby_of(request: HTTPConnection) -> Lobby:
    lobby: Lobby = request.app.state.lobby
    return lobby


async def seated(request: HTTPConnection) -> Seated:
    return await games_of(request).seated(request.path_params["game_id"], bearer(request))


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


async def get_game(request: Request) -> Response:
    at = await seated(request)
    view = await games_of(request).view(at)
    view.presence = await request.app.state.attendance.present(at.game_id)
    return answer(view)


async def legal_commands(request: Request) -> Response:
    at = await seated(request)
    games_of(request).charge(at.game_id, at.seat)
    first, commands, complete, undo = games_of(request).legal(at)
    return answer(LegalCommands(at.table.version, first, commands, complete, undo))


async def build_move(request: Request) -> Response:
    at = await seated(request)
    games_of(request).charge(at.game_id, at.seat)  # before the body is read: an unreadable one costs the same
    body = await read_json(request, BuildMove)
    picks = tuple(body.picks)
    return answer(MoveStep(at.table.version, list(picks), games_of(request).moves(at, picks)))


async def send_command(request: Request) -> Response:
    # A bad body is answered after the game and the token are checked, as any request.
    try:
        body = await read_json(request, SendCommand)
    except AppError:
        await seated(request)
        raise
    game_id, sender = request.path_params["game_id"], Holder(bearer(request))
    result = await games_of(request).handle(
        game_id, sender, bytes(body.command), body.command_id, body.expected_version
    )
    return answer(result)


async def check_command(request: Request) -> Response:
    at = await seated(request)
    seat = games_of(request).checking(at)  # before the body is read
    body = await read_json(request, CheckCommand)
    refusal = await games_of(request).check(at, seat, bytes(body.command))
    if refusal is None:
        return answer(CheckAnswer(at.table.version, True))
    return answer(CheckAnswer(at.table.version, False, reader(request).body(refusal)))


async def get_events(request: Request) -> Response:
    at = await seated(request)
    after = int_param(request, "after", 0, 0, 2**53)
    limit = int_param(request, "limit", 500, 1, 1000)
    version, events = await games_of(request).events(at, after, limit)
    return answer(EventPage(version, events))


async def get_replay(request: Request) -> Response:
    at = await seated(request)
    version = int_param(request, "version", 1, 1, 2**53)
    return answer(await games_of(request).replay(at, version, request.query_params.get("as")))


async def export_game(request: Request) -> Response:
    """The game as one viewpoint saw it (projections/export.py): ``as=seat`` (the caller's own seat,
    any time), ``spectator`` (anyone), ``everyone`` (once the table is over), ``server`` (the admin
    token). Without ``as``: everyone's once the table is over, before that the admin's."""
    games = games_of(request)
    game_id = request.path_params["game_id"]
    game, table = await games.load(game_id)
    finished = status(game, table) == "finished"
    viewpoint = request.query_params.get("as") or ("everyone" if finished else "server")
    seat = None
    if viewpoint == "server":  # the admin token is no seat's: it is checked, not looked up
        require_admin(request, request.app.state.settings.admin_token)
    elif viewpoint == "everyone" and not finished:
        raise Forbidden(
            "game_not_finished", "Every fact is exported for everyone once the game is over.", {"case": "export"}
        )
    elif viewpoint == "seat":
        seat = (await seated(request)).seat
        if seat is None:
            raise Forbidden(
                "spectator",
                "A seat's export needs that seat's token; anyone may export as a spectator.",
                {"case": "export"},
            )
    elif viewpoint != "everyone" and viewpoint != "spectator":
        raise Invalid(
            "malformed",
            f"'as' is one of {', '.join(VIEWPOINTS)}.",
            {"field": "as", "case": "one_of", "allowed": list(VIEWPOINTS)},
        )
    lines = await games.export(game_id, viewpoint, seat)  # type: ignore[arg-type]
    return Response(b"".join(line + b"\n" for line in lines), media_type="application/x-ndjson")


async def import_game(request: Request) -> Response:
    require_admin(request, request.app.state.settings.admin_token)
    body = await read_body(request, request.app.state.settings.max_import, JSON_LINES)
    playable = flag_param(request, "play")
    game_id, tokens = await lobby_of(request).import_log(body.splitlines(), playable)
    return answer(Imported(game_id, tokens if playable else None), 201)


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


GAME = (404, 401, 403, 503)
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

GAME_ENDPOINTS: list[Endpoint] = [
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
    Endpoint(
        "GET",
        "/games/{game_id}",
        get_game,
        "The table as the caller may see it",
        TableView,
        200,
        None,
        (),
        GAME,
        seat=True,
    ),
    Endpoint(
        "GET",
        "/games/{game_id}/legal-commands",
        legal_commands,
        "The first step of every move the caller's seat may make now, and the commands of moves that are few",
        LegalCommands,
        200,
        None,
        (),
        (*GAME, 429),
        seat=True,
    ),
    Endpoint(
        "POST",
        "/games/{game_id}/moves",
        build_move,
        "The next step of a move the caller's seat is building, after its picks so far",
        MoveStep,
        200,
        BuildMove,
        (),
        (400, *GAME, 413, 415, 422, 429),
        seat=True,
    ),
    Endpoint(
        "POST",
        "/games/{game_id}/commands",
        send_command,
        "Send a command for the caller's seat",
        CommandAnswer,
        200,
        SendCommand,
        (),
        (400, 401, 403, 404, 409, 413, 415, 422, 429, 503),
        seat=True,
    ),
    Endpoint(
        "POST",
        "/games/{game_id}/check",
        check_command,
        "Whether a command of the caller's seat would land now, without sending it: the refusal it would get",
        CheckAnswer,
        200,
        CheckCommand,
        (),
        (400, 401, 403, 404, 413, 415, 429, 503),
        seat=True,
    ),
    Endpoint(
        "GET",
        "/games/{game_id}/events",
        get_events,
        "The caller's feed of events after a version",
        EventPage,
        200,
        None,
        ("after", "limit"),
        (400, *GAME),
        seat=True,
    ),
    Endpoint(
        "GET",
        "/games/{game_id}/replay",
        get_replay,
        "The table as it was at a version",
        TableView,
        200,
        None,
        ("version", "as"),
        (400, *GAME),
        seat=True,
    ),
    Endpoint(
        "GET",
        "/games/{game_id}/export",
        export_game,
        "The game as one viewpoint saw it, as JSON lines: a seat's (any time), a spectator's, everyone's (once "
        "over), the server's (admin)",
        "ndjson",
        200,
        None,
        ("as",),
        (400, 401, 403, 404, 503),
        seat=True,
        admin=True,
    ),
]

ENDPOINTS: list[Endpoint] = [
    *WORD_ENDPOINTS,
    *GAME_ENDPOINTS,
    *CHAT_ENDPOINTS,
    *PLAYER_ENDPOINTS,
    *NOTICE_ENDPOINTS,
    *SIGN_IN_ENDPOINTS,
    *ADMIN_ENDPOINTS,
]
