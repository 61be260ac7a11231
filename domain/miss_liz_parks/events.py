"""The facts of a game. Secret fields default to None: their public form leaves them out.

Visibility of each event type is declared in ``views.REDACTIONS``; every other type is public.
"""

from __future__ import annotations

import msgspec

Cell = tuple[int, int]


class StartingPlayerDrawn(msgspec.Struct, tag=True, tag_field="type", kw_only=True, frozen=True):
    """The first player, drawn at random; themes are chosen from this seat on, clockwise. ``rules``:
    the rules version the game is played by (state.RULES; logs from before it was recorded: 1)."""

    seat: int
    rules: int = 1


class ThemeChosen(msgspec.Struct, tag=True, tag_field="type", kw_only=True, frozen=True):
    seat: int
    theme: str


class TilesRemovedUnseen(msgspec.Struct, tag=True, tag_field="type", kw_only=True, frozen=True):
    """5 random tiles of each theme in play and 5 No Theme tiles left the game (which: secret)."""

    count: int
    tiles: tuple[str, ...] | None = None


class ProjectPilesDealt(msgspec.Struct, tag=True, tag_field="type", kw_only=True, frozen=True):
    """The shuffled tiles in 5 project piles, one per round (their order: secret)."""

    sizes: tuple[int, ...]
    piles: tuple[tuple[str, ...], ...] | None = None


class PlanningDeckShuffled(msgspec.Struct, tag=True, tag_field="type", kw_only=True, frozen=True):
    """The planning cards in play, shuffled; ``order`` top first (secret)."""

    count: int
    order: tuple[str, ...] | None = None


class PlanningCardsDealt(msgspec.Struct, tag=True, tag_field="type", kw_only=True, frozen=True):
    """Two planning cards from the top of the deck to look at (cards: only that seat)."""

    seat: int
    count: int
    cards: tuple[str, ...] | None = None


class EntrancePlaced(msgspec.Struct, tag=True, tag_field="type", kw_only=True, frozen=True):
    seat: int
    tile: str
    cell: Cell


class FirstStreetPlaced(msgspec.Struct, tag=True, tag_field="type", kw_only=True, frozen=True):
    seat: int
    cell: Cell


class PlanningCardKept(msgspec.Struct, tag=True, tag_field="type", kw_only=True, frozen=True):
    """One card kept, the other (if any) under the deck (both: only that seat)."""

    seat: int
    card: str | None = None
    returned: str | None = None


class PlanningCardReturned(msgspec.Struct, tag=True, tag_field="type", kw_only=True, frozen=True):
    """A 4th card made the seat put one under the deck (which: only that seat)."""

    seat: int
    card: str | None = None


class ParkRoundBegan(msgspec.Struct, tag=True, tag_field="type", kw_only=True, frozen=True):
    round: int
    order: tuple[int, ...]  # turn order of the round


class ProjectsLaidOut(msgspec.Struct, tag=True, tag_field="type", kw_only=True, frozen=True):
    """The round's pile laid out: the first tiles in the cost 4 row, the rest in the cost 3 row."""

    round: int
    cost4: tuple[str, ...]
    cost3: tuple[str, ...]


class IncomeCollected(msgspec.Struct, tag=True, tag_field="type", kw_only=True, frozen=True):
    """Income phase: what the seat's active buildings and bonuses pay, and its new income."""

    seat: int
    amount: int
    income: int


class ParkTurnBegan(msgspec.Struct, tag=True, tag_field="type", kw_only=True, frozen=True):
    seat: int


class TileBought(msgspec.Struct, tag=True, tag_field="type", kw_only=True, frozen=True):
    """Paid ``cost`` and left a purchase token in the tile's place on the projects board."""

    seat: int
    tile: str
    cost: int
    column: int


class TileBuilt(msgspec.Struct, tag=True, tag_field="type", kw_only=True, frozen=True):
    seat: int
    tile: str
    cell: Cell


class StreetsBuilt(msgspec.Struct, tag=True, tag_field="type", kw_only=True, frozen=True):
    seat: int
    cells: tuple[Cell, ...]
    cost: int


class EmployeesHired(msgspec.Struct, tag=True, tag_field="type", kw_only=True, frozen=True):
    seat: int
    count: int
    cost: int


class PlanningCardsDrawn(msgspec.Struct, tag=True, tag_field="type", kw_only=True, frozen=True):
    """Paid ``cost`` to look at the top cards of the planning deck (cards: only that seat)."""

    seat: int
    cost: int
    count: int
    cards: tuple[str, ...] | None = None


class PassedForTheRound(msgspec.Struct, tag=True, tag_field="type", kw_only=True, frozen=True):
    """``position`` in the passing order (0 first), which is next round's turn order."""

    seat: int
    position: int


class EmployeeAssigned(msgspec.Struct, tag=True, tag_field="type", kw_only=True, frozen=True):
    seat: int
    cell: Cell


class EmployeeMoved(msgspec.Struct, tag=True, tag_field="type", kw_only=True, frozen=True):
    seat: int
    source: Cell
    target: Cell


class ThemeTokenPlaced(msgspec.Struct, tag=True, tag_field="type", kw_only=True, frozen=True):
    seat: int
    cell: Cell
    theme: str


class InvestmentTaken(msgspec.Struct, tag=True, tag_field="type", kw_only=True, frozen=True):
    seat: int
    amount: int


class ActivationRewarded(msgspec.Struct, tag=True, tag_field="type", kw_only=True, frozen=True):
    """An Administration or Board of Directors became active: what it gave (from the supplies left)."""

    seat: int
    cell: Cell
    employees: int = 0
    theme_tokens: int = 0
    purchase_tokens: int = 0


class ActivationRewardReturned(msgspec.Struct, tag=True, tag_field="type", kw_only=True, frozen=True):
    """The employee left an Administration or Board of Directors: what it gave went back."""

    seat: int
    cell: Cell
    employees: int = 0
    theme_tokens: int = 0
    purchase_tokens: int = 0


class ParkRoundEnded(msgspec.Struct, tag=True, tag_field="type", kw_only=True, frozen=True):
    """Purchase tokens went home; ``cost2`` is the cost 2 row after maintenance, ``discarded``
    what maintenance pushed off (after round 5 there is no maintenance)."""

    round: int
    cost2: tuple[str | None, ...]
    discarded: tuple[str, ...] = ()


class ParkGameEnded(msgspec.Struct, tag=True, tag_field="type", kw_only=True, frozen=True):
    """The end of round 5; ``scores`` (final happiness) by seat, details in the outcome."""

    scores: tuple[int, ...] = ()


Event = (
    StartingPlayerDrawn
    | ThemeChosen
    | TilesRemovedUnseen
    | ProjectPilesDealt
    | PlanningDeckShuffled
    | PlanningCardsDealt
    | EntrancePlaced
    | FirstStreetPlaced
    | PlanningCardKept
    | PlanningCardReturned
    | ParkRoundBegan
    | ProjectsLaidOut
    | IncomeCollected
    | ParkTurnBegan
    | TileBought
    | TileBuilt
    | StreetsBuilt
    | EmployeesHired
    | PlanningCardsDrawn
    | PassedForTheRound
    | EmployeeAssigned
    | EmployeeMoved
    | ThemeTokenPlaced
    | InvestmentTaken
    | ActivationRewarded
    | ActivationRewardReturned
    | ParkRoundEnded
    | ParkGameEnded
)
