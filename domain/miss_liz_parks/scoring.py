"""Final happiness and the outcome (rulebook, "Final Scoring"; rulings in docs/games/miss-liz-parks.md).

Per park: every active building's happiness (a Board of Directors: active buildings // 2; a Rest
Area: 1 per employee on it; a Show: +1 per street around it), +10 per Food Court, +1 per active building
of the park's own theme (the Entrance included) and -1 per No Theme tile (active or not), the
planning cards met, +1 per 5 income left, minus the investment taken, and +3 per reserved space
left uncovered with side B. Ties: own-theme tiles (built, active or not), then income left.
Games begun under rules 1 (state.RULES) keep their +1 for every own-theme tile.
"""

from __future__ import annotations

import msgspec

from domain.engine import FULL, Outcome, Viewer, places_from_keys
from domain.miss_liz_parks.components import FOOD_COURT_HAPPINESS, PLANNING, RESERVED, RESERVED_BONUS, TILES, Objective
from domain.miss_liz_parks.state import (
    BONUS_STEPS,
    RULES,
    Building,
    Park,
    State,
    active,
    around,
    building_income,
    food_courts,
    kind,
    occupied,
    theme_of,
)

INCOME_PER_POINT = 5


class TileScore(msgspec.Struct, kw_only=True):
    cell: tuple[int, int]
    tile: str
    active: bool
    happiness: int  # printed, bonus and +1 own theme (if active); -1 No Theme (always)
    income: int  # what it pays in an income phase (0 when not active)


class ParkScore(msgspec.Struct, kw_only=True):
    seat: int
    total: int
    buildings: int  # active buildings' happiness and bonuses
    food_courts: int
    theme: int  # +1 per active own-theme building, -1 per No Theme tile
    planning: int
    planning_met: list[str]
    income: int  # income left // 5
    investment: int  # minus the investment taken
    reserved: int  # side B
    own_theme_tiles: int  # tie-breaker 1
    income_left: int  # tie-breaker 2
    tiles: list[TileScore]

    def tie_key(self) -> tuple[int, int, int]:
        return (self.total, self.own_theme_tiles, self.income_left)


class ParkOutcome(Outcome, tag="miss-liz-parks", kw_only=True):
    breakdown: list[ParkScore]


def building_happiness(park: Park, building: Building, on: list[Building]) -> int:
    """What one active building scores: printed happiness and its bonus."""
    tile = TILES[building.tile]
    if tile.type == "Board of Directors":
        return len(on) // 2
    points = tile.happiness
    if tile.type == "Rest Area":
        points += building.employees
    if tile.type == "Show":
        streets = set(park.streets)
        points += sum(1 for cell in around(building.cell, BONUS_STEPS) if cell in streets)
    return points


def theme_points(park: Park, building: Building, working: bool, rules: int = RULES) -> int:
    """+1 for an active building of the park's theme (rules 1: any tile of it, active or not);
    -1 for a No Theme tile, active or not (a ruling: docs/games/miss-liz-parks.md)."""
    theme = theme_of(building)
    if theme == "none":
        return -1
    return 1 if theme == park.theme and (working or rules < 2) else 0


def met(park: Park, objective: Objective, on: list[Building]) -> bool:
    count = objective.count
    match objective.kind:
        case "active_type":
            return sum(1 for b in on if kind(b) == objective.type) >= count
        case "active_theme":
            return sum(1 for b in on if theme_of(b) == objective.theme) >= count
        case "streets":
            return len(park.streets) >= count
        case "buildings":
            return sum(1 for b in park.buildings if kind(b) != "Entrance") >= count
        case "income":
            return park.income >= count
        case "all_active":
            return len(park.buildings) >= count and len(on) == len(park.buildings)
        case "no_no_theme":
            return all(theme_of(b) != "none" for b in park.buildings)
        case "food_court":
            return bool(food_courts(park, on))
    return False


def score_park(seat: int, park: Park, side_b: bool, rules: int = RULES) -> ParkScore:
    on = active(park)
    on_cells = {b.cell for b in on}
    tiles = [
        TileScore(
            cell=b.cell,
            tile=b.tile,
            active=b.cell in on_cells,
            happiness=(building_happiness(park, b, on) if b.cell in on_cells else 0)
            + theme_points(park, b, b.cell in on_cells, rules),
            income=building_income(park, b) if b.cell in on_cells else 0,
        )
        for b in park.buildings
    ]
    buildings = sum(building_happiness(park, b, on) for b in on)
    courts = FOOD_COURT_HAPPINESS * len(food_courts(park, on))
    theme = sum(theme_points(park, b, b.cell in on_cells, rules) for b in park.buildings)
    planning_met = [c for c in park.planning if c in PLANNING and met(park, PLANNING[c].objective, on)]
    planning = sum(PLANNING[c].points for c in planning_met)
    income = park.income // INCOME_PER_POINT
    reserved = RESERVED_BONUS * len(RESERVED - occupied(park)) if side_b else 0
    total = buildings + courts + theme + planning + income - park.invested + reserved
    return ParkScore(
        seat=seat,
        total=total,
        buildings=buildings,
        food_courts=courts,
        theme=theme,
        planning=planning,
        planning_met=planning_met,
        income=income,
        investment=-park.invested,
        reserved=reserved,
        own_theme_tiles=sum(1 for b in park.buildings if theme_of(b) == park.theme),
        income_left=park.income,
        tiles=tiles,
    )


def score(state: State) -> list[ParkScore]:
    return [score_park(seat, park, state.options.side_b, state.rules) for seat, park in enumerate(state.parks)]


def standing(state: State, viewer: Viewer) -> list[int | None]:
    """Each park's happiness if the game ended now, where ``viewer`` may know it: planning cards are
    secret, so another seat's total is known only while it holds none."""
    return [
        score_park(seat, park, state.options.side_b, state.rules).total
        if viewer in (seat, FULL) or not park.planning
        else None
        for seat, park in enumerate(state.parks)
    ]


def outcome(state: State) -> ParkOutcome | None:
    if state.phase != "over":
        return None
    breakdown = score(state)
    places = places_from_keys([s.tie_key() for s in breakdown])
    return ParkOutcome(
        scores=[s.total for s in breakdown],
        places=places,
        winners=[seat for seat, place in enumerate(places) if place == 1],
        breakdown=breakdown,
    )
