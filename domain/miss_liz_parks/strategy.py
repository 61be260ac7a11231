"""What the bots are told of Miss Liz's parks (the contract: ``Strategy`` in domain/engine.py).

The plan of a park: buy tiles, build them where streets can reach them, staff them and join
them to the Entrance, and let the money they earn buy more. Looking one command ahead, buying a
tile only lowers the money and adds no points until it is staffed and joined, so the points
here count what is under way, each thing for what it will most likely bring by the end:

- the score as the end would count it (active buildings, Food Courts, themes, planning cards
  met, the investment taken, side B), but money counted by what it will still buy: a coin is
  worth ``MONEY[round]`` points, from 0.6 in the first round down to 0.25 in the last (at the
  end five coins make a point);
- every building not yet active, for the happiness, theme point and income it would bring,
  times how likely it is to get there (``LIKELY``: staffed only, joined only, or neither),
  less the money still to pay for it: an employee, and the streets of the shortest way from
  the Entrance's streets (``streets_needed``);
- the income of active buildings, for each income phase still to come, at that round's coin;
- a tile bought and not yet built, as a building with everything still to do;
- employees in the supply with a building to staff, theme tokens in hand, and planning cards
  under way (a share of their points as their objective nears);
- less ``FIDGET`` for each employee the seat to play has moved this turn: a move of an employee
  is free and leaves the seat to play on, so a search's best of what follows always looked a
  little better than stopping, and the searching bot moved employees back and forth up to its
  limit every turn (51 moves in one game with a cost of 0.1 a move, 5 with 0.5; greedy moves none).

Proposals: for every building that is not joined, the streets of its shortest way to the
Entrance; and the streets that join them all, nearest first (random picks of cells almost
never draw a path). ``pool``: the hidden planning cards are one pool, the hidden tiles another.
"""

from __future__ import annotations

import functools
from collections import deque

from domain.engine import Place, Seat, Strategy
from domain.miss_liz_parks.commands import BuyStreets, HireEmployees
from domain.miss_liz_parks.components import (
    EMPLOYEE_COST,
    FOOD_COURT_INCOME,
    NO_THEME,
    PLANNING,
    ROUNDS,
    STREET_COST,
    TILES,
)
from domain.miss_liz_parks.scoring import met, score_park, theme_points
from domain.miss_liz_parks.state import (
    BONUS_STEPS,
    PATH_NEIGHBOURS,
    Building,
    Cell,
    Park,
    State,
    active,
    around,
    building_income,
    entrance,
    income_due,
    kind,
    streets_left,
    takes_employee,
)

MONEY = {0: 0.6, 1: 0.6, 2: 0.55, 3: 0.5, 4: 0.4, 5: 0.25}  # a coin's worth in points, by round
LIKELY = {"staff": 0.9, "join": 0.8, "both": 0.7}  # a building's chance to become active, by what it lacks
REWARD = {"Administration": 3.0, "Board of Directors": 2.0}  # what activation gives, in points
LAST_ROUND = ROUNDS
SUPPLY_EMPLOYEE = 0.3  # an employee in the supply with a building to staff
THEME_TOKEN = 0.5  # a theme token in hand
PLANNING_SHARE = 0.6  # of a planning card's points, times how far its objective is along
FIDGET = 0.5  # each employee moved this turn, in points: a move must pay for itself


def points(state: State) -> list[float]:
    return [
        park_points(
            park,
            state.round,
            state.options.side_b,
            state.rules,
            state.pending_tile if state.current == seat else None,
        )
        - (FIDGET * state.moved if state.current == seat else 0.0)
        for seat, park in enumerate(state.parks)
    ]


def coin(round_: int) -> float:
    return MONEY[min(max(round_, 0), LAST_ROUND)]


def phases_ahead(round_: int) -> list[int]:
    """The rounds whose income phase is still to come (rounds 2 to 5 open with one)."""
    return list(range(max(round_ + 1, 2), LAST_ROUND + 1))


