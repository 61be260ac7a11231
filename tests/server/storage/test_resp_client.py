"""What only the lean Redis connection does (server/storage/resp/client.py): its endpoint read from
redis-py's client, logging in, subscriptions, one shared attempt to connect. What every Redis path
does alike is tests/server/storage/test_resp_contract.py's."""

from __future__ import annotations

import asyncio
import dataclasses
import time
from collections.abc import AsyncIterator

import pytest
import redis.asyncio as aioredis
from redis.asyncio.cluster import RedisCluster
from redis.exceptions import AuthenticationError, ConnectionError, TimeoutError

from server.storage.connection import Client
from server.storage.resp.client import Endpoint, Pipe, Subscription, open_wire, pack


@pytest.fixture
async def endpoint(redis: Client) -> AsyncIterator[Endpoint]:
    if isinstance(redis, RedisCluster):
        pytest.skip("a pipe speaks to one Redis; on a cluster the store keeps redis-py's cluster pipeline")
    yield Endpoint.of(redis)


async def test_an_empty_batch_is_answered_at_once_without_a_connection(endpoint: Endpoint) -> None:
    pipe = Pipe(endpoint)
    assert await asyncio.wait_for(pipe([]), 1.0) == []  # nothing to wait for (it once waited for the timeout)
    assert pipe.wire is None


async def test_it_logs_in_with_a_user_and_selects_the_database(endpoint: Endpoint, redis: aioredis.Redis) -> None:
    await redis.execute_command("ACL", "SETUSER", "wire-user", "on", ">wire-secret", "~*", "+@all")  # type: ignore[no-untyped-call]
    try:
        pipe = Pipe(dataclasses.replace(endpoint, username="wire-user", password="wire-secret", db=3))
        try:
            assert await pipe([["ACL", "WHOAMI"], ["SET", "wire:db", "3"]]) == [b"wire-user", b"OK"]
        finally:
            await pipe.aclose()
        assert await redis.get("wire:db") is None  # written in database 3, not this client's
        with pytest.raises(AuthenticationError):
            await open_wire(dataclasses.replace(endpoint, username="wire-user", password="wrong"))
    finally:
        await redis.execute_command("ACL", "DELUSER", "wire-user")  # type: ignore[no-untyped-call]
        await redis.execute_command("SELECT", 0)  # type: ignore[no-untyped-call]


async def test_the_endpoint_is_read_from_a_redis_py_client() -> None:
    client = aioredis.Redis.from_url(
        "redis://someone:secret@db.example:6380/4", socket_timeout=2.5, socket_connect_timeout=0.5
    )
    try:
        assert Endpoint.of(client) == Endpoint(
            host="db.example", port=6380, username="someone", password="secret", db=4, connect_timeout=0.5, timeout=2.5
        )
    finally:
        await client.aclose()
    for url, where in [("rediss://db.example", None), ("unix:///run/redis.sock", "/run/redis.sock")]:
        other = aioredis.Redis.from_url(url)
        try:
            assert Endpoint.of(other).path == where
            assert (Endpoint.of(other).tls is not None) == url.startswith("rediss")  # redis-py's TLS context
        finally:
            await other.aclose()


async def test_a_subscription_hands_each_message_to_its_callback_as_it_is_read(
    endpoint: Endpoint, redis: aioredis.Redis
) -> None:
    seen: list[tuple[bytes, bytes]] = []
    subscription = await Subscription.open(endpoint, ["wire:one", "wire:two"], lambda c, d: seen.append((c, d)))
    try:
        watching = asyncio.create_task(subscription.watch(quiet=0.05))  # pings while quiet
        await asyncio.sleep(0.2)
        assert not watching.done()
        await redis.publish("wire:one", "a")
        await redis.publish("wire:two", "b")
        await redis.publish("wire:three", "not subscribed")
        async with asyncio.timeout(5):
            while len(seen) < 2:
                await asyncio.sleep(0.01)
        assert seen == [(b"wire:one", b"a"), (b"wire:two", b"b")]
        await redis.execute_command("CLIENT", "KILL", "TYPE", "pubsub")  # type: ignore[no-untyped-call]
        async with asyncio.timeout(5):
            await watching  # returns once the connection is lost
    finally:
        subscription.close()


async def test_nothing_is_sent_on_a_closed_wire(endpoint: Endpoint) -> None:
    wire = await open_wire(endpoint)
    wire.close()
    await asyncio.sleep(0.01)
    with pytest.raises(ConnectionError):
        wire.send(pack("PING"), 1)


async def test_callers_waiting_for_a_connection_that_cannot_log_in_fail_together_within_one_timeout() -> None:
    """A Redis that takes connections but answers nothing (a host gone quiet): every caller waiting
    meanwhile hears of the one failed attempt, rather than each trying in turn behind the others
    (twenty callers took twenty timeouts)."""
    taken: list[asyncio.StreamWriter] = []
    quiet = await asyncio.start_server(lambda reader, writer: taken.append(writer), "127.0.0.1", 0)
    port = quiet.sockets[0].getsockname()[1]
    pipe = Pipe(Endpoint(host="127.0.0.1", port=port, password="secret", timeout=0.2))
    try:
        started = time.monotonic()
        answers = await asyncio.gather(*(pipe([("PING",)]) for _ in range(20)), return_exceptions=True)
        assert all(isinstance(a, (ConnectionError, TimeoutError)) for a in answers), answers
        assert time.monotonic() - started < 1.0
    finally:
        quiet.close()
        for writer in taken:
            writer.close()
        await asyncio.sleep(0)
