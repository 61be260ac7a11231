"""The Redis client: one Redis (TCP, TLS or a unix socket) or a Redis Cluster, its pool and its
command packing, and the check of the server at start-up."""

from __future__ import annotations

import re
from typing import Any, Final

import hiredis
import redis.asyncio as aioredis
from redis.asyncio.cluster import RedisCluster
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import DataError

from server.storage.resp.client import Endpoint, Pipe, RedisPyPipe

CLUSTER_SCHEME: Final = "redis+cluster://"
Client = aioredis.Redis | RedisCluster  # one Redis, or a Redis Cluster: every game's keys share one slot


class Redis(aioredis.Redis):
    """redis-py's client for one Redis, with the lean connection beside it that the calls of every
    move and every socket take (server/storage/resp/client.py: the appends' pipelines, the hot scripts); closed
    with it."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lean = Pipe(Endpoint.of(self))

    async def aclose(self, close_connection_pool: bool | None = None) -> None:
        await self.lean.aclose()
        await super().aclose(close_connection_pool)


def lean(client: Client) -> Pipe | RedisPyPipe:
    """The lean way to ``client``'s Redis: the pipe of a client made by :func:`connect`, else (a Redis
    Cluster, or a client made elsewhere) redis-py's own pipeline."""
    pipe = getattr(client, "lean", None)
    return pipe if isinstance(pipe, Pipe) else RedisPyPipe(client)


MIN_REDIS_VERSION: Final = (6, 2)


class RedisVersionError(RuntimeError):
    """The Redis server is too old for Ludoteca."""


async def check_server(redis: Client) -> list[str]:
    """Check the server at start-up: raise if it is older than 6.2, return warnings.

    Warns when ``maxmemory-policy`` is not ``noeviction`` (events could be
    evicted) and when the append-only file is off.
    """
    server = await redis.info("server")
    version_text = str(server.get("redis_version", "0"))
    version = tuple(int(p) for p in re.findall(r"\d+", version_text)[:3])
    if version < MIN_REDIS_VERSION:
        raise RedisVersionError(
            f"Ludoteca needs Redis {'.'.join(map(str, MIN_REDIS_VERSION))} or newer; the server runs {version_text}"
        )
    warnings: list[str] = []
    memory = await redis.info("memory")
    policy = str(memory.get("maxmemory_policy", "unknown"))
    if policy != "noeviction":
        warnings.append(
            f"Redis maxmemory-policy is {policy!r}, not 'noeviction': Redis may evict events under memory "
            "pressure. Set maxmemory-policy noeviction."
        )
    persistence = await redis.info("persistence")
    if not int(persistence.get("aof_enabled", 0)):
        warnings.append("Redis appendonly is off: a crash or restart can lose acknowledged events. Set appendonly yes.")
    return warnings


async def initialize(client: Client) -> None:
    """Learn a cluster's slots before first use (a plain Redis needs nothing)."""
    if isinstance(client, RedisCluster):
        await client.initialize()


class _PackedByHiredis:
    """Commands packed in C by hiredis, as redis-py's synchronous client packs them when hiredis is
    installed; its asyncio connections pack in Python, at several times the CPU (docs/performance.md,
    "Levers"). The same bytes on the wire (a command name with a space, like ``SCRIPT LOAD``,
    is two arguments)."""

    def pack_command(self, *args: Any) -> list[bytes]:
        if isinstance(args[0], str):
            args = (*args[0].encode().split(), *args[1:])
        elif b" " in args[0]:
            args = (*args[0].split(), *args[1:])
        values: Any = tuple(bytes(a) if isinstance(a, bytearray | memoryview) else a for a in args)
        try:
            return [hiredis.pack_command(values)]  # its stub types the tuple as of one value
        except TypeError as exc:
            raise DataError(str(exc)) from None


class _TCPPackedByHiredis(_PackedByHiredis, aioredis.Connection):
    pass


class _UnixPackedByHiredis(_PackedByHiredis, aioredis.UnixDomainSocketConnection):
    pass


class _SSLPackedByHiredis(_PackedByHiredis, aioredis.SSLConnection):
    pass


_PACKED: Final[dict[type[Any], type[Any]]] = {
    aioredis.Connection: _TCPPackedByHiredis,
    aioredis.UnixDomainSocketConnection: _UnixPackedByHiredis,
    aioredis.SSLConnection: _SSLPackedByHiredis,
}


def connect(
    url: str, *, socket_timeout: float = 1.5, connect_timeout: float = 1.0, max_connections: int = 64
) -> Client:
    """A client for ``redis://``, ``rediss://`` or ``unix://`` URLs, or a Redis Cluster for
    ``redis+cluster://host:port`` (any node; the client discovers the others).

    Replies are bytes. Connection errors are not retried by the client, so a
    Redis that is down surfaces at once (the server answers 503); idle pooled
    connections are checked with a PING after ``health_check_interval``. The pool is
    bounded and *waits* for a free connection (up to ``socket_timeout``) rather than
    failing: a burst of sockets saying hello at once must queue, not be refused. Commands are
    packed by hiredis (a plain Redis; a cluster's nodes keep redis-py's own packer).
    """
    if url.startswith(CLUSTER_SCHEME):
        return RedisCluster.from_url(
            "redis://" + url.removeprefix(CLUSTER_SCHEME),
            socket_timeout=socket_timeout,
            socket_connect_timeout=connect_timeout,
            decode_responses=False,
        )
    pool = aioredis.BlockingConnectionPool.from_url(
        url,
        max_connections=max_connections,
        timeout=socket_timeout,
        socket_timeout=socket_timeout,
        socket_connect_timeout=connect_timeout,
        health_check_interval=10,
        retry=Retry(NoBackoff(), 0),
        decode_responses=False,
    )
    pool.connection_class = _PACKED.get(pool.connection_class, pool.connection_class)
    return Redis.from_pool(pool)
