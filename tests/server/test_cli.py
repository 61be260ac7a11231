"""``ludoteca serve`` as a process: its embedded Redis never outlives it."""

from __future__ import annotations

import signal
from pathlib import Path

import httpx
import pytest

from tests.support.processes import Serve, children, free_port, wait_gone


def embedded_redis_of(pid: int) -> int:
    [child] = [c for c in children(pid) if b"redis-server" in Path(f"/proc/{c}/cmdline").read_bytes()]
    return child


def test_serve_answers_on_its_port_with_an_embedded_redis(tmp_path: Path) -> None:
    with Serve(free_port(), data_dir=tmp_path / "data") as serve:
        r = httpx.post(f"{serve.url}/api/v1/games", json={"game": "vilar-de-mouros", "players": 2})
        assert r.status_code == 201
        assert list((tmp_path / "data").glob("appendonly*"))


def test_sigterm_stops_the_server_and_its_redis(tmp_path: Path) -> None:
    with Serve(free_port(), data_dir=tmp_path / "data") as serve:
        redis_pid = embedded_redis_of(serve.pid)
        # uvicorn shuts down gracefully, then re-raises the signal it caught
        assert serve.stop(signal.SIGTERM) in (0, -signal.SIGTERM)
        assert wait_gone(redis_pid)
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
