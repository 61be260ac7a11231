"""`ludoteca bench --quick` completes and reports every figure with numbers (no test asserts a time);
the peer's port of Vilar de Mouros plays whole games on boardgame.io's server, and the driver plays
both servers."""

from __future__ import annotations

import asyncio
import json
import math
import os
import random
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from domain.catalog import GAMES
from server.bench import capacity, dormant, node, procs
from server.storage.embedded import EmbeddedRedis
from tests.support.processes import ROOT, wait_gone

# The capacity phase's driver and the peer run on Node, with server/bench/peer's packages (npm ci;
# the README's test command and .ci/run install them). CI must have them.
needs_node = pytest.mark.skipif(
    not os.environ.get("CI") and (node.missing() is not None or not node.installed()),
    reason="Node.js or server/bench/peer's packages are missing (npm ci --prefix server/bench/peer)",
)

FIGURES = [
    "memory: per cached game",
    "memory: per idle WebSocket",
    "append: Lua script vs HTTP commands",
    "http: commands",
    "http: command p99 at max load",
    "http: server CPU per command",
    "push: command to every seat's socket, p99",
    "fanout: deliveries to spectators",
    "fanout: delay p99",
    "gc: command p99, as is vs gc off",
    "gc: command p99, gc.freeze() after start-up vs gc off",
    "dormant: bytes in Redis per game",
    "dormant: a dormancy pass",
    "dormant: bytes on disk per game",
    "dormant: first command p99",
    "dormant: games this machine holds",
    "capacity: tables held at a player's pace",
    "capacity: server CPU at the tables held",
    "capacity: server RSS at the tables held",
]
PER_GAME = [
    "rules[{}]",
    "moves[{}]: one step vs one decide",
    "fair[{}]: a step sealed vs not",
    "replay[{}]",
    "growth[{}]: command p50, long log vs new game",
]


def number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def bench_processes() -> set[int]:
    """Processes of a bench run: its Redis and servers name its scratch directory (lt-bench-...)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if b"lt-bench-" in (entry / "cmdline").read_bytes() + (entry / "environ").read_bytes():
                    found.add(int(entry.name))
            except OSError:
                continue
    return found


@needs_node
@pytest.mark.timeout(240)
def test_a_quick_bench_reports_every_figure(tmp_path: Path) -> None:
    before = bench_processes()
    out = tmp_path / "bench.json"
    run = subprocess.run(
        [sys.executable, "-m", "server.cli", "bench", "--quick", "--json", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=230,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    document = json.loads(out.read_text())
    rows = {row["name"]: row for row in document["rows"]}
    expected = FIGURES + [name.format(kind) for kind in GAMES for name in PER_GAME]
    assert sorted(rows) == sorted(expected)
    for row in rows.values():
        assert set(row) >= {"name", "ceiling", "value", "ratio", "target", "pass"}
        assert number(row["value"]), row
        if row["target"] is not None:
            assert number(row["ceiling"]) and number(row["ratio"]) and number(row["target"]), row
            assert isinstance(row["pass"], bool), row
    for name in rows:
        assert name in run.stdout  # the table shows every figure
    steps = rows["capacity: tables held at a player's pace"]["note"]
    assert "replicas' loops late by 25 ms or more" in steps and "; Redis held: " in steps
    assert document["machine"]["nproc"] >= 1
    # Nothing the bench started is left running: no redis-server, no server under test.
    left = bench_processes() - before
    # children killed by their parent-death signal may take a moment to go on a busy machine
    assert not [pid for pid in left if not wait_gone(pid, 15)]


@pytest.mark.timeout(60)
def test_the_capacity_steps_read_what_held_the_replicas_loops_and_redis(tmp_path: Path) -> None:
    """The replicas' loop timers and collections over a window (the difference of two scrapes), and
    Redis's forks in it: a rewrite of its append-only file is one."""

    async def window(redis: EmbeddedRedis, servers: list[procs.Server]) -> tuple[capacity.Loops, float, str, str]:
        stalls = capacity.RedisStalls(redis.url)
        try:
            await stalls.start()
            started = time.monotonic()
            before = await capacity.loops(servers)
            await asyncio.sleep(0.5)
            held = await capacity.loops(servers) - before
            seconds = time.monotonic() - started
            quiet = await stalls.since()
            await stalls.redis.bgrewriteaof()
            for _ in range(40):
                if (await stalls.redis.info("persistence"))["aof_rewrite_in_progress"] == 0:
                    break
                await asyncio.sleep(0.25)
            return held, seconds, quiet, await stalls.since()
        finally:
            await stalls.close()

    with EmbeddedRedis(tmp_path / "redis") as redis:
        servers = [procs.ludoteca(redis.url).start(), procs.ludoteca(redis.url).start()]
        try:
            held, seconds, quiet, rewritten = asyncio.run(window(redis, servers))
        finally:
            for server in servers:
                server.stop()
    assert 10 <= held.timers <= 2 * 100 * seconds + 2  # a timer every 10 ms at most on each replica
    assert 0 <= held.late_50 <= held.late_25 <= held.timers
    assert held.long_collections <= held.collections
    assert "fork" not in quiet
    assert rewritten.endswith("1 fork(s)")


