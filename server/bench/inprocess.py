"""The ceilings measured in process, with no I/O: each game's rules alone, a step of a move's building,
a step sealed for fair play."""

from __future__ import annotations

import random
import statistics

from domain.catalog import GAMES
from server.bench import play
from server.bench.client import percentile, quiet_gc
from server.bench.report import Row


def rules(rng: random.Random, seconds: float) -> list[Row]:
    """Steps a second of each game's rules alone: picks, decide, evolve."""
    rows = []
    for kind, game in GAMES.items():
        steps, took = play.rules_steps(game, seconds, rng)
        rows.append(Row(f"rules[{kind}]", "steps/s", None, steps / took, note="picks+decide+evolve, no I/O"))
    return rows


def move_building(rng: random.Random, seconds: float) -> list[Row]:
    """A step of a move's building against one decide, per game."""
    rows = []
    for kind, game in GAMES.items():
        with quiet_gc():
            costs = play.step_costs(game, seconds, rng)
        steps = costs.first + costs.deeper
        rows.append(
            Row(
                f"moves[{kind}]: one step vs one decide",
                "us",
                micros(costs.decide, None),
                micros(steps, None),
                note=f"in process, no I/O, mean of every step; {len(steps)} steps of {costs.walks} random walks "
                f"of picks; mean / p50 / p99: first step (what every update to the awaited seat carries) "
                f"{spread(costs.first)} us, deeper steps {spread(costs.deeper)} us ({len(costs.deeper)}); ceiling "
                f"column: one decide of the command each walk built, on the same state, {spread(costs.decide)} us; "
                f"legal-commands' listing of the moves with few commands, {spread(costs.listing)} us",
            )
        )
    return rows


def sealing(rng: random.Random, seconds: float) -> list[Row]:
    """A step sealed for fair play against the same step unsealed, per game."""
    rows = []
    for kind, game in GAMES.items():
        with quiet_gc():
            sealed, bare = play.sealing_costs(game, seconds, rng)
        rows.append(
            Row(
                f"fair[{kind}]: a step sealed vs not",
                "us",
                micros(bare, None),
                micros(sealed, None),
                note=f"in process, no I/O, {len(sealed)} steps of random games at tables with a seed; mean / p50 / "
                f"p99: the step decided at the table and sealed (commitments, openings, whether it ends the "
                f"table) {spread(sealed)} us; ceiling column: the same step, the same chance, at the table "
                f"without its seed {spread(bare)} us",
            )
        )
    return rows


def micros(seconds: list[float], q: float | None) -> float:
    """The mean (``q`` None) or the ``q`` percentile of durations, in microseconds."""
    if not seconds:
        return 0.0
    return 1e6 * (statistics.mean(seconds) if q is None else percentile(seconds, q))


def spread(seconds: list[float]) -> str:
    return " / ".join(f"{micros(seconds, q):.1f}" for q in (None, 50, 99))
