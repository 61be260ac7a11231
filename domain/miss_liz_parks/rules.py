"""Setup, decide, evolve and awaited: the rules of setup, rounds and turns (moves: the picks, in moves.py)."""

from __future__ import annotations

from msgspec.structs import replace

from domain.cards import replaced, without
from domain.engine import NOT_STARTED, Awaited, Ctx, Rejected, Seat, fold
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
from domain.miss_liz_parks.components import (
    ADMIN_EMPLOYEES,
    ADMIN_THEME_TOKENS,
    BOARD_PURCHASE_TOKENS,
    COLUMNS,
    EMPLOYEE_COST,
    ENTRANCE_ROW,
    ENTRANCES,
    GRID_COLUMNS,
    INVESTMENT_LIMIT,
    NO_THEME,
    PLANNING_COST,
    PLANNING_DEALT,
    PLANNING_LIMIT,
    PURCHASE_TOKENS_PER_THEME,
    REMOVED_PER_THEME,
    ROUNDS,
    ROW_COSTS,
    ROW_LENGTH,
    STARTING_EMPLOYEES,
    STARTING_INCOME,
    STARTING_PURCHASE_TOKENS,
    STREET_COST,
    THEME_IDS,
    TILES,
    planning_deck,
)
from domain.miss_liz_parks.events import (
    ActivationRewarded,
    ActivationRewardReturned,
    EmployeeAssigned,
    EmployeeMoved,
    EmployeesHired,
    EntrancePlaced,
    Event,
    FirstStreetPlaced,
    IncomeCollected,
    InvestmentTaken,
    ParkGameEnded,
    ParkRoundBegan,
    ParkRoundEnded,
    ParkTurnBegan,
    PassedForTheRound,
    PlanningCardKept,
    PlanningCardReturned,
    PlanningCardsDealt,
    PlanningCardsDrawn,
    PlanningDeckShuffled,
    ProjectPilesDealt,
    ProjectsLaidOut,
    StartingPlayerDrawn,
    StreetsBuilt,
    ThemeChosen,
    ThemeTokenPlaced,
    TileBought,
    TileBuilt,
    TilesRemovedUnseen,
)
from domain.miss_liz_parks.scoring import score
from domain.miss_liz_parks.state import (
    RULES,
    Building,
    Cell,
    Park,
    State,
    active,
    beside_entrance,
    building_at,
    can_give_back,
    employees_left,
    empty_cells,
    entrance,
    income_due,
    kind,
    may_move,
    most_moves,
    occupied,
    on_grid,
    rest_area_active,
    streets_left,
    takes_employee,
    theme_of,
    tiles_on_board,
    tokens_free,
)

REWARDING = ("Administration", "Board of Directors")

# -- setup -------------------------------------------------------------------------------------


def setup(state: State, ctx: Ctx) -> list[Event]:
    """The first player, drawn at random; themes are then chosen from that seat on, clockwise."""
    return [StartingPlayerDrawn(seat=ctx.rng.randrange(state.players), rules=RULES)]


def _deal(state: State, ctx: Ctx) -> list[Event]:
    """Once every theme is chosen: remove tiles unseen, deal the project piles and planning cards."""
    themes = [p.theme for p in state.parks if p.theme is not None]
    removed: list[str] = []
    kept: list[str] = []
    for theme in [t for t in THEME_IDS if t in themes] + [NO_THEME]:
        pool = sorted(t.id for t in TILES.values() if t.theme == theme and t.type != "Entrance")
        ctx.rng.shuffle(pool)
        removed += pool[:REMOVED_PER_THEME]
        kept += pool[REMOVED_PER_THEME:]
    ctx.rng.shuffle(kept)
    size = 2 * ROW_LENGTH[state.players]
    piles = tuple(tuple(kept[i * size : (i + 1) * size]) for i in range(ROUNDS))
    deck = planning_deck(set(themes), state.players)
    ctx.rng.shuffle(deck)
    events: list[Event] = [
        TilesRemovedUnseen(count=len(removed), tiles=tuple(removed)),
        ProjectPilesDealt(sizes=tuple(len(p) for p in piles), piles=piles),
        PlanningDeckShuffled(count=len(deck), order=tuple(deck)),
    ]
    for seat in range(state.players):
        cards = tuple(deck[seat * PLANNING_DEALT : (seat + 1) * PLANNING_DEALT])
        events.append(PlanningCardsDealt(seat=seat, count=len(cards), cards=cards))
    return events


