"""The Redis client: one Redis (TCP, TLS or a unix socket), the primary a Redis Sentinel names, or a
Redis Cluster; its pool and its command packing, and the check of the server at start-up."""

from __future__ import annotations

import dataclasses
import re
from typing import Any, Final
from urllib.parse import parse_qs, unquote

import hiredis
import redis.asyncio as aioredis
from redis.asyncio.cluster import RedisCluster
from redis.asyncio.retry import Retry
from redis.asyncio.sentinel import Sentinel, SentinelConnectionPool, SentinelManagedConnection
from redis.backoff import NoBackoff
from redis.exceptions import DataError

from server.storage.resp.client import Endpoint, Pipe, RedisPyPipe

CLUSTER_SCHEME: Final = "redis+cluster://"
SENTINEL_SCHEME: Final = "redis+sentinel://"
SENTINEL_PORT: Final = 26379
Client = aioredis.Redis | RedisCluster  # one Redis, or a Redis Cluster: every game's keys share one slot


class Redis(aioredis.Redis):
    """redis-py's client for one Redis, with the lean connection beside it that the calls of every
    move and every socket take (server/storage/resp/client.py: the appends' pipelines, the hot scripts); closed
    with it."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        pool = self.connection_pool
        if isinstance(pool, SentinelConnectionPool):
            # The primary moves on a failover: ask the Sentinels where it is at each new connection
            # (a lost one, or one the old primary, now a replica, answers READONLY on).
            endpoint = Endpoint.of(self)

            async def primary() -> Endpoint:
                host, port = await pool.get_master_address()  # type: ignore[no-untyped-call]
                return dataclasses.replace(endpoint, host=str(host), port=int(port))

            self.lean = Pipe(endpoint, locate=primary)
        else:
            self.lean = Pipe(Endpoint.of(self))

    async def aclose(self, close_connection_pool: bool | None = None) -> None:
        await self.lean.aclose()
        await super().aclose(close_connection_pool)
        pool = self.connection_pool
        if isinstance(pool, SentinelConnectionPool):
            for sentinel in pool.sentinel_manager.sentinels:
                await sentinel.aclose()


async def endpoint(client: Client) -> Endpoint:
    """Where a connection of its own to ``client``'s Redis goes now (a subscription's): the primary
    the Sentinels name at this moment, else where the client connects."""
    pipe = getattr(client, "lean", None)
    return await pipe.where() if isinstance(pipe, Pipe) else Endpoint.of(client)


def is_cluster(client: Client) -> bool:
    """Whether ``client`` speaks to a Redis Cluster (many primaries) rather than one Redis."""
    return isinstance(client, RedisCluster)


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


async def answers(url: str, timeout: float = 3) -> None:
    """Whether the Redis of ``url`` answers a PING: raises a ``RedisError`` when it does not (a
    ``ValueError`` when the URL is not one)."""
    client = connect(url, socket_timeout=timeout, connect_timeout=timeout)
    try:
        await initialize(client)
        await client.ping()
    finally:
        await client.aclose()


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


class _SentinelPackedByHiredis(_PackedByHiredis, SentinelManagedConnection):
    pass


class _BlockingSentinelPool(SentinelConnectionPool, aioredis.BlockingConnectionPool):
    """redis-py's pool for the primary a Sentinel names, which *waits* for a free connection, as the
    pool of one Redis does."""


_PACKED: Final[dict[type[Any], type[Any]]] = {
    aioredis.Connection: _TCPPackedByHiredis,
    aioredis.UnixDomainSocketConnection: _UnixPackedByHiredis,
    aioredis.SSLConnection: _SSLPackedByHiredis,
}


@dataclasses.dataclass(frozen=True)
class SentinelURL:
    """``redis+sentinel://[[user]:password@]host[:port][,host[:port]...]/service[?db=N&sentinel_password=P]``:
    the Sentinels (port 26379 unless said), the name of the primary they watch, and how to log in to
    it (the user name and password are the primary's and its replicas', as in a ``redis://`` URL;
    ``sentinel_password`` the Sentinels' own, when they ask for one)."""

    sentinels: tuple[tuple[str, int], ...]
    service: str
    db: int = 0
    username: str | None = None
    password: str | None = None
    sentinel_password: str | None = None

    @classmethod
    def parse(cls, url: str) -> SentinelURL:
        rest = url.removeprefix(SENTINEL_SCHEME)
        rest, _, query = rest.partition("?")
        netloc, _, path = rest.partition("/")
        userinfo, at, hosts = netloc.rpartition("@")
        username = password = None
        if at:
            user, colon, secret = userinfo.partition(":")
            username = unquote(user) or None
            password = unquote(secret) if colon else None
        sentinels = []
        for host in hosts.split(","):
            if host.startswith("["):  # [::1]:26379
                name, _, port = host[1:].partition("]")
                port = port.removeprefix(":")
            else:
                name, _, port = host.rpartition(":") if ":" in host else (host, "", "")
            if not name or (port and not port.isdigit()):
                raise ValueError(f"REDIS_URL names a Sentinel as {host!r}: give host:port")
            sentinels.append((name, int(port) if port else SENTINEL_PORT))
        service = unquote(path.strip("/"))
        if not service or "/" in service:
            raise ValueError("REDIS_URL names no service: redis+sentinel://host:port[,host:port...]/service")
        options = {name: values[-1] for name, values in parse_qs(query).items()}
        unknown = set(options) - {"db", "sentinel_password"}
        if unknown:
            raise ValueError(f"REDIS_URL has options it does not know: {', '.join(sorted(unknown))}")
        db = options.get("db", "0")
        if not db.isdigit():
            raise ValueError(f"REDIS_URL's db is a number, not {db!r}")
        return cls(tuple(sentinels), service, int(db), username, password, options.get("sentinel_password"))


def connect(
    url: str, *, socket_timeout: float = 1.5, connect_timeout: float = 1.0, max_connections: int = 64
) -> Client:
    """A client for ``redis://``, ``rediss://`` or ``unix://`` URLs, the primary a Redis Sentinel
    names for ``redis+sentinel://host:port[,host:port...]/service`` (:class:`SentinelURL`; it follows
    the primary through a failover), or a Redis Cluster for ``redis+cluster://host:port`` (any node;
    the client discovers the others).

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
    pooled: dict[str, Any] = {  # one Redis's or a Sentinel's primary's: the same pool
        "max_connections": max_connections,
        "timeout": socket_timeout,
        "socket_timeout": socket_timeout,
        "socket_connect_timeout": connect_timeout,
        "health_check_interval": 10,
        "retry": Retry(NoBackoff(), 0),
        "decode_responses": False,
    }
    if url.startswith(SENTINEL_SCHEME):
        where = SentinelURL.parse(url)
        sentinel = Sentinel(
            where.sentinels,
            sentinel_kwargs={
                "socket_timeout": socket_timeout,
                "socket_connect_timeout": connect_timeout,
                "password": where.sentinel_password,
                "retry": Retry(NoBackoff(), 0),
            },
        )
        client = sentinel.master_for(
            where.service,
            redis_class=Redis,
            connection_pool_class=_BlockingSentinelPool,
            connection_class=_SentinelPackedByHiredis,
            db=where.db,
            username=where.username,
            password=where.password,
            **pooled,
        )
        assert isinstance(client, Redis)
        return client
    pool = aioredis.BlockingConnectionPool.from_url(url, **pooled)
    pool.connection_class = _PACKED.get(pool.connection_class, pool.connection_class)
    return Redis.from_pool(pool)
