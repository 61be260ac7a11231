"""The contract kit every game's tests run (domain/engine.py, domain/table/).

Moves (the move-building contract):

- sound: every command the picks complete is accepted by ``decide``, every option offered
  leads to at least one complete command, and an option carries a command exactly when
  picking it leaves nothing more to choose;
- complete: every command ``decide`` accepts is reached by some picks (``check_complete``,
  fed with candidates each game's tests make without the pick code);
- small: a step offers at most ``MOST_OPTIONS`` options, each (field, value) once;
- never stuck: a seat the game awaits always has a complete command.

Each game's property tests call these on random reachable states.

Games (``random_game``, ``check_ends_and_replays``): a random game ends (Itchy Feet's is played
by its test player: uniformly random play almost never ends it), and its log replays to the
same state, the same outcome, and encodes and decodes unchanged. Old logs fold:
tests/domain/test_old_logs.py, for every game. Secrets: tests/domain/secrets.py (swapping what a
viewer cannot see changes nothing it receives).

``Rules(game)`` gives a game's tests the helpers they all need: ``ctx``, ``fold``, ``start``,
``play``, ``rejection`` and ``result``, the command going through the table's guards.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from typing import Any, Generic, TypeVar

import msgspec

from domain.engine import CLOCK, AnyGame, Ctx, Game, Pick, Rejected, Seat, Step, fold
from domain.table import decide_game

MOST_OPTIONS = 300  # "a few hundred at most"

S = TypeVar("S")
C = TypeVar("C")
E = TypeVar("E")


def ctx(seed: int = 0, now_ms: int = 0) -> Ctx:
    return Ctx(rng=random.Random(seed), now_ms=now_ms)


class Rules(Generic[S, C, E]):
    """One game's decide and evolve as its tests use them. ``turn`` says whose turn a state is
    (the seat a command comes from when a test names none)."""

    def __init__(self, game: Game[S, C, E, Any], turn: Callable[[S], int | None]) -> None:
        self.game = game
        self.turn = turn

    def fold(self, state: S, events: Iterable[E]) -> S:
        return fold(self.game.evolve, state, events)

    def start(self, players: int, options: Any = None, seed: int = 0) -> tuple[S, list[E]]:
        """A game right after its opening facts, and those facts."""
        initial = self.game.initial(players, options)
        events = self.game.setup(initial, ctx(seed))
        return self.fold(initial, events), events

    def _seat(self, state: S, seat: int | None) -> int:
        who = self.turn(state) if seat is None else seat
        assert who is not None, "nobody's turn: name the seat"
        return who

    def play(self, state: S, command: C, seat: int | None = None, seed: int = 0, now_ms: int = 0) -> tuple[S, list[E]]:
        """Decide and apply one command (by the seat whose turn it is, unless told)."""
        events = decide_game(self.game, state, command, self._seat(state, seat), ctx(seed, now_ms))
        return self.fold(state, events), events

    def rejection(self, state: S, command: C, seat: int | None = None, seed: int = 0, now_ms: int = 0) -> Rejected:
        """The refusal of a command decide must refuse."""
        try:
            decide_game(self.game, state, command, self._seat(state, seat), ctx(seed, now_ms))
        except Rejected as exc:
            return exc
        raise AssertionError(f"{command} was accepted")

    def result(self, state: S, command: C, seat: int, seed: int = 0) -> Any:
        """What decide answers: the events, or the refusal's code, message and details."""
        try:
            return decide_game(self.game, state, command, seat, ctx(seed))
        except Rejected as exc:
            return ("rejected", exc.code, exc.message, exc.details)


def accepted(game: AnyGame, state: Any, command: Any, seat: Seat, now_ms: int = 0) -> bool:
    try:
        decide_game(game, state, command, seat, Ctx(rng=random.Random(0), now_ms=now_ms))
    except Rejected:
        return False
    return True


