"""The peer: Ludoteca beside boardgame.io, the same game under one load shape, one driver design.

Vilar de Mouros' turn structure ported to boardgame.io (server/bench/peer/vilar.js), run by
boardgame.io's own server in its default in-memory storage and in FlatFile, and ``ludoteca serve``
on the bench's Redis. Each server is started afresh for each of its runs, and the runs alternate
(round 1: in memory, FlatFile, Ludoteca; round 2 the other way round; ...); every figure is the
median of its rounds. In each run, on the same driver processes (drive.js):

- memory per created game: RSS growth over N tables created, every seat joined (Ludoteca: its
  server's and redis-server's growth together);
- memory per idle connected seat: RSS growth over the seats' sockets of many tables, opened and idle;
- one game alone: one table, every seat connected, moves as fast as the server answers;
- saturation: many tables at once, the same; moves/s, the delay from a move sent to its arrival on
  every seat (p50, p99 over every seat's arrival), CPU per move of the server (and of redis-server).
"""

from __future__ import annotations

import asyncio
import os
import statistics
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from server.bench import node, procs
from server.bench.client import percentile
from server.bench.report import Row, say

KIB = 1024
BGIO = ("in memory", "FlatFile")
SETTLE = 5.0  # seconds after the idle sockets close
# ludoteca serve's settings for the peer: the per-address quotas off (every request comes from one
# address), a socket's rate limit above what one seat sends when its game is played alone, and a
# cache that holds every game the phase creates (boardgame.io keeps every match in memory).
LUDOTECA_ENV = {
    **procs.UNLIMITED,
    "LUDOTECA_WS_RATE": "10000",
    "LUDOTECA_WS_BURST": "10000",
    "LUDOTECA_CACHE_SIZE": "100000",
}


@dataclass(frozen=True)
class PeerPlan:
    rounds: int
    created: int  # tables created before the memory figure (and kept for the loads)
    idle_tables: int  # tables whose seats' sockets are opened for the idle figure
    alone_seconds: float
    tables: int  # tables at once at saturation
    seconds: float  # the saturation window
    warmup: float
    drivers: int


FULL_PEER = PeerPlan(rounds=3, created=2000, idle_tables=500, alone_seconds=5.0, tables=100, seconds=10.0,
                     warmup=2.0, drivers=2)  # fmt: skip
QUICK_PEER = PeerPlan(rounds=1, created=120, idle_tables=20, alone_seconds=1.0, tables=10, seconds=2.0,
                      warmup=0.5, drivers=1)  # fmt: skip


@dataclass
class Run:
    """One server's figures in one round."""

    server: str
    created_kib: float = 0.0
    seat_kib: float = 0.0
    alone: list[float] = field(default_factory=list)  # ms
    moves: int = 0
    seconds: float = 0.0
    delays: list[float] = field(default_factory=list)  # ms
    cpu: dict[str, float] = field(default_factory=dict)  # CPU seconds in the saturation window, by process
    driver_cpu: float = 0.0  # the busiest driver process's CPU seconds in that window
    busy: float = 0.0  # cores the whole machine kept busy in that window
    missed: int = 0
    errors: int = 0
    ended: int = 0
    problems: dict[str, int] = field(default_factory=dict)  # error codes, sockets closed by the server

    @property
    def rate(self) -> float:
        return self.moves / self.seconds if self.seconds else 0.0

    def cpu_us(self, process: str) -> float:
        return 1e6 * self.cpu.get(process, 0.0) / self.moves if self.moves else 0.0


Start = Callable[[], procs.Server]


def rss(pids: dict[str, int]) -> int:
    return sum(procs.rss(pid) for pid in pids.values())


