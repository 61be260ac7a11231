"""What a viewer may see: ``view`` of a state and ``redact`` of one event.

Parks, income, employees, tokens and the projects board are public. Planning cards (held and
being looked at) are private to their seat; the order of the project piles and of the planning
deck, and the tiles removed unseen, are hidden from everyone. ``FULL`` sees everything, and once
the game is over every viewer does. Event visibility is declared per type in ``REDACTIONS``.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

import msgspec

from domain.engine import FULL, Awaited, Viewer
from domain.miss_liz_parks.components import INVESTMENT_LIMIT, ROW_COSTS
from domain.miss_liz_parks.events import (
    Event,
    PlanningCardKept,
    PlanningCardReturned,
    PlanningCardsDealt,
    PlanningCardsDrawn,
    PlanningDeckShuffled,
    ProjectPilesDealt,
    TilesRemovedUnseen,
)
from domain.miss_liz_parks.rules import awaited
from domain.miss_liz_parks.state import (
    Cell,
    Park,
    State,
    active,
    employees_left,
    food_courts,
    income_due,
    moves_left,
    rest_area_active,
    streets_left,
)
from domain.visibility import Rule, redactor, secret, seen_by


class BuildingView(msgspec.Struct, kw_only=True):
    cell: tuple[int, int]
    tile: str
    employees: int
    theme_token: str | None
    active: bool
    reward: tuple[int, int, int] | None  # (employees, theme tokens, purchase tokens) it gave


class ParkView(msgspec.Struct, kw_only=True):
    seat: int
    theme: str | None
    income: int
    income_next: int  # what the park's active buildings would pay in an income phase now
    buildings: list[BuildingView]
    streets: list[tuple[int, int]]
    employees: int  # in the supply beside the board
    employees_left: int  # of the park's colour, still to hire
    purchase_tokens: int
    purchase_tokens_used: int
    theme_tokens: int
    food_courts: int
    invested: int
    investment_left: int
    passed: bool
    bought_planning: bool
    planning_count: int
    looking_count: int
    planning: list[str] | None = None  # None when hidden from the viewer
    looking: list[str] | None = None


class ProjectRow(msgspec.Struct, kw_only=True):
    cost: int
    tiles: list[str | None]  # by column


class ParkGameView(msgspec.Struct, kw_only=True, tag="miss-liz-parks", tag_field="type"):
    players: int
    viewer: int | None
    investment: bool
    side_b: bool
    phase: str
    step: str
    round: int
    first: int
    turn: int | None
    awaiting: list[Awaited]
    order: list[int]
    passing: list[int]
    projects: list[ProjectRow]
    pending_tile: str | None
    piles: list[int]  # tiles left in each project pile
    removed_count: int
    discarded: list[str]
    planning_deck_count: int
    streets_left: int
    theme_tokens_left: int
    parks: list[ParkView]
    finished: bool
    # moves of an employee the seat to play has left this turn (rules 3 on, its Rest Area active)
    employee_moves_left: int | None = None
    pile_tiles: list[list[str]] | None = None  # only for FULL and once the game is over
    removed: list[str] | None = None
    planning_deck: list[str] | None = None


@lru_cache(maxsize=256)
def _at_work(park: Park) -> tuple[frozenset[Cell], int, int]:
    """A park's active buildings (their cells), next income and Food Courts: the street search
    behind them is the view's largest cost, and a park is the same for every viewer and
    for every step that leaves it alone."""
    working = active(park)
    return frozenset(b.cell for b in working), income_due(park, working), len(food_courts(park, working))


def view(state: State, viewer: Viewer) -> ParkGameView:
    everything = viewer == FULL or state.phase == "over"
    parks = []
    for seat, park in enumerate(state.parks):
        on, income_next, courts = _at_work(park)
        mine = everything or viewer == seat
        parks.append(
            ParkView(
                seat=seat,
                theme=park.theme,
                income=park.income,
                income_next=income_next,
                buildings=[
                    BuildingView(
                        cell=b.cell,
                        tile=b.tile,
                        employees=b.employees,
                        theme_token=b.token,
                        active=b.cell in on,
                        reward=b.reward,
                    )
                    for b in park.buildings
                ],
                streets=list(park.streets),
                employees=park.employees,
                employees_left=employees_left(park),
                purchase_tokens=park.purchase_tokens,
                purchase_tokens_used=park.tokens_used,
                theme_tokens=park.theme_tokens,
                food_courts=courts,
                invested=park.invested,
                investment_left=INVESTMENT_LIMIT - park.invested if state.options.investment else 0,
                passed=park.passed,
                bought_planning=park.bought_planning,
                planning_count=len(park.planning),
                looking_count=len(park.looking),
                planning=list(park.planning) if mine else None,
                looking=list(park.looking) if mine else None,
            )
        )
    return ParkGameView(
        players=state.players,
        viewer=viewer,
        investment=state.options.investment,
        side_b=state.options.side_b,
        phase=state.phase,
        step=state.step,
        round=state.round,
        first=state.first,
        turn=state.current,
        awaiting=awaited(state),
        order=list(state.order),
        passing=list(state.passing),
        projects=[ProjectRow(cost=cost, tiles=list(row)) for cost, row in zip(ROW_COSTS, state.projects, strict=True)],
        pending_tile=state.pending_tile,
        piles=[len(p) for p in state.piles],
        removed_count=len(state.removed),
        discarded=list(state.discarded),
        planning_deck_count=len(state.planning_deck),
        streets_left=streets_left(state),
        theme_tokens_left=state.theme_tokens,
        parks=parks,
        finished=state.phase == "over",
        employee_moves_left=_moves_left(state),
        pile_tiles=[list(p) for p in state.piles] if everything else None,
        removed=list(state.removed) if everything else None,
        planning_deck=list(state.planning_deck) if everything else None,
    )


def _moves_left(state: State) -> int | None:
    if state.phase != "turns" or state.current is None:
        return None
    park = state.parks[state.current]
    return moves_left(state, park) if rest_area_active(park) else None


# -- redaction: one entry per private event type; every other type is public -------------------


REDACTIONS: dict[type[Any], Rule] = {
    TilesRemovedUnseen: secret("tiles"),
    ProjectPilesDealt: secret("piles"),
    PlanningDeckShuffled: secret("order"),
    PlanningCardsDealt: seen_by("seat", hides=("cards",)),
    PlanningCardsDrawn: seen_by("seat", hides=("cards",)),
    PlanningCardKept: seen_by("seat", hides=("card", "returned")),
    PlanningCardReturned: seen_by("seat", hides=("card",)),
}


redact: Callable[[Event, Viewer], Event | None] = redactor(REDACTIONS)