# -- evolve ------------------------------------------------------------------------------------


def _park(state: State, seat: int, park: Park) -> State:
    return replace(state, parks=replaced(state.parks, seat, park))


def _building(park: Park, cell: Cell, building: Building) -> Park:
    return replace(park, buildings=tuple(building if b.cell == cell else b for b in park.buildings))


def _row(row: tuple[str | None, ...], tiles: tuple[str, ...]) -> tuple[str | None, ...]:
    return tuple(tiles) + (None,) * (COLUMNS - len(tiles))


def evolve(state: State, event: Event) -> State:
    # Cases are tried in order: the most frequent facts of a game come first (a replay applies thousands).
    match event:
        case ParkTurnBegan(seat=seat):
            return replace(state, current=seat, step="action", moved=0)
        case StreetsBuilt(seat=seat, cells=cells, cost=cost):
            park = state.parks[seat]
            park = replace(park, streets=park.streets + cells, income=park.income - cost)
            return replace(_park(state, seat, park), step="free")
        case PassedForTheRound(seat=seat):
            state = _park(state, seat, replace(state.parks[seat], passed=True))
            return replace(state, passing=(*state.passing, seat), step="between")
        case IncomeCollected(seat=seat, income=income):
            return _park(state, seat, replace(state.parks[seat], income=income))
        case EmployeeAssigned(seat=seat, cell=cell):
            park = state.parks[seat]
            target = building_at(park, cell)
            assert target is not None
            park = _building(park, cell, replace(target, employees=target.employees + 1))
            return _park(state, seat, replace(park, employees=park.employees - 1))
        case StartingPlayerDrawn(seat=seat, rules=rules):
            return replace(state, phase="themes", first=seat, current=seat, rules=rules)
        case ThemeChosen(seat=seat, theme=theme):
            park = replace(
                state.parks[seat],
                theme=theme,
                income=STARTING_INCOME,
                employees=STARTING_EMPLOYEES,
                purchase_tokens=STARTING_PURCHASE_TOKENS,
            )
            state = _park(state, seat, park)
            if all(p.theme is not None for p in state.parks):
                return replace(state, phase="opening", current=None)
            return replace(state, current=(seat + 1) % state.players)
        case TilesRemovedUnseen(tiles=tiles):
            return replace(state, removed=tiles or ())
        case ProjectPilesDealt(piles=piles):
            return replace(state, piles=piles or ())
        case PlanningDeckShuffled(order=order):
            return replace(state, planning_deck=order or ())
        case PlanningCardsDealt(seat=seat, cards=cards) | PlanningCardsDrawn(seat=seat, cards=cards):
            seen = cards or ()
            park = replace(state.parks[seat], looking=seen)
            state = replace(state, planning_deck=state.planning_deck[len(seen) :])
            if isinstance(event, PlanningCardsDrawn):
                park = replace(park, income=park.income - event.cost, bought_planning=True)
                state = replace(state, step="keep")
            return _park(state, seat, park)
        case EntrancePlaced(seat=seat, tile=tile, cell=cell):
            park = state.parks[seat]
            return _park(state, seat, replace(park, buildings=(*park.buildings, Building(cell=cell, tile=tile))))
        case FirstStreetPlaced(seat=seat, cell=cell):
            park = state.parks[seat]
            return _park(state, seat, replace(park, streets=(*park.streets, cell)))
        case PlanningCardKept(seat=seat, card=card, returned=returned):
            park = state.parks[seat]
            park = replace(park, looking=(), planning=(*park.planning, card or ""))
            state = replace(state, planning_deck=state.planning_deck + ((returned,) if returned else ()))
            if state.phase == "turns":
                state = replace(state, step="give_back" if len(park.planning) > PLANNING_LIMIT else "free")
            return _park(state, seat, park)
        case PlanningCardReturned(seat=seat, card=card):
            park = state.parks[seat]
            park = replace(park, planning=without(park.planning, card or ""))
            state = replace(state, planning_deck=(*state.planning_deck, card or ""), step="free")
            return _park(state, seat, park)
        case ParkRoundBegan(round=number, order=order):
            return replace(state, phase="turns", round=number, order=order, passing=(), step="between")
        case ProjectsLaidOut(round=number, cost4=cost4, cost3=cost3):
            piles = tuple(() if i == number - 1 else p for i, p in enumerate(state.piles))
            laid = (_row(state.projects[0], cost4), _row(state.projects[1], cost3), state.projects[2])
            return replace(state, piles=piles, projects=laid)
        case TileBought(seat=seat, tile=tile, cost=cost):
            projects = tuple(tuple(None if t == tile else t for t in row) for row in state.projects)
            park = state.parks[seat]
            park = replace(park, income=park.income - cost, tokens_used=park.tokens_used + 1)
            return replace(_park(state, seat, park), projects=projects, pending_tile=tile, step="build")
        case TileBuilt(seat=seat, tile=tile, cell=cell):
            park = state.parks[seat]
            park = replace(park, buildings=(*park.buildings, Building(cell=cell, tile=tile)))
            return replace(_park(state, seat, park), pending_tile=None, step="free")
        case EmployeesHired(seat=seat, count=count, cost=cost):
            park = state.parks[seat]
            park = replace(park, employees=park.employees + count, income=park.income - cost)
            return replace(_park(state, seat, park), step="free")
        case EmployeeMoved(seat=seat, source=source, target=target):
            park = state.parks[seat]
            a, b = building_at(park, source), building_at(park, target)
            assert a is not None and b is not None
            park = _building(park, source, replace(a, employees=a.employees - 1))
            park = _building(park, target, replace(b, employees=b.employees + 1))
            return replace(_park(state, seat, park), moved=state.moved + 1)
        case ThemeTokenPlaced(seat=seat, cell=cell, theme=theme):
            park = state.parks[seat]
            held = building_at(park, cell)
            assert held is not None
            park = _building(park, cell, replace(held, token=theme))
            return _park(state, seat, replace(park, theme_tokens=park.theme_tokens - 1))
        case InvestmentTaken(seat=seat, amount=amount):
            park = state.parks[seat]
            return _park(state, seat, replace(park, income=park.income + amount, invested=park.invested + amount))
        case ActivationRewarded(seat=seat, cell=cell, employees=e, theme_tokens=t, purchase_tokens=p):
            park = state.parks[seat]
            held = building_at(park, cell)
            assert held is not None
            park = _building(park, cell, replace(held, reward=(e, t, p)))
            park = replace(
                park,
                employees=park.employees + e,
                theme_tokens=park.theme_tokens + t,
                purchase_tokens=park.purchase_tokens + p,
            )
            return replace(_park(state, seat, park), theme_tokens=state.theme_tokens - t)
        case ActivationRewardReturned(seat=seat, cell=cell, employees=e, theme_tokens=t, purchase_tokens=p):
            park = state.parks[seat]
            held = building_at(park, cell)
            assert held is not None
            park = _building(park, cell, replace(held, reward=None))
            park = replace(
                park,
                employees=park.employees - e,
                theme_tokens=park.theme_tokens - t,
                purchase_tokens=park.purchase_tokens - p,
            )
            return replace(_park(state, seat, park), theme_tokens=state.theme_tokens + t)
        case ParkRoundEnded(cost2=cost2, discarded=discarded):
            parks = tuple(replace(p, tokens_used=0, passed=False, bought_planning=False) for p in state.parks)
            slid = ((None,) * COLUMNS, (None,) * COLUMNS, cost2) if event.round < ROUNDS else state.projects
            return replace(
                state,
                parks=parks,
                projects=slid,
                discarded=state.discarded + discarded,
                current=None,
                step="between",
            )
        case ParkGameEnded():
            return replace(state, phase="over", current=None, step="between")
    return state


