"""The WebSocket protocol: hello, catch-up in chunks, live updates, commands, moves.

The socket joins its game's feed before catch-up starts, so nothing written during
catch-up is missed; every message to the client goes through one bounded queue and
one sender (a task only while messages wait), and a client too slow to drain it is
closed with ``CLOSE_RESUME``. A ``moves`` request is answered with the next ``step``
of the move (as POST .../moves).
A command goes to ``Games.handle`` from the person at the socket's seat, like any other.

Abuse: a message over ``ws_max_message`` bytes closes the socket with 1009; after the
hello, the seat's token bucket (server/service/rates.py: ``ws_rate`` messages a second, bursts of
``ws_burst``, shared with the seat's REST commands and its other sockets on this replica;
a spectator's socket has its own) refuses messages beyond it, commands and ``moves``
requests alike, with ``too_many``, and a client that goes on flooding (``ws_flood_limit``
refusals in a row) is closed with ``CLOSE_FLOOD``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from functools import partial
from typing import Annotated, Any

import msgspec
from starlette.websockets import WebSocket, WebSocketDisconnect

from domain.engine import Pick, Step, Viewer
from server.runtime.metrics import Metrics
from server.runtime.uvicorn.websocket import SEND_TEXT
from server.service.codec import encode
from server.service.errors import BAD_JSON, STORE_DOWN, AppError, Invalid, StoreError, TooMany, malformed
from server.service.feeds import RESET, SLOW, Subscriber
from server.service.games import Games, Seated
from server.service.rates import SeatRates, Throttle
from server.service.senders import Person
from server.service.session import Hello as SessionHello
from server.service.session import Opening, Session, Sessions
from server.service.sockets import Sockets
from server.service.words import language
from server.web.auth import cookie_token
from server.web.errors import ErrorMessage, Reader, reader, socket_error
from server.web.requests import Picks, client_address, origin_allowed

__all__ = ["ErrorMessage"]

log = logging.getLogger("ludoteca.ws")

CLOSE_POLICY = 1008  # no hello in time, a malformed hello, a foreign origin
CLOSE_RESUME = 4008  # too slow: reconnect and resume with "after" = the last version you hold
CLOSE_RESET = 4009  # the stream went backwards: drop what you hold and reconnect with after=0
CLOSE_DENIED = 4003  # the hello's token was refused or the game does not exist (see the error sent first)
CLOSE_TOO_BIG = 1009  # a message over the size limit (LUDOTECA_WS_MAX_MESSAGE)
CLOSE_FLOOD = 4029  # kept sending far faster than the rate limit after being told too_many
CLOSE_TRY_LATER = 1013  # the client's address, or the game, holds as many sockets as it may here


class Hello(msgspec.Struct, tag="hello", tag_field="type", forbid_unknown_fields=True):
    token: str | None = None
    after: Annotated[int, msgspec.Meta(ge=0)] = 0  # a version: -1 would match no update and silence the socket
    presence: bool = False  # also send a "presence" message whenever someone arrives or leaves
    check: str | None = None  # the "check" of the update at ``after``: reset if the stream holds other events there
    lang: str | None = None  # the language of every "error" message's text (pt, gl, es, en); else Accept-Language


class SendCommand(msgspec.Struct, tag="command", tag_field="type", forbid_unknown_fields=True):
    command: msgspec.Raw
    command_id: str
    expected_version: int | None = None


class BuildMove(msgspec.Struct, tag="moves", tag_field="type", forbid_unknown_fields=True):
    """Ask for the next step of a move after ``picks`` (answered with a ``step`` message)."""

    picks: Picks
    request_id: str | None = None  # echoed in the answer, to match it to this request


class MoveStep(msgspec.Struct, tag="step", tag_field="type"):
    version: int
    picks: list[Pick]
    step: Step
    request_id: str | None = None


class Ack(msgspec.Struct, tag="ack", tag_field="type"):
    command_id: str
    version: int


CLIENT_MESSAGE = msgspec.json.Decoder(Hello | SendCommand | BuildMove)


class TooBig(Exception):
    """A client message over the size limit."""


def too_many() -> TooMany:
    return TooMany("too_many", "Too many messages; slow down.", {"case": "messages"})


async def send(websocket: WebSocket, message: bytes | str) -> None:
    await websocket.send_text(message if isinstance(message, str) else message.decode())
    metrics_of(websocket).messages_out.inc()


def metrics_of(websocket: WebSocket) -> Metrics:
    metrics: Metrics = websocket.app.state.metrics
    return metrics


async def game_socket(websocket: WebSocket) -> None:
    sockets: Sockets = websocket.app.state.sockets
    address, game_id = client_address(websocket), websocket.path_params["game_id"]
    try:
        sockets.take(address, game_id)
    except TooMany as exc:
        if origin_allowed(websocket, websocket.app.state.settings.allowed_origins):
            await websocket.accept()
            await send(websocket, socket_error(exc, to=reader(websocket)))
            await websocket.close(CLOSE_TRY_LATER, "too many sockets")
        else:
            await websocket.close(CLOSE_POLICY)
        return
    gauge = metrics_of(websocket).sockets
    gauge.inc()
    try:
        await serve_socket(websocket)
    finally:
        gauge.dec()
        sockets.give_back(address, game_id)


async def serve_socket(websocket: WebSocket) -> None:
    app = websocket.app
    games: Games = app.state.games
    settings = app.state.settings
    if not origin_allowed(websocket, settings.allowed_origins):
        await websocket.close(CLOSE_POLICY)
        return
    await websocket.accept()
    to = reader(websocket)  # the upgrade's Accept-Language, until the hello names a language
    signed_in = cookie_token(websocket)  # the web table's player, when its hello names no token
    forget_headers(websocket)
    game_id = websocket.path_params["game_id"]
    try:
        raw = await asyncio.wait_for(receive(websocket, settings.ws_max_message), settings.hello_timeout)
        hello = CLIENT_MESSAGE.decode(raw) if raw is not None else None
    except TimeoutError:
        await websocket.close(CLOSE_POLICY, "say hello first")
        return
    except TooBig:
        await websocket.close(CLOSE_TOO_BIG, "message too big")
        return
    except BAD_JSON as exc:
        await send(websocket, socket_error(malformed(exc), to=to))
        await websocket.close(CLOSE_POLICY, "malformed hello")
        return
    if not isinstance(hello, Hello):
        if hello is not None:
            await send(
                websocket,
                socket_error(Invalid("malformed", "Say hello first.", {"field": "type", "case": "hello_first"}), to=to),
            )
            await websocket.close(CLOSE_POLICY, "say hello first")
        return
    if hello.lang is not None:  # a language we do not have keeps the upgrade's
        to = Reader(language(hello.lang, to.lang), to.games)
    if hello.token is None and signed_in is not None:
        hello = msgspec.structs.replace(hello, token=signed_in)
    joined = await join(websocket, app.state.sessions, game_id, hello, to)
    if joined is None:
        return
    session, sender = joined
    close: tuple[int, str] | None = None
    try:
        await session.arrive()
        close = await receive_loop(websocket, games, game_id, session.sub, to)
    finally:
        await session.leave()
        await sender.stop()
    if close is not None:
        with contextlib.suppress(RuntimeError, WebSocketDisconnect, OSError):
            await websocket.close(*close)


def forget_headers(websocket: WebSocket) -> None:
    """Drop the handshake's headers, which nothing reads once the origin is checked: a socket
    lives for hours, and its headers (and Starlette's parsed copy) would be held all that time."""
    websocket.scope["headers"] = []
    websocket.__dict__.pop("_headers", None)


async def join(
    websocket: WebSocket, sessions: Sessions, game_id: str, hello: Hello, to: Reader
) -> tuple[Session, Sender] | None:
    """The socket's session at the game, its opening under way; ``None`` if refused (said and closed)."""
    try:
        session, opening = await sessions.join(
            game_id, SessionHello(hello.token, hello.after, hello.check, hello.presence)
        )
    except AppError as exc:
        await send(websocket, socket_error(exc, to=to))
        await websocket.close(CLOSE_DENIED, exc.code)
        return None
    except StoreError:
        await send(websocket, socket_error(STORE_DOWN, to=to))
        await websocket.close(1011, "store unavailable")
        return None
    sender = Sender(websocket, session.sub)
    sender.start(partial(send_opening, websocket, opening, to))
    return session, sender


async def receive(websocket: WebSocket, limit: int) -> bytes | None:
    """The next client message, ``None`` once the client has gone; :class:`TooBig` past ``limit`` bytes."""
    message = await websocket.receive()
    if message["type"] == "websocket.disconnect":
        return None
    metrics_of(websocket).messages_in.inc()
    text = message.get("text")
    raw: bytes = text.encode() if text is not None else message.get("bytes") or b""
    if len(raw) > limit:
        raise TooBig
    return raw


def command_id_of(raw: bytes) -> str | None:
    try:
        message = CLIENT_MESSAGE.decode(raw)
    except BAD_JSON:
        return None
    return message.command_id if isinstance(message, SendCommand) else None


class Ids(msgspec.Struct):
    """A client message read for its ids alone, whatever else it holds."""

    type: Any = None
    request_id: Any = None


IDS = msgspec.json.Decoder(Ids)


def request_id_of(raw: bytes) -> str | None:
    """The ``request_id`` of a ``moves`` request, even one refused before it was read (too
    many messages, a bad pick's shape), so that the client can match the error to it."""
    try:
        ids = IDS.decode(raw)
    except BAD_JSON:
        return None
    return ids.request_id if ids.type == "moves" and isinstance(ids.request_id, str) else None


class Bucket:
    """Where a socket's messages other than its seat's commands are counted: the seat's bucket
    (shared with its REST commands and other sockets), or a spectator socket's own."""

    def __init__(self, rates: SeatRates, game_id: str, seat: int | None) -> None:
        self.rates, self.game_id, self.seat = rates, game_id, seat
        self.own = Throttle(rates.rate, rates.burst, time.monotonic()) if seat is None else None

    def allow(self) -> bool:
        if self.seat is None:
            assert self.own is not None
            return self.own.allow(time.monotonic())
        return self.rates.allow(self.game_id, self.seat)


async def receive_loop(
    websocket: WebSocket, games: Games, game_id: str, sub: Subscriber, to: Reader
) -> tuple[int, str] | None:
    """Handle the client's messages until it leaves (``None``) or must be closed (code and reason)."""
    settings = websocket.app.state.settings
    bucket = Bucket(websocket.app.state.rates, game_id, sub.viewer)
    refused = 0  # messages refused as too many (or unreadable) since the last one read and answered
    while True:
        try:
            raw = await receive(websocket, settings.ws_max_message)
        except TooBig:
            return CLOSE_TOO_BIG, "message too big"
        if raw is None:
            return None
        command_id: str | None = None
        request_id: str | None = None
        try:
            try:
                message: Any = CLIENT_MESSAGE.decode(raw)
            except BAD_JSON as exc:
                message = malformed(exc)
            if isinstance(message, SendCommand) and sub.viewer is not None:
                # A seat's command takes from the seat's bucket in Games.handle, as a REST one does.
                command_id = message.command_id
                sent = await games.handle(
                    game_id, Person(sub.viewer), bytes(message.command), command_id, message.expected_version
                )
                sub.push(0, encode(Ack(command_id, sent.version)))
            elif not bucket.allow():
                raise too_many()
            elif isinstance(message, AppError):  # it could not be read
                request_id = request_id_of(raw)
                raise message
            elif isinstance(message, BuildMove):
                request_id = message.request_id
                sub.push(0, encode(await build_move(games, game_id, sub.viewer, message)))
            elif isinstance(message, SendCommand):  # a spectator's: refused as any would be
                command_id = message.command_id
                await games.handle(game_id, Person(None), bytes(message.command), command_id, message.expected_version)
            else:
                raise Invalid(
                    "malformed",
                    "Only commands and moves may follow the hello.",
                    {"field": "type", "case": "after_hello"},
                )
            refused = 0
        except TooMany as exc:
            refused += 1
            if refused > settings.ws_flood_limit:
                log.warning("closing a flooding socket on game %s", game_id)
                return CLOSE_FLOOD, "too many messages"
            sub.push(0, socket_error(exc, command_id or command_id_of(raw), request_id or request_id_of(raw), to))
        except AppError as exc:
            if not isinstance(exc, Invalid):  # read and answered: an unreadable one is no sign of slowing down
                refused = 0
            sub.push(0, socket_error(exc, command_id, request_id, to))
        except StoreError:
            sub.push(0, socket_error(STORE_DOWN, command_id, request_id, to))


async def build_move(games: Games, game_id: str, viewer: Viewer, message: BuildMove) -> MoveStep:
    """The next step of the socket's seat's move, on the table caught up with its stream."""
    game, table = await games.load(game_id)
    at = Seated(game_id, game, table, viewer)
    picks = tuple(message.picks)
    return MoveStep(at.table.version, list(picks), games.reads.moves(at, picks), message.request_id)


class Sender:
    """Sends one socket's messages in order: first its opening (the catch-up from the client's
    ``after``), then what its feed queues. Its task runs only while messages wait: an idle
    socket holds no task, coroutine or future (most sockets are idle).
    What waits is written at once, in one write, by the server's protocol when it offers that
    (server/runtime/uvicorn/websocket.py: a seat that moved gets its ``ack`` and its update together), else sent
    through ASGI one message at a time."""

    __slots__ = ("at_once", "closed", "counted", "sent", "sub", "task", "websocket")

    def __init__(self, websocket: WebSocket, sub: Subscriber) -> None:
        self.websocket = websocket
        self.sub = sub
        extension = websocket.scope.get("extensions", {}).get(SEND_TEXT)
        self.at_once: Callable[[list[bytes]], bool] | None = extension["send"] if extension else None
        self.counted = metrics_of(websocket).messages_out
        self.sent = 0  # the last version sent: what the opening covered is not sent again
        self.task: asyncio.Task[None] | None = None
        self.closed = False

    def start(self, opening: Callable[[], Awaitable[int | None]]) -> None:
        """Send ``opening`` (it answers the version it sent up to, ``None`` if it closed the
        socket), then the queue; later messages wake the sender again."""
        self.task = asyncio.create_task(self._run(opening))
        self.sub.queue.wake = self.wake

    def wake(self) -> None:
        if self.task is None and not self.closed:
            self.task = asyncio.create_task(self._run(None))

    async def stop(self) -> None:
        self.closed = True
        self.sub.queue.wake = None
        task = self.task
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    async def _run(self, opening: Callable[[], Awaitable[int | None]] | None) -> None:
        try:
            if opening is not None:
                sent = await opening()
                if sent is None:
                    self.closed = True
                    return
                self.sent = sent
            queue = self.sub.queue
            # No await between finding the queue empty and ending the task (``finally``): a
            # message queued later finds no task and starts one.
            while not self.closed and not queue.empty():
                waiting: list[bytes] = []
                marker = 0
                while not queue.empty():
                    version, message = queue.get_nowait()
                    if version in (SLOW, RESET):
                        marker = version
                        break
                    if version and version <= self.sent:
                        continue  # the opening already covered it
                    waiting.append(message.encode() if isinstance(message, str) else message)
                    self.sent = max(self.sent, version)
                if waiting and (self.at_once is None or not self.at_once(waiting)):
                    for data in waiting:
                        await self.websocket.send_text(data.decode())
                self.counted.inc(len(waiting))
                if marker:
                    self.closed = True
                    if marker == SLOW:
                        await self.websocket.close(CLOSE_RESUME, "too slow: resume")
                    else:
                        await self.websocket.close(CLOSE_RESET, "reset")
                    return
        except (WebSocketDisconnect, RuntimeError, OSError):  # the client has gone
            self.closed = True
        finally:
            self.task = None


async def send_opening(websocket: WebSocket, opening: Opening, to: Reader) -> int | None:
    """Send the socket's opening: the version it sent up to, or ``None`` once it closed the socket
    (a reset, or a store that failed: the client resumes, here or on another replica, rather than
    wait on a socket that would never send again)."""
    try:
        async for message in opening:
            await send(websocket, message)
    except StoreError:
        with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
            await send(websocket, socket_error(STORE_DOWN, to=to))
            await websocket.close(1011, "store unavailable")
        return None
    if opening.reset:
        await websocket.close(CLOSE_RESET, "reset")
        return None
    return opening.version
