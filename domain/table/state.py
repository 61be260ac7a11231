"""``Table``: everything known about one game at one version (the fold of its stream, ``evolve``),
and what a table says of itself: its status, its outcome, the steps a seat may take back."""

from __future__ import annotations

from collections import OrderedDict
from typing import Any, Literal, Union

import msgspec

from domain import fair
from domain.chat import Chat
from domain.clock import Clock, Clocks
from domain.engine import AnyGame, Outcome, Seat
from domain.fair import CardsOpened, Commitment
from domain.table.facts import MOST_UNDOS, TABLE_COMMANDS, TABLE_EVENTS, TAKEOVER_BOT

Status = Literal["open", "active", "finished"]


class Checkpoint(msgspec.Struct, frozen=True):
    """Where an undoable step started: the version and the game's state then."""

    version: int
    seat: int
    state: Any


class Abandoned(Outcome, tag="abandoned", kw_only=True):
    """The end of a game that did not reach its own: called off, too few seats left in it, or
    its stream grew to the most events a game may have (``too_long``: played to no end).

    Scores are all 0; the seats still in the game share first place, and those that left
    rank behind them, the last to leave first (called off or too long: no winner)."""

    reason: Literal["cancelled", "resigned", "too_long"]


class SeatInfo(msgspec.Struct, frozen=True):
    seat: int
    name: str
    bot: str | None = None
    player: str | None = None  # the player's id, for a seat a player took (its name comes from outside the stream)
    # False when ``name`` is the default the table gave a seat taken without one (``default_name``: "Player 2",
    # "Casual bot 3"), which a frontend says in its reader's language (docs/i18n.md); True for a name given.
    named: bool = True


class Tenure(msgspec.Struct, frozen=True):
    """A seat taken over at ``since`` (a version): its former holder's player, if one held it, left."""

    seat: int
    since: int
    former: str | None = None


class Table(msgspec.Struct, frozen=True):
    """Everything known about one game at one version."""

    game: str
    players: int
    options: Any
    seats: tuple[SeatInfo | None, ...]
    state: Any = None  # the game's own state once play has started
    version: int = 0
    rules: int = 1  # the rules version the table opened with
    resigned: tuple[int, ...] = ()  # seats that left the game, in the order they left
    cancelled: bool = False
    rematch: str | None = None  # the id of the game that is this one's rematch
    checkpoints: tuple[Checkpoint, ...] = ()  # the steps the acting seat may take back, oldest first
    undos: int = 0  # Undo commands since the last step that cannot be taken back (this turn's)
    covered: int = 0  # events still to come of the last step marked Undoable
    clock: Clock | None = None
    clocks: Clocks | None = None  # running once the game has started
    reserved: tuple[int, ...] = ()  # seats kept for the people of the game before (a rematch)...
    reserved_until_ms: int = 0  # ...until then, on the shared clock
    takeover: str = TAKEOVER_BOT  # the bot that plays on a seat that leaves (TableOpened.takeover)
    out_of_time: tuple[int, ...] = ()  # seats whose time ran out, the others to choose what follows (``ask``)
    # Fair play (domain/fair.py): the seed and its hash, each seat's entropy, the table key once
    # every seat has sat (hex), the commitments made so far, with the places opened to a seat.
    seed: str | None = None
    seed_hash: str | None = None
    entropies: tuple[str, ...] = ()
    key: str | None = None
    commitments: tuple[Commitment, ...] = ()
    offered: tuple[int, ...] = ()  # seats a bot plays on for, offered to newcomers
    tenures: tuple[Tenure, ...] = ()  # each takeover (results count per tenure)
    rated: bool = False  # the result counts on the players' ratings (TableOpened.rated)
    lang: str | None = None  # the language its people speak (TableOpened.lang)
    chat: Chat = Chat()  # the table's chat (domain/chat.py)
    chat_after: int = 0  # chat facts since the last other fact: a move decided before them is not stale

    @property
    def seats_taken(self) -> int:
        return sum(1 for s in self.seats if s is not None)


def event_union(game: AnyGame) -> Any:
    """The tagged union of everything stored in one game's stream."""
    return Union[(*TABLE_EVENTS, game.event_type)]


