"""The peer's saturation load on ``ludoteca serve`` alone, for one lever's before and after.

``python -m server.bench.movecost ROOT [ROOT ...]``: for each round, and for each checkout ROOT in
turn (the order alternating by round), a fresh ``ludoteca serve`` run from that checkout on one
embedded Redis, the peer's driver (server/bench/peer/drive.js) playing T tables of four seats as
fast as the server answers for S seconds; it prints, per run, moves/s, the delay from a move sent
to its arrival on every seat, the server's and redis-server's CPU per move, and per move the Redis
round trips (``total_reads_processed``) and commands (``INFO commandstats``, a script's own commands
counted too) over the play, then each checkout's medians. ``--created N``: as the peer's own run,
N more tables created first (an ended game gives way to one of them; without them the load thins
as games end); ``--idle N``: N tables' seats connected and closed again before the play.
``--profile DIR``: py-spy (installed in the same environment) records each run's window (raw
folded stacks) into DIR. The server runs from the checkout's own files (``python -m`` imports from
its working directory) on this environment's packages.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import redis.asyncio as aioredis

from server.bench import node, procs, versus
from server.bench.client import percentile
from server.bench.versus import LUDOTECA_ENV
from server.storage.embedded import EmbeddedRedis


@dataclass
class Figures:
    moves: int = 0
    delays: list[float] = field(default_factory=list)  # ms, from a move sent to its arrival on each seat
    cpu_us: float = 0.0
    redis_us: float = 0.0
    calls: dict[str, float] = field(default_factory=dict)  # Redis commands per move, by command


async def commandstats(url: str) -> dict[str, int]:
    """The commands Redis ran so far by name (a script's own commands counted too), and ``reads``: the
    read events it processed, one for each batch of commands a client sent at once (a round trip)."""
    client = aioredis.Redis.from_url(url)
    try:
        stats = await client.info("commandstats")
        reads = (await client.info("stats"))["total_reads_processed"]
    finally:
        await client.aclose()
    return {name.removeprefix("cmdstat_"): int(value["calls"]) for name, value in stats.items()} | {"reads": int(reads)}


async def one_run(
    root: Path, redis: EmbeddedRedis, tables: int, seconds: float, profile: Path | None, created: int = 0, idle: int = 0
) -> Figures:
    server = procs.ludoteca(redis.url, LUDOTECA_ENV)
    server.root = root
    server.start("/readyz")
    drivers = node.Drivers([node.Driver("ludoteca", server.port) for _ in range(2)])
    spy: subprocess.Popen[bytes] | None = None
    try:
        await drivers.start()
        await drivers.split("create", tables + 20 + created)  # as the peer's run: games made, not played
        if idle:  # and, as the peer's run, sockets opened on other tables and closed again
            await drivers.split("connect", idle)
            await drivers.each({"op": "close"})
            await asyncio.sleep(versus.SETTLE)
        await drivers.split("connect", tables)
        assert redis.pid is not None
        meter = node.Meter({"server": server.pid, "redis": redis.pid})
        before: dict[str, int] = {}
        after: dict[str, int] = {}

        def window(at: str) -> None:
            meter.window(at)

        if profile is not None:
            out = profile / f"{root.name}-{len(list(profile.iterdir()))}.txt"
            spy_args = ["record", "-p", str(server.pid), "-r", "200", "-d", str(int(seconds) + 2), "-f", "raw"]
            spy = subprocess.Popen(
                [str(Path(sys.executable).parent / "py-spy"), *spy_args, "--nonblocking", "-o", str(out)],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        before = await commandstats(redis.url)
        answers = await drivers.each({"op": "play", "seconds": seconds, "warmup": 1.0}, window)
        after = await commandstats(redis.url)
        await drivers.each({"op": "close"})
    finally:
        await drivers.stop()
        server.stop()
        if spy is not None:
            spy.wait(30)
    moves = sum(a["moves"] for a in answers)
    # The commands counted span the warm-up and the answers too: per move of the whole play.
    played = moves * (seconds + 1.0) / seconds
    calls = {k: (v - before.get(k, 0)) / played for k, v in after.items() if v - before.get(k, 0) > 0}
    delays = [d for a in answers for d in a["delays"]]
    return Figures(moves, delays, 1e6 * meter.used["server"] / moves, 1e6 * meter.used["redis"] / moves, calls)


def line(f: Figures, seconds: float) -> str:
    top = sorted(((k, v) for k, v in f.calls.items() if k != "reads"), key=lambda kv: -kv[1])[:8]
    return (
        f"{f.moves / seconds:.0f} moves/s, to every seat p50 {percentile(f.delays, 50):.1f} ms p99 "
        f"{percentile(f.delays, 99):.1f} ms, server {f.cpu_us:.0f} us/move, redis-server {f.redis_us:.0f} us/move; "
        f"a move: {f.calls.get('reads', 0):.2f} Redis reads (round trips), commands "
        + ", ".join(f"{k} {v:.2f}" for k, v in top)
    )


async def main(
    roots: list[Path], rounds: int, tables: int, seconds: float, profile: Path | None, created: int, idle: int
) -> None:
    runs = await procs.alternated(
        roots,
        rounds,
        lambda root, redis: one_run(root, redis, tables, seconds, profile, created, idle),
        lambda f: line(f, seconds),
    )
    for root, figures in runs.items():
        print(
            f"{root}: medians of {len(figures)}: {statistics.median(f.moves for f in figures) / seconds:.0f} moves/s, "
            f"p50 {statistics.median(percentile(f.delays, 50) for f in figures):.1f} ms, "
            f"p99 {statistics.median(percentile(f.delays, 99) for f in figures):.1f} ms, "
            f"server {statistics.median(f.cpu_us for f in figures):.0f} us/move "
            f"({' / '.join(f'{f.cpu_us:.0f}' for f in figures)}), "
            f"redis-server {statistics.median(f.redis_us for f in figures):.0f} us/move"
        )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("roots", nargs="+", type=Path)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--profile", type=Path)
    parser.add_argument(
        "--created", type=int, default=0, help="more tables created (not played) first, as the peer's run"
    )
    parser.add_argument(
        "--idle", type=int, default=0, help="tables whose seats connect and leave first, as the peer's run"
    )
    args = parser.parse_args()
    node.install()
    procs.raise_fd_limit()
    asyncio.run(
        main(
            [p.resolve() for p in args.roots],
            args.rounds,
            args.tables,
            args.seconds,
            args.profile,
            args.created,
            args.idle,
        )
    )
