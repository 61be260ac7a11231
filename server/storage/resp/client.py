"""A lean connection to Redis for the calls every move and every socket make: the appends of a loop
turn, sent together (server/storage/groupcommit.py), the notifications of every replica's appends
(server/storage/store.py), and the scripts and reads of a socket's opening and closing (server/storage/store.py,
server/storage/presence.py).

redis-py's asyncio client pays, for each call: a connection from its pool and back (an
``asyncio.Condition`` and a timeout), ``asyncio.wait_for`` around the write (a task of its own), an
``asyncio.timeout`` for each reply and a retry wrapper; its pub/sub wakes a reader task, under a
timeout, and logs, for every message (what that costs a move: server/storage/resp/__init__.py).
Here a protocol parses what Redis sends with hiredis as it arrives and answers each batch of calls
at once: one write and one future a batch, one timer for the whole connection, no task; a
subscription's messages go to a callback as they are parsed.

Everything else keeps redis-py, whose client says where Redis is (:meth:`Endpoint.of`): one Redis
over TCP, TLS or a unix socket, the primary a Redis Sentinel names (asked again at each new
connection: :class:`Pipe`'s ``locate``), or one node of a Redis Cluster for a subscription (a
publish reaches every node). Error replies are redis-py's exceptions, made by its own parser's table, so callers
handle them as before.
"""

from __future__ import annotations

import asyncio
import collections
import hashlib
import ssl
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, cast

import hiredis
import redis.asyncio as aioredis
from redis import exceptions as errors
from redis._parsers import BaseParser
from redis.asyncio.cluster import RedisCluster

__all__ = ["Endpoint", "Pipe", "RedisPyPipe", "Script", "Subscription", "Wire", "call", "open_wire", "value"]


@dataclass(frozen=True)
class Endpoint:
    """Where one Redis node listens, and how to log in to it."""

    host: str = "localhost"
    port: int = 6379
    path: str | None = None  # a unix socket, in place of host and port
    tls: ssl.SSLContext | None = None
    username: str | None = None
    password: str | None = None
    db: int = 0
    connect_timeout: float = 1.0
    timeout: float = 1.5  # for each reply

    @classmethod
    def of(cls, client: aioredis.Redis | RedisCluster) -> Endpoint:
        """Where ``client`` connects: its pool's options, or a cluster's default node (once
        the cluster client is initialized)."""
        if isinstance(client, RedisCluster):
            node = client.get_default_node()
            options = node.connection_kwargs
            return cls(
                host=node.host,
                port=int(node.port),
                username=options.get("username"),
                password=options.get("password"),
                connect_timeout=options.get("socket_connect_timeout") or cls.connect_timeout,
                timeout=options.get("socket_timeout") or cls.timeout,
            )
        pool = client.connection_pool
        probe = pool.connection_class(**pool.connection_kwargs)  # reads the options; connects nowhere
        context = getattr(probe, "ssl_context", None)
        return cls(
            host=getattr(probe, "host", cls.host),
            port=int(getattr(probe, "port", cls.port)),
            path=getattr(probe, "path", None),
            tls=context.get() if context is not None else None,
            username=probe.username,
            password=probe.password,
            db=int(probe.db or 0),
            connect_timeout=probe.socket_connect_timeout or cls.connect_timeout,
            timeout=probe.socket_timeout or cls.timeout,
        )


def pack(*args: Any) -> bytes:
    """One command in Redis's protocol, packed in C."""
    command: Any = args  # hiredis's stub types the tuple as of one value
    packed: bytes = hiredis.pack_command(command)
    return packed


def value(reply: Any) -> Any:
    """A reply, or the error it is (an error reply comes as the exception, in its place) raised."""
    if isinstance(reply, Exception):
        raise reply
    return reply


class Batch:
    """Calls sent at once, answered together once the last reply came (an error reply is the
    exception itself, in its place)."""

    __slots__ = ("deadline", "future", "left", "replies")

    def __init__(self, future: asyncio.Future[list[Any]], count: int, deadline: float) -> None:
        self.future = future
        self.left = count
        self.replies: list[Any] = []
        self.deadline = deadline


