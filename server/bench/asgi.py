"""uvicorn beside other ASGI servers on the bare endpoint (docs/performance.md): measured, not adopted.

The bench's bare app (``server.bench.bare``: one JSON decode and one Lua append a request, and
an idle WebSocket) run by uvicorn with ``ludoteca serve``'s settings, by Granian and by
Hypercorn, one after the other, ``--rounds`` times in alternating order (figures: medians).
Each run: 50 keep-alive clients posting commands for ``--seconds`` (requests/s, p50/p99, the
server's CPU per request, its worker processes and threads counted), then ``--sockets`` idle
WebSockets held by another process (RSS growth per socket).

``pip install granian hypercorn`` first (neither is a dependency), then
``python -m server.bench.asgi``.
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

from server.bench import load, procs
from server.bench.client import percentile
from server.storage.embedded import EmbeddedRedis

KIB = 1024
SERVERS = ("uvicorn", "granian", "hypercorn")


def command(name: str, port: int) -> list[str]:
    """The bare app on ``name``: uvicorn as ``ludoteca serve`` runs it; the others by their own command
    lines, each on one worker process with one event loop (uvloop, as uvicorn picks)."""
    bindir = Path(sys.executable).parent
    if name == "granian":
        return [str(bindir / "granian"), "--interface", "asgi", "--factory", "--host", "127.0.0.1", "--port", str(port),
                "--workers", "1", "--runtime-threads", "1", "--loop", "uvloop", "--log-level", "warning",
                "server.bench.bare:bare_app"]  # fmt: skip
    if name == "hypercorn":
        return [str(bindir / "hypercorn"), "--bind", f"127.0.0.1:{port}", "--worker-class", "uvloop",
                "--workers", "1", "--log-level", "warning", "--websocket-ping-interval", "20",
                "server.bench.bare:bare_app()"]  # fmt: skip
    return [sys.executable, "-m", "server.bench.bare", "--port", str(port)]


def tree(pid: int) -> list[int]:
    """``pid`` and every process under it (Granian's worker is a child of its supervisor)."""
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rpartition(")")[2].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    found, todo = [], [pid]
    while todo:
        p = todo.pop()
        found.append(p)
        todo += children.get(p, [])
    return found


def cpu(pid: int) -> float:
    return sum(procs.cpu(p) for p in tree(pid))


def rss(pid: int) -> int:
    return sum(procs.rss(p) for p in tree(pid))


async def one(name: str, url: str, clients: int, seconds: float, sockets: int) -> dict[str, float]:
    port = procs.free_port()
    args = command(name, port)
    server = procs.Server(f"bare endpoint on {name}", args, port, {"REDIS_URL": url}).start()
    try:
        await load.bare_commands(port, clients, 1.0)  # warm-up
        before = cpu(server.pid)
        run = await load.bare_commands(port, clients, seconds)
        used = cpu(server.pid) - before
        await asyncio.sleep(0.5)
        holder = load.Holder([(f"ws://127.0.0.1:{port}/ws", b'{"type":"hello"}')] * sockets)
        start = rss(server.pid)
        try:
            opened = await asyncio.get_running_loop().run_in_executor(None, holder.start, 300.0)
            await asyncio.sleep(1.0)
            held = rss(server.pid)
        finally:
            await asyncio.get_running_loop().run_in_executor(None, holder.stop)
        return {
            "rate": run.rate,
            "p50": 1000 * percentile(run.latencies, 50),
            "p99": 1000 * percentile(run.latencies, 99),
            "cpu_us": 1e6 * used / run.count if run.count else 0.0,
            "errors": run.errors,
            "socket_kib": (held - start) / max(1, opened) / KIB,
            "opened": opened,
            "idle_rss_mib": start / KIB / KIB,
        }
    except BaseException:
        print(server.output(), file=sys.stderr)
        raise
    finally:
        server.stop()


Runs = dict[str, list[dict[str, float]]]


async def compare(url: str, rounds: int, clients: int, seconds: float, sockets: int) -> Runs:
    runs: Runs = {name: [] for name in SERVERS}
    for r in range(rounds):
        for name in SERVERS if r % 2 == 0 else SERVERS[::-1]:
            runs[name].append(await one(name, url, clients, seconds, sockets))
            print(f"round {r + 1}: {name}: {runs[name][-1]}", file=sys.stderr, flush=True)
    return runs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--sockets", type=int, default=2000)
    args = parser.parse_args()
    procs.raise_fd_limit()
    scratch = Path(tempfile.mkdtemp(prefix="lt-asgi-"))
    try:
        with EmbeddedRedis(scratch / "redis") as redis:
            runs = asyncio.run(compare(redis.url, args.rounds, args.clients, args.seconds, args.sockets))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    print("| figure | " + " | ".join(SERVERS) + " |")
    print("|---|" + "---|" * len(SERVERS))
    for key, label in (
        ("rate", "requests/s"),
        ("p50", "p50 ms"),
        ("p99", "p99 ms"),
        ("cpu_us", "server CPU per request, us"),
        ("socket_kib", "RSS per idle WebSocket, KiB"),
        ("idle_rss_mib", "RSS before the sockets, MiB"),
        ("errors", "errors"),
    ):
        cells = [statistics.median(r[key] for r in runs[name]) for name in SERVERS]
        print(f"| {label} | " + " | ".join(f"{c:,.1f}" for c in cells) + " |")


if __name__ == "__main__":
    main()