def test_a_process_that_shares_one_core_with_another_waits_for_it() -> None:
    """``procs.waited``: the time a process's threads waited, runnable, for a core. Two busy processes
    held to one core take turns, so each waits about as long as the other runs."""
    spin = "import time\nend = time.process_time() + 0.6\nwhile time.process_time() < end: pass"
    pinned = [subprocess.Popen(["taskset", "-c", "0", sys.executable, "-c", spin]) for _ in range(2)]
    try:
        time.sleep(0.3)
        waits = [procs.waited(p.pid) for p in pinned]
    finally:
        for process in pinned:
            process.wait(30)
    assert all(turns > 0 for _, turns in waits)
    assert sum(wait for wait, _ in waits) > 0.05
    assert procs.waited(pinned[0].pid) == (0.0, 0)  # gone


async def play_briefly(kind: str, server: procs.Server) -> dict[str, Any]:
    drivers = node.Drivers([node.Driver(kind, server.port)])
    try:
        await drivers.start()
        [created] = await drivers.split("create", 6)
        [connected] = await drivers.split("connect", 2)
        [played] = await drivers.each({"op": "play", "seconds": 4.0, "warmup": 0.0})
        [closed] = await drivers.each({"op": "close"})
    finally:
        await drivers.stop()
    assert created["created"] == 6 and connected == {**connected, "connected": 8, "refused": 0}
    assert closed["closed"] == played["tables"] * 4
    return played


@needs_node
@pytest.mark.timeout(60)
def test_the_port_plays_whole_games_of_vilar_de_mouros_on_boardgame_io() -> None:
    """Every move the driver chose was legal (a refused move sends no update, and its arrivals
    would be missed), and games reached boardgame.io's gameover, where the next table took over."""
    server = node.bgio(None).start("/games")
    try:
        played = asyncio.run(play_briefly("bgio", server))
    finally:
        server.stop()
    assert played["moves"] > 100 and played["missed"] == 0 and played["errors"] == 0, played["problems"]
    assert played["ended"] >= 1  # a game of four lasts about 110 moves
    assert len(played["delays"]) == 4 * played["moves"]  # every seat received every move


@needs_node
@pytest.mark.timeout(60)
def test_the_driver_plays_ludoteca_over_its_websocket(tmp_path: Path) -> None:
    with EmbeddedRedis(tmp_path / "redis") as redis:
        server = procs.ludoteca(redis.url, {"LUDOTECA_WS_RATE": "10000", "LUDOTECA_WS_BURST": "10000"}).start()
        try:
            played = asyncio.run(play_briefly("ludoteca", server))
        finally:
            server.stop()
    assert played["moves"] > 50 and played["missed"] == 0 and played["errors"] == 0, played["problems"]
    assert len(played["delays"]) == 4 * played["moves"]


@pytest.mark.timeout(120)
def test_the_http_cost_tool_times_each_checkout_and_gives_its_medians() -> None:
    small = ["--rounds", "1", "--games", "80", "--clients", "2", "--seconds", "1"]  # under a seat's rate limit
    run = subprocess.run(
        [sys.executable, "-m", "server.bench.httpcost", str(ROOT), *small],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=110,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    [per_run, medians] = run.stdout.splitlines()
    assert per_run.startswith(f"{ROOT.name}: ") and per_run.endswith(", 0 errors")
    commands, cpu = re.search(r"(\d+) commands/s, .* server (\d+) us/command", per_run).groups()  # type: ignore[union-attr]
    assert int(commands) > 0 and int(cpu) > 0
    assert medians.startswith(f"{ROOT}: medians of 1: ")


@pytest.mark.timeout(60)
def test_the_capacity_steps_read_each_replicas_last_garbage_look(tmp_path: Path) -> None:
    """A replica that has had no full look yet reads 0; one that looks every half second reads
    its last look's pause (the fork of the copy that counted), which the step's line reports."""

    async def looks(servers: list[procs.Server]) -> list[float]:
        quiet = await capacity.last_look(servers[:1])
        for _ in range(40):
            looked = await capacity.last_look(servers[1:])
            if looked:
                break
            await asyncio.sleep(0.25)
        return [quiet, looked]

    with EmbeddedRedis(tmp_path / "redis") as redis:
        servers = [
            procs.ludoteca(redis.url).start(),
            procs.ludoteca(redis.url, {"LUDOTECA_GC_THAW_INTERVAL": "0.5"}).start(),
        ]
        try:
            quiet, looked = asyncio.run(looks(servers))
        finally:
            for server in servers:
                server.stop()
    assert quiet == 0.0
    assert 0.0 < looked < 5_000.0


@pytest.mark.timeout(120)
def test_a_dormant_soak_holds_copies_of_the_games_played_each_in_the_cold_tier(tmp_path: Path) -> None:
    """``--dormant-games N``: past the games played, copies of theirs under new ids, each stored and
    sent to the cold tier; the first commands are timed on games drawn from all of them."""
    redis = EmbeddedRedis(tmp_path / "redis")
    redis.start()
    try:
        plan = dormant.DormantPlan(games=90, sampled=10, played=20)
        rows = asyncio.run(dormant.dormant(redis.url, plan, tmp_path, random.Random(3)))
    finally:
        redis.stop()
    by_name = {row.name: row for row in rows}
    memory = by_name["dormant: bytes in Redis per game"].note
    assert "over 20 games mid-play" in memory and "80 of 90 in the cold tier" in memory, memory
    assert "70 of them copies of the games played" in memory, memory
    assert "the cold tier's 80 files" in by_name["dormant: bytes on disk per game"].note
    assert "the lobby's 90 games" in by_name["dormant: a dormancy pass"].note
    assert "10 dormant games" in by_name["dormant: first command p99"].note
    assert all(number(row.value) for row in rows), rows
