"""``ludoteca serve``: check what start-up needs, say where to go, run uvicorn.

Start-up problems a person can fix are one sentence on standard error and an exit code
(docs/operations.md, "Exit codes"), not a traceback: the port is taken, the data
directory is locked by another server, the Redis of ``REDIS_URL`` does not answer.
On a terminal the server prints a short banner (the web table's and the API docs'
addresses, the data directory, which Redis) and readable log lines; elsewhere, or
with ``--log-format json``, one JSON object a line.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import fcntl
import logging
import os
import resource
import signal
import socket
import sys
from collections.abc import Iterator
from typing import Any, TextIO

import redis
import uvicorn

from server.app import create_app, version
from server.runtime import logs
from server.runtime.uvicorn.http import guarded
from server.runtime.uvicorn.websocket import LeanWebSocketProtocol
from server.settings import Settings, token_problems, wait_problem
from server.storage.connection import answers

log = logging.getLogger("ludoteca.serve")

# Below this many open files a replica holds fewer sockets than a few hundred tables need.
FEW_DESCRIPTORS = 4096

# Exit codes (docs/operations.md)
EXIT_PORT_TAKEN = 3
EXIT_DATA_DIR_LOCKED = 4
EXIT_REDIS_UNREACHABLE = 5
EXIT_START_FAILED = 6  # anything else that stopped start-up (the log says what)
EXIT_STORE_LOST = 7  # the embedded Redis kept dying after restarts (the log says why)


class StartUpProblem(Exception):
    """Something start-up needs is missing: ``str(self)`` says what to do; ``code`` is the exit code."""

    def __init__(self, message: str, code: int) -> None:
        super().__init__(message)
        self.code = code


def listening_socket(host: str, port: int) -> socket.socket:
    """The server's socket, bound now, so that a taken port is said before anything starts."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise StartUpProblem(
                f"Port {port} on {host} is already in use (another server?): stop it, or choose another "
                f"port with --port or LUDOTECA_PORT.",
                EXIT_PORT_TAKEN,
            ) from None
        raise StartUpProblem(f"Cannot listen on {host}:{port} ({exc.strerror}): check --host and --port.", 2) from None
    sock.listen(2048)
    sock.set_inheritable(True)
    return sock


def check_data_dir(settings: Settings) -> None:
    """The embedded Redis's directory must be free: one server per data directory."""
    directory = settings.data_dir
    lock = directory / ".lock"
    if not lock.exists():
        return
    fd = os.open(lock, os.O_RDWR | os.O_CLOEXEC)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        fcntl.flock(fd, fcntl.LOCK_UN)
    except BlockingIOError:
        raise StartUpProblem(
            f"The data directory {directory.resolve()} is in use by another Ludoteca server: stop that server, "
            f"or give this one its own directory with --data-dir (several servers on one Redis need REDIS_URL).",
            EXIT_DATA_DIR_LOCKED,
        ) from None
    finally:
        os.close(fd)


def check_redis(url: str) -> None:
    """An external Redis must answer before the server says it is ready (a Sentinel's primary, a
    Cluster's nodes: the client the server will use)."""
    try:
        asyncio.run(answers(url))
    except redis.RedisError as exc:
        raise StartUpProblem(
            f"The Redis at {logs.without_password(url)} does not answer ({exc}): start it, or fix REDIS_URL "
            f"(leave it unset to run the embedded Redis).",
            EXIT_REDIS_UNREACHABLE,
        ) from None
    except ValueError as exc:
        raise StartUpProblem(f"REDIS_URL is not a Redis URL ({exc}).", 2) from None


def banner(settings: Settings, out: TextIO) -> None:
    shown = "[::1]" if settings.host == "::1" else settings.host
    address = f"http://{'127.0.0.1' if shown in ('0.0.0.0', '') else shown}:{settings.port}"
    where = (
        f"Redis at {logs.without_password(settings.redis_url)}"
        if settings.redis_url
        else f"embedded Redis, data in {settings.data_dir.resolve()}"
    )
    out.write(
        f"\nLudoteca {version()} is running.\n"
        f"  Play at the web table:  {address}/\n"
        f"  API documentation:      {address}/docs\n"
        f"  Store:                  {where}\n"
        f"  Stop with Ctrl+C.\n\n"
    )
    out.flush()