@functools.lru_cache(maxsize=8192)
def park_points(park: Park, round_: int, side_b: bool, rules: int, pending: str | None) -> float:
    """One park's points (cached: a bot asks for the same parks again and again)."""
    if park.theme is None:
        return 0.0
    scored = score_park(0, park, side_b, rules)
    now = coin(round_)
    ahead = sum(coin(r) for r in phases_ahead(round_))
    total = scored.total - scored.income + now * park.income  # money at what it still buys
    on = active(park)
    on_cells = {b.cell for b in on}
    total += ahead * (sum(building_income(park, b) for b in on) + FOOD_COURT_INCOME * (scored.food_courts > 0))
    done = round_ == LAST_ROUND and park.passed  # nothing more can happen to this park
    if done:
        return float(scored.total)
    # What the park can still pay for: its money, and in any round but the last the income to come.
    budget = park.income + (income_due(park, on) * len(phases_ahead(round_)) if round_ < LAST_ROUND else 0)
    distance = streets_needed(park)
    staff_left = park.employees
    under_way = []
    for building in park.buildings:
        if building.cell in on_cells or building.cell not in distance:
            continue  # active, or walled in: no street can reach it
        staffed = not takes_employee(building) or building.employees > 0
        joined = distance[building.cell] == 0
        cost = STREET_COST * distance[building.cell]
        if not staffed:
            if staff_left > 0:
                staff_left -= 1
            else:
                cost += EMPLOYEE_COST
        lacks = "staff" if joined else ("join" if staffed else "both")
        under_way.append((LIKELY[lacks] * worth(park, building, ahead), cost))
    if pending is not None:
        under_way.append((LIKELY["both"] * tile_worth(pending, park, ahead), 3))
    # The most promising first, while the money lasts.
    for value, cost in sorted(under_way, key=lambda w: -w[0] / (1 + w[1])):
        if cost > budget:
            continue
        budget -= cost
        total += max(0.0, value - now * cost)
    waiting = sum(1 for b in park.buildings if b.employees == 0 and b.cell not in on_cells)
    total += SUPPLY_EMPLOYEE * min(park.employees, waiting)
    total += THEME_TOKEN * park.theme_tokens
    total += planning_under_way(park, on)
    return total


def worth(park: Park, building: Building, ahead: float) -> float:
    """What a building brings once active: its happiness, theme point, income to come, reward."""
    tile = TILES[building.tile]
    happy = tile.happiness
    if tile.type == "Show":
        streets = set(park.streets)
        happy += sum(1 for cell in around(building.cell, BONUS_STEPS) if cell in streets)
    elif tile.type == "Rest Area":
        happy += max(1, building.employees)
    elif tile.type == "Board of Directors":
        happy = (len(park.buildings) + 1) // 2
    theme = 1 if theme_points(park, building, True) > 0 else 0  # a No Theme tile's -1 is in the score already
    return happy + theme + ahead * building_income(park, building) + REWARD.get(tile.type, 0.0)


def tile_worth(tile_id: str, park: Park, ahead: float) -> float:
    """A tile not yet built: its printed happiness, theme point and income (no bonus counted)."""
    tile = TILES[tile_id]
    own = 1 if tile.theme == park.theme else -1 if tile.theme == NO_THEME else 0
    happy = tile.happiness if tile.type != "Board of Directors" else (len(park.buildings) + 1) // 2
    return happy + own + ahead * tile.income + REWARD.get(tile.type, 0.0)


