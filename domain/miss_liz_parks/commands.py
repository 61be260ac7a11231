"""What a seat may ask for. Cells are ``[row, column]``, row 0 at the top, the entrance row at the bottom.

Setup: ChooseTheme, PlaceEntrance, PlaceFirstStreet, KeepPlanningCard. A turn: one action
(BuyTile then BuildTile, BuyStreets, HireEmployees, BuyPlanningCard then KeepPlanningCard and
maybe ReturnPlanningCard, or PassRound), free actions before and after it (AssignEmployee,
MoveEmployee, PlaceThemeToken, TakeInvestment) and EndTurn after it.
"""

from __future__ import annotations

import msgspec

Cell = tuple[int, int]


class ChooseTheme(msgspec.Struct, tag=True, tag_field="type", kw_only=True, frozen=True):
    """Setup: take the individual board of this theme (one per player)."""

    theme: str


class PlaceEntrance(msgspec.Struct, tag=True, tag_field="type", kw_only=True, frozen=True):
    """Setup: put your Entrance on the bottom row, in this column."""

    column: int


class PlaceFirstStreet(msgspec.Struct, tag=True, tag_field="type", kw_only=True, frozen=True):
    """Setup: your free street, on a cell beside your Entrance."""

    cell: Cell


class KeepPlanningCard(msgspec.Struct, tag=True, tag_field="type", kw_only=True, frozen=True):
    """Keep one of the planning cards you are looking at; the other goes under the deck."""

    card: str


class ReturnPlanningCard(msgspec.Struct, tag=True, tag_field="type", kw_only=True, frozen=True):
    """With a 4th planning card in hand: put one of them under the deck."""

    card: str


class BuyTile(msgspec.Struct, tag=True, tag_field="type", kw_only=True, frozen=True):
    """Action: buy a tile from the projects board (its row's cost and a purchase token)."""

    tile: str


class BuildTile(msgspec.Struct, tag=True, tag_field="type", kw_only=True, frozen=True):
    """Build the tile you just bought on an empty cell of your grid."""

    cell: Cell


class BuyStreets(msgspec.Struct, tag=True, tag_field="type", kw_only=True, frozen=True):
    """Action: buy one street per cell (1 each) and build them all at once."""

    cells: tuple[Cell, ...]


class HireEmployees(msgspec.Struct, tag=True, tag_field="type", kw_only=True, frozen=True):
    """Action: hire this many employees (1 each) into your supply."""

    count: int


class BuyPlanningCard(msgspec.Struct, tag=True, tag_field="type", kw_only=True, frozen=True):
    """Action (once a round): pay 3 and look at the top two planning cards."""


class PassRound(msgspec.Struct, tag=True, tag_field="type", kw_only=True, frozen=True):
    """Action: pass for the rest of the round (the passing order is next round's turn order)."""


class EndTurn(msgspec.Struct, tag=True, tag_field="type", kw_only=True, frozen=True):
    """After your action and any free actions: hand the turn on."""


class AssignEmployee(msgspec.Struct, tag=True, tag_field="type", kw_only=True, frozen=True):
    """Free: put an employee from your supply on an unstaffed building (a Rest Area takes any number)."""

    cell: Cell


class MoveEmployee(msgspec.Struct, tag=True, tag_field="type", kw_only=True, frozen=True):
    """Free, with an active Rest Area: move an employee from one building to another."""

    source: Cell
    target: Cell


class PlaceThemeToken(msgspec.Struct, tag=True, tag_field="type", kw_only=True, frozen=True):
    """Free: put a theme token you hold on a building, which takes that theme for the rest of the game."""

    cell: Cell
    theme: str


class TakeInvestment(msgspec.Struct, tag=True, tag_field="type", kw_only=True, frozen=True):
    """Free (Investment variant): gain this much income now, lose as much happiness at the end."""

    amount: int


Command = (
    ChooseTheme
    | PlaceEntrance
    | PlaceFirstStreet
    | KeepPlanningCard
    | ReturnPlanningCard
    | BuyTile
    | BuildTile
    | BuyStreets
    | HireEmployees
    | BuyPlanningCard
    | PassRound
    | EndTurn
    | AssignEmployee
    | MoveEmployee
    | PlaceThemeToken
    | TakeInvestment
)