def check_step(game: AnyGame, state: Any, seat: Seat, picks: tuple[Pick, ...], at: Step, now_ms: int = 0) -> None:
    """One step on its own: small, no option twice, its command accepted, its terminal options exact."""
    assert len(at.options) <= MOST_OPTIONS, f"{len(at.options)} options after {picks}"
    keys = [(o.field, o.value) for o in at.options]
    assert len(set(keys)) == len(keys), f"an option is offered twice after {picks}"
    if at.command is not None:
        assert accepted(game, state, at.command, seat, now_ms), f"{at.command} (picks {picks}) is refused"
    for option in at.options:
        if option.command is not None:
            after = game.moves(state, seat, (*picks, option.pick))
            assert after.command == option.command and not after.options, f"{option} does not end the move"


def descend(game: AnyGame, state: Any, seat: Seat, picks: tuple[Pick, ...], rng: random.Random) -> Any:
    """A random complete command below ``picks``; fails if the picks lead nowhere."""
    for _ in range(64):
        at = game.moves(state, seat, picks)
        count = len(at.options) + (at.command is not None)
        assert count, f"the picks {picks} lead to no command"
        choice = rng.randrange(count)
        if choice == len(at.options):
            return at.command
        option = at.options[choice]
        if option.command is not None:
            return option.command
        picks = (*picks, option.pick)
    raise AssertionError(f"no command within 64 picks of {picks}")


def check_sound(
    game: AnyGame, state: Any, seat: Seat, rng: random.Random, nodes: int = 300, now_ms: int = 0
) -> list[Any]:
    """Visit up to ``nodes`` steps breadth first; at each, check it, and from every option
    descend at random to a command that decide accepts. Returns the commands found."""
    found: list[Any] = []
    queue: list[tuple[Pick, ...]] = [()]
    visited = 0
    while queue and visited < nodes:
        picks = queue.pop(0)
        at = game.moves(state, seat, picks)
        visited += 1
        check_step(game, state, seat, picks, at, now_ms)
        if at.command is not None:
            found.append(at.command)
        for option in at.options:
            command = option.command or descend(game, state, seat, (*picks, option.pick), rng)
            assert accepted(game, state, command, seat, now_ms), f"{command} (from {picks} + {option}) is refused"
            found.append(command)
            if option.command is None:
                queue.append((*picks, option.pick))
    return found


def picks_for(game: AnyGame, state: Any, seat: Seat, command: Any) -> tuple[Pick, ...] | None:
    """The picks that build ``command`` exactly (tuple fields in their order), or None."""
    tag = type(command).__struct_config__.tag

    def wanted(picks: tuple[Pick, ...], option: Any) -> bool:
        if option.field == "type":
            return bool(option.value == tag)
        if option.field not in type(command).__struct_fields__:
            return False
        value = getattr(command, option.field)
        if option.value == value:
            return True
        taken = sum(1 for p in picks if p.field == option.field)
        return isinstance(value, tuple) and taken < len(value) and option.value == value[taken]

    def search(picks: tuple[Pick, ...], depth: int) -> tuple[Pick, ...] | None:
        at = game.moves(state, seat, picks)
        if at.command == command:
            return picks
        if depth == 0:
            return None
        for option in at.options:
            if wanted(picks, option):
                if option.command is not None:
                    if option.command == command:
                        return (*picks, option.pick)
                    continue
                found = search((*picks, option.pick), depth - 1)
                if found is not None:
                    return found
        return None

    return search((), 32)


def check_complete(
    game: AnyGame, state: Any, seat: Seat, candidates: Iterable[Any], now_ms: int = 0
) -> tuple[int, int]:
    """Every candidate decide accepts is reached by picks; (accepted, tried)."""
    tried = hits = 0
    for command in candidates:
        tried += 1
        if not accepted(game, state, command, seat, now_ms):
            continue
        hits += 1
        picks = picks_for(game, state, seat, command)
        assert picks is not None, f"seat {seat}: {command} is accepted but no picks reach it"
        assert game.step(state, seat, picks).command == command
    return hits, tried


