"""The parts of libraries that are not their public API and that the fenced packages rely on, each named.

server/storage/resp/ and server/storage/connection.py reach into redis-py; server/runtime/uvicorn/
subclasses uvicorn's protocols and reads websockets' connection state. A release that renames or
drops one of these fails here, by name, before anything subtler breaks; pyproject.toml caps each
library below the version that may do so.
"""

from __future__ import annotations

import functools
import inspect
import re

import pytest
import redis.asyncio as aioredis
import uvicorn.protocols.http.httptools_impl as httptools_impl
import uvicorn.protocols.websockets.websockets_sansio_impl as sansio_impl
from redis._parsers import BaseParser
from redis.asyncio.cluster import ClusterNode, RedisCluster
from redis.exceptions import NoScriptError, ResponseError
from websockets.protocol import Protocol


@functools.cache
def assigned_attributes(cls: type) -> set[str]:
    """The instance attributes ``cls`` or one of its bases assigns (``self.name = ...``)."""
    found: set[str] = set()
    for klass in cls.__mro__:
        if klass is object:
            continue
        try:
            source = inspect.getsource(klass)
        except (OSError, TypeError):  # a C class
            continue
        found |= set(re.findall(r"self\.(\w+)\s*(?::[^=\n]+)?=(?!=)", source))
    return found


def has(cls: type, name: str) -> bool:
    """Whether instances of ``cls`` have ``name``: assigned in a constructor, or a property or method of the class."""
    return name in assigned_attributes(cls) or hasattr(cls, name)


def test_redis_py_parser_makes_its_own_exception_classes_from_an_error_reply() -> None:
    """The lean connection turns an error reply into redis-py's exception with ``BaseParser.parse_error``."""
    assert isinstance(BaseParser.parse_error("NOSCRIPT No matching script"), NoScriptError)  # type: ignore[no-untyped-call]
    assert isinstance(BaseParser.parse_error("WRONGTYPE Operation"), ResponseError)  # type: ignore[no-untyped-call]


@pytest.mark.parametrize(
    "name",
    ["host", "port", "path", "ssl_context", "username", "password", "db", "socket_connect_timeout", "socket_timeout"],
)
def test_redis_py_connections_say_where_they_connect(name: str) -> None:
    """``Endpoint.of`` reads these from a connection the pool's class makes (not connected)."""
    found = set().union(
        *(
            assigned_attributes(c)
            for c in (aioredis.Connection, aioredis.UnixDomainSocketConnection, aioredis.SSLConnection)
        )
    )
    assert name in found


def test_redis_py_pools_and_cluster_nodes_keep_their_connection_options() -> None:
    """``connect`` swaps the pool's ``connection_class`` for one packing with hiredis; ``Endpoint.of``
    reads ``connection_kwargs`` of a pool and of a cluster's default node."""
    assert has(aioredis.ConnectionPool, "connection_class") and has(aioredis.ConnectionPool, "connection_kwargs")
    assert all(has(ClusterNode, name) for name in ("host", "port", "connection_kwargs"))
    assert callable(RedisCluster.get_default_node)
    assert "pack_command" in vars(aioredis.connection.AbstractConnection)


@pytest.mark.parametrize("name", ["queue", "writable", "request", "conn", "close_sent", "transport", "scope"])
def test_uvicorn_sansio_websocket_protocol_attributes(name: str) -> None:
    """``LeanWebSocketProtocol`` replaces ``queue`` and ``writable``, drops ``request`` and writes
    through ``transport`` when ``conn`` and ``close_sent`` allow."""
    assert name in assigned_attributes(sansio_impl.WebSocketsSansIOProtocol)


@pytest.mark.parametrize("name", ["handle_connect", "connection_lost"])
def test_uvicorn_sansio_websocket_protocol_methods(name: str) -> None:
    assert callable(getattr(sansio_impl.WebSocketsSansIOProtocol, name))


@pytest.mark.parametrize("name", ["state", "extensions", "writes", "expect_continuation_frame"])
def test_websockets_protocol_state_the_writer_reads(name: str) -> None:
    """A text is written at once only on an open connection with no extension, nothing waiting to
    be written and no fragmented message under way."""
    assert name in assigned_attributes(Protocol)


@pytest.mark.parametrize("name", ["loop", "transport", "cycle", "pipeline", "parser"])
def test_uvicorn_httptools_protocol_attributes(name: str) -> None:
    """``GuardedProtocol`` arms its timers on ``loop``, answers on ``transport``, reads ``cycle`` and
    ``pipeline``, and lets go of ``parser`` after an upgrade."""
    assert name in assigned_attributes(httptools_impl.HttpToolsProtocol)


@pytest.mark.parametrize(
    "name",
    [
        "connection_made",
        "connection_lost",
        "data_received",
        "on_message_begin",
        "on_headers_complete",
        "on_message_complete",
        "on_response_complete",
        "handle_websocket_upgrade",
    ],
)
def test_uvicorn_httptools_protocol_hooks(name: str) -> None:
    assert callable(getattr(httptools_impl.HttpToolsProtocol, name))


def test_redis_py_sentinel_pools_say_where_the_primary_is() -> None:
    """``redis+sentinel://`` (server/storage/connection.py): the lean connection asks the client's pool
    where the primary is now (``get_master_address``), closing closes its Sentinels' clients
    (``sentinel_manager.sentinels``), and the pool that waits for a free connection mixes redis-py's
    Sentinel pool with its blocking pool."""
    from redis.asyncio.sentinel import Sentinel, SentinelConnectionPool

    assert inspect.iscoroutinefunction(SentinelConnectionPool.get_master_address)
    assert has(SentinelConnectionPool, "sentinel_manager") and has(Sentinel, "sentinels")
    assert {"get_connection", "release"} <= set(vars(aioredis.BlockingConnectionPool))
    assert not {"get_connection", "release"} & set(vars(SentinelConnectionPool))


def test_uvicorn_keeps_the_signals_it_caught_to_raise_again_after_shutdown() -> None:
    """server/serve.py's ``AnnouncingServer.capture_signals`` drops SIGTERM from this list (a clean stop
    exits 0, not 143)."""
    import uvicorn

    assert has(uvicorn.Server, "_captured_signals") and has(uvicorn.Server, "capture_signals")
    assert "_captured_signals" in inspect.getsource(uvicorn.Server.capture_signals)