# -- who is awaited ----------------------------------------------------------------------------


def _opening_need(park: Park) -> str | None:
    if entrance(park) is None:
        return "entrance"
    if not park.streets:
        return "street"
    if park.looking:
        return "planning"
    return None


def awaited(state: State) -> list[Awaited]:
    if state.phase == "themes" and state.current is not None:
        return [Awaited(seat=state.current, reason="theme")]
    if state.phase == "opening":
        return [Awaited(seat=s, reason=need) for s, p in enumerate(state.parks) if (need := _opening_need(p))]
    if state.phase == "turns" and state.current is not None and state.step != "between":
        return [Awaited(seat=state.current, reason=state.step)]
    return []


# -- decide ------------------------------------------------------------------------------------


def decide(state: State, command: Command, seat: Seat, ctx: Ctx) -> list[Event]:
    if state.phase == "over":
        raise Rejected("game_over", "This game is over.")
    if state.phase == "setup":
        raise Rejected("game_not_started", NOT_STARTED)
    if state.phase == "themes":
        return _decide_theme(state, command, seat, ctx)
    if state.phase == "opening":
        return _decide_opening(state, command, seat)
    if isinstance(command, ChooseTheme | PlaceEntrance | PlaceFirstStreet):
        raise Rejected("setup_over", "Every park is already set up.")
    park = state.parks[seat]
    step = state.step
    if step == "build" and not isinstance(command, BuildTile):
        raise Rejected("build_first", "Build the tile you bought first.")
    if step == "keep" and not isinstance(command, KeepPlanningCard):
        raise Rejected("keep_first", "Choose the planning card to keep first.")
    if step == "give_back" and not isinstance(command, ReturnPlanningCard):
        raise Rejected("give_back_first", "You hold 4 planning cards: return one first.")
    match command:
        case BuildTile(cell=cell):
            _check_step(step, "build")
            _check_empty(park, cell)
            assert state.pending_tile is not None
            return [TileBuilt(seat=seat, tile=state.pending_tile, cell=cell)]
        case KeepPlanningCard(card=card):
            _check_step(step, "keep")
            if card not in park.looking:
                raise Rejected(
                    "not_offered", "You can only keep one of the planning cards you are looking at.", {"field": "card"}
                )
            others = [c for c in park.looking if c != card]
            return [PlanningCardKept(seat=seat, card=card, returned=others[0] if others else None)]
        case ReturnPlanningCard(card=card):
            _check_step(step, "give_back")
            if card not in park.planning:
                raise Rejected("not_in_hand", "You can only return a planning card you hold.", {"field": "card"})
            return [PlanningCardReturned(seat=seat, card=card)]
        case EndTurn():
            if step != "free":
                raise Rejected("action_first", "Take your action (or pass) before you end your turn.")
            return [ParkTurnBegan(seat=_next_seat(state, seat))]
        case AssignEmployee() | MoveEmployee() | PlaceThemeToken() | TakeInvestment():
            return _decide_free(state, park, command, seat)
    if step != "action":
        raise Rejected("action_taken", "You have taken your action this turn; free actions or end your turn.")
    match command:
        case BuyTile(tile=tile):
            where = next(((r, c) for t, r, c in tiles_on_board(state) if t == tile), None)
            if where is None:
                raise Rejected("not_on_board", "That tile is not on the projects board.", {"field": "tile"})
            if tokens_free(park) < 1:
                raise Rejected("no_purchase_token", "You have no purchase token left this round.")
            cost = ROW_COSTS[where[0]]
            _check_afford(park, cost)
            if not empty_cells(park):
                raise Rejected("park_full", "Your park has no empty space to build on.")
            return [TileBought(seat=seat, tile=tile, cost=cost, column=where[1])]
        case BuyStreets(cells=cells):
            if not cells:
                raise Rejected("no_cells", "Name at least one cell for your streets.", {"field": "cells"})
            if len(set(cells)) != len(cells):
                raise Rejected("same_cell", "Name each cell once.", {"field": "cells"})
            for cell in cells:
                _check_empty(park, cell)
            if len(cells) > streets_left(state):
                raise Rejected(
                    "no_streets_left", "There are not that many streets left.", {"left": streets_left(state)}
                )
            _check_afford(park, STREET_COST * len(cells))
            events: list[Event] = [StreetsBuilt(seat=seat, cells=tuple(cells), cost=STREET_COST * len(cells))]
            return events + _rewards(state, events, seat)
        case HireEmployees(count=count):
            if count < 1:
                raise Rejected("bad_count", "Hire at least one employee.", {"field": "count"})
            if count > employees_left(park):
                raise Rejected(
                    "no_employees_left", "Your colour has not that many employees left.", {"left": employees_left(park)}
                )
            _check_afford(park, EMPLOYEE_COST * count)
            return [EmployeesHired(seat=seat, count=count, cost=EMPLOYEE_COST * count)]
        case BuyPlanningCard():
            if park.bought_planning:
                raise Rejected("planning_once_a_round", "You can buy planning cards only once a round.")
            _check_afford(park, PLANNING_COST)
            if not state.planning_deck:
                raise Rejected("planning_deck_empty", "The planning deck is empty.")
            cards = state.planning_deck[:2]
            return [PlanningCardsDrawn(seat=seat, cost=PLANNING_COST, count=len(cards), cards=cards)]
        case PassRound():
            passed = [PassedForTheRound(seat=seat, position=len(state.passing))]
            if len(state.passing) + 1 < state.players:
                return [*passed, ParkTurnBegan(seat=_next_seat(state, seat))]
            return [*passed, *_end_round(fold(evolve, state, list(passed)))]
    raise Rejected("unknown_command", "Miss Liz's parks do not know that command.")