def command_union(game: AnyGame) -> Any:
    """The tagged union of every command a seat may send to one game."""
    return Union[(*TABLE_COMMANDS, game.command_type)]


def status(game: AnyGame, table: Table) -> Status:
    if table.cancelled:
        return "finished"
    if table.state is None:
        return "open"
    return "finished" if outcome(game, table) is not None else "active"


# The outcomes of the tables asked about last, by identity (a table equal to another is no
# shortcut). A table is never changed once made, and one move asks how its tables stand six
# times (the decide, the lobby entry, the table service, the delivery, the sender's answer),
# while other games' moves come in between and a finished game's outcome scores every seat.
_OUTCOMES: OrderedDict[int, tuple[Table, Any]] = OrderedDict()  # oldest first; each step is one C call
_OUTCOMES_KEPT = 512  # the tables of a few hundred moves: a move's first and last asking are that far apart


def outcome(game: AnyGame, table: Table) -> Any:
    """How the game ended (``None`` while it goes on): its own outcome, or ``Abandoned``."""
    known = _OUTCOMES.get(id(table))
    if known is not None and known[0] is table:
        return known[1]
    answer = _outcome(game, table)
    _OUTCOMES[id(table)] = (table, answer)
    if len(_OUTCOMES) > _OUTCOMES_KEPT:
        _OUTCOMES.popitem(last=False)  # safe beside a thread that folds a stream: one call each
    return answer


def _outcome(game: AnyGame, table: Table) -> Any:
    if table.cancelled:
        return Abandoned(scores=[0] * table.players, places=[1] * table.players, winners=[], reason="cancelled")
    if table.state is None:
        return None
    if too_few_remain(table):
        staying = [s for s in range(table.players) if s not in table.resigned]
        left = list(reversed(table.resigned))  # the last to leave ranks first among those who left
        places = [1 if s in staying else 1 + len(staying) + left.index(s) for s in range(table.players)]
        return Abandoned(scores=[0] * table.players, places=places, winners=staying, reason="resigned")
    own = game.outcome(table.state)
    if own is None and too_long(game, table):
        return Abandoned(scores=[0] * table.players, places=[1] * table.players, winners=[], reason="too_long")
    return own


def too_long(game: AnyGame, table: Table) -> bool:
    """The stream has reached the most events a game may have: the game is over, with no winner.

    The step that reaches it is played whole (a step is never cut short), so a stream ends at
    most one step past it; every command after it is refused (``game_too_long``)."""
    return table.version - table.chat.facts >= game.most_events


def too_few_remain(table: Table) -> bool:
    """After a resignation, the game ends when fewer than two seats, or no person, remain in it."""
    if not table.resigned:
        return False
    staying = [s for s in table.seats if s is not None and s.seat not in table.resigned]
    return len(staying) < 2 or all(s.bot is not None for s in staying)


def default_name(seat: Seat, bot: str | None = None) -> str:
    """A seat's name when none was given, distinct from every other seat's: "Player 2", "Greedy bot 3"
    (a bot's stored name may carry its level, "strong:4": the name does not)."""
    if bot is None:
        return f"Player {seat + 1}"
    return f"{bot.partition(':')[0].capitalize()} bot {seat + 1}"


def openings_shown(table: Table, event: CardsOpened) -> CardsOpened:
    """``event``'s openings each with its salt and path, made from ``table``'s key and commitments
    (``fair.shown``; any table of the game from this fact on)."""
    if not event.openings or table.key is None:
        return event
    return fair.shown(event, bytes.fromhex(table.key), table.commitments)


def undo_versions(table: Table, seat: Seat) -> list[int]:
    """The versions ``seat`` may go back to with ``Undo``, oldest first (none: nothing to undo).

    Kept apart from the legal commands, so that a client choosing among those (a bot) never
    walks back and forth; a frontend shows an undo button while this is not empty. None once
    the turn has used its ``MOST_UNDOS``."""
    if table.undos >= MOST_UNDOS:
        return []
    return [c.version for c in table.checkpoints if c.seat == seat]


def decided_on(table: Table, version: int) -> bool:
    """Whether a command decided at ``version`` still stands on ``table``: nothing but chat came since."""
    return table.version - table.chat_after <= version <= table.version
