"""Load on the servers under test: HTTP commands from bots, WebSocket rounds, sockets held elsewhere."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import itertools
import multiprocessing
import random
import time
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection

import msgspec
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from domain.catalog import GAMES
from domain.engine import CLOCK
from server.bench.bare import append_once
from server.bench.client import Arrivals, Http, Pacer, Watcher, bounded, percentile
from server.bench.play import choose, seat_counts
from server.bench.procs import cpu
from server.service.codec import encode
from server.service.tables import Tables
from server.storage.connection import connect
from server.storage.store import EventStore

API = "/api/v1"


@dataclass
class Load:
    """What one timed run of requests gave."""

    count: int
    seconds: float
    latencies: list[float]
    errors: int = 0
    cpu: float = 0.0  # CPU seconds the server under test used meanwhile

    @property
    def cpu_us(self) -> float:
        """The server's CPU time per request, in microseconds."""
        return 1e6 * self.cpu / self.count if self.count else 0.0

    @property
    def rate(self) -> float:
        return self.count / self.seconds if self.seconds else 0.0

    def ms(self, q: float) -> float:
        return 1000 * percentile(self.latencies, q)


@dataclass
class Seated:
    """A started game and its seats' tokens."""

    game_id: str
    tokens: list[str]
    kind: str = ""


@dataclass
class Rounds:
    """Messages pushed to many sockets, one round after another."""

    rounds: int = 0
    seconds: float = 0.0  # summed over rounds: trigger sent -> last socket served
    delays: list[float] = field(default_factory=list)  # one per delivery
    missed: int = 0  # sockets that did not get a round's message within 10 s

    @property
    def rate(self) -> float:
        return len(self.delays) / self.seconds if self.seconds else 0.0


class Answered(msgspec.Struct):
    version: int


ANSWERED = msgspec.json.Decoder(Answered)


async def on_server(pid: int, run: Awaitable[Load]) -> Load:
    """``run``, with the CPU time the server process ``pid`` used meanwhile."""
    before = cpu(pid)
    result = await run
    result.cpu = cpu(pid) - before
    return result


# -- the Lua append and the bare endpoint ------------------------------------------------


async def lua_append(url: str, callers: int, seconds: float) -> Load:
    """The append script alone, through the same Redis client, ``callers`` at once (one game each)."""
    redis = connect(url)
    store = EventStore(redis)
    versions: dict[str, int] = {}
    latencies: list[float] = []
    ids = itertools.count()
    end = time.perf_counter() + seconds

    async def caller(i: int) -> None:
        game_id = f"bench-append-{random.getrandbits(48):x}-{i}"
        while time.perf_counter() < end:
            start = time.perf_counter()
            await append_once(store, versions, game_id, f"c{next(ids)}")
            latencies.append(time.perf_counter() - start)

    try:
        start = time.perf_counter()
        await asyncio.gather(*(caller(i) for i in range(callers)))
        return Load(len(latencies), time.perf_counter() - start, latencies)
    finally:
        await redis.aclose()


async def bare_commands(port: int, clients: int, seconds: float, rate: float | None = None) -> Load:
    """``clients`` clients on the bare endpoint, each on its own game; paced to ``rate`` when given."""
    latencies: list[float] = []
    errors = 0
    pacer = Pacer(rate)
    ids = itertools.count()
    end = time.perf_counter() + seconds

    async def client(i: int) -> None:
        nonlocal errors
        http = Http(port)
        path = f"/games/bench-bare-{random.getrandbits(48):x}-{i}/commands"
        try:
            while time.perf_counter() < end:
                body = b'{"command":{"type":"DrawFromDeck"},"command_id":"c%d"}' % next(ids)
                await pacer.wait()
                start = time.perf_counter()
                status, _ = await http.request("POST", path, body)
                latencies.append(time.perf_counter() - start)
                errors += status != 200
        finally:
            await http.close()

    start = time.perf_counter()
    await asyncio.gather(*(client(i) for i in range(clients)))
    return Load(len(latencies), time.perf_counter() - start, latencies, errors)


# -- Ludoteca: games, bots ---------------------------------------------------------------


async def new_games(port: int, count: int, clients: int, players: int | None = None) -> list[Seated]:
    """``count`` started games over HTTP, every kind in GAMES in turn, every table size in turn."""
    kinds = [(kind, size) for kind, game in GAMES.items() for size in itertools.islice(seat_counts(game), 5)]
    conns = [Http(port) for _ in range(clients)]

    async def one(i: int) -> Seated:
        http = conns[i % clients]
        kind, size = kinds[i % len(kinds)]
        size = players or size
        created = await http.json("POST", f"{API}/games", {"game": kind, "players": size})
        tokens = [""] * size
        for _ in range(size):
            joined = await http.json("POST", f"{API}/games/{created['game_id']}/seats", {})
            tokens[joined["seat"]] = joined["token"]
        return Seated(created["game_id"], tokens, kind)

    try:
        # One job per connection at a time: jobs i, i + clients, ... share connection i.
        lanes = [[j for j in range(count) if j % clients == c] for c in range(clients)]

        async def lane(jobs: list[int]) -> list[Seated]:
            return [await one(j) for j in jobs]

        done = await asyncio.gather(*(lane(jobs) for jobs in lanes))
        return [g for lane_games in done for g in lane_games]
    finally:
        for http in conns:
            await http.close()


Answer = Callable[[Seated, int, float], None]