def _check_step(step: str, wanted: str) -> None:
    if step == wanted:
        return
    if wanted == "build":
        raise Rejected("nothing_to_build", "You have not bought a tile to build.")
    if wanted == "keep":
        raise Rejected("nothing_to_keep", "You are not looking at planning cards.", {"kept": False})
    raise Rejected("nothing_to_return", "You hold no more than 3 planning cards.")


def _check_empty(park: Park, cell: Cell) -> None:
    if not on_grid(cell):
        raise Rejected("off_grid", "That cell is not on your park's grid.", {"field": "cell"})
    if cell in occupied(park):
        raise Rejected("cell_taken", "There is already a tile on that cell.", {"field": "cell"})


def _check_afford(park: Park, cost: int) -> None:
    if park.income < cost:
        details = {"cost": cost, "income": park.income}
        raise Rejected("cannot_afford", f"That costs {cost} and your income is {park.income}.", details)


def _next_seat(state: State, seat: int) -> int:
    """The next seat in this round's order that has not passed (the seat itself if it is the last)."""
    at = state.order.index(seat)
    for step in range(1, state.players + 1):
        other = state.order[(at + step) % state.players]
        if not state.parks[other].passed or other == seat:
            return other
    return seat


def _decide_theme(state: State, command: Command, seat: Seat, ctx: Ctx) -> list[Event]:
    if not isinstance(command, ChooseTheme):
        raise Rejected(
            "setup_not_done", "Every player must choose a theme and set up their park first.", {"waiting": "themes"}
        )
    if command.theme not in THEME_IDS:
        raise Rejected("unknown_theme", "There is no such theme.", {"field": "theme"})
    if any(p.theme == command.theme for p in state.parks):
        raise Rejected("theme_taken", "Another player already took that theme.", {"field": "theme"})
    events: list[Event] = [ThemeChosen(seat=seat, theme=command.theme)]
    after = fold(evolve, state, events)
    return events + (_deal(after, ctx) if after.phase == "opening" else [])


