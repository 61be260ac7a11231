"""``ludoteca serve`` as a process: its embedded Redis never outlives it."""

from __future__ import annotations

import json
import os
import pty
import select
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from tests.support.processes import ROOT, Serve, children, free_port, wait_gone


def embedded_redis_of(pid: int) -> int:
    [child] = [c for c in children(pid) if b"redis-server" in Path(f"/proc/{c}/cmdline").read_bytes()]
    return child


def test_serve_answers_on_its_port_with_an_embedded_redis(tmp_path: Path) -> None:
    with Serve(free_port(), data_dir=tmp_path / "data") as serve:
        r = httpx.post(f"{serve.url}/api/v1/games", json={"game": "vilar-de-mouros", "players": 2})
        assert r.status_code == 201
        assert list((tmp_path / "data").glob("appendonly*"))


def test_sigterm_stops_the_server_and_its_redis_with_exit_code_0(tmp_path: Path) -> None:
    with Serve(free_port(), data_dir=tmp_path / "data") as serve:
        redis_pid = embedded_redis_of(serve.pid)
        # uvicorn shuts down gracefully; the SIGTERM it caught is not raised again (that was 143)
        assert serve.stop(signal.SIGTERM) == 0, serve.output()
        assert wait_gone(redis_pid), "redis-server outlived its server"
    # The server stopped its Redis itself (a parent-death SIGKILL would not say goodbye).
    assert "bye bye" in (tmp_path / "data" / "redis.log").read_text()


def test_no_redis_server_outlives_a_server_killed_with_sigkill(tmp_path: Path) -> None:
    with Serve(free_port(), data_dir=tmp_path / "data") as serve:
        redis_pid = embedded_redis_of(serve.pid)
        serve.stop(signal.SIGKILL)
        assert wait_gone(redis_pid), "redis-server outlived its server"


def test_a_second_server_on_the_same_data_directory_is_refused(tmp_path: Path) -> None:
    with Serve(free_port(), data_dir=tmp_path / "data"):
        second = Serve(free_port(), data_dir=tmp_path / "data")
        with pytest.raises(RuntimeError, match=r"(?i)lock|in use"):
            second.start()
        second.__exit__()


def test_games_survive_a_restart_of_the_server(tmp_path: Path) -> None:
    port = free_port()
    with Serve(port, data_dir=tmp_path / "data") as serve:
        created = httpx.post(f"{serve.url}/api/v1/games", json={"game": "vilar-de-mouros", "players": 2})
        game_id = created.json()["game_id"]
    with Serve(port, data_dir=tmp_path / "data") as serve:
        r = httpx.get(f"{serve.url}/api/v1/games/{game_id}")
        assert r.status_code == 200 and r.json()["status"] == "open"
        listed = httpx.get(f"{serve.url}/api/v1/games").json()["games"]
        assert [g["game_id"] for g in listed] == [game_id]


# -- a first start that speaks to people -------------------------------------------------------


