"""HTTP connections that cannot hold the server: slow and oversized requests are cut.

uvicorn holds a connection that sends nothing, or trickles its headers or its body,
for as long as the client likes, and buffers request headers of any size (httptools
sets no limit). This is its HTTP protocol with three bounds (docs/operations.md):

- the request line and headers must arrive within ``header_timeout`` seconds of the
  connection opening or of the request's first byte (408 after that);
- they may hold at most ``max_header`` bytes (431 past that);
- a request's body must arrive within ``body_timeout`` seconds of its headers.

Idle keep-alive connections between requests are uvicorn's own ``timeout_keep_alive``.
A WebSocket's upgrade request is bounded like any other; the socket itself has its own
limits (the hello timeout, the message size, the rate limit).
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol


class GuardedProtocol(HttpToolsProtocol):
    header_timeout: float = 10.0
    body_timeout: float = 60.0
    max_header: int = 16 * 1024

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Bytes received since the last headers or message ended: httptools buffers a header
        # until it ends and tells nothing before, so the cap counts what reaches the parser.
        self.unparsed = 0
        self.in_body = False
        self.deadline: asyncio.TimerHandle | None = None

    def arm(self, seconds: float, status: bytes) -> None:
        self.disarm()
        self.deadline = self.loop.call_later(seconds, self.refuse, status)

    def disarm(self) -> None:
        if self.deadline is not None:
            self.deadline.cancel()
            self.deadline = None

    def refuse(self, status: bytes) -> None:
        """Answer ``status`` (as ``b"408 Request Timeout"``) and close, if the connection is still open."""
        self.disarm()
        if self.transport.is_closing():
            return
        body = status.split(b" ", 1)[1]
        self.transport.write(
            b"HTTP/1.1 " + status + b"\r\ncontent-type: text/plain; charset=utf-8\r\n"
            b"content-length: " + str(len(body)).encode() + b"\r\nconnection: close\r\n\r\n" + body
        )
        self.transport.close()

    # -- the connection and the parser's callbacks ------------------------------------

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self.arm(self.header_timeout, b"408 Request Timeout")

    def connection_lost(self, exc: Exception | None) -> None:
        self.disarm()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        self.unparsed += len(data)
        super().data_received(data)
        # Still in a request line or headers past the cap (within one read of it): refuse.
        if not self.in_body and self.unparsed > self.max_header and not self.transport.is_closing():
            self.refuse(b"431 Request Header Fields Too Large")

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self.arm(self.header_timeout, b"408 Request Timeout")

    def on_headers_complete(self) -> None:
        self.disarm()
        self.unparsed = 0
        super().on_headers_complete()
        if self.cycle is not None and self.cycle.more_body and not self.transport.is_closing():
            self.in_body = True
            self.arm(self.body_timeout, b"408 Request Timeout")

    def on_message_complete(self) -> None:
        self.disarm()
        self.unparsed, self.in_body = 0, False
        super().on_message_complete()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if self.pipeline:
            return
        self.disarm()  # between requests, uvicorn's keep-alive timeout applies

    def handle_websocket_upgrade(self) -> None:
        self.disarm()  # the socket's own limits take over
        super().handle_websocket_upgrade()
        # The socket's protocol has the transport now; this one is never called again. Its parser
        # holds its methods: let go of it, as uvicorn does when a connection is lost, or the two
        # outlive the socket's handshake in a cycle that only a full collection frees.
        self.parser = None  # type: ignore[assignment]


def guarded(header_timeout: float, body_timeout: float, max_header: int) -> type[GuardedProtocol]:
    """The protocol class with these bounds, to pass to uvicorn as ``http=``."""
    return type(
        "Guarded",
        (GuardedProtocol,),
        {"header_timeout": header_timeout, "body_timeout": body_timeout, "max_header": max_header},
    )
