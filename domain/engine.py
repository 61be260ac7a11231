"""The game contract: a game is a plain object of pure functions (a decider).

- ``initial(players, options)`` is the state before anything happened;
- ``setup(state, ctx)`` gives the opening facts (deals, shuffles);
- ``decide(state, command, seat, ctx)`` checks one command and returns the facts it
  causes, or raises ``Rejected``; all rule checking lives here, but for whose turn it is:
  the table refuses a seat the game does not await before decide is asked (``awaited``
  says whom; domain/table/decide.py ``check_awaited``);
- ``evolve(state, event)`` applies one fact, never validates, never draws randomness;
- ``view(state, viewer)`` is what one seat (or the spectator, ``None``) may see;
- ``redact(event, viewer)`` is the same rule applied to one event;
- ``moves(state, seat, picks)`` builds a move: for the picks made so far, what may be
  picked next and whether they already make a complete command (below);
- ``awaited(state)`` says which seats the game waits for, and for what;
- ``outcome(state)`` is the final result, or ``None`` while the game goes on;
- ``deadlines(state)`` lists the open windows that close by themselves (optional);
- ``strategy`` is what the bots are told beyond the rules (optional, ``Strategy`` below);
- ``undoable`` names the command types a seat may ever take back (optional: all of them).
  The undo check (domain/undo.py) still judges every step of those; a step of another type
  is not looked at, so a game whose turns mostly draw hidden cards or pass the turn spends
  nothing on them (tests/domain/test_undo.py checks the list against the check itself).

Moves are built, not listed: a command is a short sequence of picks, its ``type`` first,
then one value for each field (a card, a seat, a cell, a number), a tuple field one value
at a time. ``moves`` answers, for a seat, a state and the picks made so far, a ``Step``:
the options that may be picked next, and the command the picks already make, if they do.
It agrees with ``decide`` both ways: every command decide accepts is reached by some
picks, every command the picks complete is accepted, and every option offered leads to at
least one complete command (tests/domain/contract.py checks this for every game). Options
depend only on what the seat may see. ``Game.step`` walks picks a client sent, refusing
any that was not offered; ``Game.commands`` lists every complete command (``few_commands``: only when they are few).

Rules change: ``rules_version`` is recorded in every new table (``TableOpened.rules``),
and a game whose rules read it (``played_by``, optional) is played to its end by the rules
its table opened with, even after this code plays newer ones (``Game.begin``). A change to
the shape of a game's stored events bumps its event schema by adding an upcaster, which
lifts a stored event of the previous schema to the next one, so logs of every earlier
version still fold (tests/domain/test_old_logs.py replays kept logs).

Domain code does no I/O and has no clock or randomness of its own: both come in
through ``Ctx`` and their results are written into events, so a replay needs no seed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Literal, Protocol, TypeVar

import msgspec

from domain.words import Catalog

Seat = int
Viewer = int | None  # a seat; None is the spectator; FULL sees everything
FULL = -1  # the full view: every hand and pile, for finished games and tests
CLOCK = -2  # the seat a deadline's command comes from: nobody at the table, the shared clock
MOST_EVENTS = 20_000  # a game's longest stream, unless it says otherwise (Game.most_events)

S = TypeVar("S")
C = TypeVar("C")
E = TypeVar("E")
R = TypeVar("R")


NOT_STARTED = "The game has not started yet: it starts when every seat is taken."  # every game's, and the table's


class Rejected(Exception):
    """A command that breaks a rule: ``code`` is stable, ``details`` hold every parameter of its message, and
    ``message`` is the English sentence. Readers get it in their own language from the game's catalog
    (``words/<lang>.json``: the code's message formatted with the details), so a parameter the sentence names
    must be in ``details`` (tests/test_words.py renders refusals met in random games and compares)."""

    def __init__(self, code: str, message: str, details: dict[str, Any] | None = None) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.details = details or {}


class Rng(Protocol):
    """The part of ``random.Random`` a game may use (the server injects one)."""

    def shuffle(self, x: list[Any]) -> None: ...

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int: ...


@dataclass(frozen=True)
class Ctx:
    """What the outside world lends a decision: randomness and the shared clock."""

    rng: Rng
    now_ms: int = 0  # milliseconds on the shared clock (Redis TIME)


class Awaited(msgspec.Struct, frozen=True):
    """One seat the game waits for, and what for (``action``, ``place``, ``discard``...)."""

    seat: int
    reason: str


class Deadline(msgspec.Struct, frozen=True):
    """An open window that closes by itself: at ``due_ms`` on the shared clock, any
    replica sends ``command`` from the seat ``CLOCK``. The command names the window, so
    decide accepts it once, only while that window is open and its time has passed."""

    window: str
    due_ms: int
    command: Any


def no_deadlines(state: Any) -> list[Deadline]:
    return []


class Outcome(msgspec.Struct, kw_only=True, tag_field="type"):
    """The end of a game. Each game subclasses it with a tag and its own details."""

    scores: list[int]  # by seat
    places: list[int]  # by seat, 1 is first; seats that tie share a place
    winners: list[int]


def places_from_keys(keys: Sequence[tuple[int, ...]]) -> list[int]:
    """Competition ranking (1, 1, 3...) of seats by their sort keys, highest first."""
    return [1 + sum(1 for other in keys if other > mine) for mine in keys]


# -- building a move, pick by pick --------------------------------------------------------

PickValue = str | int | tuple[int, ...]  # a card, a seat, a number, a cell ([row, column])


class Pick(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One choice toward a command: ``value`` for the command's ``field`` (the first pick is its ``type``)."""

    field: str
    value: PickValue


class Option(msgspec.Struct, frozen=True, omit_defaults=True):
    """A pick that may come next. ``kind`` says what ``value`` names on the table (``move``, ``card``,
    ``seat``, ``cell``, ``number``...); ``command`` is set when this pick completes the move with
    nothing left to choose: the command to send."""

    field: str
    value: PickValue
    kind: str
    command: Any = None

    @property
    def pick(self) -> Pick:
        return Pick(self.field, self.value)


class Step(msgspec.Struct, frozen=True, omit_defaults=True):
    """Where a partial move stands: what may be picked next, and the command the picks
    made so far already make (``None``: not yet; with options too, the move may go on)."""

    options: tuple[Option, ...] = ()
    command: Any = None

    @property
    def empty(self) -> bool:
        """Nothing to pick and nothing to send: the seat has no move of this kind."""
        return not self.options and self.command is None


NO_MOVE = Step()

Upcaster = Callable[[dict[str, Any]], dict[str, Any]]  # one stored event, as JSON data, one schema on

# -- what a game tells its bots ---------------------------------------------------------------

Place = tuple[str | int, ...]  # where a value sits in a state's plain data: ("hands", 1, 0)


def one_pool(place: Place, card: str) -> str:
    return "card"


def no_proposals(state: Any, seat: Seat) -> list[Any]:
    return []


def no_bounds(state: Any) -> list[tuple[Place, frozenset[str]]]:
    return []


@dataclass(frozen=True)
class Strategy:
    """What a game tells the bots (domain/bots/) beyond its rules: how each seat stands on the way
    to the end, which hidden cards could stand in for each other, and the moves a player would
    think of. Pure functions, like the rules; each game's is in its own ``strategy`` module.

    - ``points(state)``: by seat, the points each seat is heading for, in the game's own points:
      the score as the end would count it, plus what is under way (a building not yet staffed, a
      set of photos two thirds made, money that will buy something). The bots' whole judgement.
    - ``pool(place, card)``: hidden cards whose places answer the same pool are dealt again among
      those places when a bot imagines a world it cannot tell from the real one (an opponent's
      hand and draw pile are one pool; the tiles of the piles another). ``place`` is the card's
      path in the state's plain data, such as ``("hands", 1, 0)``.
    - ``bounds(state)``: what every seat knows of where hidden cards may lie: the hidden places
      under each path hold only cards of its set (Itchy Feet's deck, once shuffled from the
      discard pile, holds only cards that lay there face up). Only public facts of the state.
    - ``proposals(state, seat)``: complete commands a player would consider that picking at
      random seldom reaches (the streets that join a building to the Entrance, a trade of spare
      cards for wanted ones); bots weigh them beside those they reach through the picks. Only
      from what ``seat`` may see; whatever decide refuses is dropped.
    - ``spread``: about the lead, in points, that decides a game (the searching bot's scale).
    - ``rivalry``: how much the best opponent's points count against a seat's own when a bot
      judges where it stands: 1 where a point taken from the leader is worth a point gained; less
      in a race, where a move that only holds another back is undone the next turn (Itchy Feet's
      steals), and an exchange that helps both (a trade) is worth taking.
    - ``samples``: how many imagined worlds greedy judges each move in, its mean the move's worth:
      1 where one world tells the moves apart; more where a move's worth is a chance (a steal's
      random card, whether a trade's target holds what is asked and takes the offer).
    - ``beats_greedy``: what plays better than greedy here, as the ladder measured (docs/bots.md):
      ``"search"``, the searching bot; ``"worlds"``, greedy judging its one command in more
      imagined worlds (the search ties it); ``None``, nothing found. The named levels above casual
      spend their budget on what beats greedy; where nothing does, greedy is the expert and the
      levels below it slip, the lower the more, so that each still beats the one below.
    - ``budget_pays``: whether more of what beats greedy (the search's plays, greedy's worlds) beats
      less of it, as the ladder measured. Where not (Miss Liz's parks: four times the search's plays
      won 53.8% against it), only the expert plays it, at the skilled budget, greedy is the skilled
      level and the levels below slip, as where nothing beats greedy.
    """

    points: Callable[[Any], Sequence[float]]
    pool: Callable[[Place, str], str] = one_pool
    bounds: Callable[[Any], Sequence[tuple[Place, frozenset[str]]]] = no_bounds
    proposals: Callable[[Any, Seat], Sequence[Any]] = no_proposals
    spread: float = 10.0
    rivalry: float = 1.0
    samples: int = 1
    beats_greedy: Literal["search", "worlds"] | None = "search"
    budget_pays: bool = True


@dataclass(frozen=True)
class Game(Generic[S, C, E, R]):
    """A game: data that describes it, and the pure functions that play it."""

    id: str
    title: str
    min_players: int
    max_players: int
    options_type: type[msgspec.Struct]  # every field has a default
    command_type: Any  # the tagged union of the game's commands
    event_type: Any  # the tagged union of the game's events
    view_type: Any  # the tagged struct a viewer gets
    outcome_type: type[Outcome]
    initial: Callable[[int, Any], S]
    setup: Callable[[S, Ctx], list[E]]
    decide: Callable[[S, C, Seat, Ctx], list[E]]
    evolve: Callable[[S, E], S]
    view: Callable[[S, Viewer], Any]
    redact: Callable[[E, Viewer], E | None]
    moves: Callable[[S, Seat, tuple[Pick, ...]], Step]  # picks already checked by Game.step
    awaited: Callable[[S], list[Awaited]]
    outcome: Callable[[S], R | None]
    # Each seat's score if the game ended now, where the viewer may know it (None where it rests on
    # cards the viewer cannot see); None: the game says none (its view shows what points there are).
    standing: Callable[[S, Viewer], list[int | None]] | None = None
    deadlines: Callable[[S], list[Deadline]] = no_deadlines  # windows that close by themselves
    components: Any = None  # the printed parts as data (cards, map, tiles), for frontends to draw
    rules_version: int = 1  # bumped when a rule changes; every table records the one it opened with
    # A new game's state played by an earlier rules version (None: every table plays this code's rules).
    played_by: Callable[[S, int], S] | None = None
    upcasters: tuple[Upcaster, ...] = ()  # upcasters[n - 1] lifts a stored event of schema n to n + 1
    # The longest a game's stream may grow, in events (table facts too): a game that reaches
    # it is over, played to no end (domain/table/state.py, ``too_long``). Many times a long game.
    most_events: int = MOST_EVENTS
    strategy: Strategy | None = None  # what bots are told beyond the rules (None: they weigh no points)
    undoable: frozenset[type[Any]] | None = None  # the command types that may ever be taken back (None: all)
    # The game's words by language (``words/<lang>.json`` beside its rules): its refusals, terms and log
    # lines, read like its components; the server renders a refusal's ``message`` from them (docs/i18n.md).
    words: Mapping[str, Catalog] = field(default_factory=dict)

    @property
    def event_schema(self) -> int:
        """The schema of the events this code writes: 1, plus one per upcaster."""
        return 1 + len(self.upcasters)

    def upcast(self, raw: dict[str, Any], schema: int) -> dict[str, Any]:
        """A stored event (as plain JSON data) of ``schema``, lifted to this code's schema."""
        for lift in self.upcasters[schema - 1 :]:
            raw = lift(raw)
        return raw

    def begin(self, players: int, options: Any, rules: int) -> S:
        """The state before a table's first fact of the game, played by the rules version the table
        opened with (``rules``): a game under way keeps its rules when this code's rules change."""
        state = self.initial(players, options)
        return state if self.played_by is None else self.played_by(state, rules)

    def step(self, state: S, seat: Seat, picks: Sequence[Pick] = ()) -> Step:
        """The step after ``picks``, each checked against the options offered before it."""
        made = tuple(picks)
        for i, pick in enumerate(made):
            offered = self.moves(state, seat, made[:i]).options
            if not any(o.field == pick.field and o.value == pick.value for o in offered):
                raise Rejected(
                    "not_offered",
                    f"That cannot be picked now ({pick.field} {pick.value!r}); pick one of the options offered.",
                    {"field": f"picks[{i}]", "pick": pick.field, "value": pick.value},
                )
        return self.moves(state, seat, made)

    def commands(self, state: S, seat: Seat) -> list[C]:
        """Every complete command ``seat`` may send now, in pick order, each once (moves that
        combine cards or cells can have thousands: see ``few_commands``)."""
        return list(dict.fromkeys(self.walk(state, seat)))

    def few_commands(self, state: S, seat: Seat, limit: int, picks: tuple[Pick, ...] = ()) -> list[C] | None:
        """Every complete command (below ``picks``), or ``None`` when there are more than ``limit``."""
        found: dict[Any, None] = {}
        for command in self.walk(state, seat, picks):
            found[command] = None
            if len(found) > limit:
                return None
        return list(found)

    def walk(self, state: S, seat: Seat, picks: tuple[Pick, ...] = ()) -> Iterator[C]:
        """Every complete command below ``picks``, depth first (lazily: stop when you have enough)."""
        at = self.moves(state, seat, picks)
        if at.command is not None:
            yield at.command
        for option in at.options:
            if option.command is not None:
                yield option.command
            else:
                yield from self.walk(state, seat, (*picks, option.pick))

    def random_command(self, state: S, seat: Seat, rng: Rng) -> C | None:
        """A complete command picked at random, one pick at a time (stopping where the picks
        already make a command is one more choice); ``None`` when the seat has no move."""
        picks: tuple[Pick, ...] = ()
        at = self.moves(state, seat, picks)
        while True:
            count = len(at.options) + (at.command is not None)
            if count == 0:
                return None
            choice = rng.randrange(count)
            if choice == len(at.options):
                return at.command  # type: ignore[no-any-return]
            option = at.options[choice]
            if option.command is not None:
                return option.command  # type: ignore[no-any-return]
            picks = (*picks, option.pick)
            at = self.moves(state, seat, picks)


AnyGame = Game[Any, Any, Any, Any]


def fold(evolve: Callable[[S, E], S], state: S, events: Iterable[E]) -> S:
    """Apply events in order (a game's decide uses it to look ahead at what its facts do)."""
    for event in events:
        state = evolve(state, event)
    return state
