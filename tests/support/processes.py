"""Running ``ludoteca serve`` as a real process, the way an operator does."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Serve:
    """``ludoteca serve`` on a free port, ready to answer once entered; stopped on exit."""

    def __init__(
        self,
        port: int,
        *,
        data_dir: Path | None = None,
        redis_url: str | None = None,
        log_level: str = "warning",
        **env: str,
    ) -> None:
        self.port = port
        self.url = f"http://127.0.0.1:{port}"
        self.environ = {k: v for k, v in os.environ.items() if k != "REDIS_URL"} | env
        if redis_url:
            self.environ["REDIS_URL"] = redis_url
        self.args = [sys.executable, "-m", "server.cli", "serve", "--port", str(port), "--log-level", log_level]
        if data_dir is not None:
            self.args += ["--data-dir", str(data_dir)]
        self.log = tempfile.TemporaryFile()  # noqa: SIM115 - closed in __exit__, after the process
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def start(self) -> Serve:
        self.process = subprocess.Popen(self.args, cwd=ROOT, env=self.environ, stderr=self.log)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"ludoteca serve exited: {self.output()}")
            try:
                if httpx.get(f"{self.url}/readyz", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.05)
        self.process.kill()
        raise RuntimeError("ludoteca serve did not become ready in 30 s")

    def output(self) -> str:
        self.log.seek(0)
        return self.log.read().decode(errors="replace")

    def stop(self, sig: int = signal.SIGTERM) -> int:
        """Send ``sig`` and wait; the exit status."""
        assert self.process is not None
        if self.process.poll() is None:
            self.process.send_signal(sig)
        return self.process.wait(15)

    def __enter__(self) -> Serve:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        if self.process is not None and self.process.poll() is None:
            self.stop()
        self.log.close()


def children(pid: int) -> list[int]:
    """Processes whose parent is ``pid``, from /proc."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rpartition(")")[2].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry.name))
    return found


def alive(pid: int) -> bool:
    """Running, and not a zombie waiting to be reaped."""
    try:
        state = (Path("/proc") / str(pid) / "stat").read_text().rpartition(")")[2].split()[0]
    except OSError:
        return False
    return state != "Z"


def wait_gone(pid: int, seconds: float = 10) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not alive(pid):
            return True
        time.sleep(0.05)
    return False
