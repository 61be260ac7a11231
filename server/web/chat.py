"""The chat routes a seat's commands do not cover: a watching player's message, an operator's hiding."""

from __future__ import annotations

import msgspec
from starlette.requests import Request
from starlette.responses import Response

from server.service.chat import TableChat
from server.service.games import CommandAnswer
from server.web.auth import bearer, require_admin
from server.web.players import players_of
from server.web.requests import Endpoint, answer, read_json


class SpectatorSay(msgspec.Struct, forbid_unknown_fields=True):
    text: str  # at most 500 characters, once made plain


class HideBody(msgspec.Struct, forbid_unknown_fields=True):
    version: int  # the version the message was said at


def chat_of(request: Request) -> TableChat:
    chat: TableChat = request.app.state.chat
    return chat


async def spectator_say(request: Request) -> Response:
    player = await players_of(request).signed_in(bearer(request))  # before the body, as every signed-in route
    body = await read_json(request, SpectatorSay)
    return answer(await chat_of(request).spectator_says(request.path_params["game_id"], player, body.text))


async def hide_message(request: Request) -> Response:
    require_admin(request, request.app.state.settings.admin_token)
    body = await read_json(request, HideBody)
    return answer(await chat_of(request).hide(request.path_params["game_id"], body.version))


CHAT_ENDPOINTS: list[Endpoint] = [
    Endpoint(
        "POST",
        "/games/{game_id}/spectators/chat",
        spectator_say,
        "Say something on the spectators' channel, as a player watching the table",
        CommandAnswer,
        200,
        SpectatorSay,
        (),
        (400, 401, 404, 409, 413, 415, 422, 429, 503),
    ),
    Endpoint(
        "POST",
        "/games/{game_id}/chat/hidden",
        hide_message,
        "Hide a message for everyone (admin): the fact stays, its words go from every view and export",
        CommandAnswer,
        200,
        HideBody,
        (),
        (400, 401, 403, 404, 409, 413, 415, 422, 503),
        admin=True,
    ),
]
