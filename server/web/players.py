"""The players' REST endpoints, as data: making a player, signing in and out, renaming, erasing, my tables."""

from __future__ import annotations

import msgspec
from starlette.requests import Request
from starlette.responses import Response

from server.service.players import MY_TABLES_MOST, MyTables, Player, PlayerChanges, Players, SignedIn, SignInCode
from server.service.ratings import Leaderboard, PlayerPage
from server.web.auth import COOKIE, bearer
from server.web.requests import Endpoint, answer, client_address, int_param, read_json

COOKIE_SECONDS = 400 * 24 * 3600  # what browsers keep a cookie at most


class NewPlayer(msgspec.Struct, forbid_unknown_fields=True):
    name: str
    lang: str | None = None  # pt, gl, es, en


class CodeSignIn(msgspec.Struct, forbid_unknown_fields=True):
    code: str  # as shown on the signed-in device, "K7QM-2XD9" (case, spaces and dashes do not count)


class SignedOut(msgspec.Struct):
    signed_out: int  # tokens that stopped working


class Erased(msgspec.Struct):
    player_id: str
    erased: bool = True


def players_of(request: Request) -> Players:
    players: Players = request.app.state.players
    return players


def signed_in(request: Request, signed: SignedIn, status: int) -> Response:
    """The answer, and the web table's cookie: the browser keeps the player signed in with it."""
    response = answer(signed, status)
    secure = request.url.scheme == "https"
    response.set_cookie(
        COOKIE, signed.token, max_age=COOKIE_SECONDS, httponly=True, samesite="lax", secure=secure, path="/"
    )
    return response


def signed_out(request: Request, count: int) -> Response:
    response = answer(SignedOut(count))
    response.delete_cookie(COOKIE, path="/")
    return response


async def create_player(request: Request) -> Response:
    body = await read_json(request, NewPlayer)
    made = await players_of(request).create(body.name, body.lang, client_address(request))
    return signed_in(request, made, 201)


async def get_me(request: Request) -> Response:
    players = players_of(request)
    return answer(await players.player(await players.signed_in(bearer(request))))


async def change_me(request: Request) -> Response:
    token = bearer(request)
    await players_of(request).signed_in(token)  # 401 before a bad body
    return answer(await players_of(request).change(token, await read_json(request, PlayerChanges)))


async def erase_me(request: Request) -> Response:
    token = bearer(request)
    players = players_of(request)
    player_id = await players.signed_in(token)
    await players.erase(token)
    response = answer(Erased(player_id))
    response.delete_cookie(COOKIE, path="/")
    return response


async def sign_out(request: Request) -> Response:
    await players_of(request).sign_out(bearer(request))
    return signed_out(request, 1)


async def sign_out_everywhere(request: Request) -> Response:
    return signed_out(request, await players_of(request).sign_out_everywhere(bearer(request)))


async def new_code(request: Request) -> Response:
    return answer(await players_of(request).new_code(bearer(request)), 201)


async def sign_in_with_code(request: Request) -> Response:
    body = await read_json(request, CodeSignIn)
    return signed_in(request, await players_of(request).sign_in_with_code(body.code, client_address(request)), 200)


async def player_page(request: Request) -> Response:
    return answer(await request.app.state.ratings.page(request.path_params["player_id"]))


async def leaderboard(request: Request) -> Response:
    limit = int_param(request, "limit", 50, 1, 200)
    cursor = int_param(request, "cursor", 0, 0, 100_000)
    return answer(await request.app.state.ratings.leaderboard(request.path_params["game"], limit, cursor))


async def my_tables(request: Request) -> Response:
    limit = int_param(request, "limit", 50, 1, 200)
    cursor = int_param(request, "cursor", 0, 0, MY_TABLES_MOST)
    return answer(await players_of(request).tables(bearer(request), limit, cursor))


ME = (401, 503)
CHANGES = (401, 403, 503)  # a change signed in by the web table's cookie alone, from another origin: 403 cross_site
PLAYER_ENDPOINTS: list[Endpoint] = [
    Endpoint(
        "POST", "/players", create_player, "Make a player (a name, no password): its token signs it in",
        SignedIn, 201, NewPlayer, (), (400, 413, 415, 429, 503),
    ),
    Endpoint(
        "POST", "/players/sign-in", sign_in_with_code, "Sign in with a one-time code shown on a signed-in device",
        SignedIn, 200, CodeSignIn, (), (400, 401, 413, 415, 429, 503),
    ),
    Endpoint("GET", "/players/me", get_me, "The signed-in player", Player, 200, None, (), ME),
    Endpoint(
        "PATCH", "/players/me", change_me, "Rename the player, or choose its language", Player, 200,
        PlayerChanges, (), (400, *CHANGES, 413, 415),
    ),
    Endpoint(
        "DELETE", "/players/me", erase_me,
        "Erase the player: its name, tokens and seats list (its games keep only its id)",
        Erased, 200, None, (), CHANGES,
    ),
    Endpoint(
        "GET", "/players/me/tables", my_tables,
        "The player's tables: those awaiting it first, then in play, open, finished",
        MyTables, 200, None, ("limit", "cursor"), (400, *ME),
    ),
    Endpoint(
        "POST", "/players/me/codes", new_code, "A one-time code to sign in on another device (ten minutes)",
        SignInCode, 201, None, (), CHANGES,
    ),
    Endpoint(
        "POST", "/players/me/sign-out", sign_out, "This token stops working", SignedOut, 200, None, (), CHANGES,
    ),
    Endpoint(
        "GET", "/players/{player_id}", player_page,
        "A player's public page: its ratings, their history, games played and won (if it made the page public)",
        PlayerPage, 200, None, (), (404, 503),
    ),
    Endpoint(
        "GET", "/leaderboards/{game}", leaderboard,
        "A game's best players by rating (past their provisional games), a page at a time",
        Leaderboard, 200, None, ("limit", "cursor"), (400, 404, 503),
    ),
    Endpoint(
        "POST", "/players/me/sign-out-everywhere", sign_out_everywhere, "Every token of the player stops working",
        SignedOut, 200, None, (), CHANGES,
    ),
]  # fmt: skip
