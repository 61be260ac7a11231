"""The bench's Node side (server/bench/peer/): boardgame.io's server running our port of Vilar de Mouros,
and the load driver that plays both servers over their own protocols (one process per driver).

The folder's packages come from its lock file (``npm ci``); without Node or npm the phases that
need it are skipped with a message.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO, Any

from server.bench import procs

PEER = Path(__file__).resolve().parent / "peer"
DRIVE = PEER / "drive.js"
SERVE = PEER / "serve.js"


def missing() -> str | None:
    """Why the Node side cannot run here (None: it can)."""
    for tool in ("node", "npm"):
        if shutil.which(tool) is None:
            return f"{tool} is not installed"
    return None


def installed() -> bool:
    """The lock file's packages are in node_modules (npm ci writes its own copy of the lock there)."""
    hidden = PEER / "node_modules" / ".package-lock.json"
    lock = PEER / "package-lock.json"
    return hidden.exists() and hidden.stat().st_mtime >= lock.stat().st_mtime


def install() -> None:
    """``npm ci`` in server/bench/peer when its packages are missing or older than the lock file."""
    if not installed():
        subprocess.run(
            ["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=PEER, check=True, capture_output=True
        )


def bgio(flatfile: Path | None) -> procs.Server:
    """boardgame.io 0.50's server (Koa + socket.io) with the port of Vilar de Mouros: in its default
    in-memory storage, or in FlatFile (node-persist files in ``flatfile``)."""
    port = procs.free_port()
    args = ["node", str(SERVE), "--port", str(port)]
    name = "boardgame.io (in memory)"
    if flatfile is not None:
        args += ["--flatfile", str(flatfile)]
        name = "boardgame.io (FlatFile)"
    return procs.Server(name, args, port, {"NODE_ENV": "production"})


class Driver:
    """One driver process (drive.js) playing tables on one server; one JSON request and answer a line."""

    def __init__(self, kind: str, port: int, local_address: str = "127.0.0.1") -> None:
        self.args = ["node", str(DRIVE), "--server", kind, "--port", str(port), "--local-address", local_address]
        self.log: IO[bytes] = tempfile.TemporaryFile()  # noqa: SIM115 - closed by stop()
        self.process: asyncio.subprocess.Process | None = None

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    async def start(self) -> Driver:
        self.process = await asyncio.create_subprocess_exec(
            *self.args,
            cwd=PEER,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=self.log,
            limit=1 << 28,  # a play's answer holds every delay it measured
            preexec_fn=procs._die_with_parent,
        )
        return self

    async def ask(self, request: dict[str, Any], window: Callable[[str], None] | None = None) -> dict[str, Any]:
        process = self.process
        assert process is not None and process.stdin is not None and process.stdout is not None
        process.stdin.write(json.dumps(request).encode() + b"\n")
        await process.stdin.drain()
        while True:
            line = await process.stdout.readline()
            if not line:
                raise RuntimeError(f"the driver exited during {request['op']}:\n{self.output()}")
            answer: dict[str, Any] = json.loads(line)
            if "window" in answer:
                if window is not None:
                    window(answer["window"])
                continue
            if "error" in answer:
                raise RuntimeError(f"the driver failed {request['op']}: {answer['error']}")
            return answer

    def output(self) -> str:
        self.log.seek(0)
        return self.log.read().decode(errors="replace")[-3000:]

    async def stop(self) -> None:
        process, self.process = self.process, None
        if process is not None and process.returncode is None:
            assert process.stdin is not None
            process.stdin.close()
            try:
                await asyncio.wait_for(process.wait(), 15)
            except TimeoutError:
                process.kill()
                await process.wait()
        with contextlib.suppress(OSError):
            self.log.close()


class Drivers:
    """Several driver processes on one server, asked the same thing at once; a window opens at the first
    driver's start and closes at the last one's end."""

    def __init__(self, drivers: Sequence[Driver]) -> None:
        self.drivers = list(drivers)

    async def start(self) -> Drivers:
        await asyncio.gather(*(d.start() for d in self.drivers))
        return self

    async def ask(
        self, requests: Sequence[dict[str, Any]], window: Callable[[str], None] | None = None
    ) -> list[dict[str, Any]]:
        opened, closed = [0], [0]

        def seen(at: str) -> None:
            if at == "start":
                opened[0] += 1
                if opened[0] == 1 and window is not None:
                    window("start")
            else:
                closed[0] += 1
                if closed[0] == len(requests) and window is not None:
                    window("end")

        return list(await asyncio.gather(*(d.ask(r, seen) for d, r in zip(self.drivers, requests, strict=True))))

    async def each(self, request: dict[str, Any], window: Callable[[str], None] | None = None) -> list[dict[str, Any]]:
        return await self.ask([request] * len(self.drivers), window)

    async def split(self, op: str, tables: int, **fields: Any) -> list[dict[str, Any]]:
        """``op`` for ``tables`` tables, shared among the drivers."""
        n = len(self.drivers)
        return await self.ask([{"op": op, "tables": tables // n + (i < tables % n), **fields} for i in range(n)])

    def cpu(self) -> float:
        return sum(procs.cpu(d.pid) for d in self.drivers)

    async def stop(self) -> None:
        await asyncio.gather(*(d.stop() for d in self.drivers))


def machine_cpu() -> tuple[float, float]:
    """The machine's CPU seconds so far, busy and all (every core; /proc/stat's first line)."""
    ticks = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = ticks[3] + ticks[4]  # idle, iowait
    total = sum(ticks[:8])  # user .. steal (guest time is in user already)
    hz = os.sysconf("SC_CLK_TCK")
    return (total - idle) / hz, total / hz


async def settle(busy: float = 0.15, most: float = 20.0) -> float:
    """Wait until the machine keeps under ``busy`` cores busy over half a second (a load's backlog
    drained: sockets' queued messages written and read), at most ``most`` seconds; the seconds waited."""
    start = time.perf_counter()
    while time.perf_counter() - start < most:
        used, _ = machine_cpu()
        await asyncio.sleep(0.5)
        if (machine_cpu()[0] - used) / 0.5 < busy:
            break
    return time.perf_counter() - start


class Meter:
    """CPU seconds of some processes, the time they waited for a core, and the machine's busy share,
    over a driver's window (opened and closed by ``window``): on a shared machine the other tenants'
    share says what the servers could get, and the waits what sharing the cores cost each one."""

    def __init__(self, pids: dict[str, int]) -> None:
        self.pids = pids
        self.before: dict[str, float] = {}
        self.used: dict[str, float] = {}
        self.waits_before: dict[str, tuple[float, int]] = {}
        self.waited: dict[str, tuple[float, int]] = {}  # seconds waited for a core, and turns had on one
        self.machine_before = (0.0, 0.0)
        self.busy = 0.0  # cores the whole machine kept busy in the window, on average

    def window(self, at: str) -> None:
        now = {name: procs.cpu(pid) for name, pid in self.pids.items()}
        waits = {name: procs.waited(pid) for name, pid in self.pids.items()}
        machine = machine_cpu()
        if at == "start":
            self.before = now
            self.waits_before = waits
            self.machine_before = machine
        else:
            self.used = {name: now[name] - self.before.get(name, now[name]) for name in now}
            self.waited = {}
            for name, (wait, turns) in waits.items():
                wait_before, turns_before = self.waits_before.get(name, (wait, turns))
                self.waited[name] = (wait - wait_before, turns - turns_before)
            busy, total = (machine[0] - self.machine_before[0], machine[1] - self.machine_before[1])
            self.busy = (os.cpu_count() or 1) * busy / total if total else 0.0
