"""One contract for every path the server sends batches of Redis commands through (server/storage/resp/):
the lean connection of our own, redis-py's pipeline on one Redis, and redis-py's cluster pipeline.

``PipeContract`` is the abstract case; each class below runs it over one path. A batch is answered
in order with an error reply in its place, a reply later than the timeout fails its call (one
Redis fails the whole batch out on the connection; a cluster's pipeline answers the error in the
place of each command it could not send, and the other nodes' replies beside it) and leaves the
path usable, so does a connection Redis killed, a caller that gives up does not put the
replies out of step, a script Redis forgot is loaded again, and many callers at once each get
their own replies.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any

import pytest
from redis.asyncio.cluster import RedisCluster
from redis.exceptions import ConnectionError, NoScriptError, ResponseError, TimeoutError

from server.storage.connection import Client, connect
from server.storage.resp.client import Endpoint, Pipe, RedisPyPipe, Script, call
from tests.support.cluster import LocalCluster

TIMEOUT = 0.3  # seconds a reply may take on the paths under test


@dataclass
class Path:
    """A path under test: the pipe, and a client of the same Redis to act on it from outside."""

    pipe: Pipe | RedisPyPipe
    client: Client

    async def everywhere(self, *command: Any) -> None:
        """Run ``command`` on every node (one Redis, or each primary of a cluster)."""
        if isinstance(self.client, RedisCluster):
            for node in self.client.get_primaries():
                await node.execute_command(*command)
        else:
            await self.client.execute_command(*command)  # type: ignore[no-untyped-call]


def echo(text: str) -> list[Any]:
    """A command answered with ``text`` on any path (a cluster routes it by its key)."""
    return ["EVAL", "return ARGV[1]", 1, "{c}:echo", text]


class PipeContract:
    """The abstract case: subclasses give the ``path`` fixture."""

    async def test_a_batch_is_answered_in_order_with_an_error_reply_in_its_place(self, path: Path) -> None:
        _, two, unknown, wrong, value = await path.pipe(
            [
                ["DEL", "{c}:a"],
                ["INCRBY", "{c}:a", 2],
                ["EVALSHA", "0" * 40, 1, "{c}:a"],
                ["HSET", "{c}:a", "f", "v"],
                ["GET", "{c}:a"],
            ]
        )
        assert (two, value) == (2, b"2")
        assert isinstance(unknown, NoScriptError)  # redis-py's own class, as the group commit expects
        assert isinstance(wrong, ResponseError) and "WRONGTYPE" in str(wrong)

    async def test_a_reply_later_than_the_timeout_fails_its_call_and_the_next_call_is_answered(
        self, path: Path
    ) -> None:
        started = asyncio.get_running_loop().time()
        with pytest.raises(TimeoutError):
            await call(path.pipe, "BLPOP", "{c}:never", 3)
        assert asyncio.get_running_loop().time() - started < 2.5  # the timeout, not the blocking reply
        assert await path.pipe([echo("after")]) == [b"after"]

    async def test_a_connection_redis_killed_fails_what_was_out_on_it_and_the_next_call_is_answered(
        self, path: Path
    ) -> None:
        await path.pipe([echo("warm")])
        waiting = asyncio.create_task(call(path.pipe, "BLPOP", "{c}:never", 0.25))
        await asyncio.sleep(0.05)
        await path.everywhere("CLIENT", "KILL", "TYPE", "normal", "SKIPME", "yes")
        with pytest.raises(ConnectionError):
            await waiting
        assert await path.pipe([echo("after")]) == [b"after"]

    async def test_a_caller_that_gives_up_leaves_the_replies_in_step_for_the_next(self, path: Path) -> None:
        slow = asyncio.create_task(path.pipe([["BLPOP", "{c}:soon", 0.2]]))
        await asyncio.sleep(0.05)
        slow.cancel()
        assert await path.pipe([echo("after")]) == [b"after"]  # BLPOP's nil went to nobody, not here
        assert await path.pipe([echo("next")]) == [b"next"]

    async def test_a_script_redis_forgot_is_loaded_again(self, path: Path) -> None:
        script = Script(path.pipe, path.client.script_load, "return {KEYS[1], ARGV[1]}")
        assert await script(keys=["{c}:k"], args=["one"]) == [b"{c}:k", b"one"]
        await path.everywhere("SCRIPT", "FLUSH")
        assert await script(keys=["{c}:k"], args=["two"]) == [b"{c}:k", b"two"]

    async def test_many_callers_at_once_each_get_their_own_replies(self, path: Path) -> None:
        # Fewer callers than redis-py's pool holds (64): past it a caller waits for a connection, and on a
        # loaded machine that wait can outlast TIMEOUT, a refusal of the pool's rather than replies mixed up.
        callers = 60
        answers = await asyncio.gather(*(path.pipe([echo(f"{n}-a"), echo(f"{n}-b")]) for n in range(callers)))
        assert answers == [[f"{n}-a".encode(), f"{n}-b".encode()] for n in range(callers)]
        with pytest.raises(NoScriptError):  # an error reply raises from a single call
            await call(path.pipe, "EVALSHA", "0" * 40, 1, "{c}:k")


async def a_path(url: str, make: Callable[[Client], Pipe | RedisPyPipe]) -> AsyncIterator[Path]:
    client = connect(url, socket_timeout=TIMEOUT)
    pipe = make(client)
    try:
        yield Path(pipe, client)
    finally:
        if isinstance(pipe, Pipe):
            await pipe.aclose()
        await client.aclose()


class TestTheLeanConnection(PipeContract):
    @pytest.fixture
    async def path(self, redis_url: str) -> AsyncIterator[Path]:
        async for found in a_path(redis_url, lambda client: Pipe(Endpoint.of(client))):
            yield found


class TestRedisPysPipeline(PipeContract):
    @pytest.fixture
    async def path(self, redis_url: str) -> AsyncIterator[Path]:
        async for found in a_path(redis_url, RedisPyPipe):
            yield found


class TestRedisPysClusterPipeline(PipeContract):
    @pytest.fixture
    async def path(self, cluster: LocalCluster) -> AsyncIterator[Path]:
        async for found in a_path(cluster.url, RedisPyPipe):
            yield found
