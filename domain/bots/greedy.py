"""The moves a bot weighs, how a seat stands, and the greedy bot that looks one command ahead.

- ``candidates``: the seat's complete commands reached through the move-building picks: for
  each kind of move (the first pick) every command when it has few, else a sample of random
  walks through its picks; and the game's proposals (``Strategy.proposals``: moves a player
  would think of that random picking seldom finds), those decide accepts.
- ``standing``: a seat's lead, from the game's ``Strategy.points``: its points minus the best
  opponent's; a finished game's outcome outweighs any points.
- ``greedy``: imagines one world its seat cannot tell from the real one (world.py), tries each
  candidate there (decide and evolve, every candidate with the same luck) and plays the one
  that leaves its seat standing best; ties are broken at random. The plan lives in the game's
  points (a tile bought counts for what it will score once staffed and joined), so looking one
  command ahead is enough to follow it. One command ahead reaches past the windows it opens:
  where a move waits for reactions (Itchy Feet's special objects, its trade offers), the
  imagined window closes on its deadline, as if nobody answered, so the move is weighed by what
  it does and not by the pause it starts.
"""

from __future__ import annotations

import math
from typing import Any

from domain.bots.world import Hidden, SeededRng
from domain.engine import CLOCK, AnyGame, Ctx, Pick, Rejected, Rng, Seat
from domain.table import decide_game

WIN = 10_000.0  # a won game outweighs any points
FEW = 24  # a kind of move with at most this many commands is weighed whole
WALKS = 12  # else this many random walks through its picks
WINDOWS = 4  # the most windows closed on their deadline after a weighed command
# What a command meets in an imagined world it cannot be played in: refused there, or a world the
# real game could not reach (an action declared in a reaction window that the hand dealt to its
# seat cannot carry out: Itchy Feet's travel, whose declaration shows the seat could travel).
IMPOSSIBLE = (Rejected, KeyError, ValueError, IndexError, AttributeError, TypeError, AssertionError)


def walk_from(game: AnyGame, state: Any, seat: Seat, picks: tuple[Pick, ...], rng: Rng) -> Any:
    """A complete command below ``picks``, one random option at a time (sending where the picks
    already make a command is one more choice)."""
    at = game.moves(state, seat, picks)
    while True:
        count = len(at.options) + (at.command is not None)
        if count == 0:
            return None
        choice = rng.randrange(count)
        if choice == len(at.options):
            return at.command
        option = at.options[choice]
        if option.command is not None:
            return option.command
        picks = (*picks, option.pick)
        at = game.moves(state, seat, picks)


def accepted(game: AnyGame, state: Any, command: Any, seat: Seat) -> bool:
    """Whether decide takes ``command`` from ``seat`` (a seat's own moves depend only on what it sees)."""
    try:
        decide_game(game, state, command, seat, Ctx(rng=SeededRng(0)))
    except IMPOSSIBLE:
        return False
    return True


def candidates(game: AnyGame, state: Any, seat: Seat, rng: Rng, few: int = FEW, walks: int = WALKS) -> list[Any]:
    """The commands a bot weighs: every kind of move the seat has, each whole when it has at most
    ``few`` commands, else ``walks`` random walks through its picks; then the game's proposals."""
    first = game.moves(state, seat, ())
    found: dict[Any, None] = {}
    if first.command is not None:
        found[first.command] = None
    for option in first.options:
        if option.command is not None:
            found[option.command] = None
            continue
        every = game.few_commands(state, seat, few, (option.pick,))
        if every is not None:
            found.update(dict.fromkeys(every))
            continue
        for _ in range(walks):
            command = walk_from(game, state, seat, (option.pick,), rng)
            if command is not None:
                found[command] = None
    if game.strategy is not None and found:
        for command in game.strategy.proposals(state, seat):
            if command not in found and accepted(game, state, command, seat):
                found[command] = None
    return list(found)


def points(game: AnyGame, state: Any) -> list[float]:
    """Each seat's points as the game's strategy counts them (all naught without one)."""
    if game.strategy is None:
        return [0.0] * state.players
    return [float(p) for p in game.strategy.points(state)]


def rivalry(game: AnyGame) -> float:
    """How much the best opponent's points count against a seat's own (``Strategy.rivalry``)."""
    return game.strategy.rivalry if game.strategy is not None else 1.0


def lead(mine: list[float], seat: Seat, weight: float = 1.0) -> float:
    """The seat's points less ``weight`` times the best opponent's."""
    return mine[seat] - weight * max((p for s, p in enumerate(mine) if s != seat), default=0.0)


def standing(game: AnyGame, state: Any, seat: Seat) -> float:
    """How well ``seat`` stands: a win or a loss first, then its points less the best opponent's
    (weighed by the game's rivalry)."""
    result = game.outcome(state)
    if result is not None:
        others = [p for s, p in enumerate(result.scores) if s != seat]
        margin: float = result.scores[seat] - max(others, default=0)
        return margin + (WIN if seat in result.winners else -WIN)
    return lead(points(game, state), seat, rivalry(game))