async def one_run(name: str, kind: str, start: Start, redis_pid: int | None, plan: PeerPlan) -> Run:
    run = Run(name)
    server = start().start("/games" if kind == "bgio" else "/readyz")
    drivers = node.Drivers([node.Driver(kind, server.port) for _ in range(plan.drivers)])
    try:
        await drivers.start()
        watched = {"server": server.pid} | ({"redis-server": redis_pid} if redis_pid is not None else {})
        # A few tables first: what the server allocates once (its first requests) is not a game's cost.
        await drivers.split("create", 4 * plan.drivers)
        await drivers.split("connect", 4 * plan.drivers)
        await drivers.each({"op": "close"})
        await asyncio.sleep(0.5)
        before = rss(watched)
        await drivers.split("create", plan.created)
        await asyncio.sleep(1.0)
        run.created_kib = (rss(watched) - before) / plan.created / KIB
        before = procs.rss(server.pid)
        opened = sum(a["connected"] for a in await drivers.split("connect", plan.idle_tables))
        await asyncio.sleep(1.0)
        run.seat_kib = (procs.rss(server.pid) - before) / max(1, opened) / KIB
        await drivers.each({"op": "close"})
        # Closing thousands of sockets at once leaves the server work to do: on ludoteca serve each
        # close deletes its presence key and publishes, and for about 2 s (2,000 sockets, this
        # machine) its Redis pool has no connection left, so a new socket's hello is refused with
        # store_unavailable. Both servers get the same pause before the game alone.
        await asyncio.sleep(SETTLE)
        # One game alone (then the next created table, when a game ends), on the first driver.
        first = drivers.drivers[0]
        await first.ask({"op": "connect", "tables": 1})
        alone = await first.ask({"op": "play", "seconds": plan.alone_seconds, "warmup": 0.2})
        run.alone = alone["delays"]
        await first.ask({"op": "close"})
        await drivers.split("connect", plan.tables)
        meter = node.Meter(watched | {f"driver {i}": d.pid for i, d in enumerate(drivers.drivers)})
        answers = await drivers.each({"op": "play", "seconds": plan.seconds, "warmup": plan.warmup}, meter.window)
        await drivers.each({"op": "close"})
        run.moves = sum(a["moves"] for a in answers)
        run.seconds = plan.seconds
        run.delays = [d for a in answers for d in a["delays"]]
        run.cpu = meter.used
        run.driver_cpu = max(v for k, v in meter.used.items() if k.startswith("driver"))
        run.missed = sum(a["missed"] for a in answers)
        run.errors = sum(a["errors"] for a in answers)
        run.ended = sum(a["ended"] for a in answers)
        run.busy = meter.busy
        for a in answers:
            for what, count in a["problems"].items():
                run.problems[what] = run.problems.get(what, 0) + count
    except BaseException:
        say(f"{name} said:\n{server.output()}\ndriver said:\n{drivers.drivers[0].output()}")
        raise
    finally:
        await drivers.stop()
        server.stop()
    return run


async def peer(redis_url: str, redis_pid: int | None, plan: PeerPlan, scratch: Path) -> list[Row]:
    """Every round, then one row per figure and boardgame.io storage (boardgame.io in the ceiling column)."""
    servers: list[tuple[str, str, Start]] = [
        ("in memory", "bgio", lambda: node.bgio(None)),
        ("FlatFile", "bgio", lambda: node.bgio(Path(tempfile.mkdtemp(prefix="flatfile-", dir=scratch)))),
        ("Ludoteca", "ludoteca", lambda: procs.ludoteca(redis_url, LUDOTECA_ENV)),
    ]
    runs: dict[str, list[Run]] = {name: [] for name, _, _ in servers}
    for r in range(plan.rounds):
        for name, kind, start in servers if r % 2 == 0 else servers[::-1]:
            say(f"peer round {r + 1} of {plan.rounds}: {name}")
            runs[name].append(await one_run(name, kind, start, redis_pid if kind == "ludoteca" else None, plan))
    return rows(runs, plan)


def median(runs: list[Run], figure: Callable[[Run], float]) -> float:
    return statistics.median(figure(r) for r in runs)


def rows(runs: dict[str, list[Run]], plan: PeerPlan) -> list[Row]:
    ours = runs["Ludoteca"]
    out: list[Row] = []
    figures: list[tuple[str, str, Callable[[Run], float], Any, Any]] = [
        ("moves/s at saturation", "per s", lambda r: r.rate, 1.0, ">="),
        ("move to every seat p50 at saturation", "ms", lambda r: percentile(r.delays, 50), None, "<="),
        ("move to every seat p99 at saturation", "ms", lambda r: percentile(r.delays, 99), 1.0, "<="),
        ("one game alone p50", "ms", lambda r: percentile(r.alone, 50), None, "<="),
        ("one game alone p99", "ms", lambda r: percentile(r.alone, 99), 1.0, "<="),
        ("server CPU per move", "us", lambda r: r.cpu_us("server"), None, "<="),
        ("memory per idle connected seat", "KiB", lambda r: r.seat_kib, None, "<="),
        ("memory per created game", "KiB", lambda r: r.created_kib, None, "<="),
    ]
    for storage in BGIO:
        theirs = runs[storage]
        for label, unit, figure, target, goal in figures:
            # The targets (faster than boardgame.io) are judged against its in-memory storage.
            judged = target if storage == "in memory" else None
            out.append(
                Row(
                    f"peer[bgio {storage}]: {label}",
                    unit,
                    median(theirs, figure),
                    median(ours, figure),
                    judged,
                    goal,
                    note=note(label, theirs, ours, plan),
                )
            )
    return out


