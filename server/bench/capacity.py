"""Capacity at a player's pace: how many tables Ludoteca's replicas on one Redis hold (``replicas``
processes, as an operator runs them; each driver plays on one of them, in turn, so a table's four
sockets are on one replica, as a sticky balancer places them), and one boardgame.io process.

T tables of four seats, every seat's socket open, each table making one move every ``pace``
seconds on average (uniform between half and one and a half of it, each table on its own
clock); T rises step by step (the tables already seated stay and go on playing) until the p99
from a move sent to its arrival on every seat passes ``p99_ms``, memory runs short, sockets are
refused, or the processes' descriptor limits leave no room for the next step. A step's window is
measured in ``slices`` one after the other, and its p99 is the median of theirs: on a machine
shared with other work one stall of the host (a few hundred ms, every socket at once) is one
slice's tail, not the step's. Each step also says what held the replicas' event loops in each slice
(their timers late by 50 ms and more, server/runtime/lag.py, and their collections) and what held
Redis itself (its latency monitor: a fork, a write of its append-only file), so that a slow slice
can be laid at the door of the replicas, Redis, or neither (the drivers, the host). The drivers are
separate processes, each on its own loopback address (a source address has about 28,000
ephemeral ports towards one server port).
"""

from __future__ import annotations

import asyncio
import resource
import statistics
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

import redis.asyncio as aioredis

from server.bench import node, procs
from server.bench.client import percentile, scrape
from server.bench.report import Row, say

MIB = 1024 * 1024
SEATS = 4
SPARE_FDS = 256  # what a server process holds besides its sockets (Redis pool, listener, files), with room
LOW_MEMORY = 2 * 1024 * MIB  # stop before a step when less than this is available
CONNECTING = 32  # sockets opened at once, over every driver: below ludoteca serve's Redis pool (100)
REDIS_STALL_MS = 10  # Redis's latency monitor notes what held it this long or longer
# ludoteca serve's settings here: no per-address quotas (one address), a cache that holds every table.
LUDOTECA_ENV = {**procs.UNLIMITED, "LUDOTECA_CACHE_SIZE": "100000"}


@dataclass(frozen=True)
class CapacityPlan:
    steps: tuple[int, ...]  # tables at each step
    pace: float  # seconds between two moves of a table, on average
    seconds: float  # the window measured at each step
    warmup: float
    drivers: int
    replicas: int = 1  # Ludoteca's servers on the one Redis (each driver plays on one of them, in turn)
    slices: int = 5
    p99_ms: float = 50.0
    moonshot: int = 10_000


FULL_CAPACITY = CapacityPlan(
    steps=(100, 250, 500, 1000, 1500, 2000, 2500, 3000, 3500, 4000, 4500, 5000, 6000, 7000, 8000, 9000, 10_000),
    pace=10.0,
    seconds=30.0,
    warmup=5.0,
    drivers=4,
    replicas=2,
)
QUICK_CAPACITY = CapacityPlan(steps=(8,), pace=1.0, seconds=1.5, warmup=0.3, drivers=2, replicas=2, slices=3)


@dataclass(frozen=True)
class Loops:
    """What held the replicas' event loops, every replica's together, from their ``/metrics`` (counts
    since each started: a window's are the difference of two)."""

    timers: float = 0.0  # the 10 ms timers that measure how late the loop runs
    late_25: float = 0.0  # of them, 25 ms late or more
    late_50: float = 0.0
    collections: float = 0.0
    long_collections: float = 0.0  # 10 ms or more
    collecting: float = 0.0  # seconds, every collection's together

    def __sub__(self, before: Loops) -> Loops:
        return Loops(*(getattr(self, f.name) - getattr(before, f.name) for f in fields(self)))

    def __add__(self, other: Loops) -> Loops:
        return Loops(*(getattr(self, f.name) + getattr(other, f.name) for f in fields(self)))


