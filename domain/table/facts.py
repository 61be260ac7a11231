"""The table's own facts, the same for every game, who sees which of their fields, and the
table's own commands, sent like any game command."""

from __future__ import annotations

from typing import Any, Literal

import msgspec

from domain import fair, messages
from domain.chat import CHAT_COMMANDS, CHAT_EVENTS
from domain.clock import Clock
from domain.engine import FULL, Viewer
from domain.fair import FAIR_EVENTS, CardsOpened, DeckCommitted
from domain.visibility import Rule, secret

TAKEOVER_BOT = (
    "greedy"  # who plays a seat that resigned unless the table chose another (Board Game Arena's zombie mode)
)


class TableOpened(messages.Event):
    game: str
    players: int
    options: dict[str, Any] = msgspec.field(default_factory=dict)
    rules: int = 1  # the game's rules version when the table opened (logs from before it: 1)
    clock: Clock | None = None  # the turn clock, if the table has one
    # A rematch keeps its people's seats for them until ``reserved_until_ms`` (shared clock).
    reserved: tuple[int, ...] = ()
    reserved_until_ms: int = 0
    # The bot that plays on a seat whose player leaves, resigns or runs out of time: a bot's
    # name, with its level after a colon ("strong:2"); the server checks it names a bot it has.
    takeover: str = TAKEOVER_BOT
    # Fair play (domain/fair.py): the server's secret seed, hidden from every viewer until the
    # table is over, and its commitment, SHA-256 of it, for everyone (tables from before: None).
    seed: str | None = None
    seed_hash: str | None = None
    rated: bool = False  # the result counts on the players' ratings (players only, no bots)
    lang: str | None = None  # the language its people speak, for the lobby's filter (None: any)


class SeatTaken(messages.Event):
    seat: int
    name: str = ""
    bot: str | None = None
    # The player who took the seat, by its id alone: a player's name is kept outside the stream
    # (it can change, and be erased), so ``name`` is empty then.
    player: str | None = None
    entropy: str = ""  # what the seat's own device drew, mixed into the table key ("": none; bots add none)


Leaving = Literal["resigned", "dropped", "timed_out", "removed"]


class SeatResigned(messages.Event):
    """A seat left a game under way: by resigning, dropped after a long disconnection, out of time,
    or removed by the server's operator."""

    seat: int
    reason: Leaving = "resigned"
    bot: str | None = None  # the bot that plays the seat on; None when the game ends with it


class SeatOffered(messages.Event):
    """``by``, still in the game, offered the seat a bot plays on for (since its person left) to a
    newcomer, through an invitation."""

    seat: int
    by: int


class SeatTakenOver(messages.Event):
    """A newcomer took over the offered ``seat`` from the bot: a new tenure of the seat begins here
    (its player's id, and no name, when a player took it)."""

    seat: int
    name: str = ""
    player: str | None = None


class TableCancelled(messages.Event, omit_defaults=True):
    """The table was called off: by its creator before it started, or by the server's operator
    (``by``) any time before it finished."""

    by: Literal["creator", "operator"] = "creator"


class RematchOpened(messages.Event):
    """A finished game's rematch: a new game of the same kind and options."""

    game_id: str


class ClockTicked(messages.Event):
    """The end of a step at a table with a clock: when it happened, on the shared clock."""

    at_ms: int
    seat: int | None = None  # who acted (None: the game started, or the clock itself)


class TimeRanOut(messages.Event):
    """The seat's clock ran out; what follows is the table's policy (a default move, leaving, or
    the other seats' choice between waiting and a bot playing on)."""

    seat: int


class TimeExtended(messages.Event):
    """``by`` chose to wait for ``seat``, whose time had run out: its clock runs again for a move."""

    seat: int
    by: int


class Undoable(messages.Event):
    """The next ``events`` events are one step of ``seat`` that it may take back (domain/undo.py)."""

    seat: int
    events: int


class StepsUndone(messages.Event):
    """``seat`` took back its steps after ``version``: the game is as it was then.

    The steps stay in the stream before this fact, so a replay shows what happened."""

    seat: int
    version: int


TABLE_EVENTS: tuple[type[msgspec.Struct], ...] = (
    TableOpened,
    SeatTaken,
    SeatResigned,
    TableCancelled,
    RematchOpened,
    Undoable,
    StepsUndone,
    ClockTicked,
    TimeRanOut,
    TimeExtended,
    *FAIR_EVENTS,
    SeatOffered,
    SeatTakenOver,
    *CHAT_EVENTS,
)

# Who sees which fields of the table's own facts (domain/visibility.py); the rest are public.
TABLE_REDACTIONS: dict[type[Any], Rule] = {
    TableOpened: secret("seed"),
    DeckCommitted: secret("items"),
    CardsOpened: lambda event, viewer: fair.own_openings(event, viewer),
}


def redact_fact(event: Any, viewer: Viewer) -> Any:
    """A table fact as ``viewer`` may see it while the table is not over."""
    rule = TABLE_REDACTIONS.get(type(event))
    return event if rule is None or viewer == FULL else rule(event, viewer)


# -- the table's own commands, sent like any game command -------------------------------


class Resign(messages.Command):
    """Leave the game under way: a bot plays the seat on (or the game ends if too few remain)."""


class Undo(messages.Command, omit_defaults=True):
    """Take back the last step of this turn, or every step after ``version``."""

    version: int | None = None


class TimeUp(messages.Command):
    """From the shared clock: a seat's clock (``window``) ran out. ``move`` is the default
    move a bot chose for the seat, when the policy is ``bot_move`` (the server's deadline
    worker chooses it, as any bot would)."""

    window: str
    move: dict[str, Any] | None = None


class KeepWaiting(messages.Command):
    """Wait for ``seat``, whose time ran out at a table that asks: its clock runs again for a move."""

    seat: int


class LetBotPlayOn(messages.Command):
    """Let the table's bot play on for ``seat``, whose time ran out at a table that asks (the seat
    leaves the game, ``timed_out``, as with the ``time_out`` policy)."""

    seat: int


TABLE_COMMANDS: tuple[type[msgspec.Struct], ...] = (Resign, Undo, TimeUp, KeepWaiting, LetBotPlayOn, *CHAT_COMMANDS)
# Board Game Arena's policy says what may be taken back (domain/undo.py); this says how often:
# a turn may undo this many times, so that a step and its undo in a loop cannot grow the log
# while the game stands still (counted from the last step that cannot be taken back).
MOST_UNDOS = 3


TABLE_FACT_TYPES = frozenset(TABLE_EVENTS)  # ``type(e) in`` it: a set look-up, where isinstance tries each class
