"""The table around every game: opening it, taking seats, starting play, and leaving.

A game's stream begins with table facts (``TableOpened``, one ``SeatTaken`` per
seat); the game's own setup facts follow in the same append as the last seat, so a
table starts by itself when it is full. Later table facts are the same for every game:
a seat resigns (a bot plays it on, or the game ends when too few remain), the creator
calls off a table that never started, a finished table points to its rematch.
``Table`` is the fold of the whole stream.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any, Literal, NamedTuple, Union

import msgspec
import msgspec.inspect

from domain import chat, clock, fair, messages
from domain.cards import replaced
from domain.chat import CHAT_COMMAND_TYPES, CHAT_COMMANDS, CHAT_EVENTS, CHAT_FACT_TYPES, Chat
from domain.clock import Clock, Clocks
from domain.engine import CLOCK, FULL, NOT_STARTED, AnyGame, Ctx, Deadline, Outcome, Rejected, Rng, Seat, Viewer
from domain.fair import FAIR_EVENTS, CardsOpened, Commitment, DeckCommitted, SeedRevealed
from domain.undo import RecordingRng, can_undo
from domain.visibility import Rule, secret

Status = Literal["open", "active", "finished"]


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


def openings_shown(table: Table, event: CardsOpened) -> CardsOpened:
    """``event``'s openings each with its salt and path, made from ``table``'s key and commitments
    (``fair.shown``; any table of the game from this fact on)."""
    if not event.openings or table.key is None:
        return event
    return fair.shown(event, bytes.fromhex(table.key), table.commitments)


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


def option_bounds(options_type: type[msgspec.Struct]) -> dict[str, tuple[int, int]]:
    """Each number option's least and greatest value, as its field declares them (``msgspec.Meta``
    ``ge`` and ``le``, which the published schema shows as ``minimum`` and ``maximum``). Every number
    option of every game has both (tests/domain/test_catalog.py); the others are booleans."""
    bounds = {}
    for field in msgspec.inspect.type_info(options_type).fields:  # type: ignore[attr-defined]
        kind = field.type.type if isinstance(field.type, msgspec.inspect.Metadata) else field.type
        if isinstance(kind, msgspec.inspect.IntType):
            assert kind.ge is not None and kind.le is not None, f"the option {field.name} has no bounds"
            bounds[field.name] = (kind.ge, kind.le)
    return bounds


def open_table(
    game: AnyGame,
    players: int,
    options: dict[str, Any],
    turn_clock: Clock | None = None,
    reserved: tuple[int, ...] = (),
    reserved_until_ms: int = 0,
    takeover: str = TAKEOVER_BOT,
    seed: str | None = None,
    rated: bool = False,
    lang: str | None = None,
) -> TableOpened:
    """Check a new table's size, options and clock; the fact that opens it (``reserved``: the
    seats a rematch keeps for its people until ``reserved_until_ms``; ``takeover``: the bot
    that plays on a seat that leaves, already checked by the caller, who knows the bots;
    ``seed``: the server seed every shuffle and draw will come from, in hex, committed to here;
    ``rated``: its result counts on its players' ratings)."""
    if turn_clock is not None:
        clock.check(turn_clock)
    if not game.min_players <= players <= game.max_players:
        raise Rejected(
            "bad_players",
            f"{game.title} is played by {game.min_players} to {game.max_players} players.",
            {"field": "players", "title": game.title, "minimum": game.min_players, "maximum": game.max_players},
        )
    unknown = sorted(set(options) - set(game.options_type.__struct_fields__))
    if unknown:
        details = {"field": f"options.{unknown[0]}", "case": "unknown", "option": unknown[0], "title": game.title}
        raise Rejected("bad_options", f"{game.title} has no option {unknown[0]!r}.", details)
    for name, (least, most) in option_bounds(game.options_type).items():
        value = options.get(name)
        if isinstance(value, int | float) and not isinstance(value, bool) and not least <= value <= most:
            raise Rejected(
                "out_of_bounds",
                f"The option {name} of {game.title} takes a whole number from {least} to {most}.",
                {"field": f"options.{name}", "minimum": least, "maximum": most, "option": name, "title": game.title},
            )
    try:
        decoded = msgspec.convert(options, game.options_type)
    except msgspec.ValidationError as exc:
        details = {"field": "options", "case": "fit", "title": game.title, "reason": str(exc)}
        raise Rejected("bad_options", f"Those options do not fit {game.title}: {exc}.", details) from None
    return TableOpened(
        game=game.id,
        players=players,
        options=msgspec.to_builtins(decoded),
        rules=game.rules_version,
        clock=turn_clock,
        reserved=reserved,
        reserved_until_ms=reserved_until_ms if reserved else 0,
        takeover=takeover,
        seed=seed,
        seed_hash=fair.seed_hash(seed) if seed is not None else None,
        rated=rated,
        lang=lang,
    )