def loops_of(samples: list[tuple[str, float]]) -> Loops:
    """One replica's :class:`Loops`, from its scraped samples."""
    found = dict(samples)
    collections = [v for n, v in samples if n.startswith("ludoteca_gc_pause_seconds_count")]
    under_10 = [v for n, v in samples if n.startswith("ludoteca_gc_pause_seconds_bucket") and 'le="0.01"' in n]
    timers = found.get("ludoteca_event_loop_lag_seconds_count", 0.0)
    return Loops(
        timers=timers,
        late_25=timers - found.get('ludoteca_event_loop_lag_seconds_bucket{le="0.025"}', timers),
        late_50=timers - found.get('ludoteca_event_loop_lag_seconds_bucket{le="0.05"}', timers),
        collections=sum(collections),
        long_collections=sum(collections) - sum(under_10),
        collecting=sum(v for n, v in samples if n.startswith("ludoteca_gc_pause_seconds_sum")),
    )


async def loops(servers: list[procs.Server]) -> Loops:
    """Every replica's :class:`Loops` now, added up."""
    total = Loops()
    for server in servers:
        total += loops_of(await scrape(server.port, procs.METRICS_TOKEN))
    return total


class RedisStalls:
    """What held Redis itself while a step played, from its latency monitor (``LATENCY LATEST``: each kind
    of event, such as ``fork`` or ``aof-write``, and its longest) and its forks (an append-only file
    rewritten in the background forks)."""

    def __init__(self, url: str) -> None:
        self.redis = aioredis.Redis.from_url(url)
        self.forks = 0

    async def start(self) -> None:
        await self.redis.config_set("latency-monitor-threshold", REDIS_STALL_MS)
        await self.redis.latency_reset()
        self.forks = int((await self.redis.info("stats"))["total_forks"])

    async def since(self) -> str:
        """What held it since the last call (or :meth:`start`), in a few words; the monitor starts again."""
        latest = await self.redis.latency_latest()
        await self.redis.latency_reset()
        forks = int((await self.redis.info("stats"))["total_forks"])
        said = [f"{_text(event)} {_text(most)} ms" for event, _, _, most in latest]
        said += [f"{forks - self.forks} fork(s)"] if forks > self.forks else []
        self.forks = forks
        return ", ".join(said) if said else f"nothing over {REDIS_STALL_MS} ms"

    async def close(self) -> None:
        await self.redis.aclose()


def _text(value: object) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


@dataclass
class Held:
    """One step: T tables playing at the pace."""

    tables: int
    moves: int
    seconds: float
    delays: list[float]  # ms, every seat's arrival
    slices: list[float]  # each slice's p99, ms
    cpu: float  # the servers' CPU seconds in the window, every replica's together
    redis_cpu: float
    rss: int  # the servers' RSS at the end of the window, every replica's together
    redis_growth: int  # redis-server's RSS growth since the phase started
    refused: int
    missed: int
    driver_cpu: float  # the busiest driver's CPU seconds in the window
    driver_lag: float  # the most any driver's event loop ran late, ms
    busy: float  # cores the whole machine kept busy, on average over the slices
    replicas: int = 1
    look_ms: float = 0.0  # the longest pause of a replica's last full garbage look (0: none yet)
    waited: dict[str, tuple[float, int]] = field(default_factory=dict)  # by part: seconds waited for a core, turns
    held_loops: list[Loops] = field(default_factory=list)  # each slice's (the first's warm-up in it)
    redis_stalls: str = ""  # what held Redis itself in the step (its latency monitor)

    @property
    def p99(self) -> float:
        """The median of the slices' p99s."""
        return statistics.median(self.slices) if self.slices else 0.0

    def line(self) -> str:
        share = 100 * self.cpu / self.seconds / self.replicas
        return (
            f"{self.tables} tables: {self.moves / self.seconds:.0f} moves/s, p50 {percentile(self.delays, 50):.1f} / "
            f"p99 {self.p99:.1f} ms (slices {' / '.join(f'{p:.0f}' for p in self.slices)}; whole window "
            f"{percentile(self.delays, 99):.0f}), CPU {share:.0f}% and RSS {self.rss / MIB / self.replicas:.0f} MiB "
            f"a replica ({self.replicas}), "
            f"drivers late by up to {self.driver_lag:.0f} ms, machine busy {self.busy:.2f} cores"
            + (f", the last garbage look paused a replica {self.look_ms:.1f} ms at most" if self.look_ms else "")
            + self.waits_said()
            + self.loops_said()
            + (f"; Redis held: {self.redis_stalls}" if self.redis_stalls else "")
        )

    def waits_said(self) -> str:
        said = [
            f"{part} {1000 * wait / self.seconds:.0f} ms a second ({1000 * wait / turns:.2f} ms a turn)"
            for part, (wait, turns) in self.waited.items()
            if turns
        ]
        return f"; waited for a core: {', '.join(said)}" if said else ""

    def loops_said(self) -> str:
        if not self.held_loops:
            return ""
        whole = sum(self.held_loops, Loops())
        return (
            f"; replicas' loops late by 25 ms or more {whole.late_25:.0f} times of {whole.timers:.0f}, 50 ms or "
            f"more {whole.late_50:.0f} (slices {' / '.join(f'{s.late_50:.0f}' for s in self.held_loops)}), "
            f"{whole.collections:.0f} collections ({whole.long_collections:.0f} of 10 ms or more, "
            f"{1000 * whole.collecting:.0f} ms in all)"
        )


