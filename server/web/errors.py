"""The one place application errors become answers: an HTTP status and body, or a WebSocket ``error``.

The service and the workers raise the kinds of server/service/errors.py; only the adapters
(server/app.py's exception handler, server/web/websocket.py) turn them into answers, through here.
"""

from __future__ import annotations

from typing import Any

import msgspec
from starlette.responses import Response

from server.service.codec import encode
from server.service.errors import (
    AppError,
    Conflict,
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


def http_answer(exc: AppError) -> Response:
    """``exc`` as an HTTP answer (a ``details.retry_after`` is also the ``Retry-After`` header)."""
    response = Response(encode(exc.body), status_of(exc), media_type="application/json")
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


def socket_error(exc: AppError, command_id: str | None = None, request_id: str | None = None) -> bytes:
    """``exc`` as a WebSocket ``error`` message, naming the command or ``moves`` request it refuses."""
    return encode(ErrorMessage(exc.code, exc.message, exc.details, command_id, request_id))
