"""The facts of a game. Secret fields default to None: their public form leaves them out.

Visibility of each event type is declared in ``views.REDACTIONS``; every other type is public.
"""

from __future__ import annotations

from domain import messages

Cell = tuple[int, int]


class StartingPlayerDrawn(messages.Event):
    """The first player, drawn at random; themes are chosen from this seat on, clockwise. ``rules``:
    the rules version the game is played by (state.RULES; logs from before it was recorded: 1)."""

    seat: int
    rules: int = 1


class ThemeChosen(messages.Event):
    seat: int
    theme: str


class TilesRemovedUnseen(messages.Event):
    """5 random tiles of each theme in play and 5 No Theme tiles left the game (which: secret)."""

    count: int
    tiles: tuple[str, ...] | None = None


class ProjectPilesDealt(messages.Event):
    """The shuffled tiles in 5 project piles, one per round (their order: secret)."""

    sizes: tuple[int, ...]
    piles: tuple[tuple[str, ...], ...] | None = None


class PlanningDeckShuffled(messages.Event):
    """The planning cards in play, shuffled; ``order`` top first (secret)."""

    count: int
    order: tuple[str, ...] | None = None


class PlanningCardsDealt(messages.Event):
    """Two planning cards from the top of the deck to look at (cards: only that seat)."""

    seat: int
    count: int
    cards: tuple[str, ...] | None = None


class EntrancePlaced(messages.Event):
    seat: int
    tile: str
    cell: Cell


class FirstStreetPlaced(messages.Event):
    seat: int
    cell: Cell


class PlanningCardKept(messages.Event):
    """One card kept, the other (if any) under the deck (both: only that seat)."""

    seat: int
    card: str | None = None
    returned: str | None = None


class PlanningCardReturned(messages.Event):
    """A 4th card made the seat put one under the deck (which: only that seat)."""

    seat: int
    card: str | None = None


class ParkRoundBegan(messages.Event):
    round: int
    order: tuple[int, ...]  # turn order of the round


class ProjectsLaidOut(messages.Event):
    """The round's pile laid out: the first tiles in the cost 4 row, the rest in the cost 3 row."""

    round: int
    cost4: tuple[str, ...]
    cost3: tuple[str, ...]


class IncomeCollected(messages.Event):
    """Income phase: what the seat's active buildings and bonuses pay, and its new income."""

    seat: int
    amount: int
    income: int


class ParkTurnBegan(messages.Event):
    seat: int


class TileBought(messages.Event):
    """Paid ``cost`` and left a purchase token in the tile's place on the projects board."""

    seat: int
    tile: str
    cost: int
    column: int


class TileBuilt(messages.Event):
    seat: int
    tile: str
    cell: Cell


class StreetsBuilt(messages.Event):
    seat: int
    cells: tuple[Cell, ...]
    cost: int


class EmployeesHired(messages.Event):
    seat: int
    count: int
    cost: int


class PlanningCardsDrawn(messages.Event):
    """Paid ``cost`` to look at the top cards of the planning deck (cards: only that seat)."""

    seat: int
    cost: int
    count: int
    cards: tuple[str, ...] | None = None


class PassedForTheRound(messages.Event):
    """``position`` in the passing order (0 first), which is next round's turn order."""

    seat: int
    position: int


class EmployeeAssigned(messages.Event):
    seat: int
    cell: Cell


class EmployeeMoved(messages.Event):
    seat: int
    source: Cell
    target: Cell


class ThemeTokenPlaced(messages.Event):
    seat: int
    cell: Cell
    theme: str


class InvestmentTaken(messages.Event):
    seat: int
    amount: int


class ActivationRewarded(messages.Event):
    """An Administration or Board of Directors became active: what it gave (from the supplies left)."""

    seat: int
    cell: Cell
    employees: int = 0
    theme_tokens: int = 0
    purchase_tokens: int = 0


class ActivationRewardReturned(messages.Event):
    """The employee left an Administration or Board of Directors: what it gave went back."""

    seat: int
    cell: Cell
    employees: int = 0
    theme_tokens: int = 0
    purchase_tokens: int = 0


class ParkRoundEnded(messages.Event):
    """Purchase tokens went home; ``cost2`` is the cost 2 row after maintenance, ``discarded``
    what maintenance pushed off (after round 5 there is no maintenance)."""

    round: int
    cost2: tuple[str | None, ...]
    discarded: tuple[str, ...] = ()


class ParkGameEnded(messages.Event):
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