class Wire(asyncio.Protocol):
    """One connection to Redis. Batches of packed commands go out in one write each and their
    replies are matched to them in order as hiredis parses them; in a subscription, each message
    goes to ``on_message(channel, data)`` instead. A reply later than the endpoint's timeout, or
    one that cannot be parsed, closes the connection and fails every batch still out on it."""

    def __init__(self, timeout: float, on_message: Callable[[bytes, bytes], None] | None = None) -> None:
        self.loop = asyncio.get_running_loop()
        self.timeout = timeout
        self.on_message = on_message
        self.reader = hiredis.Reader()
        self.out: collections.deque[Batch] = collections.deque()
        self.transport: asyncio.Transport | None = None
        self.lost: asyncio.Future[None] = self.loop.create_future()
        self.timer: asyncio.TimerHandle | None = None

    @property
    def open(self) -> bool:
        return self.transport is not None and not self.lost.done()

    def send(self, packed: bytes, count: int) -> asyncio.Future[list[Any]]:
        """Send ``count`` commands packed together; the future answers their replies in order."""
        if not self.open:
            raise errors.ConnectionError("The connection to Redis was lost.")
        assert self.transport is not None
        batch = Batch(self.loop.create_future(), count, self.loop.time() + self.timeout)
        self.out.append(batch)
        self.transport.write(packed)
        if self.timer is None:
            self.timer = self.loop.call_at(batch.deadline, self._check_late)
        return batch.future

    async def call(self, *args: Any) -> Any:
        """One command's reply; an error reply raises."""
        (reply,) = await self.send(pack(*args), 1)
        return value(reply)

    def close(self) -> None:
        if self.transport is not None:
            self.transport.close()

    # -- asyncio.Protocol ---------------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)  # uvloop's are not asyncio's classes

    def data_received(self, data: bytes) -> None:
        self.reader.feed(data)
        while True:
            try:
                reply = self.reader.gets()
            except hiredis.ProtocolError as exc:
                self._fail(errors.ConnectionError(f"Redis sent what is not its protocol: {exc}"))
                return
            if reply is False:
                return
            if isinstance(reply, hiredis.ReplyError):
                reply = BaseParser.parse_error(str(reply))  # type: ignore[no-untyped-call]
            elif self.on_message is not None and type(reply) is list and len(reply) == 3 and reply[0] == b"message":
                self.on_message(reply[1], reply[2])
                continue
            if not self.out:  # nothing asked for it: the stream is not what we think
                self._fail(errors.ConnectionError(f"Redis sent a reply nothing asked for: {reply!r}"))
                return
            batch = self.out[0]
            batch.replies.append(reply)
            batch.left -= 1
            if not batch.left:
                self.out.popleft()
                if not batch.future.done():  # its caller may have been cancelled meanwhile
                    batch.future.set_result(batch.replies)

    def connection_lost(self, exc: Exception | None) -> None:
        self._fail(errors.ConnectionError(f"Lost the connection to Redis{f': {exc}' if exc else ''}."))

    # -- failing ------------------------------------------------------------------------

    def _check_late(self) -> None:
        self.timer = None
        if not self.out:
            return
        if self.out[0].deadline <= self.loop.time():
            self._fail(errors.TimeoutError("Timeout reading from Redis."))
        else:
            self.timer = self.loop.call_at(self.out[0].deadline, self._check_late)

    def _fail(self, error: errors.RedisError) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        while self.out:
            batch = self.out.popleft()
            if not batch.future.done():
                batch.future.set_exception(error)
        if not self.lost.done():
            self.lost.set_result(None)
        self.close()


async def open_wire(endpoint: Endpoint, on_message: Callable[[bytes, bytes], None] | None = None) -> Wire:
    """A connection to ``endpoint``, logged in and on its database."""
    loop = asyncio.get_running_loop()
    try:
        async with asyncio.timeout(endpoint.connect_timeout):
            wire: Wire
            if endpoint.path is not None:
                _, wire = await loop.create_unix_connection(lambda: Wire(endpoint.timeout, on_message), endpoint.path)
            else:
                _, wire = await loop.create_connection(
                    lambda: Wire(endpoint.timeout, on_message), endpoint.host, endpoint.port, ssl=endpoint.tls
                )
    except (OSError, TimeoutError) as exc:
        raise errors.ConnectionError(f"Could not connect to Redis: {exc or 'timed out'}") from exc
    try:
        if endpoint.password is not None:
            login = (endpoint.username, endpoint.password) if endpoint.username else (endpoint.password,)
            await wire.call("AUTH", *login)
        if endpoint.db:
            await wire.call("SELECT", endpoint.db)
    except BaseException:
        wire.close()
        raise
    return wire


