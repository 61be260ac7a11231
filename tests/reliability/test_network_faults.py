"""Network faults between a replica and Redis, through a small TCP proxy in the test.

Redis listens on a loopback port; the replica reaches it only through the proxy, which
passes traffic, delays it, drops every connection, or blackholes it (accepts and
swallows bytes, answers nothing). Under a fault every command is answered 503 within
2 s (never hangs, never 2xx without being stored); once traffic passes again the
replica serves by itself, and no command was acknowledged twice or lost.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time

import pytest

from tests.reliability.harness import Api, check_stream, figure, own_redis, redis_client, replica
from tests.reliability.sizes import SIZE, limit
from tests.support.processes import free_port


class Proxy:
    """A TCP proxy on 127.0.0.1 whose ``mode`` is ``pass``, ``delay``, ``drop`` or ``blackhole``."""

    def __init__(self, target: int) -> None:
        self.target = target
        self.port = free_port()
        self.mode = "pass"
        self.delay = 3.0
        self.tasks: set[asyncio.Task[None]] = set()
        self.writers: set[asyncio.StreamWriter] = set()
        self.server: asyncio.Server | None = None

    async def start(self) -> Proxy:
        self.server = await asyncio.start_server(self.accept, "127.0.0.1", self.port)
        return self

    def set(self, mode: str) -> None:
        self.mode = mode
        if mode == "drop":
            for writer in list(self.writers):
                writer.transport.abort()

    async def accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if self.mode == "drop":
            writer.transport.abort()
            return
        try:
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target)
        except OSError:
            writer.transport.abort()
            return
        self.writers |= {writer, up_writer}
        pumps = [asyncio.create_task(self.pump(reader, up_writer)), asyncio.create_task(self.pump(up_reader, writer))]
        await asyncio.wait(pumps, return_when=asyncio.FIRST_COMPLETED)
        for task in pumps:
            task.cancel()
        for w in (writer, up_writer):
            self.writers.discard(w)
            w.transport.abort()

    async def pump(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        with contextlib.suppress(OSError, asyncio.IncompleteReadError):
            while data := await reader.read(65536):
                if self.mode == "blackhole":
                    continue  # swallowed: the other side waits for an answer that never comes
                if self.mode == "delay":
                    await asyncio.sleep(self.delay)
                if self.mode == "drop":
                    return
                writer.write(data)
                await writer.drain()

    async def close(self) -> None:
        for writer in list(self.writers):
            writer.transport.abort()
        if self.server is not None:
            self.server.close()
            await self.server.wait_closed()


@pytest.mark.timeout(limit(180))
async def test_faults_between_a_replica_and_redis_answer_503_within_2_s_and_the_replica_recovers() -> None:
    rng = random.Random(6)
    redis_port = free_port()
    slowest = 0.0
    acked: dict[str, tuple[str, int]] = {}
    faults = 0
    with own_redis("always", tcp_port=redis_port) as redis_server:
        proxy = await Proxy(redis_port).start()
        serve = replica(f"redis://127.0.0.1:{proxy.port}/0")
        try:
            await asyncio.to_thread(serve.start)
            async with Api([serve.url]) as api:
                game_id, tokens = await api.started(2)
                setup = (await api.table(game_id))["version"]
                n = 0
                for _ in range(SIZE.fault_rounds):
                    for mode in ("delay", "drop", "blackhole"):
                        version, seat, commands = await api.awaited(game_id, tokens)
                        if seat < 0:
                            break
                        proxy.set(mode)
                        faults += 1
                        for _ in range(3):
                            n += 1
                            start = time.monotonic()
                            r = await api.send(game_id, tokens[seat], rng.choice(commands), f"net-{n}")
                            took = time.monotonic() - start
                            slowest = max(slowest, took)
                            assert took < 2.0, f"{mode}: answered after {took:.2f} s"
                            if r.status_code == 200:  # a delayed write may still land in time
                                acked[f"net-{n}"] = (game_id, r.json()["version"])
                                break
                            assert r.status_code == 503, r.text
                        proxy.set("pass")
                        async with asyncio.timeout(5):  # serves again by itself
                            while (await api.at(0).get(f"/api/v1/games/{game_id}")).status_code != 200:
                                await asyncio.sleep(0.05)
                        version, seat, commands = await api.awaited(game_id, tokens)
                        if seat < 0:
                            break
                        n += 1
                        r = await api.send(game_id, tokens[seat], rng.choice(commands), f"net-{n}")
                        assert r.status_code == 200, r.text
                        acked[f"net-{n}"] = (game_id, r.json()["version"])
                        r2 = await api.send(game_id, tokens[seat], {"type": "_"}, f"net-{n}")
                        assert r2.status_code in (400, 409), r2.text
        finally:
            await asyncio.to_thread(serve.__exit__)
            await proxy.close()
        redis = redis_client(redis_server.url)
        try:
            records = await check_stream(redis, game_id, setup)
        finally:
            await redis.aclose()
    for command_id, (_, version) in acked.items():
        assert records[command_id].last == version
    figure(
        "network faults",
        f"{faults} faults (delay 3 s, drop, blackhole) between a replica and Redis: every command answered "
        f"503 or 2xx within {slowest:.2f} s at worst, {len(acked)} acknowledged and stored once, service back "
        "within 5 s each time",
    )