RATED_PLAYERS_ONLY = "A rated table seats players only, and no bots: sit down with a player's token."


def default_name(seat: Seat, bot: str | None = None) -> str:
    """A seat's name when none was given, distinct from every other seat's: "Player 2", "Greedy bot 3"
    (a bot's stored name may carry its level, "strong:4": the name does not)."""
    if bot is None:
        return f"Player {seat + 1}"
    return f"{bot.partition(':')[0].capitalize()} bot {seat + 1}"


def take_seat(
    game: AnyGame,
    table: Table,
    seat: Seat | None,
    name: str,
    bot: str | None,
    ctx: Ctx,
    claim: bool = False,
    player: str | None = None,
    entropy: str = "",
) -> list[Any]:
    """A seat taken (the chosen one, or the first free one); play starts when the last one is.

    A rematch keeps its people's seats for them for a while: only their own claim (``claim``)
    takes a kept seat before ``reserved_until_ms``. A player's seat (``player``, its id) keeps
    no name in the stream. ``entropy``: what the seat's device drew (a bot's seat takes none);
    the setup draws on the chance of every seat's (``chance(table, entropy)``, in ``ctx``)."""
    if table.state is not None:
        raise Rejected("game_started", "This game has already started; every seat is taken.", {"case": "seat"})
    if table.rated and (player is None or bot is not None):
        raise Rejected("rated_needs_players", RATED_PLAYERS_ONLY)
    free = [i for i, s in enumerate(table.seats) if s is None]
    kept = set(table.reserved) if not claim and ctx.now_ms < table.reserved_until_ms else set()
    if seat is None:
        open_seats = [i for i in free if i not in kept]
        if not open_seats:
            raise Rejected("seats_kept", "The free seats are kept for the players of the last game for now.")
        seat = open_seats[0]
    elif not 0 <= seat < table.players:
        raise Rejected(
            "no_such_seat", f"Seats run from 0 to {table.players - 1}.", {"field": "seat", "most": table.players - 1}
        )
    elif seat not in free:
        raise Rejected("seat_taken", f"Seat {seat} is already taken.", {"field": "seat", "seat": seat})
    elif seat in kept:
        raise Rejected(
            "seat_kept",
            f"Seat {seat} is kept for its player from the last game for now.",
            {"field": "seat", "seat": seat},
        )
    if player is not None:
        events: list[Any] = [SeatTaken(seat=seat, player=player, entropy=entropy)]
    else:
        events = [SeatTaken(seat=seat, name=name or default_name(seat, bot), bot=bot, entropy=entropy)]
    if len(free) == 1:
        events += game.setup(game.initial(table.players, table.options), ctx)
        if table.clock is not None:
            events.append(ClockTicked(at_ms=ctx.now_ms))
        return sealed(game, table, events)
    return events


def resign(game: AnyGame, table: Table, seat: Seat, reason: Leaving = "resigned", bot: str | None = None) -> list[Any]:
    """``seat`` leaves the game under way; ``bot`` plays it on unless too few would remain."""
    if status(game, table) != "active":
        raise Rejected(
            "game_not_active",
            "Only a game under way can be left; this one has not started or is over.",
            {"case": "leave"},
        )
    if seat in table.resigned:
        raise Rejected("already_resigned", "You have already left this game.")
    left = SeatResigned(seat=seat, reason=reason, bot=bot)
    if too_few_remain(evolve(game, table, left)):
        left = SeatResigned(seat=seat, reason=reason, bot=None)
    return [left]