def serve_once(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``ludoteca serve`` expected to stop at once: its exit code and what it said."""
    environ = {k: v for k, v in os.environ.items() if k != "REDIS_URL"} | (env or {})
    command = [sys.executable, "-m", "server.cli", "serve", *args]
    return subprocess.run(command, cwd=ROOT, env=environ, capture_output=True, text=True, timeout=30)


def test_a_taken_port_is_one_sentence_and_exit_code_3(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = serve_once("--port", str(port), "--data-dir", str(tmp_path / "data"))
    assert done.returncode == 3
    assert done.stderr.strip() == (
        f"ludoteca serve: Port {port} on 127.0.0.1 is already in use (another server?): stop it, or choose another "
        f"port with --port or LUDOTECA_PORT."
    )


def test_a_locked_data_directory_is_one_sentence_and_exit_code_4(tmp_path: Path) -> None:
    with Serve(free_port(), data_dir=tmp_path / "data"):
        done = serve_once("--port", str(free_port()), "--data-dir", str(tmp_path / "data"))
    assert done.returncode == 4
    [line] = done.stderr.splitlines()
    assert "is in use by another Ludoteca server" in line and "--data-dir" in line and "Traceback" not in line


def test_an_unreachable_redis_is_one_sentence_and_exit_code_5_without_its_password() -> None:
    done = serve_once("--port", str(free_port()), env={"REDIS_URL": f"redis://:hunter2@127.0.0.1:{free_port()}"})
    assert done.returncode == 5
    [line] = done.stderr.splitlines()
    assert line.startswith("ludoteca serve: The Redis at redis://:***@127.0.0.1:") and "hunter2" not in line


def test_sentinels_that_do_not_answer_are_exit_code_5_and_a_sentinel_url_without_a_service_exit_code_2() -> None:
    url = f"redis+sentinel://:hunter2@127.0.0.1:{free_port()}/ludoteca?sentinel_password=guard"
    done = serve_once("--port", str(free_port()), env={"REDIS_URL": url})
    assert done.returncode == 5
    [line] = done.stderr.splitlines()
    assert line.startswith("ludoteca serve: The Redis at redis+sentinel://:***@127.0.0.1:")
    assert "hunter2" not in line and "guard" not in line and "No master found for 'ludoteca'" in line
    done = serve_once("--port", str(free_port()), env={"REDIS_URL": "redis+sentinel://127.0.0.1:26379"})
    assert done.returncode == 2
    assert done.stderr.strip().startswith("ludoteca serve: REDIS_URL is not a Redis URL (REDIS_URL names no service")


def test_on_a_terminal_serve_prints_where_to_go_and_readable_log_lines(tmp_path: Path) -> None:
    port = free_port()
    pid, fd = pty.fork()
    if pid == 0:  # the child: ludoteca serve on a terminal
        os.chdir(ROOT)
        os.execv(
            sys.executable,
            [sys.executable, "-m", "server.cli", "serve", "--port", str(port), "--data-dir", str(tmp_path)],
        )
    seen = b""
    deadline = time.monotonic() + 30
    try:
        while b"Stop with Ctrl+C" not in seen and time.monotonic() < deadline:
            if select.select([fd], [], [], 0.5)[0]:
                seen += os.read(fd, 4096)
    finally:
        os.kill(pid, signal.SIGTERM)
        os.waitpid(pid, 0)
        os.close(fd)
    text = seen.decode().replace("\r\n", "\n")
    assert f"Play at the web table:  http://127.0.0.1:{port}/\n" in text
    assert f"API documentation:      http://127.0.0.1:{port}/docs\n" in text
    assert f"embedded Redis, data in {tmp_path.resolve()}" in text
    assert '{"time"' not in text and " info    " in text  # people's lines, not JSON


def test_off_a_terminal_serve_writes_json_lines(tmp_path: Path) -> None:
    with Serve(free_port(), data_dir=tmp_path / "data", log_level="info") as serve:
        httpx.get(f"{serve.url}/healthz")
        lines = [line for line in serve.output().splitlines() if line.strip()]
    assert lines and all(json.loads(line)["level"] for line in lines)


def test_a_bad_setting_is_one_sentence_naming_it_and_exit_code_2() -> None:
    done = serve_once(env={"LUDOTECA_PORT": "eighty"})
    assert done.returncode == 2
    assert done.stderr.strip() == "ludoteca serve: LUDOTECA_PORT is a whole number, not 'eighty'."


def test_waiting_for_replicas_of_the_embedded_redis_is_refused_at_start_up() -> None:
    done = serve_once("--port", str(free_port()), env={"LUDOTECA_WAIT_REPLICAS": "1"})
    assert done.returncode == 2
    assert "LUDOTECA_WAIT_REPLICAS needs a Redis with replicas" in done.stderr


@pytest.mark.parametrize("token", ["change-me", "replace-me", "CHANGE_ME", "0123456789"])
def test_a_placeholder_or_short_admin_token_is_refused_at_start_up(token: str) -> None:
    done = serve_once("--port", str(free_port()), env={"LUDOTECA_ADMIN_TOKEN": token})
    assert done.returncode == 2
    assert (
        "LUDOTECA_ADMIN_TOKEN is a placeholder or shorter than 16 characters" in done.stderr
        and token not in done.stderr
    )


def open_files_limit(pid: int) -> tuple[int, int]:
    """The soft and hard limits on open files of process ``pid``."""
    for line in Path(f"/proc/{pid}/limits").read_text().splitlines():
        if line.startswith("Max open files"):
            soft, hard = line.split()[3:5]
            return int(soft), int(hard)
    raise AssertionError("no open files limit")


def test_serve_raises_its_open_files_limit_to_the_hard_one_and_says_when_that_is_low(tmp_path: Path) -> None:
    """Every socket takes a descriptor: a soft limit of 1,024 would cap a replica at about 250 tables."""
    serve = Serve(free_port(), data_dir=tmp_path / "data")
    # Started with a soft limit of 512 and a hard one of 1,000, as a host or container may set them.
    lowered = "import os, resource, sys; resource.setrlimit(resource.RLIMIT_NOFILE, (512, 1000)); "
    serve.args = [sys.executable, "-c", lowered + f"os.execv(sys.executable, {serve.args!r})"]
    with serve:
        assert open_files_limit(serve.pid) == (1000, 1000)
        assert open_files_limit(embedded_redis_of(serve.pid)) == (1000, 1000)
        assert "only 1000 open files allowed" in serve.output()


# -- backups (the whole drill: tests/reliability/test_restore_drill.py) ---------------------------


def admin_once(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if k != "REDIS_URL"} | (env or {})
    command = [sys.executable, "-m", "server.cli", "admin", *args]
    return subprocess.run(command, cwd=ROOT, env=environ, capture_output=True, text=True, timeout=60)


def test_a_backup_restores_into_a_new_data_directory_only(tmp_path: Path) -> None:
    with Serve(free_port(), data_dir=tmp_path / "data") as serve:
        game_id = httpx.post(f"{serve.url}/api/v1/games", json={"game": "itchy-feet", "players": 2}).json()["game_id"]
        done = admin_once("backup", str(tmp_path / "backups"), env={"REDIS_URL": f"unix://{tmp_path}/data/redis.sock"})
        assert done.returncode == 0, done.stderr
        assert done.stdout.startswith("backed up ") and str(tmp_path / "backups") in done.stdout
    # neither a target nor two of them; a data directory that holds data (this server's)
    assert admin_once("restore", str(tmp_path / "backups")).returncode == 2
    both = admin_once("restore", str(tmp_path / "backups"), "--data-dir", "x", env={"REDIS_URL": "redis://h"})
    assert both.returncode == 2
    taken = admin_once("restore", str(tmp_path / "backups"), "--data-dir", str(tmp_path / "data"))
    assert taken.returncode == 2 and "holds data already" in taken.stderr
    done = admin_once("restore", str(tmp_path / "backups"), "--data-dir", str(tmp_path / "again"))
    assert done.returncode == 0 and "and 1 games from ludoteca-" in done.stdout, done.stderr
    with Serve(free_port(), data_dir=tmp_path / "again") as serve:
        assert [g["game_id"] for g in httpx.get(f"{serve.url}/api/v1/games").json()["games"]] == [game_id]
    # a Redis nobody listens on: one sentence, exit code 1
    gone = admin_once("backup", str(tmp_path / "b2"), env={"REDIS_URL": f"redis://127.0.0.1:{free_port()}"})
    assert gone.returncode != 0 and "Traceback" not in gone.stderr, gone.stderr
