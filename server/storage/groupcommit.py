"""Group commit: the script calls made within one turn of the event loop go to Redis in one pipeline.

Under load, many seats' commands are decided in the same turn of the loop, and each used to
pay a whole round trip for its append. Here the first call of a turn schedules the send for
the loop's next turn; every call made until then joins it, and they all go in one pipeline
without a transaction: on one Redis, one write on the store's lean connection
(server/storage/resp/client.py); on Redis Cluster, redis-py's cluster pipeline, one per node (every key of a
call shares one hash tag, so each call runs on one node).

Each call still gets its own reply, and only once Redis has answered it: a call whose script
fails (an error reply) fails alone, the others of its pipeline land. A pipeline that cannot be
sent or read (a lost connection, a timeout) fails every call in it, as each call alone would
have failed. Nothing waits for an earlier pipeline: a turn's calls are sent while the previous
turn's are still out.

Given ``wait`` (replicas, milliseconds), each pipeline ends with ``WAIT``: its calls are answered
only once that many replicas have their writes, and fail with :class:`NotReplicated` when fewer
had them in time (the writes may still be on the primary alone: a retry under the same command
id is answered from its record if they survived a failover, decided again if not). ``WAIT``
counts the writes of its own connection: the single primary's lean connection, not a Cluster's.
"""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Awaitable, Callable
from typing import Any

from redis.exceptions import NoScriptError, RedisError

__all__ = ["GroupCommit", "NotReplicated"]

Call = tuple[list[str], list[Any], "asyncio.Future[Any]"]
# Commands (each its arguments) sent in one pipeline: their replies in order, an error reply in its place.
Send = Callable[[list[list[Any]]], Awaitable[list[Any]]]


class NotReplicated(RedisError):
    """Fewer replicas than asked acknowledged a pipeline's writes in time: a store error (503)."""


class GroupCommit:
    """Calls of one Lua script (``script``), grouped by turn of the event loop.

    The store that owns the keys hands over how to reach Redis: ``send`` (a pipeline without a
    transaction) and ``load`` (its client's ``script_load``); this module names no key.
    ``pipelines``: how many pipelines were sent, ``calls``: how many calls they carried."""

    def __init__(
        self, send: Send, load: Callable[[str], Awaitable[Any]], script: str, wait: tuple[int, int] | None = None
    ) -> None:
        self.send = send
        self.wait = wait
        self.load = load
        self.script = script
        self.sha = hashlib.sha1(script.encode()).hexdigest()  # the name Redis gives the script
        self.waiting: list[Call] = []
        self.pipelines = 0
        self.calls = 0
        self._sending: set[asyncio.Task[None]] = set()

    async def __call__(self, keys: list[str], args: list[Any]) -> Any:
        """The script's reply for ``keys`` and ``args``, once Redis has run it."""
        loop = asyncio.get_running_loop()
        if not self.waiting:
            loop.call_soon(self._send)  # after every callback already due in this turn
        future: asyncio.Future[Any] = loop.create_future()
        self.waiting.append((keys, args, future))
        return await future

    def _send(self) -> None:
        batch, self.waiting = self.waiting, []
        task = asyncio.ensure_future(self._run(batch))
        self._sending.add(task)  # the loop keeps only a weak reference to a task
        task.add_done_callback(self._sending.discard)

    async def _run(self, batch: list[Call]) -> None:
        try:
            replies = await self._pipeline(batch)
            unknown = [i for i, reply in enumerate(replies) if isinstance(reply, NoScriptError)]
            if unknown:  # Redis restarted (or SCRIPT FLUSH): nothing of those ran, so send them again
                await self.load(self.script)
                for i, reply in zip(unknown, await self._pipeline([batch[i] for i in unknown]), strict=True):
                    replies[i] = reply
        except asyncio.CancelledError:
            for _, _, future in batch:
                future.cancel()
            raise
        except Exception as exc:
            for _, _, future in batch:
                if not future.done():
                    future.set_exception(exc)
            return
        for (_, _, future), reply in zip(batch, replies, strict=True):
            if future.done():  # its caller was cancelled meanwhile
                continue
            if isinstance(reply, Exception):
                future.set_exception(reply)
            else:
                future.set_result(reply)

    async def _pipeline(self, batch: list[Call]) -> list[Any]:
        self.pipelines += 1
        self.calls += len(batch)
        commands: list[list[Any]] = [["EVALSHA", self.sha, len(keys), *keys, *args] for keys, args, _ in batch]
        if self.wait is None:
            return await self.send(commands)
        replicas, timeout_ms = self.wait
        *replies, acknowledged = await self.send([*commands, ["WAIT", replicas, timeout_ms]])
        if isinstance(acknowledged, Exception) or int(acknowledged) < replicas:
            failed = NotReplicated(
                f"{acknowledged} of the {replicas} replicas asked for had the writes after {timeout_ms} ms"
            )
            # a reply that is an error stays one (a script not loaded is sent again, and waits again)
            return [reply if isinstance(reply, Exception) else failed for reply in replies]
        return replies