async def bots(
    port: int,
    mirror: Tables,
    pool: Sequence[Seated],
    clients: int,
    seconds: float,
    rate: float | None = None,
    on_answer: Answer | None = None,
) -> Load:
    """``clients`` bots send random legal commands to the games of ``pool``, each game held by one bot at a time.

    The bots choose with the same rules, on their own replica of each game (``mirror``,
    caught up from Redis), so the server is sent commands only.
    """
    ready = deque(pool)
    latencies: list[float] = []
    errors = 0
    pacer = Pacer(rate)
    ids = itertools.count()
    rng = random.Random(7)
    end = time.perf_counter() + seconds

    async def client() -> None:
        nonlocal errors
        http = Http(port)
        try:
            while time.perf_counter() < end and ready:
                seated = ready.popleft()
                game, table = await mirror.load(seated.game_id)
                chosen = choose(game, table, rng)
                if chosen is None or chosen[0] == CLOCK:
                    continue  # over (or waiting on the clock): leave the pool
                seat, command, _ = chosen
                body = encode({"command": command, "command_id": f"b{next(ids)}"})
                await pacer.wait()
                start = time.perf_counter()
                status, answer = await http.request(
                    "POST", f"{API}/games/{seated.game_id}/commands", body, seated.tokens[seat]
                )
                now = time.perf_counter()
                latencies.append(now - start)
                if status == 200:
                    if on_answer is not None:
                        on_answer(seated, ANSWERED.decode(answer).version, now)
                else:
                    errors += 1
                ready.append(seated)
        finally:
            await http.close()

    start = time.perf_counter()
    await asyncio.gather(*(client() for _ in range(clients)))
    return Load(len(latencies), time.perf_counter() - start, latencies, errors)


def hello(token: str | None, after: int) -> bytes:
    return msgspec.json.encode({"type": "hello", "token": token, "after": after})


# Sockets opened at once: below the server's Redis pool (100 connections, which fail past that).
OPENING = 40


async def open_all(watchers: Sequence[Watcher], concurrency: int = OPENING) -> list[Watcher]:
    """Open every socket; those the server refused (or closed before their first update) are left out."""

    async def one(w: Watcher) -> Watcher | None:
        try:
            await w.open()
            return w
        except (OSError, RuntimeError, TimeoutError, InvalidHandshake, ConnectionClosed):
            await w.close()
            return None

    opened = await bounded([functools.partial(one, w) for w in watchers], concurrency)
    return [w for w in opened if w is not None]


async def close_all(watchers: Sequence[Watcher]) -> None:
    await bounded([w.close for w in watchers], 200)


def _waiter(target: int, pending: set[int], done: asyncio.Event) -> Callable[[Watcher, int], None]:
    """Marks a socket served once it holds ``target``; sets ``done`` when none is pending."""

    def reached(w: Watcher, version: int) -> None:
        if version >= target:
            pending.discard(id(w))
            if not pending:
                done.set()

    return reached


async def rounds(watchers: Sequence[Watcher], steps: Sequence[tuple[int, Callable[[], Awaitable[object]]]]) -> Rounds:
    """For each ``(version, send)``: send, then wait until every socket holds ``version``."""
    result = Rounds()
    for target, send in steps:
        pending = {id(w) for w in watchers if w.arrival(target) is None}
        done = asyncio.Event()
        reached = _waiter(target, pending, done)
        for w in watchers:
            w.reached = reached
        start = time.perf_counter()
        await send()
        if pending:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(done.wait(), 10)
        arrivals = [a for a in (w.arrival(target) for w in watchers) if a is not None]
        result.rounds += 1
        result.seconds += max(arrivals, default=start) - start
        result.delays += [max(0.0, a - start) for a in arrivals]
        result.missed += len(watchers) - len(arrivals)
    return result


# -- sockets held by another process -----------------------------------------------------


def hold_sockets(targets: list[tuple[str, bytes]], conn: Connection) -> None:
    """(In a child process.) Open one socket per ``(url, hello)``, report how many, hold them
    until told, then send back what each received and when (``None`` for one refused)."""
    from server.bench.procs import raise_fd_limit

    raise_fd_limit()

    async def main() -> None:
        watchers = [Watcher(url, hello) for url, hello in targets]
        opened = {id(w) for w in await open_all(watchers)}
        conn.send(len(opened))
        await asyncio.get_running_loop().run_in_executor(None, conn.poll, 600.0)
        conn.send([(w.versions, w.times) if id(w) in opened else None for w in watchers])

    asyncio.run(main())


class Holder:
    """A child process holding many sockets: idle ones, or the seats' sockets whose arrival
    times are measured away from the process that sends the load (so that receiving them
    does not slow the load, nor the load delay their reading). ``perf_counter`` is the
    system's monotonic clock: the child's times and the parent's compare."""

    def __init__(self, targets: list[tuple[str, bytes]]) -> None:
        here, there = multiprocessing.get_context("spawn").Pipe()
        self.conn = here
        self.process = multiprocessing.get_context("spawn").Process(target=hold_sockets, args=(targets, there))

    def start(self, timeout: float) -> int:
        self.process.start()
        if not self.conn.poll(timeout):
            raise RuntimeError(f"the socket holder did not open its sockets within {timeout:g} s")
        opened: int = self.conn.recv()
        return opened

    def stop(self) -> list[Arrivals | None]:
        """Close every socket; what each received (empty if the child could not say)."""
        received: list[Arrivals | None] = []
        if self.process.is_alive():
            with contextlib.suppress(OSError, EOFError):
                self.conn.send("done")
                if self.conn.poll(60):
                    received = self.conn.recv()
            self.process.join(30)
        if self.process.is_alive():
            self.process.kill()
            self.process.join()
        return received