def check_never_stuck(game: AnyGame, state: Any, rng: random.Random) -> None:
    """A seat the game awaits has at least one complete command, and it is accepted."""
    if game.outcome(state) is not None:
        return
    for awaited in game.awaited(state):
        command = game.random_command(state, awaited.seat, rng)
        assert command is not None, f"seat {awaited.seat} is awaited ({awaited.reason}) with no move"
        assert accepted(game, state, command, awaited.seat), f"{command} is refused"


def check_moves(
    game: AnyGame,
    state: Any,
    rng: random.Random,
    candidates: dict[int, Iterable[Any]] | None = None,
    nodes: int = 300,
    now_ms: int = 0,
) -> None:
    """The whole contract at one state, for every seat (candidates by seat, for completeness)."""
    check_never_stuck(game, state, rng)
    for seat in range(state.players):
        check_sound(game, state, seat, rng, nodes, now_ms)
        if candidates and seat in candidates:
            check_complete(game, state, seat, candidates[seat], now_ms)


# -- whole games ---------------------------------------------------------------------------------

Chooser = Callable[[Any, Seat, random.Random], Any]  # a test player: (state, seat, rng) -> command or None
MOST_STEPS = 20_000


def random_choice(game: AnyGame) -> Chooser:
    return lambda state, seat, rng: game.random_command(state, seat, rng)


def random_game(
    game: AnyGame,
    players: int,
    options: Any,
    seed: int,
    choose: Chooser | None = None,
    check: Callable[[Any, int], None] | None = None,
    most_steps: int = MOST_STEPS,
) -> tuple[Any, list[Any], Any]:
    """A game played to its end by ``choose`` (random moves, built pick by pick, unless told),
    each step from a seat the game awaits, drawn at random; now and then the clock closes an open
    window (Itchy Feet's offers and reactions). ``check(state, step)`` runs before every step.
    Returns the state before the opening facts, every event, and the final state."""
    rng = random.Random(seed)
    pick = choose or random_choice(game)
    start = game.initial(players, options)
    log: list[Any] = game.setup(start, ctx(seed))
    state = fold(game.evolve, start, log)
    for step in range(most_steps):
        if game.outcome(state) is not None:
            return start, log, state
        if check is not None:
            check(state, step)
        awaited = game.awaited(state)
        assert awaited, "someone is always awaited while the game goes on"
        seat = rng.choice(awaited).seat
        command = pick(state, seat, rng)
        assert command is not None, f"seat {seat} is awaited with no move"
        events = decide_game(game, state, command, seat, ctx(seed + step, now_ms=step))
        log += events
        state = fold(game.evolve, state, events)
        open_windows = game.deadlines(state)
        if open_windows and rng.random() < 0.05:
            deadline = open_windows[0]
            events = decide_game(game, state, deadline.command, CLOCK, ctx(step, now_ms=deadline.due_ms))
            log += events
            state = fold(game.evolve, state, events)
    raise AssertionError(f"{game.id}: no end within {most_steps} steps")


def check_ends_and_replays(game: AnyGame, start: Any, log: list[Any], state: Any) -> Any:
    """A finished game: it awaits nobody and offers nothing, its log replays to the same state and
    outcome, and the log and the outcome encode and decode unchanged. Returns the outcome."""
    outcome = game.outcome(state)
    assert outcome is not None
    assert game.awaited(state) == [] and game.deadlines(state) == []
    assert all(game.step(state, seat).empty for seat in range(len(outcome.scores)))
    replayed = fold(game.evolve, start, log)
    assert replayed == state and game.outcome(replayed) == outcome
    assert sorted(outcome.places)[0] == 1 and all(outcome.places[w] == 1 for w in outcome.winners)
    assert msgspec.json.decode(msgspec.json.encode(outcome), type=game.outcome_type) == outcome
    assert msgspec.json.decode(msgspec.json.encode(log), type=list[game.event_type]) == log  # type: ignore[name-defined]
    return outcome
