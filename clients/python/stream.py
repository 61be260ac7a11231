"""The WebSocket subscription's logic, shared by the async and the sync clients.

One :class:`Resumer` follows one game: it writes each hello (``after`` = the last version it yielded, with that
update's ``check``, so that a server whose stream lost those versions resets it rather than resuming), reads
the server's messages, and on every close decides whether to reconnect and resume, stop, or raise
(docs/API.md, "Closing, and what to do"). :class:`Request` is one ``moves`` request on the socket, waiting for
the ``step`` (or the ``error``) that carries its ``request_id``.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from dataclasses import dataclass, field

import msgspec

from clients.python.errors import ApiError, Reset, Unavailable, Unreachable, api_error
from clients.python.models import (
    ErrorMessage,
    Hello,
    MovesMessage,
    Pick,
    ResetMessage,
    ServerMessage,
    StepMessage,
    Update,
)

CLOSE_NORMAL = 1000
CLOSE_POLICY = 1008  # no hello in time, a malformed hello
CLOSE_TOO_BIG = 1009
CLOSE_DENIED = 4003  # the hello was refused: never retry with the same token
CLOSE_SLOW = 4008  # fell behind: resume from the last version held
CLOSE_RESET = 4009  # the log is shorter than what we hold: start again from 0
CLOSE_RESTART = 1012  # the server is restarting: resume
# A close that says "come back": 1001 going away, 1006 cut (no close frame: None), 1011 store down,
# 1012 restart, 4008 too slow, 4029 flooded.
RESUME_CODES = frozenset({1001, 1006, 1011, CLOSE_RESTART, CLOSE_SLOW, 4029, None})
DENIED_STATUS = {"unknown_game": 404, "bad_token": 401, "unknown_token": 401, "not_seated": 403}
# The status of an error the socket sends (it carries none); a rule's refusal (not_offered...) is a 422.
ERROR_STATUS = {
    **DENIED_STATUS,
    "malformed": 400,
    "spectator": 403,
    "version_conflict": 409,
    "command_id_reused": 409,
    "too_many": 429,
    "store_unavailable": 503,
}

MESSAGE = msgspec.json.Decoder(ServerMessage)
ENCODER = msgspec.json.Encoder()


@dataclass
class Resumer:
    token: str | None
    version: int = 0  # the last version yielded
    check: str | None = None  # that update's check value
    max_reconnects: int = 8  # failed reconnects in a row before giving up
    first_delay: float = 0.1
    max_delay: float = 5.0
    failures: int = 0
    resumes: int = 0  # reconnections so far
    refusal: ErrorMessage | ResetMessage | None = None  # what the server said before it closed
    lang: str | None = None  # the language of the server's error messages

    def hello(self) -> str:
        self.refusal = None
        return ENCODER.encode(Hello(self.token, self.version, self.check or None, self.lang)).decode()

    def read(self, raw: str | bytes) -> ServerMessage | None:
        """The message, read (``None`` for one this client does not know, or an update of a version it already
        yielded); an error or a reset that answers no request is kept: it explains the close that follows."""
        try:
            message = MESSAGE.decode(raw)
        except (msgspec.DecodeError, msgspec.ValidationError):
            return None  # a message type this client does not know: ignore it, as the API asks
        if isinstance(message, Update):
            if message.version < self.version:
                return None  # never yield a version twice
            self.failures = 0
            self.version = message.version
            self.check = message.check
            return message
        if isinstance(message, ResetMessage) or (
            isinstance(message, ErrorMessage) and message.request_id is None and message.command_id is None
        ):
            self.refusal = message
        return message

    def closed(self, code: int | None, reason: str = "") -> float | None:
        """After a close: the delay before resuming, ``None`` to stop; raises when it must not resume."""
        refusal = self.refusal
        if code == CLOSE_RESET:
            current = refusal.version if isinstance(refusal, ResetMessage) else None
            raise Reset(409, "reset", "The game's log is shorter than what was held.", {"version": current})
        if code == CLOSE_DENIED:
            if isinstance(refusal, ErrorMessage):
                status = DENIED_STATUS.get(refusal.error, 403)
                raise api_error(status, refusal.error, refusal.message, refusal.details)
            raise ApiError(403, reason or "denied", "The server refused the hello.")
        if code == CLOSE_NORMAL:
            return None
        if code not in RESUME_CODES:
            error = refusal.error if isinstance(refusal, ErrorMessage) else (reason or "closed")
            message = refusal.message if isinstance(refusal, ErrorMessage) else f"The socket closed with {code}."
            raise ApiError(400, error, message, {"close": code})
        if self.failures >= self.max_reconnects:
            raise Unreachable(503, "unreachable", f"Gave up after {self.failures} reconnects.", {"close": code})
        delay = min(self.max_delay, self.first_delay * 2.0**self.failures)
        self.failures += 1
        self.resumes += 1
        return delay


ENDED = Unavailable(503, "closed", "The game's socket was closed: open a new stream.")


@dataclass
class Request:
    """One ``moves`` request on the socket: what to send (again, after a reconnect), and how to know its answer."""

    picks: list[Pick]
    request_id: str = field(default_factory=lambda: uuid.uuid4().hex)

    @classmethod
    def of(cls, picks: Iterable[Pick]) -> Request:
        return cls([Pick(p.field, p.value) for p in picks])

    def message(self) -> str:
        return ENCODER.encode(MovesMessage(self.picks, self.request_id)).decode()

    def answer(self, message: ServerMessage | None) -> StepMessage | None:
        """The step, if ``message`` answers this request; raises the refusal if it refuses it."""
        if isinstance(message, StepMessage) and message.request_id == self.request_id:
            return message
        if isinstance(message, ErrorMessage) and (
            message.request_id == self.request_id
            # a throttled message's error names no request: it is this one's, the only one waiting
            or (message.error == "too_many" and message.request_id is None and message.command_id is None)
        ):
            raise api_error(ERROR_STATUS.get(message.error, 422), message.error, message.message, message.details)
        return None