def spread(runs: list[Run], figure: Callable[[Run], float]) -> str:
    return " / ".join(f"{figure(r):.4g}" for r in runs)


def note(label: str, theirs: list[Run], ours: list[Run], plan: PeerPlan) -> str:
    rounds = f"median of {len(ours)} rounds (boardgame.io {{}}; Ludoteca {{}})"
    if label.startswith("moves/s"):
        return (
            rounds.format(spread(theirs, lambda r: r.rate), spread(ours, lambda r: r.rate))
            + f"; {plan.tables} tables of 4 seats at once, {plan.seconds:g} s after {plan.warmup:g} s of warm-up; "
            f"CPU of a core in the window, server / busiest driver process: boardgame.io "
            f"{share(theirs, 'server')} / {driver_share(theirs)}, Ludoteca {share(ours, 'server')} / "
            f"{driver_share(ours)} (redis-server {share(ours, 'redis-server')}); games ended and replaced: "
            f"{sum(r.ended for r in theirs)} / {sum(r.ended for r in ours)}; arrivals missed: "
            f"{sum(r.missed for r in theirs)} / {sum(r.missed for r in ours)}; errors: "
            f"{sum(r.errors for r in theirs)} / {sum(r.errors for r in ours)}{problems(theirs + ours)}; the whole "
            f"machine kept {median(theirs, lambda r: r.busy):.2f} / {median(ours, lambda r: r.busy):.2f} of its "
            f"{os.cpu_count()} cores busy"
        )
    if "saturation" in label:
        return rounds.format(
            spread(theirs, lambda r: percentile(r.delays, 99 if "p99" in label else 50)),
            spread(ours, lambda r: percentile(r.delays, 99 if "p99" in label else 50)),
        ) + (f"; from a move sent to its arrival on each of the 4 seats' sockets, every arrival counted; "
             f"{sum(len(r.delays) for r in ours)} arrivals at Ludoteca")  # fmt: skip
    if "alone" in label:
        q = 99 if "p99" in label else 50
        return (
            rounds.format(
                spread(theirs, lambda r: percentile(r.alone, q)), spread(ours, lambda r: percentile(r.alone, q))
            )
            + f"; one table for {plan.alone_seconds:g} s (a game that ends gives way to the next table created)"
        )
    if "CPU" in label:
        return rounds.format(
            spread(theirs, lambda r: r.cpu_us("server")), spread(ours, lambda r: r.cpu_us("server"))
        ) + (f"; the server process's user + system time in the saturation window per move; Ludoteca's "
             f"redis-server adds {median(ours, lambda r: r.cpu_us('redis-server')):.0f} us a move")  # fmt: skip
    if "seat" in label:
        return rounds.format(spread(theirs, lambda r: r.seat_kib), spread(ours, lambda r: r.seat_kib)) + (
            f"; server RSS growth over the 4 seats' sockets of {plan.idle_tables} created tables, opened and idle"
        )
    return rounds.format(spread(theirs, lambda r: r.created_kib), spread(ours, lambda r: r.created_kib)) + (
        f"; RSS growth over {plan.created} tables created, every seat joined; Ludoteca's includes redis-server's"
    )


def problems(runs: list[Run]) -> str:
    seen: dict[str, int] = {}
    for r in runs:
        for what, count in r.problems.items():
            seen[f"{r.server}: {what}"] = seen.get(f"{r.server}: {what}", 0) + count
    return f" ({', '.join(f'{k} x{v}' for k, v in sorted(seen.items()))})" if seen else ""


def share(runs: list[Run], process: str) -> str:
    return f"{100 * median(runs, lambda r: r.cpu.get(process, 0.0) / r.seconds):.0f}%"


def driver_share(runs: list[Run]) -> str:
    return f"{100 * median(runs, lambda r: r.driver_cpu / r.seconds):.0f}%"
