"""The state of one game, and what follows from a park's layout: activity, income, Food Courts."""

from __future__ import annotations

from itertools import combinations
from typing import Literal

import msgspec

from domain.miss_liz_parks.components import (
    BOARD,
    COLUMNS,
    EMPLOYEES_PER_THEME,
    FOOD_COURT_INCOME,
    FOOD_COURT_SIZE,
    GRID_COLUMNS,
    ROWS,
    STREETS,
    THEME_TOKENS,
    TILES,
)

Cell = tuple[int, int]

# The rules version this code plays (GAME.rules_version), recorded in each game's first fact so
# that a game keeps the rules it began with. 1: every tile of the park's own theme scored +1;
# 2: only an active one does (the rulebook's "Buildings only generate ... Happiness ... if active");
# 3: employees are moved at most twice as many times a turn as the park has on its buildings
# (``most_moves``; designed: the rulebook sets no limit, and moves back and forth would never end a turn).
RULES = 3

# setup: before the opening facts; themes: choosing themes in turn; opening: entrances, first
# streets and planning cards (every seat at once); turns: the rounds; over: the game has ended.
Phase = Literal["setup", "themes", "opening", "turns", "over"]
# Within a turn: action (free actions, then one action), build (place the tile bought), keep
# (choose a planning card), give_back (return one of 4 planning cards), free (action taken:
# free actions, then EndTurn), between (between a turn's last fact and the next turn).
Step = Literal["action", "build", "keep", "give_back", "free", "between"]


class Options(msgspec.Struct, kw_only=True):
    investment: bool = False  # variant: take up to 10 income a game, paid back in happiness
    side_b: bool = False  # variant: +3 happiness per reserved space left uncovered


class Building(msgspec.Struct, frozen=True, kw_only=True):
    cell: Cell
    tile: str
    employees: int = 0
    token: str | None = None  # a theme token's theme
    reward: tuple[int, int, int] | None = None  # (employees, theme tokens, purchase tokens) held from activation


class Park(msgspec.Struct, frozen=True, kw_only=True):
    theme: str | None = None
    buildings: tuple[Building, ...] = ()  # the Entrance among them
    streets: tuple[Cell, ...] = ()
    income: int = 0
    employees: int = 0  # in the supply beside the board
    purchase_tokens: int = 0  # owned
    tokens_used: int = 0  # on the projects board this round
    theme_tokens: int = 0  # held, not yet placed
    planning: tuple[str, ...] = ()  # secret
    looking: tuple[str, ...] = ()  # planning cards being looked at (secret)
    bought_planning: bool = False  # this round
    invested: int = 0
    passed: bool = False


class State(msgspec.Struct, frozen=True, kw_only=True):
    players: int
    options: Options = msgspec.field(default_factory=Options)
    phase: Phase = "setup"
    step: Step = "between"
    round: int = 0
    first: int = 0
    current: int | None = None
    order: tuple[int, ...] = ()  # this round's turn order
    passing: tuple[int, ...] = ()  # seats in the order they passed this round
    parks: tuple[Park, ...]
    piles: tuple[tuple[str, ...], ...] = ()  # secret; pile i is laid out in round i + 1
    removed: tuple[str, ...] = ()  # secret until the end
    projects: tuple[tuple[str | None, ...], ...] = ((None,) * COLUMNS,) * 3  # rows cost 4, 3, 2
    discarded: tuple[str, ...] = ()
    planning_deck: tuple[str, ...] = ()  # top first, secret
    pending_tile: str | None = None  # bought, not yet built
    theme_tokens: int = THEME_TOKENS  # in the box
    moved: int = 0  # employees moved this turn (a Rest Area's free action)
    rules: int = RULES  # the rules version the game is played by (its first fact says which)


def initial(players: int, options: Options | None = None) -> State:
    return State(players=players, options=options or Options(), parks=(Park(),) * players)


# -- the grid ------------------------------------------------------------------------------------

SIDES = ((-1, 0), (1, 0), (0, -1), (0, 1))
CORNERS = ((-1, -1), (-1, 1), (1, -1), (1, 1))
BONUS_STEPS = SIDES + CORNERS if BOARD.bonus_adjacency == "sides_and_corners" else SIDES
PATH_STEPS = SIDES + CORNERS if BOARD.path_adjacency == "sides_and_corners" else SIDES
ALL_CELLS: tuple[Cell, ...] = tuple((r, c) for r in range(ROWS) for c in range(GRID_COLUMNS))


def on_grid(cell: Cell) -> bool:
    return 0 <= cell[0] < ROWS and 0 <= cell[1] < GRID_COLUMNS


def around(cell: Cell, steps: tuple[Cell, ...]) -> list[Cell]:
    return [n for dr, dc in steps if on_grid(n := (cell[0] + dr, cell[1] + dc))]


# Each cell's neighbours along a street, worked out once: the street search asks for them often.
PATH_NEIGHBOURS: dict[Cell, list[Cell]] = {cell: around(cell, PATH_STEPS) for cell in ALL_CELLS}


def occupied(park: Park) -> set[Cell]:
    return {b.cell for b in park.buildings} | set(park.streets)


def empty_cells(park: Park) -> list[Cell]:
    taken = occupied(park)
    return [cell for cell in ALL_CELLS if cell not in taken]


def building_at(park: Park, cell: Cell) -> Building | None:
    return next((b for b in park.buildings if b.cell == cell), None)


