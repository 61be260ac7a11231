"""The API's refusals as exceptions: each carries the HTTP ``status``, the stable ``code`` (the rule's code
for a 422), the ``message`` (for people; it may change) and the ``details``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import msgspec

from clients.python.models import ErrorBody

__all__ = [
    "ApiError",
    "BadRequest",
    "Conflict",
    "Forbidden",
    "NotFound",
    "Reset",
    "RuleViolation",
    "ServerError",
    "TooLarge",
    "TooMany",
    "Unauthorized",
    "Unavailable",
    "Unreachable",
    "api_error",
    "error_from",
]


class ApiError(Exception):
    """The API refused something: ``status`` is the HTTP status, ``code`` the stable error code."""

    status_code = 0  # the status the subclass stands for

    def __init__(self, status: int, code: str, message: str = "", details: Mapping[str, Any] | None = None) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.details: dict[str, Any] = dict(details or {})

    def to_json(self) -> dict[str, Any]:
        return {"status": self.status, "error": self.code, "message": self.message, "details": self.details}


class BadRequest(ApiError):
    """400: malformed, unknown_game_type, no_such_version, unfinished_log."""

    status_code = 400


class Unauthorized(ApiError):
    """401: bad_token, missing_token, unknown_token."""

    status_code = 401


class Forbidden(ApiError):
    """403: not_seated, not_admin, spectator, game_not_finished."""

    status_code = 403


class NotFound(ApiError):
    """404: unknown_game, not_found."""

    status_code = 404


class Conflict(ApiError):
    """409: version_conflict, command_id_reused, seat_taken, game_started: the table moved on."""

    status_code = 409


class TooLarge(ApiError):
    status_code = 413


class RuleViolation(ApiError):
    """422: the game's rules refuse this; ``code`` is the rule's code (``not_your_turn``...). The table's chat
    refuses with ``empty_message``, ``message_too_long`` and ``chat_full`` (``details.most``), ``no_such_message``
    (``details.version``), ``own_message`` and ``not_a_spectator``."""

    status_code = 422


class TooMany(ApiError):
    """429: a quota; ``details.retry_after`` says in how many seconds to try again, when it is known
    (``too_many`` with ``details.case`` ``chat``: the seat's chat has a slower rate of its own)."""

    status_code = 429

    def pause(self) -> float | None:
        """Seconds to wait before sending the same request again, for a seat's rate (``too_many``: a
        short wait refills its bucket); ``None`` for an hourly quota, which only time lifts."""
        after = self.details.get("retry_after") if isinstance(self.details, dict) else None
        if self.code != "too_many" or not isinstance(after, int | float):
            return None
        return min(float(after), RATE_PAUSE_MOST)


RATE_RETRIES = 8  # times a request refused for the seat's rate is sent again before the refusal is raised
RATE_PAUSE_MOST = 2.0  # seconds


class ServerError(ApiError):
    status_code = 500


class Unavailable(ApiError):
    """503: the server's store is unreachable; retry later."""

    status_code = 503


class Unreachable(Unavailable):
    """The WebSocket could not be reopened after ``max_reconnects`` tries in a row."""


class Reset(ApiError):
    """The socket closed with 4009: the server's log is shorter than what was held; start again from 0."""


BY_STATUS: dict[int, type[ApiError]] = {
    kind.status_code: kind
    for kind in (BadRequest, Unauthorized, Forbidden, NotFound, Conflict, TooLarge, RuleViolation, TooMany, Unavailable)
}


def api_error(status: int, code: str, message: str = "", details: Mapping[str, Any] | None = None) -> ApiError:
    """The exception of ``status`` (:class:`RuleViolation` for a 422...)."""
    kind = BY_STATUS.get(status, ServerError if status >= 500 else ApiError)
    return kind(status, code, message, details)


def error_from(status: int, body: bytes, reason: str = "") -> ApiError:
    """The error envelope of an answer as the exception of its status (``http_error`` when it is not one)."""
    try:
        error = msgspec.json.decode(body, type=ErrorBody)
    except (msgspec.DecodeError, msgspec.ValidationError):
        text = body[:200].decode(errors="replace")
        return api_error(status, "http_error", text or reason)
    return api_error(status, error.error, error.message, error.details)