def offer_seat(game: AnyGame, table: Table, seat: Seat, by: Seat) -> list[Any]:
    """``by`` offers ``seat``, which a bot plays on for since its person left, to a newcomer."""
    if status(game, table) != "active":
        raise Rejected("game_not_active", "Only a seat of a game under way can be offered.", {"case": "offer"})
    held = table.seats[seat] if 0 <= seat < table.players else None
    if held is None or seat not in table.resigned or held.bot is None:
        raise Rejected("seat_not_vacated", "Only a seat a bot plays on for, since its person left, can be offered.")
    if by < 0 or by >= table.players or by in table.resigned:
        raise Rejected("not_yours_to_offer", "The seats still in the game offer a vacated seat.")
    return [SeatOffered(seat=seat, by=by)]


def take_over(game: AnyGame, table: Table, seat: Seat, name: str, player: str | None) -> list[Any]:
    """A newcomer takes the offered ``seat`` over from the bot."""
    if status(game, table) != "active" or seat not in table.offered:
        raise Rejected("seat_not_offered", "That seat is no longer offered: it was taken, or the game is over.")
    if table.rated and player is None:
        raise Rejected("rated_needs_players", RATED_PLAYERS_ONLY)
    if player is not None:
        return [SeatTakenOver(seat=seat, player=player)]
    return [SeatTakenOver(seat=seat, name=name or default_name(seat))]


def cancel(game: AnyGame, table: Table) -> list[Any]:
    """The creator calls off a table that has not started."""
    if table.cancelled or table.state is not None:
        raise Rejected("game_started", "Only a table that has not started can be called off.", {"case": "cancel"})
    return sealed(game, table, [TableCancelled()])


def cancel_by_operator(game: AnyGame, table: Table) -> list[Any]:
    """The server's operator ends a table that has not finished: open or under way, it is over,
    called off (``Abandoned``, ``cancelled``)."""
    if status(game, table) == "finished":
        raise Rejected("game_over", "This game is over.")
    return sealed(game, table, [TableCancelled(by="operator")])


def remove_seat(game: AnyGame, table: Table, seat: Seat) -> list[Any]:
    """The server's operator removes a seat's player from a game under way (``removed``): the
    table's bot plays it on, as for a seat dropped, unless too few would remain."""
    if not 0 <= seat < table.players:
        raise Rejected(
            "no_such_seat", f"Seats run from 0 to {table.players - 1}.", {"field": "seat", "most": table.players - 1}
        )
    if status(game, table) != "active":
        raise Rejected("game_not_active", "Only a seat of a game under way can be removed.", {"case": "remove"})
    if seat in table.resigned:
        raise Rejected("seat_already_left", f"Seat {seat} has already left this game.", {"seat": seat})
    return sealed(game, table, resign(game, table, seat, "removed", table.takeover))


def drop(game: AnyGame, table: Table, seat: Seat) -> list[Any]:
    """A seat away too long leaves the game under way (``dropped``): the table's bot plays it on."""
    return sealed(game, table, resign(game, table, seat, "dropped", table.takeover))


def open_rematch(game: AnyGame, table: Table, game_id: str) -> list[Any]:
    """Link a finished game to its rematch (once)."""
    if status(game, table) != "finished" or table.cancelled:
        raise Rejected("game_not_over", "A rematch is offered once the game is over.")
    return [] if table.rematch is not None else [RematchOpened(game_id=game_id)]


def undo(game: AnyGame, table: Table, seat: Seat, version: int | None = None) -> list[Any]:
    """``seat`` takes back its last step, or every step after ``version``."""
    if status(game, table) != "active":
        raise Rejected("game_not_active", "Only a game under way has steps to take back.", {"case": "undo"})
    if table.undos >= MOST_UNDOS:
        raise Rejected(
            "undo_limit",
            f"You have taken back steps {MOST_UNDOS} times this turn, the most a turn allows: play on.",
            {"most": MOST_UNDOS},
        )
    mine = undo_versions(table, seat)
    if not mine:
        raise Rejected(
            "nothing_to_undo",
            "You have no step to take back: only your own steps of this turn can be, and not past a "
            "draw, a card revealed or another player's move.",
        )
    if version is None:
        version = mine[-1]
    elif version not in mine:
        raise Rejected(
            "cannot_undo",
            f"You can go back to version {', '.join(map(str, mine))}, not {version}.",
            {"field": "version", "versions": mine, "version": version},
        )
    return [StepsUndone(seat=seat, version=version)]


