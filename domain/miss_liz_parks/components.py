"""The components, loaded once at import from ``components.json`` (a publisher may swap that file).

The loader checks the file against the rulebook's counts (95 tiles, 72 streets, 75 employees,
24 theme tokens, 20 purchase tokens, 16 planning cards, 15 investment cards) and checks that the
planning deck can deal every possible table, so a bad file fails at start-up, not mid-game.
"""

from __future__ import annotations

from importlib import resources
from itertools import combinations
from typing import Literal

import msgspec

MIN_PLAYERS, MAX_PLAYERS = 2, 5
NO_THEME = "none"
SOURCES = ("rulebook", "public", "designed")
OBJECTIVES = (
    "active_type",
    "active_theme",
    "streets",
    "buildings",
    "income",
    "all_active",
    "no_no_theme",
    "food_court",
)

# Rulebook numbers (not components): costs, piles, income, limits.
ROW_COSTS = (4, 3, 2)  # the projects board's rows, top to bottom
ROW_LENGTH = {2: 3, 3: 4, 4: 5, 5: 6}  # tiles laid in each of the cost 4 and cost 3 rows
COLUMNS = 6  # the projects board's columns (6 tiles a row with 5 players)
ROUNDS = 5
REMOVED_PER_THEME = 5  # tiles removed unseen from each theme in play and from No Theme
STARTING_INCOME = 10
STARTING_PURCHASE_TOKENS = 2
STARTING_EMPLOYEES = 2
PLANNING_DEALT = 2
PLANNING_COST = 3
PLANNING_LIMIT = 3
STREET_COST = 1
EMPLOYEE_COST = 1
INVESTMENT_LIMIT = 10
RESERVED_BONUS = 3
FOOD_COURT_SIZE = 4
FOOD_COURT_INCOME = 5
FOOD_COURT_HAPPINESS = 10
ADMIN_EMPLOYEES = 2
ADMIN_THEME_TOKENS = 2
BOARD_PURCHASE_TOKENS = 1