def _decide_opening(state: State, command: Command, seat: Seat) -> list[Event]:
    park = state.parks[seat]
    gate = entrance(park)
    match command:
        case ChooseTheme():
            raise Rejected("themes_chosen", "Every theme has been chosen.")
        case PlaceEntrance(column=column):
            if gate is not None:
                raise Rejected("entrance_placed", "Your Entrance is already in place.")
            if not 0 <= column < GRID_COLUMNS:
                raise Rejected("off_grid", "That column is not on your park's grid.", {"field": "column"})
            assert park.theme is not None
            events: list[Event] = [EntrancePlaced(seat=seat, tile=ENTRANCES[park.theme], cell=(ENTRANCE_ROW, column))]
        case PlaceFirstStreet(cell=cell):
            if gate is None:
                raise Rejected("entrance_first", "Place your Entrance first.")
            if park.streets:
                raise Rejected("street_placed", "Your first street is already in place.")
            if cell not in beside_entrance(park):
                raise Rejected(
                    "not_beside_entrance",
                    "The first street goes on an empty cell beside your Entrance.",
                    {"field": "cell"},
                )
            events = [FirstStreetPlaced(seat=seat, cell=cell)]
        case KeepPlanningCard(card=card):
            if not park.looking:
                raise Rejected("nothing_to_keep", "You have already kept a planning card.", {"kept": True})
            if card not in park.looking:
                raise Rejected(
                    "not_offered", "You can only keep one of the planning cards you are looking at.", {"field": "card"}
                )
            others = [c for c in park.looking if c != card]
            events = [PlanningCardKept(seat=seat, card=card, returned=others[0] if others else None)]
        case _:
            raise Rejected(
                "setup_not_done", "Every player must finish setting up their park first.", {"waiting": "parks"}
            )
    after = fold(evolve, state, events)
    if any(_opening_need(p) for p in after.parks):
        return events
    order = tuple((state.first + i) % state.players for i in range(state.players))
    return events + _begin_round(after, 1, order)


