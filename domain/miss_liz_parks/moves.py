"""Building a move, pick by pick (the contract: domain/engine.py; the picks of each command:
docs/games/miss-liz-parks.md, "Building a move").

Every command has one field, or two picked in order, except ``BuyStreets``: its cells are
picked one at a time, any empty cell not picked yet, up to what the seat can pay and the
streets left; from the first cell on the picks make a command (send it, or add cells).
Each builder offers exactly what ``decide`` accepts, from what the seat may see.
"""

from __future__ import annotations

from functools import partial

from domain.engine import NO_MOVE, Pick, Seat, Step
from domain.miss_liz_parks.commands import (
    AssignEmployee,
    BuildTile,
    BuyPlanningCard,
    BuyStreets,
    BuyTile,
    ChooseTheme,
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
from domain.miss_liz_parks.components import (
    EMPLOYEE_COST,
    GRID_COLUMNS,
    INVESTMENT_LIMIT,
    PLANNING_COST,
    ROW_COSTS,
    STREET_COST,
    THEME_IDS,
)
from domain.miss_liz_parks.state import (
    Cell,
    Park,
    State,
    beside_entrance,
    building_at,
    can_give_back,
    employees_left,
    empty_cells,
    entrance,
    may_move,
    rest_area_active,
    streets_left,
    takes_employee,
    takes_theme_token,
    theme_of,
    tiles_on_board,
    tokens_free,
)
from domain.moves import Builder, Chosen, menu, offer, pick_one, send


def moves(state: State, seat: Seat, picks: tuple[Pick, ...]) -> Step:
    """What ``seat`` may pick next after ``picks``, and the command they make (GAME.moves)."""
    return menu(picks, _builders(state, seat))


def _builders(state: State, seat: Seat) -> dict[str, Builder]:
    """The kinds of command ``seat`` may send now, each with its builder."""
    if state.phase == "themes":
        if seat != state.current:
            return {}
        taken = {p.theme for p in state.parks}
        themes = [t for t in THEME_IDS if t not in taken]
        return {"ChooseTheme": pick_one("theme", "theme", themes, lambda t: ChooseTheme(theme=t))}
    if state.phase == "opening":
        return _opening(state.parks[seat]) if 0 <= seat < state.players else {}
    if state.phase != "turns" or seat != state.current:
        return {}
    park = state.parks[seat]
    match state.step:
        case "build":
            return {"BuildTile": pick_one("cell", "cell", empty_cells(park), lambda c: BuildTile(cell=c))}
        case "keep":
            return {"KeepPlanningCard": _keep(park)}
        case "give_back":
            return {"ReturnPlanningCard": pick_one("card", "card", park.planning, lambda c: ReturnPlanningCard(card=c))}
        case "free":
            return {**_free(state, park), "EndTurn": send(EndTurn())}
        case "action":
            return {**_action(state, park), **_free(state, park)}
    return {}


def _keep(park: Park) -> Builder:
    return pick_one("card", "card", park.looking, lambda c: KeepPlanningCard(card=c))


def _opening(park: Park) -> dict[str, Builder]:
    """Every seat at once: the Entrance, then the first street beside it; the planning card any time."""
    builders: dict[str, Builder] = {}
    if entrance(park) is None:
        builders["PlaceEntrance"] = pick_one("column", "column", range(GRID_COLUMNS), lambda c: PlaceEntrance(column=c))
    elif not park.streets:
        builders["PlaceFirstStreet"] = pick_one(
            "cell", "cell", beside_entrance(park), lambda c: PlaceFirstStreet(cell=c)
        )
    builders["KeepPlanningCard"] = _keep(park)
    return builders


def _action(state: State, park: Park) -> dict[str, Builder]:
    """The one action of a turn. Each builder works out its options only when asked: a deep
    step of one move (the fifth street) does not pay for every other kind's."""
    planning = not park.bought_planning and park.income >= PLANNING_COST and bool(state.planning_deck)
    return {
        "BuyTile": partial(_buy_tile, state, park),
        "BuyStreets": partial(_buy_streets, state, park),
        "HireEmployees": partial(_hire, park),
        "BuyPlanningCard": send(BuyPlanningCard() if planning else None),
        "PassRound": send(PassRound()),
    }


def _buy_tile(state: State, park: Park, chosen: Chosen) -> Step:
    """A tile of the projects board whose row the seat can pay, with a purchase token and a cell to build on."""
    if tokens_free(park) < 1 or not empty_cells(park):
        return NO_MOVE
    tiles = [t for t, row, _ in tiles_on_board(state) if park.income >= ROW_COSTS[row]]
    return pick_one("tile", "tile", tiles, lambda t: BuyTile(tile=t))(chosen)


def _buy_streets(state: State, park: Park, chosen: Chosen) -> Step:
    """Cells one at a time, each an empty one not picked yet, as many as the seat can pay and the
    streets left; from the first cell on, the cells picked make a command."""
    empty = empty_cells(park)
    most = min(park.income // STREET_COST, streets_left(state), len(empty))
    if most < 1:
        return NO_MOVE
    cells: tuple[Cell, ...] = chosen.many("cells")
    picked = set(cells)
    left = [c for c in empty if c not in picked] if len(cells) < most else []
    last = len(cells) + 1 == most  # the next cell is the last one there is room for
    complete = (lambda c: BuyStreets(cells=(*cells, c))) if last else None
    return Step(tuple(offer("cells", "cell", left, complete)), BuyStreets(cells=cells) if cells else None)


def _hire(park: Park, chosen: Chosen) -> Step:
    """As many employees as the seat can pay and its colour has left."""
    most = min(park.income // EMPLOYEE_COST, employees_left(park))
    return pick_one("count", "number", range(1, most + 1), lambda n: HireEmployees(count=n))(chosen)


def _free(state: State, park: Park) -> dict[str, Builder]:
    """Free actions, before and after the action."""
    return {
        "AssignEmployee": partial(_assign, park),
        "MoveEmployee": partial(_move_employee, state, park),
        "PlaceThemeToken": partial(_theme_token, park),
        "TakeInvestment": partial(_invest, state, park),
    }


def _assign(park: Park, chosen: Chosen) -> Step:
    """An employee of the supply onto a building without one (a Rest Area takes any number)."""
    cells = [b.cell for b in park.buildings if takes_employee(b)] if park.employees > 0 else []
    return pick_one("cell", "cell", cells, lambda c: AssignEmployee(cell=c))(chosen)


def _invest(state: State, park: Park, chosen: Chosen) -> Step:
    """With the Investment variant: 1 up to what is left of the 10 a game."""
    most = INVESTMENT_LIMIT - park.invested if state.options.investment else 0
    return pick_one("amount", "number", range(1, most + 1), lambda n: TakeInvestment(amount=n))(chosen)


def _move_employee(state: State, park: Park, chosen: Chosen) -> Step:
    """With an active Rest Area and moves left this turn: a building whose employee may leave, then
    another that takes one."""
    if not (rest_area_active(park) and may_move(state, park)):
        return NO_MOVE
    takers = [b.cell for b in park.buildings if takes_employee(b)]
    source = chosen.one("source")
    if source is None:
        sources = [
            b.cell
            for b in park.buildings
            if b.employees > 0 and can_give_back(park, b) and any(t != b.cell for t in takers)
        ]
        return Step(tuple(offer("source", "cell", sources)))
    target = chosen.one("target")
    if target is not None:
        return Step(command=MoveEmployee(source=source, target=target))
    targets = [t for t in takers if t != source]
    return Step(tuple(offer("target", "cell", targets, lambda t: MoveEmployee(source=source, target=t))))


def _theme_token(park: Park, chosen: Chosen) -> Step:
    """Holding a theme token: a building without one (not the Entrance), then a theme it has not."""
    if park.theme_tokens < 1:
        return NO_MOVE
    cell = chosen.one("cell")
    if cell is None:
        return Step(tuple(offer("cell", "cell", [b.cell for b in park.buildings if takes_theme_token(b)])))
    theme = chosen.one("theme")
    if theme is not None:
        return Step(command=PlaceThemeToken(cell=cell, theme=theme))
    building = building_at(park, cell)
    assert building is not None  # Game.step offers only the cells above
    themes = [t for t in THEME_IDS if t != theme_of(building)]
    return Step(tuple(offer("theme", "theme", themes, lambda t: PlaceThemeToken(cell=cell, theme=t))))
