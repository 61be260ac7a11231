"""What the application refuses, in its own words: one exception per kind of refusal.

Below the adapters nothing knows HTTP: the service and the workers raise and catch these
kinds (an unknown game, a version conflict, a rule's refusal...), and server/web/errors.py
alone turns them into an HTTP status or a WebSocket ``error`` message. Every error has
one shape, ``{"error", "message", "details"}``.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

import msgspec

from domain.engine import Rejected
from server.storage import StoreError as StoreError  # what the store raises when Redis fails: the adapters say 503


class ErrorBody(msgspec.Struct):
    error: str
    message: str
    details: dict[str, Any] = {}


class AppError(Exception):
    """A refusal: ``code`` for programs, ``message`` for people, ``details`` for both (the field at
    fault, the current version, when to try again). ``result``: the kind's word where commands are
    counted (the metrics' ``result`` label), the same for every code of the kind: never the rule's
    code, which only the refused seat is told."""

    result: ClassVar[str] = "error"

    def __init__(self, code: str, message: str, details: dict[str, Any] | None = None, game: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message  # in English: the answer's ``message`` is rendered in the reader's language
        self.details = details or {}
        self.game = game  # the game whose rules refused (its catalog words the message), if any

    @property
    def body(self) -> ErrorBody:
        return ErrorBody(self.code, self.message, self.details)


class Invalid(AppError):
    """A request that cannot be read, or that names nothing there is (a game type, a version)."""

    result = "malformed"


class Unauthorized(AppError):
    """No token where one is needed, or a token not known here."""

    result = "unauthorized"


class Forbidden(AppError):
    """The caller may not do this: a spectator, a seat that left, another game's token, not the operator."""

    result = "forbidden"


class NotFound(AppError):
    """There is no such thing."""

    result = "not_found"


class UnknownGame(NotFound):
    """There is no game with that id (there never was, or it was deleted)."""


class Conflict(AppError):
    """The game is not where the request expected it."""

    result = "conflict"


class VersionConflict(Conflict):
    """The game is at another version than expected, or kept changing while the command was decided."""


class CommandIdReused(Conflict):
    """The sender used that command id for another command."""


class Refused(AppError):
    """A rule refused the command (the rule's code), or the request asks what cannot be given now."""

    result = "refused"


class TableMoved(Refused, Conflict):
    """A rule's refusal that means "the table moved on" (a seat taken, a game started), not "against the rules"."""

    result = "conflict"


class TooLarge(AppError):
    """A request body past the limit."""

    result = "too_large"


class UnsupportedMedia(AppError):
    """A body sent as something else than JSON."""

    result = "malformed"  # a body that cannot be read as a command, as a bad one


class TooMany(AppError):
    """Past a quota or a rate limit; ``details.retry_after`` says in how many seconds, when it is known."""

    result = "too_many"


class Unavailable(AppError):
    """The game store cannot be reached."""

    result = "unavailable"


STORE_DOWN = Unavailable("store_unavailable", "The game store is unreachable; try again shortly.")

# Rule codes that mean "the table moved on", not "that move is against the rules".
CONFLICT_CODES = frozenset({"seat_taken", "seat_kept", "seats_kept", "game_started"})


# Rule codes that mean "that value is outside what its schema allows": a bad request, as 400 malformed is.
BAD_REQUEST_CODES = frozenset({"out_of_bounds"})


def refused(exc: Rejected, game: str | None = None) -> AppError:
    """A rule's refusal as the application raises it: refused, the table moved on, or a value out of bounds
    (``game``: whose rules refused, so that its words say why)."""
    kind = TableMoved if exc.code in CONFLICT_CODES else Invalid if exc.code in BAD_REQUEST_CODES else Refused
    return kind(exc.code, exc.message, exc.details, game)


# What a body that cannot be read raises: bad JSON, the wrong shape, or JSON nested deeper than
# the decoder recurses (2,000 nested arrays in a 4 KB body).
BAD_JSON = (msgspec.DecodeError, msgspec.ValidationError, RecursionError)


def malformed(exc: msgspec.DecodeError | msgspec.ValidationError | RecursionError, prefix: str = "") -> Invalid:
    """A body that does not decode, naming the field msgspec points at (``$.a.b`` -> ``a.b``).

    ``details.case`` says what is wrong in words any language can render (``json``, ``missing``,
    ``unknown``, ``type`` with ``expected``, ``invalid``, ``nested``); msgspec's own English sentence
    stays in ``details.reason`` for programmers."""
    if isinstance(exc, RecursionError):
        details: dict[str, Any] = {"case": "nested"}
        return Invalid(
            "malformed", "That JSON is nested too deeply.", {"field": prefix, **details} if prefix else details
        )
    text = str(exc)
    message, _, where = text.partition(" - at `$")
    path = [p for p in where.rstrip("`").split(".") if p]
    missing = re.search(r"(?:missing required|unknown) field `([^`]+)`", message)
    if missing:
        path.append(missing.group(1))
    field = ".".join([prefix, *path] if prefix else path)
    details = {"case": _case(exc, message), "reason": message}
    expected = re.match(r"Expected `([^`]+)`", message)
    if expected:
        details["expected"] = expected.group(1)
    if field:
        return Invalid("malformed", f"{message} (at {field}).", {"field": field, **details})
    return Invalid("malformed", f"{message}.", details)


def _case(exc: msgspec.DecodeError | msgspec.ValidationError, message: str) -> str:
    if not isinstance(exc, msgspec.ValidationError):
        return "json"
    if "missing required field" in message:
        return "missing"
    if "unknown field" in message:
        return "unknown"
    if re.match(r"Expected `[^`]+`, got", message):
        return "type"
    return "invalid"
