"""What a seat may ask for. Cells are ``[row, column]``, row 0 at the top, the entrance row at the bottom.

Setup: ChooseTheme, PlaceEntrance, PlaceFirstStreet, KeepPlanningCard. A turn: one action
(BuyTile then BuildTile, BuyStreets, HireEmployees, BuyPlanningCard then KeepPlanningCard and
maybe ReturnPlanningCard, or PassRound), free actions before and after it (AssignEmployee,
MoveEmployee, PlaceThemeToken, TakeInvestment) and EndTurn after it.
"""

from __future__ import annotations

from domain import messages

Cell = tuple[int, int]


class ChooseTheme(messages.Command):
    """Setup: take the individual board of this theme (one per player)."""

    theme: str


class PlaceEntrance(messages.Command):
    """Setup: put your Entrance on the bottom row, in this column."""

    column: int


class PlaceFirstStreet(messages.Command):
    """Setup: your free street, on a cell beside your Entrance."""

    cell: Cell


class KeepPlanningCard(messages.Command):
    """Keep one of the planning cards you are looking at; the other goes under the deck."""

    card: str


class ReturnPlanningCard(messages.Command):
    """With a 4th planning card in hand: put one of them under the deck."""

    card: str


class BuyTile(messages.Command):
    """Action: buy a tile from the projects board (its row's cost and a purchase token)."""

    tile: str


class BuildTile(messages.Command):
    """Build the tile you just bought on an empty cell of your grid."""

    cell: Cell


class BuyStreets(messages.Command):
    """Action: buy one street per cell (1 each) and build them all at once."""

    cells: tuple[Cell, ...]


class HireEmployees(messages.Command):
    """Action: hire this many employees (1 each) into your supply."""

    count: int


class BuyPlanningCard(messages.Command):
    """Action (once a round): pay 3 and look at the top two planning cards."""


class PassRound(messages.Command):
    """Action: pass for the rest of the round (the passing order is next round's turn order)."""


class EndTurn(messages.Command):
    """After your action and any free actions: hand the turn on."""


class AssignEmployee(messages.Command):
    """Free: put an employee from your supply on an unstaffed building (a Rest Area takes any number)."""

    cell: Cell


class MoveEmployee(messages.Command):
    """Free, with an active Rest Area: move an employee from one building to another."""

    source: Cell
    target: Cell


class PlaceThemeToken(messages.Command):
    """Free: put a theme token you hold on a building, which takes that theme for the rest of the game."""

    cell: Cell
    theme: str


class TakeInvestment(messages.Command):
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
