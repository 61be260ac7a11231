"""The one place application errors become answers: an HTTP status and body, or a WebSocket ``error``.

The service and the workers raise the kinds of server/service/errors.py; only the adapters
(server/app.py's exception handler, server/web/websocket.py) turn them into answers, through here,
each ``message`` in the language its reader negotiated (``Reader``; docs/i18n.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import msgspec
from starlette.requests import HTTPConnection
from starlette.responses import Response

from domain import words
from domain.engine import AnyGame
from server.service.codec import encode
from server.service.errors import (
    AppError,
    Conflict,
    ErrorBody,
    Forbidden,
    Invalid,
    NotFound,
    Refused,
    TableMoved,
    TooLarge,
    TooMany,
    Unauthorized,
    Unavailable,
    UnsupportedMedia,
)
from server.service.words import language, message

# By kind; a kind not listed answers as the nearest kind it derives from (UnknownGame as NotFound).
STATUS: dict[type[AppError], int] = {
    Invalid: 400,
    Unauthorized: 401,
    Forbidden: 403,
    NotFound: 404,
    Conflict: 409,
    TableMoved: 409,
    TooLarge: 413,
    UnsupportedMedia: 415,
    Refused: 422,
    TooMany: 429,
    Unavailable: 503,
}


def status_of(exc: AppError) -> int:
    """The HTTP status that answers ``exc``."""
    for kind in type(exc).__mro__:
        status = STATUS.get(kind)
        if status is not None:
            return status
    return 500


@dataclass(frozen=True)
class Reader:
    """Who reads an answer: the language it is written in, and the games whose words a rule's refusal takes."""

    lang: str = words.DEFAULT
    games: Mapping[str, AnyGame] = field(default_factory=dict)

    def message(self, exc: AppError) -> str:
        return message(exc, self.lang, self.games)

    def body(self, exc: AppError) -> ErrorBody:
        """``exc`` as the body of an error answer, its sentence in this reader's language."""
        return ErrorBody(exc.code, self.message(exc), exc.details)


def reader(conn: HTTPConnection, asked: str | None = None) -> Reader:
    """The reader of an answer to ``conn``: its ``Accept-Language`` (or ``asked``, a hello's ``lang``), and this
    server's games. A player's stored preference will come in here too, once players exist."""
    games = getattr(conn.app.state, "games", None)
    return Reader(language(asked, conn.headers.get("accept-language")), games.games if games is not None else {})


def http_answer(exc: AppError, to: Reader | None = None) -> Response:
    """``exc`` as an HTTP answer (a ``details.retry_after`` is also the ``Retry-After`` header)."""
    to = to or Reader()
    response = Response(encode(to.body(exc)), status_of(exc), media_type="application/json")
    response.headers["Content-Language"] = to.lang  # the language of its message
    if "retry_after" in exc.details:
        response.headers["Retry-After"] = str(exc.details["retry_after"])
    return response


class ErrorMessage(msgspec.Struct, tag="error", tag_field="type"):
    """A WebSocket refusal: the error's shape, and which request it answers."""

    error: str
    message: str
    details: dict[str, Any] = {}
    command_id: str | None = None
    request_id: str | None = None  # the refused ``moves`` request's id


def socket_error(
    exc: AppError, command_id: str | None = None, request_id: str | None = None, to: Reader | None = None
) -> bytes:
    """``exc`` as a WebSocket ``error`` message, naming the command or ``moves`` request it refuses."""
    to = to or Reader()
    return encode(ErrorMessage(exc.code, to.message(exc), exc.details, command_id, request_id))