def evolve(game: AnyGame, table: Table | None, event: Any) -> Table:
    """Apply one stored fact, table or game."""
    if table is None or type(event) is TableOpened:
        assert isinstance(event, TableOpened), "a stream starts with TableOpened"
        return _opened(game, event)
    kind = type(event)
    if kind in CHAT_FACT_TYPES:
        version = table.version + 1
        return msgspec.structs.replace(
            table, chat=chat.evolve(table.chat, event, version), chat_after=table.chat_after + 1, version=version
        )
    if table.chat_after:  # play again after chat
        table = msgspec.structs.replace(table, chat_after=0)
    table_fact = _TABLE_FACTS.get(kind)
    if table_fact is not None:
        return table_fact(game, table, event)
    state = game.evolve(table.state, event)
    if table.covered:  # an event of an undoable step
        return msgspec.structs.replace(table, state=state, covered=table.covered - 1, version=table.version + 1)
    # a step that cannot be taken back: nothing before it can be either
    return msgspec.structs.replace(table, state=state, checkpoints=(), undos=0, version=table.version + 1)


def _opened(game: AnyGame, event: TableOpened) -> Table:
    options = msgspec.convert(event.options, game.options_type)
    return Table(
        seed=event.seed,
        seed_hash=event.seed_hash,
        entropies=("",) * event.players,
        game=event.game,
        players=event.players,
        options=options,
        seats=(None,) * event.players,
        version=1,
        rules=event.rules,
        clock=event.clock,
        reserved=event.reserved,
        reserved_until_ms=event.reserved_until_ms,
        takeover=event.takeover,
        rated=event.rated,
        lang=event.lang,
    )


def _seat_taken(game: AnyGame, table: Table, event: SeatTaken) -> Table:
    seats = list(table.seats)
    named = event.name != default_name(event.seat, event.bot)
    seats[event.seat] = SeatInfo(event.seat, event.name, event.bot, event.player, named)
    entropies = replaced(table.entropies, event.seat, event.entropy)
    state, key = table.state, table.key
    if all(s is not None for s in seats):
        state = game.initial(table.players, table.options)
        if table.seed is not None:
            key = fair.table_key(table.seed, entropies).hex()
    return msgspec.structs.replace(
        table, seats=tuple(seats), state=state, entropies=entropies, key=key, version=table.version + 1
    )


def _deck_committed(game: AnyGame, table: Table, event: DeckCommitted) -> Table:
    made = Commitment(table.version + 1, event.root, event.items or ())
    return msgspec.structs.replace(table, commitments=(*table.commitments, made), version=table.version + 1)


def _cards_opened(game: AnyGame, table: Table, event: CardsOpened) -> Table:
    if not event.openings:
        return msgspec.structs.replace(table, version=table.version + 1)
    places: dict[int, list[int]] = {}
    for o in event.openings:
        if o.position not in places.setdefault(o.commitment, []):  # one opening a seat shown the item
            places[o.commitment].append(o.position)
    commitments = tuple(
        msgspec.structs.replace(c, opened=(*c.opened, *places[c.version])) if c.version in places else c
        for c in table.commitments
    )
    return msgspec.structs.replace(table, commitments=commitments, version=table.version + 1)


def _seed_revealed(game: AnyGame, table: Table, event: SeedRevealed) -> Table:
    return msgspec.structs.replace(table, version=table.version + 1)


def _undoable(game: AnyGame, table: Table, event: Undoable) -> Table:
    checkpoint = Checkpoint(table.version, event.seat, table.state)
    return msgspec.structs.replace(
        table, checkpoints=(*table.checkpoints, checkpoint), covered=event.events, version=table.version + 1
    )


def _steps_undone(game: AnyGame, table: Table, event: StepsUndone) -> Table:
    kept = tuple(c for c in table.checkpoints if c.version < event.version)
    back = next(c for c in table.checkpoints if c.version == event.version)
    return msgspec.structs.replace(
        table, state=back.state, checkpoints=kept, covered=0, undos=table.undos + 1, version=table.version + 1
    )