def server_config(app: Any, settings: Settings, **overrides: Any) -> uvicorn.Config:
    """uvicorn's configuration for the app: the guarded HTTP protocol and the socket settings."""
    options: dict[str, Any] = {
        "log_level": settings.log_level,
        "log_config": None,  # server.runtime.logs configured every logger
        # Slow and oversized requests are cut (server/runtime/uvicorn/http.py).
        "http": guarded(settings.header_timeout, settings.body_timeout, settings.max_header),
        # X-Forwarded-For is believed only from the proxies the operator names (uvicorn would
        # believe any client on loopback): quotas count against an address nobody can choose.
        "proxy_headers": bool(settings.trusted_proxies),
        # An idle connection is closed after 5 s; clients drop theirs sooner (docs/API.md, Conventions).
        "timeout_keep_alive": 5,
        "forwarded_allow_ips": list(settings.trusted_proxies),
        # uvicorn's sans-I/O protocol (the legacy ws="websockets" holds three tasks a socket), holding
        # less while idle (server/runtime/uvicorn/websocket.py).
        "ws": LeanWebSocketProtocol,
        "ws_ping_interval": 20.0,
        "ws_ping_timeout": 20.0,
        # uvicorn's own cap (16 MiB by default) would buffer that much before our check closes with 1009.
        "ws_max_size": settings.ws_max_message,
        "ws_per_message_deflate": False,  # small JSON messages: compression costs more memory than it saves
        # On SIGTERM uvicorn stops accepting, closes WebSockets with 1012 (clients reconnect to
        # another replica and resume), and waits this long for the requests in flight.
        "timeout_graceful_shutdown": max(1, round(settings.shutdown_grace)),
    }
    return uvicorn.Config(app, **(options | overrides))


class AnnouncingServer(uvicorn.Server):
    """uvicorn's server, which prints the banner once it listens and the lifespan has started."""

    def __init__(self, config: uvicorn.Config, settings: Settings, out: TextIO | None) -> None:
        super().__init__(config)
        self.settings = settings
        self.out = out

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        if not self.should_exit and self.out is not None:
            banner(self.settings, self.out)

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        """uvicorn's, but a SIGTERM that was answered with a graceful shutdown is not raised again
        once it is over: uvicorn re-raises every signal it caught under the handler it found, which
        for SIGTERM is the default one, so the process would end killed by it (exit status 143), not
        with the 0 of a clean stop (docs/operations.md, "Exit codes"). SIGINT is still raised again:
        ``serve`` takes its KeyboardInterrupt."""
        with super().capture_signals():
            yield
            self._captured_signals[:] = [s for s in self._captured_signals if s != signal.SIGTERM]


def more_descriptors() -> int:
    """Raise this process's soft limit on open files to its hard limit, as Go's runtime does: every
    socket takes one, and a soft limit of 1,024 (the default of many hosts and containers) would
    cap a replica at about 250 tables. The limit now (the embedded Redis inherits it)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and soft < hard:  # Linux refuses an infinite one for files
        with contextlib.suppress(ValueError, OSError):  # refused all the same: keep what there is
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def serve(settings: Settings) -> int:
    """Run the server until SIGTERM or Ctrl+C; the exit code."""
    log_format = settings.log_format
    if log_format not in (None, "text", "json"):
        print(f"ludoteca serve: LUDOTECA_LOG_FORMAT is text or json, not {log_format!r}.", file=sys.stderr)
        return 2
    tty = sys.stderr.isatty()
    text = log_format == "text" or (log_format is None and tty)
    logs.configure(settings.log_level, "text" if text else "json")
    descriptors = more_descriptors()
    if descriptors < FEW_DESCRIPTORS:
        log.warning(
            "only %d open files allowed (the hard limit): about %d sockets, four a table; raise it "
            "(ulimit -Hn, a container's nofile) to hold more",
            descriptors,
            descriptors - 100,
        )
    weak = next(iter(token_problems(settings.admin_token, settings.metrics_token)), wait_problem(settings))
    if weak is not None:
        print(f"ludoteca serve: {weak}", file=sys.stderr)
        return 2
    try:
        if settings.redis_url is None:
            check_data_dir(settings)
        else:
            check_redis(settings.redis_url)
        sock = listening_socket(settings.host, settings.port)
    except StartUpProblem as problem:
        print(f"ludoteca serve: {problem}", file=sys.stderr)
        return problem.code
    app = create_app(settings)
    config = server_config(app, settings)
    server = AnnouncingServer(config, settings, sys.stdout if sys.stdout.isatty() else None)
    # uvicorn turns SIGTERM and SIGINT into a graceful shutdown, which stops the embedded Redis;
    # the interrupt itself then surfaces here, as in uvicorn.run (SIGTERM is not raised again).
    with contextlib.suppress(KeyboardInterrupt):
        server.run(sockets=[sock])
    if not server.started:
        print("ludoteca serve: the server could not start; the lines above say why.", file=sys.stderr)
        return EXIT_START_FAILED
    if getattr(app.state, "store_lost", False):
        print("ludoteca serve: the embedded Redis kept stopping; the lines above say why.", file=sys.stderr)
        return EXIT_STORE_LOST
    return 0
