"""A table's endpoints: its view, what its seats may do (legal commands, a move built pick by
pick, a command checked or sent), and its log (events, replays, exports)."""

from __future__ import annotations

from typing import Any

import msgspec
from starlette.requests import HTTPConnection, Request
from starlette.responses import Response

from domain.engine import Pick, Step
from domain.table import status
from projections.export import VIEWPOINTS
from projections.views import TableView, VersionedEvent
from server.service.errors import AppError, ErrorBody, Forbidden, Invalid
from server.service.games import CommandAnswer, Games, Seated
from server.service.senders import Holder
from server.web.auth import bearer, require_admin
from server.web.errors import reader
from server.web.requests import Endpoint, Picks, answer, int_param, read_json

# -- bodies and answers -----------------------------------------------------------


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


# -- helpers ---------------------------------------------------------------------------


def games_of(request: HTTPConnection) -> Games:
    games: Games = request.app.state.games
    return games


async def seated(request: HTTPConnection) -> Seated:
    return await games_of(request).seated(request.path_params["game_id"], bearer(request))


# -- endpoints -------------------------------------------------------------------------


async def get_game(request: Request) -> Response:
    at = await seated(request)
    view = await games_of(request).reads.view(at)
    view.presence = await request.app.state.attendance.present(at.game_id)
    return answer(view)


async def legal_commands(request: Request) -> Response:
    at = await seated(request)
    games_of(request).charge(at.game_id, at.seat)
    first, commands, complete, undo = games_of(request).reads.legal(at)
    return answer(LegalCommands(at.table.version, first, commands, complete, undo))


async def build_move(request: Request) -> Response:
    at = await seated(request)
    games_of(request).charge(at.game_id, at.seat)  # before the body is read: an unreadable one costs the same
    body = await read_json(request, BuildMove)
    picks = tuple(body.picks)
    return answer(MoveStep(at.table.version, list(picks), games_of(request).reads.moves(at, picks)))


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
    version, events = await games_of(request).reads.events(at, after, limit)
    return answer(EventPage(version, events))


async def get_replay(request: Request) -> Response:
    at = await seated(request)
    version = int_param(request, "version", 1, 1, 2**53)
    return answer(await games_of(request).reads.replay(at, version, request.query_params.get("as")))


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
    lines = await games.reads.export(game_id, viewpoint, seat)  # type: ignore[arg-type]
    return Response(b"".join(line + b"\n" for line in lines), media_type="application/x-ndjson")


# -- the routes, as data -----------------------------------------------------------------

GAME = (404, 401, 403, 503)
PLAY_ENDPOINTS: list[Endpoint] = [
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