def _seat_resigned(game: AnyGame, table: Table, event: SeatResigned) -> Table:
    seats = list(table.seats)
    left = seats[event.seat]
    assert left is not None
    seats[event.seat] = SeatInfo(left.seat, left.name, event.bot, left.player, left.named)
    resigned = (*table.resigned, event.seat)
    out = tuple(s for s in table.out_of_time if s != event.seat)
    return msgspec.structs.replace(
        table,
        seats=tuple(seats),
        resigned=resigned,
        checkpoints=(),
        undos=0,
        out_of_time=out,
        version=table.version + 1,
    )


def _clock_ticked(game: AnyGame, table: Table, event: ClockTicked) -> Table:
    if table.clock is None or table.state is None:
        return msgspec.structs.replace(table, version=table.version + 1)
    awaited = {a.seat for a in game.awaited(table.state)} if outcome(game, table) is None else set()
    out = tuple(s for s in table.out_of_time if s != event.seat)  # a seat out of time that acted is back
    ticking = table.clocks or clock.stopped(table.players)
    clocks = clock.tick(ticking, awaited, event.seat, event.at_ms, table.clock, frozenset(out))
    return msgspec.structs.replace(table, clocks=clocks, out_of_time=out, version=table.version + 1)


def _time_ran_out(game: AnyGame, table: Table, event: TimeRanOut) -> Table:
    asks = table.clock is not None and table.clock.on_timeout == "ask"
    out = (*table.out_of_time, event.seat) if asks and event.seat not in table.out_of_time else table.out_of_time
    return msgspec.structs.replace(table, out_of_time=out, version=table.version + 1)


def _time_extended(game: AnyGame, table: Table, event: TimeExtended) -> Table:
    out = tuple(s for s in table.out_of_time if s != event.seat)  # the tick after it starts the seat's clock
    return msgspec.structs.replace(table, out_of_time=out, version=table.version + 1)


def _seat_offered(game: AnyGame, table: Table, event: SeatOffered) -> Table:
    offered = table.offered if event.seat in table.offered else (*table.offered, event.seat)
    return msgspec.structs.replace(table, offered=offered, version=table.version + 1)


def _seat_taken_over(game: AnyGame, table: Table, event: SeatTakenOver) -> Table:
    seats = list(table.seats)
    former = seats[event.seat]
    seats[event.seat] = SeatInfo(event.seat, event.name, None, event.player, event.name != default_name(event.seat))
    return msgspec.structs.replace(
        table,
        seats=tuple(seats),
        resigned=tuple(s for s in table.resigned if s != event.seat),
        offered=tuple(s for s in table.offered if s != event.seat),
        tenures=(*table.tenures, Tenure(event.seat, table.version + 1, former.player if former else None)),
        version=table.version + 1,
    )


def _table_cancelled(game: AnyGame, table: Table, event: TableCancelled) -> Table:
    return msgspec.structs.replace(table, cancelled=True, version=table.version + 1)


def _rematch_opened(game: AnyGame, table: Table, event: RematchOpened) -> Table:
    return msgspec.structs.replace(table, rematch=event.game_id, version=table.version + 1)


# The table's own facts after TableOpened, by type: one look-up instead of a chain of
# isinstance tests (a replay applies every event; most are the game's own).
_TABLE_FACTS: dict[type[Any], Callable[[AnyGame, Table, Any], Table]] = {
    SeatTaken: _seat_taken,
    Undoable: _undoable,
    StepsUndone: _steps_undone,
    SeatResigned: _seat_resigned,
    ClockTicked: _clock_ticked,
    TimeRanOut: _time_ran_out,
    TimeExtended: _time_extended,
    SeatOffered: _seat_offered,
    SeatTakenOver: _seat_taken_over,
    TableCancelled: _table_cancelled,
    RematchOpened: _rematch_opened,
    DeckCommitted: _deck_committed,
    CardsOpened: _cards_opened,
    SeedRevealed: _seed_revealed,
}
assert set(_TABLE_FACTS) | {TableOpened} | CHAT_FACT_TYPES == set(TABLE_EVENTS)


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


