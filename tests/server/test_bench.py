"""`ludoteca bench --quick` completes and reports every figure with numbers (no test asserts a time)."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

from domain.catalog import GAMES
from tests.support.processes import ROOT, wait_gone

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
]
PER_GAME = [
    "rules[{}]",
    "moves[{}]: one step vs one decide",
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
    assert document["machine"]["nproc"] >= 1
    # Nothing the bench started is left running: no redis-server, no server under test.
    left = bench_processes() - before
    # children killed by their parent-death signal may take a moment to go on a busy machine
    assert not [pid for pid in left if not wait_gone(pid, 15)]
