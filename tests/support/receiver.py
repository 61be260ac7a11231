"""A webhook receiver and a mail server for the notification tests: real sockets on 127.0.0.1.

``Receiver`` is an HTTP/1.1 server on asyncio streams that records every delivery and answers as a
test asks (a status, late, or never); ``Mailbox`` is aiosmtpd's SMTP server in its own thread,
keeping every message that arrives.
"""

from __future__ import annotations

import asyncio
import contextlib
import email
import email.policy
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from email.message import EmailMessage
from typing import Any

from aiosmtpd.controller import Controller

from tests.support.processes import free_port


@dataclass(frozen=True)
class Delivery:
    """One request the receiver read whole."""

    path: str
    headers: dict[str, str]  # lower-case names
    body: bytes
    at: float  # time.monotonic() when it was read


@dataclass
class Receiver:
    """Records deliveries; ``status``: what it answers; ``delay``: seconds before answering;
    ``hang``: never answer (until closed); ``arrived``: set at each delivery read."""

    status: int = 200
    delay: float = 0.0
    hang: bool = False
    location: str | None = None  # a Location header to answer with (a redirect, with a 3xx status)
    endless: bool = False  # answer with a body that never ends
    received: list[Delivery] = field(default_factory=list)
    held: set[str] = field(default_factory=set)  # the ids of deliveries held unanswered now (``hang``)
    arrived: asyncio.Event = field(default_factory=asyncio.Event)
    server: asyncio.Server | None = None
    port: int = 0
    handlers: set[asyncio.Task[Any]] = field(default_factory=set)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    async def start(self) -> Receiver:
        self.server = await asyncio.start_server(self.handle, "127.0.0.1", 0)
        self.port = self.server.sockets[0].getsockname()[1]
        return self

    async def close(self) -> None:
        assert self.server is not None
        self.server.close()
        for task in list(self.handlers):
            task.cancel()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.server.wait_closed(), 2)

    async def __aenter__(self) -> Receiver:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self.handlers.add(task)
        try:
            head = await reader.readuntil(b"\r\n\r\n")
            lines = head.decode("latin-1").split("\r\n")
            _, path, _ = lines[0].split(" ", 2)
            headers = {}
            for line in lines[1:]:
                if ":" in line:
                    name, _, value = line.partition(":")
                    headers[name.strip().lower()] = value.strip()
            body = await reader.readexactly(int(headers.get("content-length", "0")))
            self.received.append(Delivery(path, headers, body, time.monotonic()))
            self.arrived.set()
            if self.hang:
                held = headers.get("ludoteca-delivery", "")
                self.held.add(held)
                try:
                    await asyncio.sleep(3600)
                finally:
                    self.held.discard(held)
            if self.delay:
                await asyncio.sleep(self.delay)
            extra = f"Location: {self.location}\r\n" if self.location else ""
            if self.endless:
                writer.write(f"HTTP/1.1 {self.status} X\r\n{extra}Connection: close\r\n\r\n".encode())
                while True:  # until the client stops reading and closes
                    writer.write(b"x" * 65536)
                    await writer.drain()
            answer = f"HTTP/1.1 {self.status} X\r\n{extra}Content-Length: 2\r\nConnection: close\r\n\r\n"
            writer.write(answer.encode() + b"ok")
            await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError, asyncio.CancelledError):
            pass
        finally:
            writer.close()
            self.handlers.discard(task)

    def ids(self) -> list[str]:
        return [d.headers.get("ludoteca-delivery", "") for d in self.received]

    async def wait_for(self, found: Callable[[list[Delivery]], bool], seconds: float = 10) -> list[Delivery]:
        """Wait until ``found`` holds of what was received (``TimeoutError`` after ``seconds``)."""
        async with asyncio.timeout(seconds):
            while not found(self.received):
                self.arrived.clear()
                await self.arrived.wait()
        return self.received


class Inbox:
    """aiosmtpd's handler: every message that arrives, parsed."""

    def __init__(self) -> None:
        self.messages: list[EmailMessage] = []
        self.envelopes: list[tuple[str, list[str]]] = []
        self.lock = threading.Lock()

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        assert isinstance(message, EmailMessage)
        with self.lock:
            self.messages.append(message)
            self.envelopes.append((envelope.mail_from, list(envelope.rcpt_tos)))
        return "250 OK"


@dataclass
class Mailbox:
    """A real SMTP server on 127.0.0.1 (aiosmtpd), and what arrived."""

    port: int
    inbox: Inbox

    def messages(self) -> list[EmailMessage]:
        with self.inbox.lock:
            return list(self.inbox.messages)

    async def wait_for(self, count: int, seconds: float = 10) -> list[EmailMessage]:
        async with asyncio.timeout(seconds):
            while len(self.messages()) < count:
                await asyncio.sleep(0.02)
        return self.messages()


@contextlib.contextmanager
def mailbox() -> Iterator[Mailbox]:
    inbox = Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=free_port())
    controller.start()
    try:
        yield Mailbox(controller.port, inbox)
    finally:
        controller.stop()
