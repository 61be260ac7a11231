"""uvicorn's sans-I/O WebSocket protocol, holding less while a socket is idle.

Most of Ludoteca's sockets wait for hours between messages, so what each one holds while it
waits is what sizes a replica (docs/operations.md). uvicorn's protocol holds four things an
idle socket does not need:

- its inbox of ASGI events is an ``asyncio.Queue``: three deques and an ``Event`` with a
  fourth, about 3 KiB, for a queue that is empty nearly always. :class:`Inbox` makes its
  deque when an event comes and drops it once drained (a :class:`~server.runtime.mailbox.Mailbox`);
- its ``writable`` flag is an ``asyncio.Event``, with a deque of its own (0.8 KiB) though
  a send waits on it only while the client reads too slowly: a :class:`Flag` makes none;
- it keeps the handshake's request for the socket's life (its headers, about 1.5 KiB): the
  scope has copied what the application reads of it;
- its 37 attributes take a dict of their own (1.6 KiB): here they are slots.

Nothing else changes: the same frames, limits, pings and closes (tests/server/runtime/test_websocket_protocol.py
checks what each socket holds, so that a uvicorn release that renames these attributes is noticed).
"""

from __future__ import annotations

import asyncio
import struct
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.protocol import State

from server.runtime.mailbox import Mailbox

# The ASGI extension (in the scope's ``extensions``) with which the application may write text
# messages at once: ``{"send": write}``, ``write(messages: list[bytes]) -> bool`` (LeanWebSocketProtocol).
SEND_TEXT = "ludoteca.send_text"


class Waiting:
    """Tasks waiting to be woken, held in a list made only when one waits."""

    __slots__ = ("waiters",)

    def __init__(self) -> None:
        self.waiters: list[asyncio.Future[None]] | None = None

    async def sleep(self) -> None:
        """Wait until the next :meth:`wake` (the caller looks again at what it waits for)."""
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        if self.waiters is None:
            self.waiters = []
        self.waiters.append(waiter)
        try:
            await waiter
        finally:
            if self.waiters is not None and waiter in self.waiters:
                self.waiters.remove(waiter)
                if not self.waiters:
                    self.waiters = None

    def wake(self) -> None:
        waiters, self.waiters = self.waiters, None
        for waiter in waiters or ():
            if not waiter.done():
                waiter.set_result(None)


class Inbox(Mailbox[Any]):
    """What uvicorn's protocol uses of ``asyncio.Queue`` (``put_nowait``, ``get``, ``empty``):
    the lazy :class:`Mailbox`, with a :class:`Waiting` its ``get`` sleeps on."""

    __slots__ = ("waiting",)

    def __init__(self) -> None:
        super().__init__()
        self.waiting = Waiting()
        self.wake = self.waiting.wake

    async def get(self) -> Any:
        # Every waiter is woken by a put and looks again: one that was cancelled meanwhile
        # leaves the item to the others, as asyncio.Queue's getters do.
        while not self.items:
            await self.waiting.sleep()
        return self.get_nowait()


class Flag(Waiting):
    """What uvicorn's protocol uses of ``asyncio.Event`` (``set``, ``clear``, ``is_set``, ``wait``)
    for its ``writable`` flag, with no deque while nobody waits."""

    __slots__ = ("value",)

    def __init__(self) -> None:
        super().__init__()
        self.value = False

    def is_set(self) -> bool:
        return self.value

    def set(self) -> None:
        self.value = True
        self.wake()

    def clear(self) -> None:
        self.value = False

    async def wait(self) -> bool:
        while not self.value:
            await self.sleep()
        return True


class LeanWebSocketProtocol(WebSocketsSansIOProtocol):
    """``ws="websockets-sansio"`` with an :class:`Inbox`, a :class:`Flag`, without the kept handshake
    request and response, and offering the application the :data:`SEND_TEXT` extension."""

    # Every attribute uvicorn's protocol sets, as slots: 37 of them in the instance's dict would
    # take a table of its own (1.6 KiB), past the 30 keys CPython lets instances share with their
    # class; as slots they take 8 bytes each and the dict is never made. One uvicorn adds lands in
    # the dict, as before (the protocol's test says so).
    __slots__ = (
        "app",
        "app_state",
        "asgi_version",
        "client",
        "close_sent",
        "close_timeout",
        "close_timer",
        "config",
        "conn",
        "connections",
        "curr_msg_data_type",
        "default_headers",
        "disconnected",
        "frames",
        "handshake_complete",
        "handshake_initiated",
        "initial_response",
        "last_ping_rtt",
        "logger",
        "loop",
        "pending_ping_payload",
        "ping_interval",
        "ping_sent_at",
        "ping_timeout",
        "ping_timer",
        "pong_timer",
        "queue",
        "read_paused",
        "request",
        "response",
        "root_path",
        "scheme",
        "scope",
        "server",
        "tasks",
        "transport",
        "writable",
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.queue = Inbox()  # type: ignore[assignment]
        self.writable = Flag()  # type: ignore[assignment]
        self.writable.set()

    def handle_connect(self, event: Any) -> None:
        super().handle_connect(event)
        self.request = None  # type: ignore[assignment]  # the scope holds its path and headers; uvicorn reads it no more
        # websockets' parser keeps the request in its frame for the connection's life: its headers,
        # copied into the scope and answered by the handshake's response, are emptied in place.
        event.headers.clear()
        if not self.close_sent:  # the handshake goes on: the application gets the scope
            self.scope["extensions"][SEND_TEXT] = {"send": self.send_text_at_once}

    async def send(self, message: Any) -> None:
        await super().send(message)
        if self.handshake_complete:  # the handshake's response is written: nothing reads it again
            self.response = None  # type: ignore[assignment]

    def send_text_at_once(self, messages: list[bytes]) -> bool:
        """Write the text ``messages`` (UTF-8), a frame each, now and in one write: what ``send``
        does for each ``websocket.send`` event after its checks, but with no event built, no
        awaiting, no text decoded to be encoded again and one system call: a server's frame is a
        two-to-ten-byte header and the payload unmasked. ``False``, with nothing written, when the
        socket cannot take them at once (not open, closing, its buffer full, an extension that
        rewrites frames): send them through ASGI then, which waits or raises as it should."""
        conn = self.conn
        if (
            conn.state is not State.OPEN
            or self.close_sent
            or not self.writable.is_set()
            or conn.extensions
            or conn.writes
            or conn.expect_continuation_frame
        ):
            return False
        frames: list[bytes] = []
        for data in messages:
            size = len(data)
            if size < 126:
                frames.append(bytes((0x81, size)))  # FIN and the text opcode; the length
            elif size < 65536:
                frames.append(struct.pack("!BBH", 0x81, 126, size))
            else:
                frames.append(struct.pack("!BBQ", 0x81, 127, size))
            frames.append(data)
        self.transport.write(b"".join(frames))
        return True

    def connection_lost(self, exc: Exception | None) -> None:
        scope = getattr(self, "scope", None)
        if scope is not None:  # the scope and the protocol hold each other through it: let refcounting free both
            scope["extensions"].pop(SEND_TEXT, None)
        super().connection_lost(exc)