@dataclass
class Capacity:
    server: str
    steps: list[Held] = field(default_factory=list)
    reason: str = ""
    fd_limit: int = 0
    p99_ms: float = 50.0

    @property
    def held(self) -> Held | None:
        """The last step that held (the steps stop at the first that did not)."""
        good = [s for s in self.steps if s.p99 <= self.p99_ms and not s.refused]
        return good[-1] if good else None


def available_memory() -> int:
    for line in Path("/proc/meminfo").read_text().splitlines():
        if line.startswith("MemAvailable:"):
            return int(line.split()[1]) * 1024
    return 0


def waits(slices: list[dict[str, tuple[float, int]]], replicas: int, drivers: int) -> dict[str, tuple[float, int]]:
    """The slices' waits for a core (:class:`node.Meter`), added up by part: the replicas, Redis, the drivers."""
    parts = {
        "replicas": [f"server {i}" for i in range(replicas)],
        "redis-server": ["redis-server"],
        "drivers": [f"driver {i}" for i in range(drivers)],
    }
    added = {}
    for part, names in parts.items():
        found = [w[name] for w in slices for name in names if name in w]
        added[part] = (sum(wait for wait, _ in found), sum(turns for _, turns in found))
    return added


async def last_look(servers: list[procs.Server]) -> float:
    """The longest pause, in ms, of the replicas' last full garbage looks (``ludoteca_gc_look_pause_seconds``;
    a look is hourly unless ``LUDOTECA_GC_THAW_INTERVAL`` says otherwise)."""
    pauses = [0.0]
    for server in servers:
        samples = await scrape(server.port, procs.METRICS_TOKEN)
        pauses += [value for name, value in samples if name == "ludoteca_gc_look_pause_seconds"]
    return 1000 * max(pauses)