def kind(building: Building) -> str:
    return TILES[building.tile].type


def theme_of(building: Building) -> str:
    """The building's theme now: a theme token's, else the printed one."""
    return building.token or TILES[building.tile].theme


def entrance(park: Park) -> Building | None:
    return next((b for b in park.buildings if kind(b) == "Entrance"), None)


def connected(park: Park) -> set[Cell]:
    """Cells that touch (across a side) a street path reaching the Entrance: buildings block streets."""
    gate = entrance(park)
    if gate is None:
        return set()
    streets = set(park.streets)
    reached = [s for s in PATH_NEIGHBOURS[gate.cell] if s in streets]
    seen = set(reached)
    while reached:
        cell = reached.pop()
        for n in PATH_NEIGHBOURS[cell]:
            if n in streets and n not in seen:
                seen.add(n)
                reached.append(n)
    return {n for s in seen for n in PATH_NEIGHBOURS[s]}


def active(park: Park) -> list[Building]:
    """Buildings with an employee and a street path to the Entrance."""
    linked = connected(park)
    return [b for b in park.buildings if b.employees > 0 and b.cell in linked]


def neighbours(park: Park, building: Building) -> list[Building]:
    cells = set(around(building.cell, BONUS_STEPS))
    return [b for b in park.buildings if b.cell in cells]


def food_courts(park: Park, on: list[Building] | None = None) -> list[tuple[Cell, ...]]:
    """As many disjoint Food Courts as the active Restaurants make: four, each by two others."""
    restaurants = [b.cell for b in (active(park) if on is None else on) if kind(b) == "Restaurant"]
    near = {cell: set(around(cell, BONUS_STEPS)) for cell in restaurants}
    courts = [
        group
        for group in combinations(sorted(restaurants), FOOD_COURT_SIZE)
        if all(sum(1 for other in group if other in near[cell]) >= 2 for cell in group)
    ]

    def best(left: list[tuple[Cell, ...]], used: frozenset[Cell]) -> list[tuple[Cell, ...]]:
        if not left:
            return []
        first, rest = left[0], left[1:]
        skip = best(rest, used)
        if used & set(first):
            return skip
        take = [first, *best(rest, used | set(first))]
        return take if len(take) > len(skip) else skip

    return best(courts, frozenset())


def building_income(park: Park, building: Building) -> int:
    """What one active building pays in an income phase: its printed income and its bonus."""
    tile = TILES[building.tile]
    amount = tile.income
    if tile.type == "Ride":
        amount += 2 * sum(1 for n in neighbours(park, building) if kind(n) in ("Shop", "Restaurant"))
    elif tile.type == "Shop" and any(kind(n) == "Shop" for n in neighbours(park, building)):
        amount += 1
    return amount


def income_due(park: Park, on: list[Building] | None = None) -> int:
    """A park's income phase: every active building and bonus, +5 per Food Court (``on``: its active buildings)."""
    on = active(park) if on is None else on
    return sum(building_income(park, b) for b in on) + FOOD_COURT_INCOME * len(food_courts(park, on))


# -- supplies ------------------------------------------------------------------------------------


def employees_left(park: Park) -> int:
    """Employees of the park's colour still in the box (15 a colour)."""
    return EMPLOYEES_PER_THEME - park.employees - sum(b.employees for b in park.buildings)


def streets_left(state: State) -> int:
    return STREETS - sum(len(p.streets) for p in state.parks)


def tokens_free(park: Park) -> int:
    return park.purchase_tokens - park.tokens_used


# -- what a park allows now (decide checks them, moves offers by them) ----------------------------


def beside_entrance(park: Park) -> list[Cell]:
    """Empty cells beside the Entrance (along a street): where the first street may go."""
    gate = entrance(park)
    taken = occupied(park)
    return [] if gate is None else [c for c in sorted(around(gate.cell, PATH_STEPS)) if c not in taken]


def rest_area_active(park: Park) -> bool:
    return any(kind(b) == "Rest Area" for b in active(park))


def most_moves(park: Park) -> int:
    """How many times a seat may move an employee in one turn (rules 3 on): twice the employees on
    its buildings, enough for any arrangement (each through the Rest Area, which takes any number)."""
    return 2 * sum(b.employees for b in park.buildings)


def moves_left(state: State, park: Park) -> int | None:
    """How many more times the seat to play may move an employee this turn (``None``: no limit,
    before rules 3)."""
    return None if state.rules < 3 else max(0, most_moves(park) - state.moved)


def may_move(state: State, park: Park) -> bool:
    """Whether the seat to play has moves of an employee left this turn."""
    left = moves_left(state, park)
    return left is None or left > 0


def takes_employee(building: Building) -> bool:
    return building.employees == 0 or kind(building) == "Rest Area"


def can_give_back(park: Park, building: Building) -> bool:
    """Whether the employee may leave: what the building gave must still be at hand."""
    if building.reward is None or building.employees > 1:
        return True
    e, t, p = building.reward
    return park.employees >= e and park.theme_tokens >= t and tokens_free(park) >= p


def takes_theme_token(building: Building) -> bool:
    return kind(building) != "Entrance" and building.token is None


def tiles_on_board(state: State) -> list[tuple[str, int, int]]:
    """(tile, row, column) for every tile on the projects board, row 0 being the cost 4 row."""
    return [(t, r, c) for r, row in enumerate(state.projects) for c, t in enumerate(row) if t is not None]
