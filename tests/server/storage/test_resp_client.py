"""The lean Redis connection (server/storage/resp/client.py): pipelined batches answered in order, error replies in
their place, late replies and lost connections failing what is out, logging in, and subscriptions."""

from __future__ import annotations

import asyncio
import dataclasses
import time
from collections.abc import AsyncIterator

import pytest
import redis.asyncio as aioredis
from redis.asyncio.cluster import RedisCluster
from redis.exceptions import AuthenticationError, ConnectionError, NoScriptError, ResponseError, TimeoutError

from server.storage.connection import Client
from server.storage.resp.client import Endpoint, Pipe, Subscription, open_wire, pack


@pytest.fixture
async def endpoint(redis: Client) -> AsyncIterator[Endpoint]:
    if isinstance(redis, RedisCluster):
        pytest.skip("a pipe speaks to one Redis; on a cluster the store keeps redis-py's cluster pipeline")
    yield Endpoint.of(redis)


async def test_a_batch_is_answered_in_order_with_an_error_reply_in_its_place(endpoint: Endpoint) -> None:
    pipe = Pipe(endpoint)
    try:
        replies = await pipe(
            [
                ["SET", "wire:a", "1"],
                ["INCR", "wire:a"],
                ["EVALSHA", "0" * 40, 0],
                ["HSET", "wire:a", "f", "v"],
                ["GET", "wire:a"],
            ]
        )
        ok, two, unknown, wrong, value = replies
        assert (ok, two, value) == (b"OK", 2, b"2")
        assert isinstance(unknown, NoScriptError)  # redis-py's own class for it, as group commit expects
        assert isinstance(wrong, ResponseError) and "WRONGTYPE" in str(wrong)
    finally:
        await pipe.aclose()


async def test_an_empty_batch_is_answered_at_once_without_a_connection(endpoint: Endpoint) -> None:
    pipe = Pipe(endpoint)
    assert await asyncio.wait_for(pipe([]), 1.0) == []  # nothing to wait for (it once waited for the timeout)
    assert pipe.wire is None


async def test_batches_sent_at_once_from_many_callers_each_get_their_own_replies(endpoint: Endpoint) -> None:
    pipe = Pipe(endpoint)
    try:
        answers = await asyncio.gather(*(pipe([["ECHO", f"{n}-a"], ["ECHO", f"{n}-b"]]) for n in range(200)))
        assert answers == [[f"{n}-a".encode(), f"{n}-b".encode()] for n in range(200)]
        assert pipe.wire is not None  # all of them on one connection
    finally:
        await pipe.aclose()


async def test_a_reply_later_than_the_timeout_fails_what_is_out_and_the_next_call_opens_a_new_connection(
    endpoint: Endpoint,
) -> None:
    pipe = Pipe(dataclasses.replace(endpoint, timeout=0.2))
    try:
        first = pipe.wire
        with pytest.raises(TimeoutError):
            await pipe([["BLPOP", "wire:never", 2]])
        assert pipe.wire is not None and not pipe.wire.open
        assert await pipe([["PING"]]) == [b"PONG"]
        assert pipe.wire is not first and pipe.wire.open
    finally:
        await pipe.aclose()


async def test_a_killed_connection_fails_the_batch_out_on_it_and_the_pipe_opens_another(
    endpoint: Endpoint, redis: aioredis.Redis
) -> None:
    pipe = Pipe(endpoint)
    try:
        await pipe([["CLIENT", "SETNAME", "wire-test"]])
        waiting = asyncio.create_task(pipe([["BLPOP", "wire:never", 1]]))
        await asyncio.sleep(0.05)
        killed = await redis.execute_command("CLIENT", "KILL", "SKIPME", "yes", "TYPE", "normal")  # type: ignore[no-untyped-call]
        assert int(killed) >= 1
        with pytest.raises(ConnectionError):
            await waiting
        assert await pipe([["PING"]]) == [b"PONG"]
    finally:
        await pipe.aclose()


async def test_a_cancelled_caller_leaves_the_replies_in_step_for_the_next(endpoint: Endpoint) -> None:
    pipe = Pipe(endpoint)
    try:
        slow = asyncio.create_task(pipe([["BLPOP", "wire:soon", 1]]))
        await asyncio.sleep(0.05)
        slow.cancel()
        assert await pipe([["ECHO", "after"]]) == [b"after"]  # BLPOP's nil went to nobody, not to this call
    finally:
        await pipe.aclose()


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
