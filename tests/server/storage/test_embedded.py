"""The embedded Redis: a child redis-server that never outlives its server."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest
import redis
from redis.exceptions import RedisError

from server.storage.connection import connect
from server.storage.embedded import DataDirLocked, EmbeddedRedis, EmbeddedRedisError
from server.storage.notify import Notifications
from server.storage.store import Appended, EventStore

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture
def data_dir() -> Iterator[Path]:
    # Not tmp_path: unix socket paths are limited to 107 bytes.
    with tempfile.TemporaryDirectory(prefix="lt-emb-") as directory:
        yield Path(directory) / "data"


def gone(pid: int) -> bool:
    """The process no longer exists (a zombie waiting for a reaper counts as gone)."""
    try:
        zombie: bool = psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
        return zombie
    except psutil.NoSuchProcess:
        return True


def wait_gone(pid: int, seconds: float = 5.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if gone(pid):
            return True
        time.sleep(0.02)
    return gone(pid)


def client(embedded: EmbeddedRedis) -> redis.Redis:
    return redis.Redis(unix_socket_path=str(embedded.socket_path), socket_timeout=5)


def test_it_answers_ping_on_its_unix_socket_with_appendonly(data_dir: Path) -> None:
    with EmbeddedRedis(data_dir) as embedded:
        assert embedded.url == f"unix://{data_dir}/redis.sock"
        assert embedded.running
        c = client(embedded)
        try:
            assert c.ping()
            config = c.config_get("*")
            assert config["appendonly"] == "yes"
            assert config["appendfsync"] == "everysec"
            assert config["save"] == ""
            assert config["port"] == "0"
            assert config["maxmemory-policy"] == "noeviction"
            assert config["unixsocketperm"] == "700"
            assert config["dir"] is not None and Path(config["dir"]) == data_dir
        finally:
            c.close()
        assert (data_dir / ".lock").exists()
        assert oct(data_dir.stat().st_mode & 0o777) == oct(0o700)


def test_appendfsync_always(data_dir: Path) -> None:
    with EmbeddedRedis(data_dir, appendfsync="always") as embedded:
        c = client(embedded)
        try:
            assert c.config_get("appendfsync") == {"appendfsync": "always"}
        finally:
            c.close()
    with pytest.raises(ValueError):
        EmbeddedRedis(data_dir, appendfsync="never")  # type: ignore[arg-type]


def test_a_second_server_on_the_same_directory_fails_clearly(data_dir: Path) -> None:
    with EmbeddedRedis(data_dir) as first:
        second = EmbeddedRedis(data_dir)
        with pytest.raises(DataDirLocked, match="in use by another Ludoteca server"):
            second.start()
        assert second.pid is None
        c = client(first)  # the first one is untouched
        try:
            assert c.ping()
        finally:
            c.close()
    with EmbeddedRedis(data_dir):  # and once it stopped, the directory is free again
        pass


def test_stop_leaves_no_process_and_can_be_repeated(data_dir: Path) -> None:
    embedded = EmbeddedRedis(data_dir)
    embedded.start()
    pid = embedded.pid
    assert pid is not None and not gone(pid)
    embedded.stop()
    assert gone(pid)
    assert embedded.pid is None and not embedded.running
    assert not (data_dir / "redis.sock").exists()
    embedded.stop()


def test_data_persists_across_a_stop_and_start(data_dir: Path) -> None:
    with EmbeddedRedis(data_dir) as embedded:
        c = client(embedded)
        try:
            c.xadd("lt:{g}:events", {"e": b"\x00event", "s": 1}, id="0-1")
            c.hset("lt:{g}:meta", "status", "open")
        finally:
            c.close()
    assert (data_dir / "appendonly.aof").stat().st_size > 0
    with EmbeddedRedis(data_dir) as embedded:
        c = client(embedded)
        try:
            assert c.xrange("lt:{g}:events") == [(b"0-1", {b"e": b"\x00event", b"s": b"1"})]
            assert c.hget("lt:{g}:meta", "status") == b"open"
        finally:
            c.close()


def test_a_redis_that_cannot_start_reports_its_log(data_dir: Path) -> None:
    embedded = EmbeddedRedis(data_dir, extra_args=("--no-such-option", "1"), start_timeout=10)
    with pytest.raises(EmbeddedRedisError, match="exited with status") as info:
        embedded.start()
    assert "no-such-option" in str(info.value)
    assert embedded.pid is None
    with EmbeddedRedis(data_dir):  # the failed start released the lock
        pass


def test_a_too_long_data_directory_is_refused(tmp_path: Path) -> None:
    deep = tmp_path / ("x" * 120)
    with pytest.raises(EmbeddedRedisError, match="too long for a unix socket"):
        EmbeddedRedis(deep).start()


def test_no_redis_server_outlives_a_server_killed_with_sigkill(data_dir: Path) -> None:
    script = textwrap.dedent(
        f"""
        import sys, time
        sys.path.insert(0, {str(ROOT)!r})
        from server.storage.embedded import EmbeddedRedis
        embedded = EmbeddedRedis({str(data_dir)!r})
        embedded.start()
        print(embedded.pid, flush=True)
        time.sleep(120)
        """
    )
    server = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        assert line.strip().isdigit(), f"the server did not start Redis: {line!r}"
        redis_pid = int(line)
        assert not gone(redis_pid)
        assert psutil.Process(redis_pid).ppid() == server.pid
        os.kill(server.pid, signal.SIGKILL)
        server.wait(10)
        assert wait_gone(redis_pid, 5.0), f"redis-server {redis_pid} outlived its killed server"
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
        if server.stdout is not None:
            server.stdout.close()
    # The lock died with the server: a new one starts on the same directory.
    with EmbeddedRedis(data_dir) as embedded:
        assert embedded.running


async def test_the_store_across_a_restart_of_redis(data_dir: Path) -> None:
    """While Redis is down the store fails fast; afterwards Notifications resubscribes and the data is there."""
    embedded = EmbeddedRedis(data_dir)
    embedded.start()
    client = connect(embedded.url)
    try:
        store = EventStore(client)
        notifications = Notifications(client, min_backoff=0.01, max_backoff=0.1)
        notes: list[tuple[str, int]] = []
        reconnected = asyncio.Event()
        task = asyncio.create_task(notifications.run(lambda g, v: notes.append((g, v)), reconnected.set))
        try:
            async with asyncio.timeout(10):
                await notifications.subscribed.wait()
                assert isinstance(await store.append("g", 0, [b"before"]), Appended)

                embedded.stop()
                with pytest.raises(RedisError):
                    await store.version("g")
                embedded.start()

                await reconnected.wait()
                assert await store.read("g") == [(1, b"before")]
                assert isinstance(await store.append("g", 1, [b"after"]), Appended)
                while ("g", 2) not in notes:
                    await asyncio.sleep(0.01)
        finally:
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
    finally:
        await client.aclose()
        embedded.stop()