def _begin_round(state: State, number: int, order: tuple[int, ...]) -> list[Event]:
    pile = state.piles[number - 1]
    half = ROW_LENGTH[state.players]
    events: list[Event] = [
        ParkRoundBegan(round=number, order=order),
        ProjectsLaidOut(round=number, cost4=pile[:half], cost3=pile[half:]),
    ]
    if number > 1:  # no income phase in the first round
        for seat in order:
            park = state.parks[seat]
            amount = income_due(park)
            events.append(IncomeCollected(seat=seat, amount=amount, income=park.income + amount))
    return [*events, ParkTurnBegan(seat=order[0])]


def _end_round(state: State) -> list[Event]:
    cost4, cost3, cost2 = state.projects
    discarded: list[str] = []
    if state.round < ROUNDS:
        slid: list[str | None] = []
        for column in range(COLUMNS):
            lowest = cost2[column]
            for tile in (cost3[column], cost4[column]):  # the cost 3 row slides first, then cost 4
                if tile is not None:
                    if lowest is not None:
                        discarded.append(lowest)
                    lowest = tile
            slid.append(lowest)
        cost2 = tuple(slid)
    ended: list[Event] = [ParkRoundEnded(round=state.round, cost2=cost2, discarded=tuple(discarded))]
    after = fold(evolve, state, ended)
    if state.round >= ROUNDS:
        return [*ended, ParkGameEnded(scores=tuple(s.total for s in score(after)))]
    return ended + _begin_round(after, state.round + 1, state.passing)


