"""The figures: one row each (ceiling, Ludoteca, ratio, target, pass), as a table and as JSON."""

from __future__ import annotations

import json
import os
import platform
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal


@dataclass
class Row:
    """One figure. ``target`` applies to the ratio (``on="ratio"``) or to the value itself (``on="value"``)."""

    name: str
    unit: str
    ceiling: float | None
    value: float
    target: float | None = None
    goal: Literal[">=", "<="] = ">="
    on: Literal["ratio", "value"] = "ratio"
    note: str = ""

    @property
    def ratio(self) -> float | None:
        return self.value / self.ceiling if self.ceiling else None

    @property
    def passed(self) -> bool | None:
        if self.target is None:
            return None
        measured = self.ratio if self.on == "ratio" else self.value
        if measured is None:
            return False
        return measured >= self.target if self.goal == ">=" else measured <= self.target

    def as_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "unit": self.unit,
            "ceiling": self.ceiling,
            "value": self.value,
            "ratio": self.ratio,
            "target": self.target,
            "target_on": self.on,
            "goal": self.goal,
            "pass": self.passed,
            "note": self.note,
        }


def _number(value: float | None) -> str:
    if value is None:
        return "-"
    if abs(value) >= 100:
        return f"{value:,.0f}"
    return f"{value:.3g}" if abs(value) < 10 else f"{value:.1f}"


def _target(row: Row) -> str:
    if row.target is None:
        return "-"
    if row.on == "ratio":
        return f"{row.goal} {row.target:g}x"
    return f"{row.goal} {_number(row.target)}"


def table(rows: list[Row]) -> str:
    header = ["figure", "unit", "ceiling", "Ludoteca", "ratio", "target", "pass"]
    cells = [
        [
            r.name,
            r.unit,
            _number(r.ceiling),
            _number(r.value),
            "-" if r.ratio is None else f"{r.ratio:.2f}",
            _target(r),
            {None: "info", True: "pass", False: "FAIL"}[r.passed],
        ]
        for r in rows
    ]
    widths = [max(len(line[i]) for line in [header, *cells]) for i in range(len(header))]

    def line(values: list[str]) -> str:
        return "  ".join(
            v.ljust(w) if i < 2 else v.rjust(w) for i, (v, w) in enumerate(zip(values, widths, strict=True))
        )

    lines = [line(header), "  ".join("-" * w for w in widths), *(line(c) for c in cells)]
    notes = [f"  {r.name}: {r.note}" for r in rows if r.note]
    return "\n".join([*lines, "", "notes:", *notes])


def machine() -> dict[str, Any]:
    model = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.partition(":")[2].strip()
                break
    except OSError:
        pass
    return {"nproc": os.cpu_count(), "cpu": model, "python": platform.python_version(), "system": platform.platform()}


def write_json(path: Path, rows: list[Row], quick: bool, seconds: float) -> None:
    document = {"quick": quick, "seconds": round(seconds, 1), "machine": machine(), "rows": [r.as_json() for r in rows]}
    path.write_text(json.dumps(document, indent=2) + "\n")


def say(text: str) -> None:
    """A line of the run's progress, on stderr (the table goes to stdout)."""
    print(f"bench: {text}", file=sys.stderr, flush=True)