class Theme(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    name: str
    adjective: str
    source: str
    ref: str = ""


class Tile(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    name: str
    theme: str  # a theme id, or "none"
    type: str
    income: int
    happiness: int
    source: str
    ref: str = ""


class Objective(msgspec.Struct, frozen=True, kw_only=True):
    kind: str
    type: str = ""
    theme: str = ""
    count: int = 0


class PlanningCard(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    name: str
    themes: tuple[str, ...] = ()  # in the deck only when one of these is in play; () always
    players: tuple[int, ...] = ()  # in the deck only at these table sizes; () always
    objective: Objective
    points: int
    source: str
    ref: str = ""


class InvestmentCard(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    value: int
    source: str
    ref: str = ""


class Counted(msgspec.Struct, frozen=True, kw_only=True):
    count: int = 0
    per_theme: int = 0
    source: str
    ref: str = ""


class Board(msgspec.Struct, frozen=True, kw_only=True):
    rows: int
    columns: int
    entrance_row: int
    bonus_adjacency: Literal["sides", "sides_and_corners"]
    path_adjacency: Literal["sides", "sides_and_corners"]
    reserved: tuple[tuple[int, int], ...]
    source: str
    ref: str = ""
    reserved_source: str
    reserved_ref: str = ""


class ComponentFile(msgspec.Struct, frozen=True, kw_only=True):
    themes: tuple[Theme, ...]
    types: tuple[str, ...]
    tiles: tuple[Tile, ...]
    streets: Counted
    employees: Counted
    theme_tokens: Counted
    purchase_tokens: Counted
    investment_cards: tuple[InvestmentCard, ...]
    planning_cards: tuple[PlanningCard, ...]
    board: Board


def _fail(message: str) -> None:
    raise ValueError(f"components.json: {message}")


def _sourced(entry: str, source: str, ref: str) -> None:
    if source not in SOURCES:
        _fail(f"{entry} needs a source (rulebook, public or designed)")
    if source != "rulebook" and not ref:
        _fail(f"{entry} is {source}: say which source or why in 'ref'")


def planning_deck_for(cards: tuple[PlanningCard, ...], themes: set[str], players: int) -> list[PlanningCard]:
    """The planning cards in play at this table (rulebook setup 8)."""
    return [c for c in cards if (not c.themes or themes & set(c.themes)) and (not c.players or players in c.players)]


def check(data: ComponentFile) -> None:
    theme_ids = [t.id for t in data.themes]
    if len(theme_ids) != 5 or len(set(theme_ids)) != 5 or NO_THEME in theme_ids:
        _fail("five distinct themes are needed")
    if len(data.types) != 8 or "Entrance" not in data.types:
        _fail("the eight building types are needed, the Entrance among them")
    ids = [t.id for t in data.tiles] + [c.id for c in data.planning_cards] + [c.id for c in data.investment_cards]
    if len(ids) != len(set(ids)):
        _fail("ids must be unique")
    if len(data.tiles) != 95:
        _fail("95 construction tiles are needed")
    for tile in data.tiles:
        _sourced(tile.id, tile.source, tile.ref)
        if tile.theme not in (*theme_ids, NO_THEME) or tile.type not in data.types:
            _fail(f"{tile.id} has an unknown theme or type")
        if tile.income < 0 or tile.happiness < 0:
            _fail(f"{tile.id}: income and happiness are not negative")
    for theme in (*theme_ids, NO_THEME):
        tiles = [t for t in data.tiles if t.theme == theme]
        entrances = sum(1 for t in tiles if t.type == "Entrance")
        if theme == NO_THEME and (len(tiles) != 15 or entrances):
            _fail("15 No Theme tiles are needed, none an Entrance")
        if theme != NO_THEME and (len(tiles) != 16 or entrances != 1):
            _fail(f"16 {theme} tiles are needed, one of them its Entrance")
    for name, counted, total, per_theme in (
        ("streets", data.streets, 72, 0),
        ("employees", data.employees, 0, 15),
        ("theme_tokens", data.theme_tokens, 24, 0),
        ("purchase_tokens", data.purchase_tokens, 0, 4),
    ):
        _sourced(name, counted.source, counted.ref)
        if counted.count != total or counted.per_theme != per_theme:
            _fail(f"{name}: the rulebook's count is needed")
    if len(data.investment_cards) != 15:
        _fail("15 investment cards are needed")
    for inv in data.investment_cards:
        _sourced(inv.id, inv.source, inv.ref)
        if inv.value < 1:
            _fail(f"{inv.id}: an investment card is worth at least 1")
    if len(data.planning_cards) != 16:
        _fail("16 planning cards are needed")
    for card in data.planning_cards:
        _sourced(card.id, card.source, card.ref)
        objective = card.objective
        if objective.kind not in OBJECTIVES or card.points < 0:
            _fail(f"{card.id}: unknown objective {objective.kind!r}")
        if objective.kind == "active_type" and objective.type not in data.types:
            _fail(f"{card.id}: unknown building type")
        if objective.kind == "active_theme" and objective.theme not in theme_ids:
            _fail(f"{card.id}: unknown theme")
        if not set(card.themes) <= set(theme_ids) or not set(card.players) <= set(range(MIN_PLAYERS, MAX_PLAYERS + 1)):
            _fail(f"{card.id}: unknown theme or player count")
    for players in range(MIN_PLAYERS, MAX_PLAYERS + 1):
        for themes in combinations(theme_ids, players):
            if len(planning_deck_for(data.planning_cards, set(themes), players)) < PLANNING_DEALT * players + 1:
                _fail(f"too few planning cards for {players} players with {themes}")
    board = data.board
    _sourced("board", board.source, board.ref)
    _sourced("board.reserved", board.reserved_source, board.reserved_ref)
    if board.rows < 2 or board.columns < 2 or board.entrance_row not in (0, board.rows - 1):
        _fail("the grid needs 2+ rows and columns and the entrance on an edge row")
    if any(not (0 <= r < board.rows and 0 <= c < board.columns) for r, c in board.reserved):
        _fail("reserved spaces lie on the grid")
    if len(set(board.reserved)) != len(board.reserved):
        _fail("reserved spaces are distinct")


def load() -> ComponentFile:
    raw = resources.files(__package__).joinpath("components.json").read_bytes()
    data = msgspec.json.decode(raw, type=ComponentFile)
    check(data)
    return data


COMPONENTS = load()
THEMES: dict[str, Theme] = {t.id: t for t in COMPONENTS.themes}
THEME_IDS: tuple[str, ...] = tuple(THEMES)
TILES: dict[str, Tile] = {t.id: t for t in COMPONENTS.tiles}
ENTRANCES: dict[str, str] = {t.theme: t.id for t in COMPONENTS.tiles if t.type == "Entrance"}
PLANNING: dict[str, PlanningCard] = {c.id: c for c in COMPONENTS.planning_cards}
BOARD = COMPONENTS.board
ROWS, GRID_COLUMNS, ENTRANCE_ROW = BOARD.rows, BOARD.columns, BOARD.entrance_row
RESERVED: frozenset[tuple[int, int]] = frozenset(BOARD.reserved)
STREETS = COMPONENTS.streets.count
EMPLOYEES_PER_THEME = COMPONENTS.employees.per_theme
THEME_TOKENS = COMPONENTS.theme_tokens.count
PURCHASE_TOKENS_PER_THEME = COMPONENTS.purchase_tokens.per_theme


def planning_deck(themes: set[str], players: int) -> list[str]:
    return [c.id for c in planning_deck_for(COMPONENTS.planning_cards, themes, players)]
