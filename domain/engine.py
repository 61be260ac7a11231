"""The game contract: a game is a plain object of pure functions (a decider).

- ``initial(players, options)`` is the state before anything happened;
- ``setup(state, ctx)`` gives the opening facts (deals, shuffles);
- ``decide(state, command, seat, ctx)`` checks one command and returns the facts it
  causes, or raises ``Rejected``; all rule checking lives here;
- ``evolve(state, event)`` applies one fact, never validates, never draws randomness;
- ``view(state, viewer)`` is what one seat (or the spectator, ``None``) may see;
- ``redact(event, viewer)`` is the same rule applied to one event;
- ``legal_commands(state, seat)`` lists every command that seat may send now;
- ``awaited(state)`` says which seats the game waits for, and for what;
- ``outcome(state)`` is the final result, or ``None`` while the game goes on;
- ``deadlines(state)`` lists the open windows that close by themselves (optional).

Rules change: ``rules_version`` is recorded in every new table (``TableOpened.rules``);
a change to the shape of a game's stored events bumps its event schema by adding an
upcaster, which lifts a stored event of the previous schema to the next one, so logs of
every earlier version still fold (tests/domain/test_old_logs.py replays kept logs).

Domain code does no I/O and has no clock or randomness of its own: both come in
through ``Ctx`` and their results are written into events, so a replay needs no seed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

import msgspec

Seat = int
Viewer = int | None  # a seat; None is the spectator; FULL sees everything
FULL = -1  # the full view: every hand and pile, for finished games and tests
CLOCK = -2  # the seat a deadline's command comes from: nobody at the table, the shared clock

S = TypeVar("S")
C = TypeVar("C")
E = TypeVar("E")
R = TypeVar("R")


class Rejected(Exception):
    """A command that breaks a rule: ``code`` is stable, ``message`` is for players."""

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


Upcaster = Callable[[dict[str, Any]], dict[str, Any]]  # one stored event, as JSON data, one schema on


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
    legal_commands: Callable[[S, Seat], list[C]]
    awaited: Callable[[S], list[Awaited]]
    outcome: Callable[[S], R | None]
    deadlines: Callable[[S], list[Deadline]] = no_deadlines  # windows that close by themselves
    components: Any = None  # the printed parts as data (cards, map, tiles), for frontends to draw
    rules_version: int = 1  # bumped when a rule changes; every table records the one it opened with
    upcasters: tuple[Upcaster, ...] = ()  # upcasters[n - 1] lifts a stored event of schema n to n + 1

    @property
    def event_schema(self) -> int:
        """The schema of the events this code writes: 1, plus one per upcaster."""
        return 1 + len(self.upcasters)

    def upcast(self, raw: dict[str, Any], schema: int) -> dict[str, Any]:
        """A stored event (as plain JSON data) of ``schema``, lifted to this code's schema."""
        for lift in self.upcasters[schema - 1 :]:
            raw = lift(raw)
        return raw


AnyGame = Game[Any, Any, Any, Any]


def fold(evolve: Callable[[S, E], S], state: S, events: Iterable[E]) -> S:
    """Apply events in order (a game's decide uses it to look ahead at what its facts do)."""
    for event in events:
        state = evolve(state, event)
    return state
