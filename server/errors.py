"""One error shape for every failure: ``{"error", "message", "details"}``."""

from __future__ import annotations

import re
from typing import Any

import msgspec

from domain.engine import Rejected


class ErrorBody(msgspec.Struct):
    error: str
    message: str
    details: dict[str, Any] = {}


class ApiError(Exception):
    def __init__(self, status: int, code: str, message: str, details: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.details = details or {}

    @property
    def body(self) -> ErrorBody:
        return ErrorBody(self.code, self.message, self.details)


# Rule codes that mean "the table moved on", not "that move is against the rules".
CONFLICT_CODES = frozenset({"seat_taken", "seat_kept", "seats_kept", "game_started"})


# Rule codes that mean "that value is outside what its schema allows": a bad request, as 400 malformed is.
BAD_REQUEST_CODES = frozenset({"out_of_bounds"})


def rejected(exc: Rejected) -> ApiError:
    """A rule's refusal as the API answers it: 422, 409 when the table moved on, 400 for a value out of bounds."""
    status = 409 if exc.code in CONFLICT_CODES else 400 if exc.code in BAD_REQUEST_CODES else 422
    return ApiError(status, exc.code, exc.message, exc.details)


# What a body that cannot be read raises: bad JSON, the wrong shape, or JSON nested deeper than
# the decoder recurses (2,000 nested arrays in a 4 KB body).
BAD_JSON = (msgspec.DecodeError, msgspec.ValidationError, RecursionError)


def malformed(exc: msgspec.DecodeError | msgspec.ValidationError | RecursionError, prefix: str = "") -> ApiError:
    """A body that does not decode, naming the field msgspec points at (``$.a.b`` -> ``a.b``)."""
    if isinstance(exc, RecursionError):
        return ApiError(400, "malformed", "That JSON is nested too deeply.", {"field": prefix} if prefix else {})
    text = str(exc)
    message, _, where = text.partition(" - at `$")
    path = [p for p in where.rstrip("`").split(".") if p]
    missing = re.search(r"(?:missing required|unknown) field `([^`]+)`", message)
    if missing:
        path.append(missing.group(1))
    field = ".".join([prefix, *path] if prefix else path)
    if field:
        return ApiError(400, "malformed", f"{message} (at {field}).", {"field": field})
    return ApiError(400, "malformed", f"{message}.")