def after(game: AnyGame, state: Any, command: Any, seat: Seat, rng: Rng) -> Any | None:
    """The state once ``command`` is played, or ``None`` if it is refused (in an imagined world)."""
    try:
        events = decide_game(game, state, command, seat, Ctx(rng=rng))
    except IMPOSSIBLE:
        return None
    for event in events:
        state = game.evolve(state, event)
    return state


def closed(game: AnyGame, state: Any, rng: Rng) -> Any | None:
    """The state once the first window due closes by itself (``None``: nothing can move on)."""
    due = sorted(game.deadlines(state), key=lambda d: d.due_ms)
    if not due:
        return None
    try:
        events = decide_game(game, state, due[0].command, CLOCK, Ctx(rng=rng, now_ms=due[0].due_ms))
    except IMPOSSIBLE:
        return None
    for event in events:
        state = game.evolve(state, event)
    return state


def unanswered(game: AnyGame, state: Any, rng: Rng) -> Any:
    """The state once the windows open in it close on their deadlines, nobody answering."""
    for _ in range(WINDOWS):
        then = closed(game, state, rng)
        if then is None:
            break
        state = then
    return state


def answerer(game: AnyGame, state: Any) -> Seat | None:
    """The one seat an open window waits for (a trade's target), if one alone is awaited."""
    if not game.deadlines(state):
        return None
    seats = {a.seat for a in game.awaited(state)}
    return seats.pop() if len(seats) == 1 else None


def answered(game: AnyGame, state: Any, rng: Rng) -> Any:
    """The state once the windows open in it are settled: a window that waits for one seat (a
    trade's target) is answered as greedy would answer it, one command ahead, that answer judged
    once the windows after it close unanswered; a window that waits for several (a reaction
    window) closes on its deadline, nobody answering. So an offer is worth what its target would
    make of it in this world: taken if it pays the target, else nothing."""
    for _ in range(WINDOWS):
        seat = answerer(game, state)
        then = reply(game, state, seat, rng) if seat is not None else closed(game, state, rng)
        if then is None:
            break
        state = then
    return state


def reply(game: AnyGame, state: Any, seat: Seat, rng: Rng) -> Any | None:
    """The state after ``seat``'s best answer to the window it is awaited in (its first listed
    answer on a tie, so that the answer does not hang on the luck of the draw)."""
    answers = game.few_commands(state, seat, FEW)
    if not answers:
        return closed(game, state, rng)
    seed = rng.randrange(2**32)
    best, best_value = None, float("-inf")
    for command in answers:
        luck = SeededRng(seed)
        then = after(game, state, command, seat, luck)
        if then is None:
            continue
        value = standing(game, unanswered(game, then, luck), seat)
        if value > best_value:
            best, best_value = then, value
    return best


def spread(game: AnyGame) -> float:
    """About the lead, in points, that decides a game (``Strategy.spread``)."""
    return game.strategy.spread if game.strategy is not None else 10.0


def slip(worth: list[float], temperature: float, rng: Rng) -> int:
    """An index drawn with chances ``exp(worth / temperature)`` (a refused move: never)."""
    top = max(worth)
    weights = [math.exp((w - top) / temperature) if w > float("-inf") else 0.0 for w in worth]
    pick = rng.randrange(1 << 30) / (1 << 30) * sum(weights)
    for i, weight in enumerate(weights):
        pick -= weight
        if pick < 0:
            return i
    return max(range(len(worth)), key=worth.__getitem__)


def samples(game: AnyGame) -> int:
    """How many imagined worlds greedy judges each move in (``Strategy.samples``)."""
    return game.strategy.samples if game.strategy is not None else 1


def greedy(game: AnyGame, state: Any, seat: Seat, rng: Rng, slips: float = 0.0, worlds: int | None = None) -> Any:
    """The command that leaves the seat standing best, one command ahead, on average over
    ``worlds`` imagined worlds (default the game's number; each command tried with the same luck
    in each world).

    It weighs every candidate even when there is only one: the time a bot takes must not tell
    what it holds (a seat that cannot accept a trade, or holds no Mousetrap, has one answer).
    Ties are broken at random, but an answer to a window (a trade's target) takes the first the
    game lists (Itchy Feet lists acceptance first: a trade that costs the target nothing is
    taken), the answer an offerer foresees in ``reply``.

    With ``slips`` (the beginner), it picks among its moves at random instead, each as likely as
    ``exp(worth / (slips * spread))``: mostly a good move, now and then a worse one, as a player
    who sees roughly how good each move is."""
    commands = candidates(game, state, seat, rng)
    if not commands:
        return None
    hidden = Hidden(game, state, seat)
    worth = [0.0] * len(commands)
    worlds = worlds or samples(game)
    for _ in range(worlds):
        world = hidden.world(rng)
        seed = rng.randrange(2**32)  # every command is tried with the same luck
        for i, command in enumerate(commands):
            luck = SeededRng(seed)
            then = after(game, world, command, seat, luck)
            worth[i] += standing(game, answered(game, then, luck), seat) if then is not None else float("-inf")
    if slips > 0:
        return commands[slip(worth, slips * spread(game) * worlds, rng)]
    top = max(worth)
    best = [i for i, value in enumerate(worth) if value == top]
    if answerer(game, state) == seat:
        return commands[best[0]]  # an answer: on a tie the one the game lists first, as ``reply`` foresees
    return commands[best[rng.randrange(len(best))]]
