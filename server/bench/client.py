"""The load generator's tools: a small keep-alive HTTP/1.1 client, WebSocket watchers, percentiles.

The HTTP client is a few lines over asyncio streams so that the load generator costs
little next to the server it measures; the same client drives every server.
"""

from __future__ import annotations

import asyncio
import bisect
import contextlib
import gc
import time
from collections.abc import Awaitable, Callable, Iterator, Sequence
from typing import Any, TypeVar

import msgspec
from websockets.asyncio.client import ClientConnection, connect

T = TypeVar("T")


async def scrape(port: int, token: str) -> list[tuple[str, float]]:
    """A server's ``/metrics``: each sample's name with its labels, and its value."""
    http = Http(port)
    try:
        status, body = await http.request("GET", "/metrics", token=token)
    finally:
        await http.close()
    assert status == 200, status
    samples = []
    for line in body.decode().splitlines():
        if line and not line.startswith("#"):
            name, _, value = line.rpartition(" ")
            samples.append((name, float(value)))
    return samples


class Http:
    """One keep-alive connection; one request at a time."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(self, method: str, path: str, body: bytes = b"", token: str | None = None) -> tuple[int, bytes]:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        assert self.reader is not None
        auth = f"Authorization: Bearer {token}\r\n" if token else ""
        typed = "Content-Type: application/json\r\n" if body else ""  # the API reads bodies sent as JSON only
        head = (
            f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\n{auth}{typed}"
            f"Content-Length: {len(body)}\r\n\r\n"
        )
        self.writer.write(head.encode() + body)
        raw = await self.reader.readuntil(b"\r\n\r\n")
        status = int(raw[9:12])
        length = 0
        for line in raw.split(b"\r\n")[1:]:
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                length = int(value)
        return status, await self.reader.readexactly(length)

    async def json(self, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
        status, answer = await self.request(method, path, b"" if body is None else msgspec.json.encode(body), token)
        if status >= 300:
            raise RuntimeError(f"{method} {path} answered {status}: {answer[:300]!r}")
        return msgspec.json.decode(answer)

    async def close(self) -> None:
        writer, self.writer = self.writer, None
        if writer is not None:
            writer.close()
            with contextlib.suppress(OSError):
                await writer.wait_closed()


class Pushed(msgspec.Struct):
    type: str
    version: int = 0


PUSHED = msgspec.json.Decoder(Pushed)


class Watcher:
    """One WebSocket: says hello, then records when each pushed version arrives."""

    def __init__(self, url: str, hello: bytes, keep: bool = False) -> None:
        self.url = url
        self.hello = hello
        self.keep = keep  # keep the messages themselves (to replay them through the raw broadcast)
        self.versions: list[int] = []
        self.times: list[float] = []
        self.messages: list[str] = []
        self.ready = asyncio.Event()
        self.reached: Callable[[Watcher, int], None] | None = None
        self.ws: ClientConnection | None = None
        self.task: asyncio.Task[None] | None = None

    async def open(self) -> None:
        self.ws = await connect(self.url, open_timeout=30, ping_interval=None, max_size=None)
        await self.ws.send(self.hello.decode())
        self.task = asyncio.create_task(self._read())
        ready = asyncio.ensure_future(self.ready.wait())
        await asyncio.wait([ready, self.task], timeout=30, return_when=asyncio.FIRST_COMPLETED)
        ready.cancel()
        if not self.ready.is_set():
            code, reason = self.ws.close_code, self.ws.close_reason
            raise RuntimeError(f"{self.url}: no first update (closed: {code} {reason})")

    async def _read(self) -> None:
        assert self.ws is not None
        with contextlib.suppress(Exception):
            async for message in self.ws:
                now = time.perf_counter()
                pushed = PUSHED.decode(message)
                if pushed.type != "update":
                    continue
                self.versions.append(pushed.version)
                self.times.append(now)
                if self.keep:
                    self.messages.append(message if isinstance(message, str) else message.decode())
                self.ready.set()
                if self.reached is not None:
                    self.reached(self, pushed.version)

    def arrival(self, version: int) -> float | None:
        return arrival((self.versions, self.times), version)

    async def close(self) -> None:
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.ws.close(), 5)
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.task


Arrivals = tuple[list[int], list[float]]  # one socket's versions and when each arrived (perf_counter)


def arrival(arrivals: Arrivals, version: int) -> float | None:
    """When the first update at ``version`` or later arrived."""
    versions, times = arrivals
    i = bisect.bisect_left(versions, version)
    return times[i] if i < len(times) else None


async def bounded(jobs: Sequence[Callable[[], Awaitable[T]]], concurrency: int) -> list[T]:
    """Run ``jobs`` with at most ``concurrency`` at once; their results in order."""
    gate = asyncio.Semaphore(concurrency)

    async def one(job: Callable[[], Awaitable[T]]) -> T:
        async with gate:
            return await job()

    return list(await asyncio.gather(*(one(job) for job in jobs)))


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q`` percentile (0-100) by nearest rank; 0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered) + 0.5) - 1))]


@contextlib.contextmanager
def quiet_gc() -> Iterator[None]:
    """The load generator's own collector stays off while it times something."""
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


class Pacer:
    """Spreads requests evenly: the n-th may start at ``start + n / rate`` (no limit when rate is None)."""

    def __init__(self, rate: float | None) -> None:
        self.rate = rate
        self.start = time.perf_counter()
        self.sent = 0

    async def wait(self) -> None:
        if self.rate is None:
            return
        slot = self.start + self.sent / self.rate
        self.sent += 1
        delay = slot - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
