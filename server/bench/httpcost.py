"""The ceilings' HTTP commands load on ``ludoteca serve`` alone, for one lever's before and after.

``python -m server.bench.httpcost ROOT [ROOT ...]``: for each round, and for each checkout ROOT in
turn (the order alternating by round), a fresh ``ludoteca serve`` run from that checkout on one
embedded Redis, the bench's bots (server/bench/load.py: ``--clients`` clients, random legal
commands over HTTP, no sockets) on ``--games`` new games for S seconds; it prints, per run,
commands/s, the request p50 and p99 and the server's CPU per command, then each checkout's
medians. The server keeps its seats' rate limits (as in the ceilings): give each client games
enough (errors are refusals). The server runs from the checkout's own files on this environment's
packages.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
from pathlib import Path

from domain.catalog import GAMES
from server.bench import load, procs
from server.bench.client import quiet_gc
from server.service.tables import Tables
from server.storage.connection import connect
from server.storage.store import EventStore


async def one_run(root: Path, url: str, games: int, clients: int, seconds: float) -> load.Load:
    server = procs.ludoteca(url)
    server.root = root
    server.start("/readyz")
    redis = connect(url)
    try:
        mirror = Tables(EventStore(redis), GAMES, 1_000_000)  # the bots' replica of each game
        pool = await load.new_games(server.port, games, clients)
        for seated in pool:
            await mirror.load(seated.game_id)
        with quiet_gc():
            return await load.on_server(server.pid, load.bots(server.port, mirror, pool, clients, seconds))
    finally:
        await redis.aclose()
        server.stop()


def line(run: load.Load) -> str:
    return (
        f"{run.rate:.0f} commands/s, p50 {run.ms(50):.2f} ms, p99 {run.ms(99):.2f} ms, "
        f"server {run.cpu_us:.0f} us/command, {run.errors} errors"
    )


async def main(roots: list[Path], rounds: int, games: int, clients: int, seconds: float) -> None:
    runs = await procs.alternated(
        roots, rounds, lambda root, redis: one_run(root, redis.url, games, clients, seconds), line
    )
    for root, done in runs.items():
        print(
            f"{root}: medians of {len(done)}: {statistics.median(d.rate for d in done):.0f} commands/s, "
            f"p99 {statistics.median(d.ms(99) for d in done):.2f} ms, "
            f"server {statistics.median(d.cpu_us for d in done):.0f} us/command "
            f"({' / '.join(f'{d.cpu_us:.0f}' for d in done)})"
        )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("roots", nargs="+", type=Path)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--games", type=int, default=300, help="games the bots play at once (the ceilings' pool)")
    parser.add_argument("--clients", type=int, default=50, help="concurrent HTTP clients (the ceilings' count)")
    parser.add_argument("--seconds", type=float, default=12.0)
    args = parser.parse_args()
    procs.raise_fd_limit()
    asyncio.run(main([p.resolve() for p in args.roots], args.rounds, args.games, args.clients, args.seconds))
