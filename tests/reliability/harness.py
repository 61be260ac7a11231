"""What the reliability and security suites share: a Redis of their own, replicas, clients.

Everything is real: redis-server processes (``EmbeddedRedis``), ``ludoteca serve``
processes (``Serve``), HTTP and WebSocket clients on 127.0.0.1. No fakes, no mocks.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import os
import random
import shutil
import signal
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import httpx
import msgspec
from websockets.asyncio.client import ClientConnection, connect

from server.storage.connection import Client
from server.storage.connection import connect as redis_connect
from server.storage.embedded import EmbeddedRedis, Fsync
from tests.support.processes import Serve, free_port
from tests.support.replies import entries_of, fields_of, key_names

ADMIN = "reliability-admin-token"
GAME = "vilar-de-mouros"
NETWORK_ERRORS = (httpx.TransportError,)

# -- figures ---------------------------------------------------------------------------

FIGURES: list[tuple[str, str]] = []
_printed: list[bool] = []


def print_figures(terminalreporter: Any) -> None:
    """The figures measured in this run, once (both suites' conftests call this)."""
    if FIGURES and not _printed:
        _printed.append(True)
        terminalreporter.section("reliability and security figures")
        for name, value in FIGURES:
            terminalreporter.write_line(f"{name}: {value}")


def figure(name: str, value: object) -> None:
    """A measured figure: printed at the end of the run (docs/reliability.md quotes them)."""
    FIGURES.append((name, str(value)))
    path = os.environ.get("LUDOTECA_FIGURES")
    if path:
        with open(path, "a", encoding="utf-8") as f:
            f.write(json.dumps({"figure": name, "value": str(value)}) + "\n")


# -- Redis and replicas -------------------------------------------------------------------


@contextlib.contextmanager
def own_redis(appendfsync: Fsync = "always", tcp_port: int | None = None) -> Iterator[EmbeddedRedis]:
    """A redis-server of the test's own (it may be killed), on a unix socket (and TCP when asked)."""
    directory = tempfile.mkdtemp(prefix="lt-rel-")
    extra = ("--port", str(tcp_port), "--bind", "127.0.0.1") if tcp_port else ()
    embedded = EmbeddedRedis(directory, appendfsync=appendfsync, extra_args=extra)
    embedded.start()  # the main thread, as the parent-death signal needs
    try:
        yield embedded
    finally:
        embedded.stop()
        shutil.rmtree(directory, ignore_errors=True)


def kill_redis(embedded: EmbeddedRedis) -> None:
    """SIGKILL the redis-server and reap it (the data directory stays)."""
    assert embedded.pid is not None
    os.kill(embedded.pid, signal.SIGKILL)
    embedded.stop()


def replica(redis_url: str, **env: str) -> Serve:
    # Quotas, socket caps and the seats' rate wide: the harness opens many tables and sockets from one
    # address and plays as fast as it can (tests/server/storage/test_quotas.py, tests/security/test_sockets.py
    # and tests/security/test_rest_rate.py check them).
    settings = {"LUDOTECA_ADMIN_TOKEN": ADMIN, "LUDOTECA_SWEEP_INTERVAL": "0.5", "LUDOTECA_CREATE_PER_HOUR": "0"}
    settings |= {"LUDOTECA_SEATS_PER_HOUR": "0", "LUDOTECA_WS_PER_ADDRESS": "0", "LUDOTECA_WS_PER_GAME": "0"}
    settings |= {"LUDOTECA_WS_RATE": "10000", "LUDOTECA_WS_BURST": "10000"} | env
    serve = Serve(free_port(), redis_url=redis_url)
    serve.environ |= settings  # not **settings: mypy cannot tell its keys from Serve's own parameters
    return serve


@contextlib.contextmanager
def replicas(redis_url: str, count: int, **env: str) -> Iterator[list[Serve]]:
    """``count`` ``ludoteca serve`` processes on one Redis, started at once; stopped on exit."""
    serves = [replica(redis_url, **env) for _ in range(count)]
    try:
        with ThreadPoolExecutor(count) as pool:
            list(pool.map(Serve.start, serves))
        yield serves
    finally:
        for serve in serves:
            serve.__exit__()


def sigkill(serve: Serve) -> None:
    assert serve.process is not None
    serve.process.kill()
    serve.process.wait(10)


# -- clients ------------------------------------------------------------------------------


def auth(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


@dataclass
class Api:
    """HTTP clients, one per replica."""

    urls: list[str]
    clients: list[httpx.AsyncClient] = field(default_factory=list)
    ids: Iterator[int] = field(default_factory=itertools.count)
    unavailable: int = 0  # 503s that :func:`persist` met and retried past (reads, seats, new games)

    async def __aenter__(self) -> Api:
        # Idle connections are dropped well before uvicorn closes them (5 s): reusing one it is
        # closing at that very moment fails with a ReadError (it did once in the soak run).
        limits = httpx.Limits(max_connections=200, max_keepalive_connections=50, keepalive_expiry=2.0)
        self.clients = [httpx.AsyncClient(base_url=u, timeout=10, limits=limits) for u in self.urls]
        return self

    async def __aexit__(self, *exc: object) -> None:
        for client in self.clients:
            await client.aclose()

    def at(self, i: int | None = None) -> httpx.AsyncClient:
        return self.clients[random.randrange(len(self.clients)) if i is None else i % len(self.clients)]

    async def create(self, players: int = 2, game: str = GAME) -> str:
        r = await self.at(0).post("/api/v1/games", json={"game": game, "players": players})
        assert r.status_code == 201, r.text
        game_id: str = r.json()["game_id"]
        return game_id

    async def started(self, players: int = 2, game: str = GAME) -> tuple[str, list[str]]:
        game_id = await self.create(players, game)
        tokens = []
        for _ in range(players):
            r = await self.at(0).post(f"/api/v1/games/{game_id}/seats", json={})
            assert r.status_code == 201, r.text
            tokens.append(r.json()["token"])
        return game_id, tokens

    async def table(self, game_id: str, token: str | None = None, i: int | None = None) -> dict[str, Any]:
        r = await self.at(i).get(f"/api/v1/games/{game_id}", headers=auth(token))
        assert r.status_code == 200, r.text
        body: dict[str, Any] = r.json()
        return body

    async def awaited(self, game_id: str, tokens: list[str], i: int | None = None) -> tuple[int, int, list[Any]]:
        """The game's version, the first awaited seat and its legal commands (seat -1: nobody)."""
        body = await self.table(game_id, None, i)
        if body["status"] != "active":
            return body["version"], -1, []
        seat = body["view"]["awaiting"][0]["seat"]
        r = await self.at(i).get(f"/api/v1/games/{game_id}/legal-commands", headers=auth(tokens[seat]))
        assert r.status_code == 200, r.text
        return r.json()["version"], seat, r.json()["commands"]

    async def send(
        self,
        game_id: str,
        token: str | None,
        command: Any,
        command_id: str | None = None,
        i: int | None = None,
        **extra: Any,
    ) -> httpx.Response:
        body = {"command": command, "command_id": command_id or f"c{next(self.ids)}", **extra}
        return await self.at(i).post(f"/api/v1/games/{game_id}/commands", json=body, headers=auth(token))


# -- what Redis holds ------------------------------------------------------------------------


class Record(msgspec.Struct):
    seat: int
    hash: str
    first: int
    last: int


RECORD = msgspec.json.Decoder(Record)


async def stream_versions(redis: Client, game_id: str) -> list[int]:
    entries = entries_of(await redis.xrange(f"lt:{{{game_id}}}:events"))
    return [int(entry_id.decode().partition("-")[2]) for entry_id, _ in entries]


async def command_records(redis: Client, game_id: str) -> dict[str, Record]:
    """The game's command records by command id (each field is ``<sender> <command id>``)."""
    raw = fields_of(await redis.hgetall(f"lt:{{{game_id}}}:commands"))
    return {k.decode().split(" ", 1)[-1]: RECORD.decode(v) for k, v in raw.items()}


async def check_stream(redis: Client, game_id: str, setup_version: int) -> dict[str, Record]:
    """Versions 1..N with no gap or duplicate, and every event after the table's own setup
    belongs to exactly one recorded command (all of a command's events or none)."""
    versions = await stream_versions(redis, game_id)
    assert versions == list(range(1, len(versions) + 1)), f"{game_id}: versions with a gap or a duplicate"
    records = await command_records(redis, game_id)
    covered = sorted(v for r in records.values() for v in range(r.first, r.last + 1))
    assert covered == list(range(setup_version + 1, len(versions) + 1)), f"{game_id}: events outside any command"
    return records


async def game_keys(redis: Client, game_id: str) -> dict[str, Any]:
    """Every key of one game, dumped byte for byte."""
    keys = sorted(key_names(await redis.keys(f"lt:{{{game_id}}}:*")))
    return {k.decode(): await redis.dump(k) for k in keys}


def redis_client(url: str) -> Client:
    return redis_connect(url)


# -- a WebSocket follower that reconnects and resumes ------------------------------------------


@dataclass
class Follower:
    """Follows one game over WebSocket through any replica, resuming with ``after`` on every close.

    ``versions`` is every event version delivered, in order: resuming must leave no
    gap and repeat nothing. A 4009 reset starts again from 0 (``resets`` counts them).
    ``checks`` keeps each update's check value by its version (a client would echo it to resume).
    """

    urls: list[str]
    game_id: str
    token: str | None = None
    last: int = 0
    versions: list[int] = field(default_factory=list)
    events: dict[int, Any] = field(default_factory=dict)
    checks: dict[int, str] = field(default_factory=dict)
    updates: int = 0
    reconnects: int = 0
    resets: int = 0
    closes: list[int | str] = field(default_factory=list)  # close codes, or what broke a socket without one
    problems: list[str] = field(default_factory=list)
    task: asyncio.Task[None] | None = None
    stopping: bool = False

    def start(self) -> Follower:
        self.task = asyncio.create_task(self.run())
        return self

    async def run(self) -> None:
        attempt = 0
        while not self.stopping:
            url = self.urls[attempt % len(self.urls)].replace("http://", "ws://")
            attempt += 1
            try:
                async with connect(f"{url}/api/v1/games/{self.game_id}/ws", open_timeout=5) as ws:
                    await ws.send(json.dumps({"type": "hello", "token": self.token, "after": self.last}))
                    await self.listen(ws)
            except Exception as exc:  # a follower keeps reconnecting, whatever broke the last socket
                code = getattr(getattr(exc, "rcvd", None), "code", None)
                self.closes.append(code if code is not None else type(exc).__name__)
                if code == 4009:
                    self.resets += 1
                    self.last, self.versions, self.events, self.checks = 0, [], {}, {}
            self.reconnects += 1
            await asyncio.sleep(0.05 + random.random() * 0.1)

    async def listen(self, ws: ClientConnection) -> None:
        async for raw in ws:
            message = json.loads(raw)
            if message["type"] != "update":
                continue
            self.updates += 1
            for e in message["events"]:
                v = e["version"]
                before = self.versions[-1] if self.versions else self.last
                if v <= before:
                    self.problems.append(f"version {v} repeated or out of order after {before}")
                elif v != before + 1:  # the games these suites follow leave no event out of a feed
                    self.problems.append(f"gap: {before} then {v}")
                self.versions.append(v)
                self.events[v] = e["event"]
            self.last = max(self.last, message["version"])
            self.checks[message["version"]] = message.get("check", "")

    async def reach(self, version: int, seconds: float = 15) -> None:
        async with asyncio.timeout(seconds):
            while self.last < version:
                await asyncio.sleep(0.02)

    async def stop(self) -> None:
        self.stopping = True
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task


async def until(predicate: Any, seconds: float = 10, step: float = 0.02) -> None:
    async with asyncio.timeout(seconds):
        while not predicate():
            await asyncio.sleep(step)


def elapsed_ms(start: float) -> float:
    return (time.perf_counter() - start) * 1000


# -- a load of commands that survives crashes ----------------------------------------------------


class GaveUp(Exception):
    """A request that found no replica able to answer within its deadline."""


async def persist(api: Api, method: str, path: str, seconds: float = 30, **kw: Any) -> httpx.Response:
    """A request retried through random replicas on a lost connection or a 503, up to ``seconds``."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            r = await api.at().request(method, path, **kw)
            if r.status_code != 503:
                return r
            api.unavailable += 1
        except NETWORK_ERRORS:
            pass
        if time.monotonic() > deadline:
            raise GaveUp(f"{method} {path}")
        await asyncio.sleep(0.05)


@dataclass
class Driver:
    """Plays random games to their end, one command at a time, through random replicas.

    A command whose answer was lost (the replica died, the store was down) is sent again
    with the same command id, as a client must. ``acked`` keeps every 2xx answer;
    ``statuses`` counts every answer; ``lost_answers`` the attempts that got none.
    """

    api: Api
    rng: random.Random
    name: str
    follow: bool = True
    games: dict[str, int] = field(default_factory=dict)  # game id -> version after its table's own events
    acked: dict[str, tuple[str, dict[str, Any]]] = field(default_factory=dict)  # command id -> game, answer
    statuses: dict[int, int] = field(default_factory=dict)
    lost_answers: int = 0
    slowest: float = 0.0  # seconds the slowest answer to a command took
    followers: list[Follower] = field(default_factory=list)
    # Games left because a read of them answered other than 200 (game id, status): only when
    # Redis lost writes it had acknowledged (``appendfsync everysec``), e.g. the game's creation.
    abandoned: list[tuple[str, int]] = field(default_factory=list)

    async def new_game(self) -> tuple[str, list[str]]:
        """A started 2-player game (one whose seat answer was lost is left behind: its token is gone)."""
        for _ in range(20):
            r = await persist(self.api, "POST", "/api/v1/games", json={"game": GAME, "players": 2})
            game_id = r.json()["game_id"]
            tokens = []
            for seat in range(2):
                r = await persist(self.api, "POST", f"/api/v1/games/{game_id}/seats", json={"seat": seat})
                if r.status_code != 201:  # 409 seat_taken: our first try landed, its answer was lost
                    break
                tokens.append(r.json()["token"])
            if len(tokens) < 2:
                continue
            table = (await persist(self.api, "GET", f"/api/v1/games/{game_id}")).json()
            self.games[game_id] = table["version"]
            if self.follow:
                self.followers.append(Follower(self.api.urls, game_id).start())
            return game_id, tokens
        raise GaveUp("no game could be started")

    async def command(self, game_id: str, token: str, command: Any, command_id: str) -> None:
        body = {"command": command, "command_id": command_id}
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            sent = time.monotonic()
            try:
                r = await self.api.at().post(f"/api/v1/games/{game_id}/commands", json=body, headers=auth(token))
            except NETWORK_ERRORS:
                self.lost_answers += 1
                await asyncio.sleep(0.05)
                continue
            finally:
                self.slowest = max(self.slowest, time.monotonic() - sent)
            self.statuses[r.status_code] = self.statuses.get(r.status_code, 0) + 1
            if r.status_code == 200:
                self.acked[command_id] = (game_id, r.json())
                return
            assert r.status_code == 503, r.text  # nothing else is expected of a legal command
            assert r.json()["error"] == "store_unavailable"
            await asyncio.sleep(0.05)
        raise GaveUp(command_id)

    async def run(self, stop: asyncio.Event) -> None:
        game_id, tokens = await self.new_game()
        n = 0
        while not stop.is_set():
            r = await persist(self.api, "GET", f"/api/v1/games/{game_id}")
            body = r.json()
            if r.status_code != 200 or body["status"] != "active":
                if r.status_code != 200:
                    self.abandoned.append((game_id, r.status_code))
                game_id, tokens = await self.new_game()
                continue
            seat = body["view"]["awaiting"][0]["seat"]
            r = await persist(self.api, "GET", f"/api/v1/games/{game_id}/legal-commands", headers=auth(tokens[seat]))
            if r.status_code != 200:
                self.abandoned.append((game_id, r.status_code))
                game_id, tokens = await self.new_game()
                continue
            commands = r.json()["commands"]
            if r.json()["version"] != body["version"] or not commands:
                continue  # read from two replicas at two moments: look again
            n += 1
            await self.command(game_id, tokens[seat], self.rng.choice(commands), f"{self.name}-{n}")

    async def check(self, redis: Client, lost: list[str] | None = None) -> int:
        """Every acknowledged command has its events in its stream exactly once; returns the commands stored.

        With ``lost`` given, acknowledged commands missing from Redis are listed there
        instead of failing (to measure what ``appendfsync everysec`` loses).
        """
        stored = 0
        for game_id, setup in self.games.items():
            records = await check_stream(redis, game_id, setup)
            stored += len(records)
            for command_id, (acked_game, answer) in self.acked.items():
                if acked_game == game_id:
                    if lost is not None and command_id not in records:
                        lost.append(command_id)
                        continue
                    assert command_id in records, f"{command_id} was acknowledged but is not stored"
                    record = records[command_id]
                    assert record.last == answer["version"]
                    assert [e["version"] for e in answer["events"]] == list(range(record.first, record.last + 1))
        return stored

    async def check_followers(self, redis: Client, seconds: float = 15) -> None:
        """Every follower reaches its game's head with every version once, in order."""
        for follower in self.followers:
            head = len(await stream_versions(redis, follower.game_id))
            await follower.reach(head, seconds)
            assert follower.problems == [], follower.problems[:5]
            assert follower.versions == list(range(1, head + 1))

    async def stop_followers(self) -> None:
        for follower in self.followers:
            await follower.stop()


@dataclass
class Tally:
    """What a failover test's drivers saw, once their load stopped: the streams checked (versions
    1..N, no gap), acknowledged commands lost and their versions since given to other events, and
    each answer's status, the slowest answer and the followers' resets and reconnections."""

    stored: int
    lost: list[str]
    reused: int
    statuses: dict[int, int]
    acked: int
    slowest: float
    resets: int
    reconnects: int


async def tally(drivers: list[Driver], url: str) -> Tally:
    """Check every driver's games against the Redis at ``url`` (each stream whole, each follower with
    no gap) and count what they saw; the followers are stopped."""
    redis = redis_client(url)
    lost: list[str] = []
    reused = 0
    try:
        stored = sum([await d.check(redis, lost) for d in drivers])  # versions 1..N, no gap
        for d in drivers:
            for command_id in lost:  # a lost command's versions, held now by other events?
                if command_id in d.acked:
                    game_id, answer = d.acked[command_id]
                    head = len(await stream_versions(redis, game_id))
                    reused += sum(1 for e in answer["events"] if e["version"] <= head)
            await d.check_followers(redis)
    finally:
        for d in drivers:
            await d.stop_followers()
        await redis.aclose()
    statuses: dict[int, int] = {}
    for d in drivers:
        for status, n in d.statuses.items():
            statuses[status] = statuses.get(status, 0) + n
    return Tally(
        stored=stored,
        lost=lost,
        reused=reused,
        statuses=statuses,
        acked=sum(len(d.acked) for d in drivers),
        slowest=max(d.slowest for d in drivers),
        resets=sum(f.resets for d in drivers for f in d.followers),
        reconnects=sum(f.reconnects for d in drivers for f in d.followers),
    )


@dataclass
class Failovers:
    """What a failover test measured: the tally, how long each failover took to serve again, and how
    many answers came while it did."""

    counted: Tally
    recoveries: list[float]
    down_answers: int
    unavailable: int  # 503s to the drivers' other requests (reads, seats, new games), retried past


async def failovers(
    url: str,
    name: str,
    games: int,
    rounds: int,
    rng: random.Random,
    fail: Callable[[Api, list[Driver]], Awaitable[float]],
    heal: Callable[[], Awaitable[None]],
    **env: str,
) -> Failovers:
    """``games`` drivers play through two ``ludoteca serve`` replicas (with ``env``) on the Redis at ``url``
    while ``fail`` takes part of it down ``rounds`` times (the seconds until it serves again) and ``heal``
    brings it back before the next round; then every driver's games are tallied (:func:`tally`)."""
    with replicas(url, 2, **env) as serves:
        async with Api([s.url for s in serves]) as api:
            stop = asyncio.Event()
            drivers = [Driver(api, random.Random(i), f"{name}{i}") for i in range(games)]
            load = [asyncio.create_task(d.run(stop)) for d in drivers]
            recoveries: list[float] = []
            down_answers = 0
            try:
                for _ in range(rounds):
                    await asyncio.sleep(rng.uniform(0.5, 1.0))
                    before = sum(sum(d.statuses.values()) for d in drivers)
                    recoveries.append(await fail(api, drivers))
                    down_answers += sum(sum(d.statuses.values()) for d in drivers) - before
                    await asyncio.sleep(0.3)  # load on what took over
                    await heal()
                await asyncio.sleep(0.3)
            finally:
                stop.set()
                await asyncio.gather(*load)
            return Failovers(await tally(drivers, url), recoveries, down_answers, api.unavailable)