def fold(game: AnyGame, table: Table | None, events: Sequence[Any]) -> Table | None:
    for event in events:
        table = evolve(game, table, event)
    return table


class Decision(NamedTuple):
    """A step decided on a table: its events, and the table they lead to. Sealing a step folds
    it anyway (does it end the table?), so the server appends that table rather than fold again."""

    events: list[Any]
    after: Table


def decision_of(game: AnyGame, table: Table, events: list[Any]) -> Decision:
    """Events decided on ``table`` by other means, with the table they lead to."""
    after = fold(game, table, events)
    assert after is not None
    return Decision(events, after)


def decide(game: AnyGame, table: Table, command: Any, seat: Seat, ctx: Ctx) -> list[Any]:
    """A seat's command, checked against the table first and then the game's rules; its facts
    sealed for fair play (``sealed``). Chat is not play: it draws nothing and ticks no clock."""
    return decision(game, table, command, seat, ctx).events


def decision(game: AnyGame, table: Table, command: Any, seat: Seat, ctx: Ctx) -> Decision:
    """``decide``, with the table the step leads to."""
    if type(command) in CHAT_COMMAND_TYPES:
        return decision_of(game, table, chat_decided(game, table, command, seat))
    return sealed_decision(game, table, _decided(game, table, command, seat, ctx))


def chat_decided(game: AnyGame, table: Table, command: Any, seat: Seat) -> list[Any]:
    """A seat's chat command: at a table open or under way (a finished table's stream is closed)."""
    if status(game, table) == "finished":
        raise Rejected("game_over", "This game is over.")
    return chat.decide(table.chat, command, seat, table.players, people(table))


def spectator_chat(game: AnyGame, table: Table, text: str, player: str) -> list[Any]:
    """A watching player's message on the spectators' channel (a player still seated says it as its seat)."""
    if any(s is not None and s.player == player and s.seat not in table.resigned for s in table.seats):
        raise Rejected("not_a_spectator", "You sit at this table: say it to the table as your seat.")
    if status(game, table) == "finished":
        raise Rejected("game_over", "This game is over.")
    return chat.spectator_said(table.chat, text, table.players, player)


def people(table: Table) -> list[Seat]:
    """The seats a person holds, still in the game."""
    return [s.seat for s in table.seats if s is not None and s.bot is None and s.seat not in table.resigned]


def _decided(game: AnyGame, table: Table, command: Any, seat: Seat, ctx: Ctx) -> list[Any]:
    current = status(game, table)
    if current == "open":
        raise Rejected("game_not_started", NOT_STARTED)
    if current == "finished":
        ended = outcome(game, table)
        if isinstance(ended, Abandoned) and ended.reason == "too_long":
            raise Rejected(
                "game_too_long",
                f"This game has gone on for {table.version} moves and events, the most a game of {game.title} "
                "may have: it is over with no winner, and nothing more can be played.",
                {"most": game.most_events, "version": table.version, "title": game.title},
            )
        raise Rejected("game_over", "This game is over.")
    if isinstance(command, TimeUp):
        return time_up(game, table, command, seat, ctx)
    if isinstance(command, KeepWaiting | LetBotPlayOn):
        return ticked(table, choose_after_timeout(game, table, command, seat), seat, ctx)
    if isinstance(command, Resign):
        events = resign(game, table, seat, bot=table.takeover)
    elif isinstance(command, Undo):
        events = undo(game, table, seat, command.version)
    else:
        check_awaited(game, table.state, seat, seat_names(table))
        rng = RecordingRng(ctx.rng)
        events = game.decide(table.state, command, seat, Ctx(rng=rng, now_ms=ctx.now_ms))
        if (
            seat >= 0
            and (game.undoable is None or type(command) in game.undoable)
            and can_undo(game, table.players, seat, table.state, events, rng.used)
        ):
            events = [Undoable(seat=seat, events=len(events)), *events]
    return ticked(table, events, seat, ctx)