def _rewards(state: State, events: list[Event], seat: int) -> list[Event]:
    """Administrations and Boards of Directors that the events made active give their reward."""
    after = fold(evolve, state, events)
    rewards: list[Event] = []
    for building in active(after.parks[seat]):
        if kind(building) not in REWARDING or building.reward is not None:
            continue
        park = after.parks[seat]
        if kind(building) == "Administration":
            reward = ActivationRewarded(
                seat=seat,
                cell=building.cell,
                employees=min(ADMIN_EMPLOYEES, employees_left(park)),
                theme_tokens=min(ADMIN_THEME_TOKENS, after.theme_tokens),
            )
        else:
            room = PURCHASE_TOKENS_PER_THEME - park.purchase_tokens
            reward = ActivationRewarded(seat=seat, cell=building.cell, purchase_tokens=min(BOARD_PURCHASE_TOKENS, room))
        rewards.append(reward)
        after = evolve(after, reward)
    return rewards


def _decide_free(state: State, park: Park, command: Command, seat: int) -> list[Event]:
    match command:
        case AssignEmployee(cell=cell):
            if park.employees < 1:
                raise Rejected("no_employee_in_supply", "You have no employee beside your board; hire some first.")
            target = building_at(park, cell)
            if target is None:
                raise Rejected("no_building", "There is no building on that cell.", {"field": "cell"})
            if not takes_employee(target):
                raise Rejected("already_staffed", "That building already has an employee.", {"field": "cell"})
            events: list[Event] = [EmployeeAssigned(seat=seat, cell=cell)]
            return events + _rewards(state, events, seat)
        case MoveEmployee(source=source, target=to):
            if not rest_area_active(park):
                raise Rejected("no_rest_area", "You need an active Rest Area to move employees.")
            if not may_move(state, park):
                most = most_moves(park)
                raise Rejected(
                    "moves_used",
                    f"You have moved employees {most} times this turn (twice the employees in your park); "
                    "go on without moving them.",
                    {"most": most},
                )
            a, b = building_at(park, source), building_at(park, to)
            if a is None or a.employees < 1:
                raise Rejected("no_employee_there", "There is no employee on that cell.", {"field": "source"})
            if b is None:
                raise Rejected("no_building", "There is no building on that cell.", {"field": "target"})
            if source == to:
                raise Rejected("same_building", "Move the employee to another building.", {"field": "target"})
            if not takes_employee(b):
                raise Rejected("already_staffed", "That building already has an employee.", {"field": "target"})
            if not can_give_back(park, a):
                raise Rejected(
                    "cannot_return_reward",
                    "Leaving that building means giving back what it gave you, and you no longer have it all.",
                    {"field": "source"},
                )
            events = []
            if a.reward is not None and a.employees == 1:
                e, t, p = a.reward
                events.append(
                    ActivationRewardReturned(seat=seat, cell=source, employees=e, theme_tokens=t, purchase_tokens=p)
                )
            events.append(EmployeeMoved(seat=seat, source=source, target=to))
            return events + _rewards(state, events, seat)
        case PlaceThemeToken(cell=cell, theme=theme):
            if park.theme_tokens < 1:
                raise Rejected("no_theme_token", "You hold no theme token.")
            if theme not in THEME_IDS:
                raise Rejected("unknown_theme", "There is no such theme.", {"field": "theme"})
            target = building_at(park, cell)
            if target is None:
                raise Rejected("no_building", "There is no building on that cell.", {"field": "cell"})
            if kind(target) == "Entrance":
                raise Rejected("entrance_keeps_its_theme", "The Entrance keeps its theme.", {"field": "cell"})
            if target.token is not None:
                raise Rejected("already_has_token", "That building already carries a theme token.", {"field": "cell"})
            if theme_of(target) == theme:
                raise Rejected("same_theme", "That building already has that theme.", {"field": "theme"})
            return [ThemeTokenPlaced(seat=seat, cell=cell, theme=theme)]
        case TakeInvestment(amount=amount):
            if not state.options.investment:
                raise Rejected("variant_off", "This game is played without the Investment variant.")
            left = INVESTMENT_LIMIT - park.invested
            if not 1 <= amount <= left:
                raise Rejected(
                    "investment_limit",
                    f"You may invest from 1 up to {left} more this game (10 in all).",
                    {"left": left},
                )
            return [InvestmentTaken(seat=seat, amount=amount)]
    raise Rejected("unknown_command", "Miss Liz's parks do not know that command.")