async def ramp(
    name: str,
    kind: str,
    servers: list[procs.Server],
    redis_pid: int | None,
    plan: CapacityPlan,
    redis_url: str | None = None,
) -> Capacity:
    """Raise the tables on started servers (replicas of one Redis) until a step fails; every step is kept."""
    limit = resource.getrlimit(resource.RLIMIT_NOFILE)[0]  # the servers inherited it from the bench
    result = Capacity(name, p99_ms=plan.p99_ms, fd_limit=limit)
    room = len(servers) * ((limit - SPARE_FDS) // SEATS)  # a table's sockets are all on one replica
    steps = [t for t in plan.steps if t <= room]
    if len(steps) < len(plan.steps):
        steps.append(room)  # as far as the descriptors go
    drivers = node.Drivers(
        [node.Driver(kind, servers[i % len(servers)].port, f"127.0.0.{2 + i}") for i in range(plan.drivers)]
    )
    watched = {f"server {i}": s.pid for i, s in enumerate(servers)}
    watched |= {"redis-server": redis_pid} if redis_pid is not None else {}
    redis_start = procs.rss(redis_pid) if redis_pid is not None else 0
    seated = 0
    stalls = RedisStalls(redis_url) if redis_url is not None else None
    try:
        await drivers.start()
        if stalls is not None:
            await stalls.start()
        for tables in steps:
            if available_memory() < LOW_MEMORY:
                result.reason = f"memory: {available_memory() / MIB:.0f} MiB available before {tables} tables"
                break
            await drivers.split("create", tables - seated)
            concurrency = max(SEATS, CONNECTING // plan.drivers)
            opened = await drivers.split("connect", tables - seated, concurrency=concurrency)
            refused = sum(a["refused"] for a in opened)
            seated = tables
            slices: list[tuple[node.Meter, list[dict[str, Any]]]] = []
            held_loops: list[Loops] = []
            if stalls is not None:
                await stalls.since()  # what seating the tables cost Redis is not the play's
            for k in range(plan.slices):
                meter = node.Meter(watched | {f"driver {i}": d.pid for i, d in enumerate(drivers.drivers)})
                warmup = plan.warmup if k == 0 else 0.0
                request = {"op": "play", "seconds": plan.seconds / plan.slices, "pace": plan.pace, "warmup": warmup}
                before = await loops(servers) if kind == "ludoteca" else None
                slices.append((meter, await drivers.each(request, meter.window)))
                if before is not None:
                    held_loops.append(await loops(servers) - before)
            answers = [a for _, some in slices for a in some]
            used = [m.used for m, _ in slices]
            step = Held(
                tables=tables,
                moves=sum(a["moves"] for a in answers),
                seconds=plan.seconds,
                delays=[d for a in answers for d in a["delays"]],
                slices=[percentile([d for a in some for d in a["delays"]], 99) for _, some in slices],
                cpu=sum(u.get(f"server {i}", 0.0) for u in used for i in range(len(servers))),
                redis_cpu=sum(u.get("redis-server", 0.0) for u in used),
                rss=sum(procs.rss(s.pid) for s in servers),
                redis_growth=(procs.rss(redis_pid) - redis_start) if redis_pid is not None else 0,
                refused=refused,
                missed=sum(a["missed"] for a in answers),
                driver_cpu=max(sum(u.get(f"driver {i}", 0.0) for u in used) for i in range(plan.drivers)),
                driver_lag=max(a["driver_lag_ms"]["max"] for a in answers),
                busy=statistics.mean(m.busy for m, _ in slices),
                replicas=len(servers),
                waited=waits([m.waited for m, _ in slices], len(servers), plan.drivers),
                look_ms=await last_look(servers) if kind == "ludoteca" else 0.0,
                held_loops=held_loops,
                redis_stalls=await stalls.since() if stalls is not None else "",
            )
            result.steps.append(step)
            say(f"capacity[{name}]: {step.line()}")
            if refused:
                result.reason = f"{refused} sockets refused at {tables} tables"
                break
            if step.p99 > plan.p99_ms:
                result.reason = f"p99 {step.p99:.1f} ms over {plan.p99_ms:g} ms at {tables} tables"
                break
        else:
            last = steps[-1] if steps else 0
            if last >= plan.moonshot:
                result.reason = f"reached the moonshot, {plan.moonshot} tables"
            elif last == plan.steps[-1]:
                result.reason = f"the plan's last step ({last} tables) held"
            else:
                result.reason = (
                    f"descriptors: {SEATS} sockets a table and a per-process limit of {limit} (the hard limit "
                    f"here) leave room for {room} tables on {len(servers)} replicas; the p99 held at every step"
                )
    except BaseException:
        said = "\n".join(s.output() for s in servers)
        say(f"{name} said:\n{said}\ndriver said:\n{drivers.drivers[0].output()}")
        raise
    finally:
        await drivers.stop()
        if stalls is not None:
            await stalls.close()
    return result


async def capacity(redis_url: str, redis_pid: int | None, peers: list[tuple[str, Callable[[], procs.Server]]],
                   plan: CapacityPlan) -> list[Row]:  # fmt: skip
    """Ludoteca's ramp, then each peer's (boardgame.io's storages), and their rows."""
    results: list[Capacity] = []
    runs: list[tuple[str, str, Callable[[], procs.Server], int, int | None]] = [
        ("Ludoteca", "ludoteca", lambda: procs.ludoteca(redis_url, LUDOTECA_ENV), plan.replicas, redis_pid),
        *((name, "bgio", start, 1, None) for name, start in peers),  # boardgame.io's servers share no store
    ]
    for name, kind, start, replicas, pid in runs:
        say(f"capacity at a player's pace: {name}" + (f", {replicas} replicas on one Redis" if replicas > 1 else ""))
        servers: list[procs.Server] = []
        try:
            for _ in range(replicas):
                servers.append(start().start("/readyz" if kind == "ludoteca" else "/games"))
            results.append(await ramp(name, kind, servers, pid, plan, redis_url if kind == "ludoteca" else None))
        finally:
            for server in servers:
                server.stop()
            await asyncio.sleep(1.0)
    return rows(results, plan)


def rows(results: list[Capacity], plan: CapacityPlan) -> list[Row]:
    ours, peers = results[0], results[1:]
    out: list[Row] = []
    versus: list[Capacity | None] = [*peers] if peers else [None]
    for theirs in versus:
        against = f" vs bgio {theirs.server}" if theirs is not None else ""
        figures: list[tuple[str, str, Callable[[Capacity], float]]] = [
            ("tables held at a player's pace", "tables", lambda c: c.held.tables if c.held else 0),
            ("server CPU at the tables held", "% core", lambda c: 100 * c.held.cpu / c.held.seconds if c.held else 0),
            ("server RSS at the tables held", "MiB", lambda c: c.held.rss / MIB if c.held else 0),  # every replica
        ]
        for i, (label, unit, figure) in enumerate(figures):
            # The first row carries every step of both ramps; the others refer to it.
            whole = summary(ours, plan) + (f" || bgio {summary(theirs, plan)}" if theirs else "")
            out.append(
                Row(
                    f"capacity{against}: {label}",
                    unit,
                    figure(theirs) if theirs is not None else None,
                    figure(ours),
                    note=whole if i == 0 else f"info: at the tables held (see the row above){redis_note(ours)}",
                )
            )
    return out


def redis_note(result: Capacity) -> str:
    held = result.held
    if held is None or not held.redis_cpu:
        return ""
    return (
        f"; Ludoteca's redis-server besides: {100 * held.redis_cpu / held.seconds:.0f}% of a core, "
        f"+{held.redis_growth / MIB:.0f} MiB over the phase"
    )


def summary(result: Capacity, plan: CapacityPlan) -> str:
    held = result.held
    at = (
        f"held {held.tables} tables ({SEATS * held.tables} sockets) on {held.replicas} replica(s): p99 "
        f"{held.p99:.1f} ms, {held.moves / held.seconds:.0f} moves/s, "
        f"servers' CPU {100 * held.cpu / held.seconds:.0f}% of a core"
        + (f" + redis-server {100 * held.redis_cpu / held.seconds:.0f}%" if held.redis_cpu else "")
        + f", servers' RSS {held.rss / MIB:.0f} MiB"
        + (f", redis-server +{held.redis_growth / MIB:.0f} MiB" if held.redis_growth else "")
        + f", busiest driver {100 * held.driver_cpu / held.seconds:.0f}%"
        if held
        else "held no step"
    )
    steps = "; ".join(s.line() for s in result.steps)
    return (
        f"{result.server}: {at}; stopped: {result.reason}; one move a table every {plan.pace:g} s on average, "
        f"{plan.seconds:g} s a step; steps: {steps}"
    )
