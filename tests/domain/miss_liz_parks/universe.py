"""Commands made without the pick code, for the completeness checks (tests/domain/contract.py):
every field's plausible values, on and off the grid, and street purchases combining cells up
to the rule's limits. Whatever of these decide accepts, the picks must reach."""

from __future__ import annotations

import random
from itertools import permutations

from domain.miss_liz_parks.commands import (
    AssignEmployee,
    BuildTile,
    BuyPlanningCard,
    BuyStreets,
    BuyTile,
    ChooseTheme,
    Command,
    EndTurn,
    HireEmployees,
    KeepPlanningCard,
    MoveEmployee,
    PassRound,
    PlaceEntrance,
    PlaceFirstStreet,
    PlaceThemeToken,
    ReturnPlanningCard,
    TakeInvestment,
)
from domain.miss_liz_parks.components import EMPLOYEES_PER_THEME, GRID_COLUMNS, PLANNING, ROWS, THEME_IDS, TILES
from domain.miss_liz_parks.state import Cell, State

GRID: list[Cell] = [(r, c) for r in range(ROWS) for c in range(GRID_COLUMNS)]
OFF_GRID: list[Cell] = [(ROWS, 0), (0, GRID_COLUMNS), (-1, 0), (0, -1)]
THEMES = [*THEME_IDS, "none", "space"]


def street_purchases(free: list[Cell], taken: list[Cell], limit: int, rng: random.Random) -> list[Command]:
    """Every ordered choice of up to 3 cells from a pool (mostly empty cells, one taken, one off
    the grid), and random larger ones of every size up to the limit and one past it, with repeats."""
    pool = rng.sample(free, min(6, len(free))) + rng.sample(taken, min(1, len(taken))) + rng.sample(OFF_GRID, 1)
    made: list[Command] = [BuyStreets(cells=())]
    for size in (1, 2, 3):
        made += [BuyStreets(cells=cells) for cells in permutations(pool, size)]
    made += [BuyStreets(cells=(c,)) for c in [*GRID, *OFF_GRID]]  # every single cell
    for size in range(4, min(limit + 1, len(free)) + 1):
        for _ in range(3):
            made.append(BuyStreets(cells=tuple(rng.sample(free, size))))
    if free:
        cell = rng.choice(free)
        made.append(BuyStreets(cells=(cell, cell)))  # the same cell twice
    return made


def universe(state: State, seat: int, rng: random.Random) -> list[Command]:
    """Candidate commands of every type for ``seat``: decide sorts out which are legal."""
    park = state.parks[seat]
    built = [b.cell for b in park.buildings]
    taken = [*built, *park.streets]
    free = [c for c in GRID if c not in taken]
    near = [*built, *rng.sample(free, min(2, len(free))), OFF_GRID[0]]  # cells a free action may name
    tiles = [t for row in state.projects for t in row if t] + rng.sample(sorted(TILES), 3)
    cards = sorted(PLANNING)
    made: list[Command] = [ChooseTheme(theme=t) for t in THEMES]
    made += [PlaceEntrance(column=c) for c in range(-1, GRID_COLUMNS + 2)]
    made += [PlaceFirstStreet(cell=c) for c in [*GRID, *OFF_GRID]]
    made += [KeepPlanningCard(card=c) for c in cards] + [ReturnPlanningCard(card=c) for c in cards]
    made += [BuyTile(tile=t) for t in tiles]
    made += [BuildTile(cell=c) for c in [*GRID, *OFF_GRID]]
    made += street_purchases(free, taken, park.income + 1, rng)
    made += [HireEmployees(count=n) for n in range(-1, EMPLOYEES_PER_THEME + 2)]
    made += [BuyPlanningCard(), PassRound(), EndTurn()]
    made += [AssignEmployee(cell=c) for c in [*GRID, *OFF_GRID]]
    made += [MoveEmployee(source=a, target=b) for a in near for b in near]
    made += [PlaceThemeToken(cell=c, theme=t) for c in near for t in THEMES]
    made += [TakeInvestment(amount=n) for n in range(-1, 12)]
    return made