def planning_under_way(park: Park, on: list[Building]) -> float:
    """A share of the points of each planning card not met yet, as its objective nears."""
    total = 0.0
    for card in park.planning:
        plan = PLANNING.get(card)
        if plan is None or met(park, plan.objective, on):
            continue
        objective = plan.objective
        count = max(1, objective.count)
        match objective.kind:
            case "active_type":
                near = sum(1.0 if b in on else 0.5 for b in park.buildings if kind(b) == objective.type) / count
            case "active_theme":
                near = sum(1.0 if b in on else 0.5 for b in park.buildings if b.token == objective.theme) / count
                near += (
                    sum(
                        1.0 if b in on else 0.5
                        for b in park.buildings
                        if b.token is None and TILES[b.tile].theme == objective.theme
                    )
                    / count
                )
            case "streets":
                near = len(park.streets) / count
            case "buildings":
                near = sum(1 for b in park.buildings if kind(b) != "Entrance") / count
            case "income":
                near = park.income / count
            case "all_active":
                near = 0.5 * len(on) / count
            case _:
                near = 0.3
        total += PLANNING_SHARE * plan.points * min(1.0, near) ** 2
    return total


def streets_needed(park: Park) -> dict[Cell, int]:
    """For every building, the fewest streets still to build to join it to the Entrance (0: joined;
    missing: no way). Streets already built cost nothing to pass; buildings block the way."""
    return {cell: found for cell, (found, _) in _ways(park).items()}


def _ways(park: Park) -> dict[Cell, tuple[int, tuple[Cell, ...]]]:
    """For every building, (streets to build, the cells to build them on) of a shortest way."""
    gate = entrance(park)
    if gate is None:
        return {}
    buildings = {b.cell for b in park.buildings}
    streets = set(park.streets)
    # 0-1 search from the Entrance over cells a street may run through: streets cost 0, empty cells 1.
    best: dict[Cell, tuple[int, tuple[Cell, ...]]] = {}
    queue: deque[tuple[Cell, int, tuple[Cell, ...]]] = deque()
    for cell in PATH_NEIGHBOURS[gate.cell]:
        if cell not in buildings:
            cost = 0 if cell in streets else 1
            (queue.appendleft if cost == 0 else queue.append)((cell, cost, () if cost == 0 else (cell,)))
    while queue:
        cell, cost, path = queue.popleft()
        if cell in best and best[cell][0] <= cost:
            continue
        best[cell] = (cost, path)
        for n in PATH_NEIGHBOURS[cell]:
            if n in buildings:
                continue
            step = 0 if n in streets else 1
            item = (n, cost + step, path if step == 0 else (*path, n))
            (queue.appendleft if step == 0 else queue.append)(item)
    ways: dict[Cell, tuple[int, tuple[Cell, ...]]] = {}
    for building in park.buildings:
        reach = [best[n] for n in PATH_NEIGHBOURS[building.cell] if n in best]
        if reach:
            ways[building.cell] = min(reach, key=lambda w: (w[0], w[1]))
    return ways


def proposals(state: State, seat: Seat) -> list[BuyStreets | HireEmployees]:
    """Streets that join buildings to the Entrance (each one's shortest way, and all of them,
    nearest first), as far as the money and the streets left go; employees for every building
    waiting for one."""
    if state.phase != "turns" or state.current != seat or state.step != "action":
        return []
    park = state.parks[seat]
    room = min(park.income // STREET_COST, streets_left(state))
    made: list[BuyStreets | HireEmployees] = []
    if room > 0:
        ways = _ways(park)
        unjoined = sorted((found, path) for found, path in ways.values() if found > 0)
        for found, path in unjoined:
            if found <= room:
                made.append(BuyStreets(cells=path))
        everything: list[Cell] = []
        for _, path in unjoined:
            extra = [c for c in path if c not in everything]
            if len(everything) + len(extra) > room:
                break
            everything += extra
        if everything:
            made.append(BuyStreets(cells=tuple(everything)))
    waiting = sum(1 for b in park.buildings if b.employees == 0) - park.employees
    hire = min(waiting, park.income // EMPLOYEE_COST)
    if hire > 0:
        made.append(HireEmployees(count=hire))
    return made


def pool(place: Place, card: str) -> str:
    """Planning cards and tiles."""
    return "plan" if card.startswith("plan-") else "tile"


STRATEGY = Strategy(points=points, pool=pool, proposals=proposals, spread=8.0, budget_pays=False)