def check_awaited(game: AnyGame, state: Any, seat: Seat, names: Sequence[str] = ()) -> None:
    """The seat guard, the same for every game and derived from ``awaited``: a command from a
    seat the game does not await is refused here, naming whom it awaits. A seat awaited for
    something else (a reaction, while its turn's action is due) gets the game's own answer.

    The clock (``CLOCK``) is awaited while the game has a window open (its deadlines): which
    window, and whether its time has come, the game judges."""
    if seat == CLOCK:
        if not game.deadlines(state):
            raise Rejected("window_closed", "No window of the game is open for the clock to close.", {"case": "none"})
        return
    awaited = game.awaited(state)
    if any(a.seat == seat for a in awaited):
        return
    seats = list(dict.fromkeys(a.seat for a in awaited))
    details: dict[str, Any] = {"awaiting": seats, "names": _names(seats, names)}
    if len(seats) == 1:
        details["turn"] = seats[0]
    raise Rejected("not_your_turn", f"It is not your turn: the game awaits {_whom(seats, names)}.", details)


def _names(seats: Sequence[Seat], names: Sequence[str]) -> list[str]:
    """The names of ``seats`` (``Player 2`` for a seat without a name): the refusal's parameter, so that any
    language can say whom the game awaits."""
    return [names[s] if s < len(names) and names[s] else f"Player {s + 1}" for s in seats]


def _whom(seats: Sequence[Seat], names: Sequence[str]) -> str:
    """``Ana``, ``Ana and Rui``, ``Ana, Rui, and Eva``: the English list (CLDR's, as the catalogs render it)."""
    if not seats:
        return "nobody now"
    told = _names(seats, names)
    if len(told) < 3:
        return " and ".join(told)
    return f"{', '.join(told[:-1])}, and {told[-1]}"


def seat_names(table: Table) -> list[str]:
    return [s.name if s is not None else "" for s in table.seats]


def decide_game(game: AnyGame, state: Any, command: Any, seat: Seat, ctx: Ctx, names: Sequence[str] = ()) -> list[Any]:
    """A game's own decide behind the table's guards, for callers that hold a bare game state
    (tests, bots imagining a move): a game that is over, or a seat that is not awaited, is refused."""
    if game.outcome(state) is not None:
        raise Rejected("game_over", "This game is over.")
    if seat != CLOCK and not game.awaited(state):  # at rest, only before the opening facts
        raise Rejected("game_not_started", NOT_STARTED)
    check_awaited(game, state, seat, names)
    return game.decide(state, command, seat, ctx)


def ticked(table: Table, events: list[Any], seat: Seat | None, ctx: Ctx) -> list[Any]:
    """A step's events, closed by the clock's tick when the table has a clock."""
    if table.clock is None or not events:
        return events
    return [*events, ClockTicked(at_ms=ctx.now_ms, seat=seat if seat is not None and seat >= 0 else None)]


def time_up(game: AnyGame, table: Table, command: TimeUp, seat: Seat, ctx: Ctx) -> list[Any]:
    """A seat's clock ran out: its default move is played, or it leaves the game."""
    if seat != CLOCK:
        raise Rejected("not_the_clock", "Only the clock says when time is up.")
    late = late_seat(table, command.window)
    if table.clock is None or table.clocks is None or late is None:
        raise Rejected("window_closed", "That clock is no longer running.", {"case": "clock"})
    due = clock.due_ms(table.clock, table.clocks, late)
    if due is None or ctx.now_ms < due:
        raise Rejected("not_yet", "That clock has time left.")
    if table.clock.on_timeout == "time_out":
        return ticked(
            table, [TimeRanOut(seat=late), *resign(game, table, late, "timed_out", table.takeover)], late, ctx
        )
    if table.clock.on_timeout == "ask":  # the seat is never dropped silently: the others choose
        return ticked(table, [TimeRanOut(seat=late)], None, ctx)
    if command.move is None:
        raise Rejected(
            "no_default_move", "A default move is needed when time runs out.", {"field": "move", "case": "missing"}
        )
    try:
        move = msgspec.convert(command.move, game.command_type)
    except msgspec.ValidationError as exc:
        details = {"field": "move", "case": "invalid", "reason": str(exc)}
        raise Rejected("no_default_move", f"That default move is not a command: {exc}.", details) from None
    played = [e for e in _decided(game, table, move, late, ctx) if not isinstance(e, Undoable)]  # no taking it back
    return [TimeRanOut(seat=late), *played]