class Pipe:
    """Calls to one Redis on one lean connection, opened at the first call and again after it was
    lost. Batches are pipelined: one need not be answered before the next is sent."""

    def __init__(self, endpoint: Endpoint, *, locate: Callable[[], Awaitable[Endpoint]] | None = None) -> None:
        self.endpoint = endpoint
        self.locate = locate  # where Redis is now, asked at each new connection (a Sentinel's primary)
        self.wire: Wire | None = None
        self.opening: asyncio.Task[Wire] | None = None  # the attempt under way, shared by its callers

    async def __call__(self, commands: Sequence[Sequence[Any]]) -> list[Any]:
        """The replies of ``commands``, sent at once, in order (an error reply in its place)."""
        if not commands:  # no reply would ever come to wait for
            return []
        wire = self.wire
        if wire is None or not wire.open:
            wire = await self._open()
        replies = await wire.send(b"".join(pack(*command) for command in commands), len(commands))
        if self.locate is not None and any(isinstance(reply, errors.ReadOnlyError) for reply in replies):
            # A primary turned replica: the next call asks where the primary is now.
            wire.close()
            if self.wire is wire:
                self.wire = None
        return replies

    async def where(self) -> Endpoint:
        """Where a new connection goes now."""
        return await self.locate() if self.locate is not None else self.endpoint

    async def _open(self) -> Wire:
        # One attempt at a time, shared: the callers waiting when it fails all hear of it at once,
        # rather than each trying again behind the others (with a Redis gone quiet, the twentieth
        # caller waited twenty timeouts). Shielded: a caller that gives up leaves it to the rest.
        if self.opening is None:
            self.opening = asyncio.create_task(self._attempt())
            self.opening.add_done_callback(_retrieved)
        return await asyncio.shield(self.opening)

    async def _attempt(self) -> Wire:
        try:
            if self.wire is None or not self.wire.open:
                self.wire = await open_wire(await self.where())
            return self.wire
        finally:
            self.opening = None

    async def aclose(self) -> None:
        if self.wire is not None:
            self.wire.close()
            self.wire = None


class RedisPyPipe:
    """What :class:`Pipe` does, through redis-py's pipeline: on a Redis Cluster (one per node), or
    for a client made elsewhere than server.storage.connection.connect."""

    def __init__(self, client: aioredis.Redis | RedisCluster) -> None:
        self.client = client

    async def __call__(self, commands: Sequence[Sequence[Any]]) -> list[Any]:
        pipe = self.client.pipeline(transaction=False)
        for command in commands:
            pipe.execute_command(*command)
        replies: list[Any] = await pipe.execute(raise_on_error=False)
        return replies


def _retrieved(task: asyncio.Task[Wire]) -> None:
    """Mark a failed attempt's error as seen, even when every caller gave up waiting for it."""
    if not task.cancelled():
        task.exception()


async def call(pipe: Pipe | RedisPyPipe, *command: Any) -> Any:
    """One command's reply through ``pipe``; an error reply raises."""
    (reply,) = await pipe([command])
    return value(reply)


class Script:
    """A Lua script called through a pipe (``EVALSHA``, loaded again when Redis has forgotten it,
    by ``load``: the client's ``script_load``): what redis-py's registered scripts do."""

    def __init__(self, pipe: Pipe | RedisPyPipe, load: Callable[[str], Awaitable[Any]], script: str) -> None:
        self.pipe, self.load, self.script = pipe, load, script
        self.sha = hashlib.sha1(script.encode()).hexdigest()

    async def __call__(self, keys: Sequence[Any] = (), args: Sequence[Any] = ()) -> Any:
        command = ["EVALSHA", self.sha, len(keys), *keys, *args]
        (reply,) = await self.pipe([command])
        if isinstance(reply, errors.NoScriptError):  # Redis restarted (or SCRIPT FLUSH): nothing ran
            await self.load(self.script)
            (reply,) = await self.pipe([command])
        return value(reply)


class Subscription:
    """A connection subscribed to ``channels``: each message goes to ``on_message(channel, data)``
    as it is read (what that callback raises is its own business: it must not raise).
    :meth:`watch` returns once the connection is lost, pinging it while it is quiet."""

    def __init__(self, wire: Wire) -> None:
        self.wire = wire

    @classmethod
    async def open(
        cls, endpoint: Endpoint, channels: Sequence[str], on_message: Callable[[bytes, bytes], None]
    ) -> Subscription:
        wire = await open_wire(endpoint, on_message)
        try:
            for reply in await wire.send(pack("SUBSCRIBE", *channels), len(channels)):
                value(reply)
        except BaseException:
            wire.close()
            raise
        return cls(wire)

    async def watch(self, quiet: float = 10.0) -> None:
        """Until the connection is lost: a PING after every ``quiet`` seconds, so that a peer gone
        without a word (no reset reached us) is noticed within the reply timeout."""
        while self.wire.open:
            done, _ = await asyncio.wait([self.wire.lost], timeout=quiet)
            if done:
                return
            try:
                await self.wire.send(pack("PING"), 1)
            except errors.RedisError:
                return

    def close(self) -> None:
        self.wire.close()
