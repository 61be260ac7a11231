"""The processes a bench run starts (servers under test), and what it reads about them."""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import os
import resource
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import IO, TypeVar

from server.runtime.uvicorn.websocket import LeanWebSocketProtocol
from server.settings import Settings
from server.storage.embedded import EmbeddedRedis

ROOT = Path(__file__).resolve().parents[2]

# The uvicorn settings `ludoteca serve` runs with (server/serve.py, server_config), for every server under test.
UVICORN: dict[str, object] = {
    "log_level": "warning",
    "ws": LeanWebSocketProtocol,
    "ws_ping_interval": 20.0,
    "ws_max_size": Settings().ws_max_message,
    "ws_ping_timeout": 20.0,
    "ws_per_message_deflate": False,
    "timeout_graceful_shutdown": 5,
}


def raise_fd_limit() -> int:
    """Lift this process's descriptor limit to its hard limit (children inherit it)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        return hard
    return soft


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def rss(pid: int) -> int:
    """Resident memory of a process, in bytes."""
    for line in (Path("/proc") / str(pid) / "status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise RuntimeError(f"no VmRSS for process {pid}")


def cpu(pid: int) -> float:
    """CPU seconds (user + system) a process has used so far."""
    fields = (Path("/proc") / str(pid) / "stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def waited(pid: int) -> tuple[float, int]:
    """Seconds a process's threads have waited, runnable, for a core so far, and the turns they have
    had on one (``/proc/<pid>/task/*/schedstat``); (0, 0) once it has gone."""
    seconds, turns = 0.0, 0
    try:
        tasks = list((Path("/proc") / str(pid) / "task").iterdir())
    except OSError:
        return 0.0, 0
    for task in tasks:
        try:
            _, wait_ns, slices = (task / "schedstat").read_text().split()
        except (OSError, ValueError):  # a thread that ended meanwhile
            continue
        seconds, turns = seconds + int(wait_ns) / 1e9, turns + int(slices)
    return seconds, turns


def _die_with_parent() -> None:
    # Runs between fork and exec: a server under test never outlives the bench.
    libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
    libc.prctl(1, signal.SIGTERM, 0, 0, 0)  # PR_SET_PDEATHSIG


class Server:
    """A server process on a loopback port, ready once ``start`` returns; stopped by ``stop``."""

    def __init__(self, name: str, args: list[str], port: int, env: dict[str, str]) -> None:
        self.name = name
        self.args = args
        self.port = port
        self.env = {**os.environ, **env}
        self.log: IO[bytes] = tempfile.TemporaryFile()  # noqa: SIM115 - closed by stop()
        self.process: subprocess.Popen[bytes] | None = None
        self.root = ROOT  # the checkout it runs from (``python -m`` imports from its working directory)

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def start(self, ready_path: str = "/readyz", timeout: float = 30.0) -> Server:
        self.process = subprocess.Popen(
            self.args, cwd=self.root, env=self.env, stdout=self.log, stderr=self.log, preexec_fn=_die_with_parent
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"{self.name} exited while starting:\n{self.output()}")
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.port}{ready_path}", timeout=1) as answer:
                    if answer.status == 200:
                        return self
            except (urllib.error.URLError, OSError):
                pass
            time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"{self.name} did not answer {ready_path} within {timeout:g} s:\n{self.output()}")

    def signal(self, sig: int) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(sig)

    def output(self) -> str:
        self.log.seek(0)
        return self.log.read().decode(errors="replace")[-4000:]

    def stop(self) -> None:
        process, self.process = self.process, None
        if process is not None and process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        with contextlib.suppress(OSError):
            self.log.close()


METRICS_TOKEN = secrets.token_urlsafe(32)  # every ``ludoteca serve`` here serves /metrics to the bench with it
# The bench's load comes from one address: its per-address quotas and socket caps would stop it.
UNLIMITED = {
    "LUDOTECA_CREATE_PER_HOUR": "0",
    "LUDOTECA_SEATS_PER_HOUR": "0",
    "LUDOTECA_WS_PER_ADDRESS": "0",
    "LUDOTECA_WS_PER_GAME": "0",
}


def ludoteca(redis_url: str, env: dict[str, str] | None = None) -> Server:
    """``ludoteca serve`` as an operator runs it, on the bench's Redis (no per-address quotas; ``env``:
    more of its settings)."""
    port = free_port()
    args = [sys.executable, "-m", "server.cli", "serve", "--port", str(port), "--log-level", "warning"]
    settings = {"REDIS_URL": redis_url, "LUDOTECA_METRICS_TOKEN": METRICS_TOKEN, **UNLIMITED, **(env or {})}
    return Server("ludoteca serve", args, port, settings)


def ludoteca_gc(redis_url: str, mode: str, stats: Path) -> Server:
    """``ludoteca serve`` with its garbage collector observed (and tuned by ``mode``)."""
    port = free_port()
    args = [sys.executable, "-m", "server.bench.gcserve", "--mode", mode, "--port", str(port), "--stats", str(stats)]
    return Server(f"ludoteca serve (gc {mode})", args, port, {"REDIS_URL": redis_url, **UNLIMITED})


def bare(redis_url: str) -> Server:
    """The bare Starlette endpoint and raw WebSocket broadcast, under the same uvicorn settings."""
    port = free_port()
    args = [sys.executable, "-m", "server.bench.bare", "--port", str(port)]
    return Server("bare endpoint", args, port, {"REDIS_URL": redis_url})


T = TypeVar("T")


async def alternated(
    roots: list[Path], rounds: int, run: Callable[[Path, EmbeddedRedis], Awaitable[T]], line: Callable[[T], str]
) -> dict[Path, list[T]]:
    """``run`` for each checkout in ``roots`` in turn, ``rounds`` times, the order alternating by
    round, all on one embedded Redis; each run's ``line`` printed as it ends (a lever's before and
    after, on a machine whose speed drifts)."""
    scratch = Path(tempfile.mkdtemp(prefix="lt-alternated-"))
    redis = EmbeddedRedis(scratch / "redis")
    runs: dict[Path, list[T]] = {root: [] for root in roots}
    try:
        redis.start()
        for r in range(rounds):
            for root in roots if r % 2 == 0 else roots[::-1]:
                result = await run(root, redis)
                runs[root].append(result)
                print(f"{root.name}: {line(result)}", flush=True)
    finally:
        redis.stop()
        shutil.rmtree(scratch, ignore_errors=True)
    return runs