def choose_after_timeout(game: AnyGame, table: Table, command: KeepWaiting | LetBotPlayOn, seat: Seat) -> list[Any]:
    """Another seat's choice for a seat whose time ran out: wait for it, or let the bot play on."""
    late = command.seat
    if late not in table.out_of_time:
        raise Rejected(
            "not_out_of_time", f"Seat {late} has time left; nothing to choose.", {"field": "seat", "seat": late}
        )
    if seat < 0 or seat == late or seat in table.resigned:
        raise Rejected("not_yours_to_choose", "The other seats still in the game choose for a seat out of time.")
    if isinstance(command, KeepWaiting):
        return [TimeExtended(seat=late, by=seat)]
    return resign(game, table, late, "timed_out", table.takeover)


def late_seat(table: Table, window: str) -> Seat | None:
    """The seat whose running clock is ``window`` (None: no clock runs under that name)."""
    clocks = table.clocks
    return next((s for s in range(table.players) if clocks and clock.window(clocks, s) == window), None)


def deadlines(game: AnyGame, table: Table) -> list[Deadline]:
    """Every window of the table that closes by itself: the game's own, and running clocks."""
    if status(game, table) != "active":
        return []
    found = list(game.deadlines(table.state))
    if table.clock is not None and table.clocks is not None:
        for seat in range(table.players):
            due = clock.due_ms(table.clock, table.clocks, seat)
            if due is not None:
                window = clock.window(table.clocks, seat)
                found.append(Deadline(window=window, due_ms=due, command=TimeUp(window=window)))
    return found


# -- fair play (domain/fair.py) ---------------------------------------------------------------


def chance(table: Table, entropy: str = "") -> Rng | None:
    """The chance of the next step decided on ``table``: from its key, or, while a seat is still
    free, from the key the seat sitting down with ``entropy`` completes (the setup draws in the
    same step). ``None`` for a table without a seed (opened before fair play): the caller lends
    one of its own then."""
    if table.seed is None:
        return None
    if table.key is not None:
        return fair.Chance(bytes.fromhex(table.key), table.version)
    entropies = list(table.entropies)
    free = [i for i, s in enumerate(table.seats) if s is None]
    if len(free) == 1:  # only the last seat's step draws: the setup
        entropies[free[0]] = entropy
    return fair.Chance(fair.table_key(table.seed, entropies), table.version)


TABLE_FACT_TYPES = frozenset(TABLE_EVENTS)  # ``type(e) in`` it: a set look-up, where isinstance tries each class


def _is_table_fact(event: Any) -> bool:
    return type(event) in TABLE_FACT_TYPES


def sealed(game: AnyGame, table: Table, events: list[Any]) -> list[Any]:
    """A step's events decided on ``table``, with the fair-play facts they call for: a commitment
    after each value hidden from every seat, the openings of what a seat alone was shown, and
    the seed once the step ends the table. A table without a seed has none of them."""
    return sealed_decision(game, table, events).events


def sealed_decision(game: AnyGame, table: Table, events: list[Any]) -> Decision:
    """``sealed``, with the table the step leads to."""
    if table.seed is None or not events:
        return decision_of(game, table, events)
    key = _key_after(table, events)
    if key is not None:
        events = fair.seal(game.redact, table.players, key, table.version, table.commitments, events, _is_table_fact)
    decided = decision_of(game, table, events)  # a finished table decides nothing more: this step ends it, or none does
    if status(game, decided.after) == "finished":
        revealed = SeedRevealed(seed=table.seed)
        return Decision([*events, revealed], evolve(game, decided.after, revealed))
    return decided


def _key_after(table: Table, events: list[Any]) -> bytes | None:
    """The key a step is sealed with: the table's, or the one its last seat's entropy completes."""
    if table.key is not None:
        return bytes.fromhex(table.key)
    assert table.seed is not None
    entropies, free = list(table.entropies), {i for i, s in enumerate(table.seats) if s is None}
    for event in events:
        if isinstance(event, SeatTaken):
            entropies[event.seat] = event.entropy
            free.discard(event.seat)
    return None if free else fair.table_key(table.seed, entropies)
