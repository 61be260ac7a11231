"""Bots: strategies that pick one of a seat's legal commands (pure; randomness from an rng passed in).

``choose(game, state, seat, rng) -> command | None`` returns one of the seat's complete
commands, built through the game's move-building picks (``None`` when the seat may not act now).

- ``random``: any legal command, one pick at a time, each option as likely.
- ``greedy``: looks one command ahead. It first *determinizes* the state: every card
  hidden from its seat (other hands, deck and pile orders, face-down tiles) is dealt
  again at random among the places hidden cards occupy, each kind of card among its own
  kind's places (that game's small ``kind`` function). Then it applies each legal command
  (decide + evolve, with a copy of its own rng) to that one imagined world and scores
  the seat's standing there: its points minus the best opponent's (each game's scoring
  module), a win or a loss outweighing any points. The best command wins; ties are
  broken at random.

No peeking: what greedy looks at is the state with everything hidden from its seat
replaced by a random deal that depends only on what its seat can see (the hidden cards,
sorted, then shuffled by its rng). Two worlds its seat cannot tell apart give the same
choice (tests/domain/test_bots.py checks this as a property).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import msgspec

from domain.engine import CLOCK, AnyGame, Ctx, Rejected, Rng, Seat
from domain.i_love_portugal.scoring import final_scores as portugal_scores
from domain.itchy_feet.cards import CARDS as ITCHY_CARDS
from domain.itchy_feet.cards import COUNTRIES as ITCHY_COUNTRIES
from domain.miss_liz_parks.scoring import score as park_scores
from domain.table import evolve as evolve_table
from domain.table import open_table, take_seat
from domain.vilar_de_mouros.scoring import score_cards

Strategy = Callable[[AnyGame, Any, Seat, Rng], Any]
WIN = 10_000  # a won game outweighs any points


def random_bot(game: AnyGame, state: Any, seat: Seat, rng: Rng) -> Any:
    """Any legal command: a random option at each pick (every legal move can come)."""
    return game.random_command(state, seat, rng)


CANDIDATES = 200  # the commands greedy weighs: all of them when there are no more, else a sample


def candidates(game: AnyGame, state: Any, seat: Seat, rng: Rng, most: int = CANDIDATES) -> list[Any]:
    """The seat's complete commands when there are at most ``most``; else ``most`` random walks
    through the picks (each distinct command once), so moves that combine cards are weighed too."""
    few = game.few_commands(state, seat, most)
    if few is not None:
        return few
    found: dict[Any, None] = {}
    for _ in range(most):
        command = game.random_command(state, seat, rng)
        if command is not None:
            found[command] = None
    return list(found)


# -- what each game's standing is --------------------------------------------------


@functools.lru_cache(maxsize=4096)
def _vilar_cards(cards: tuple[str, ...]) -> float:
    # Points, with the cows of cards still outside any scoring collection as a small
    # hint (they may still join one).
    scored = score_cards(0, list(cards))
    return scored.points + 0.2 * scored.remainder_points


def _vilar_points(state: Any) -> list[float]:
    return [_vilar_cards(tuple(sorted((*state.hands[s], *state.personal[s])))) for s in range(state.players)]


def _portugal_points(state: Any) -> list[float]:
    return [float(s.points) for s in portugal_scores(state)]


def _park_points(state: Any) -> list[float]:
    return [float(s.total) for s in park_scores(state)]


def _itchy_points(state: Any) -> list[float]:
    # Countries travelled to are the score. On the way there: the objects of the next country and
    # a passport in hand (a forbidden object, which blocks travelling, against), postcards, and a
    # little for any card. Counting cards alone left greedy wandering once it could trade any card.
    return [_itchy_standing(state, s) for s in range(state.players)]


def _itchy_standing(state: Any, seat: int) -> float:
    hand = state.hands[seat]
    country = state.own[seat] if state.own[seat] is not None else state.centre
    needed = set(ITCHY_COUNTRIES[country].requires) if country is not None else set()
    kinds = {ITCHY_CARDS[c].kind for c in hand}
    types = [ITCHY_CARDS[c].type for c in hand]
    passport = "passport" in types or any(ITCHY_CARDS[c].effect == "visa" for c in hand)
    return (
        10.0 * len(state.travelled[seat])
        + 3.0 * len(kinds & needed)
        + 3.0 * passport
        - 2.0 * types.count("forbidden")
        + 1.5 * types.count("postcard")
        + 0.1 * len(hand)
    )


POINTS: dict[str, Callable[[Any], list[float]]] = {
    "vilar-de-mouros": _vilar_points,
    "i-love-portugal": _portugal_points,
    "miss-liz-parks": _park_points,
    "itchy-feet": _itchy_points,
}


def standing(game: AnyGame, state: Any, seat: Seat) -> float:
    """How well ``seat`` stands: a win or loss first, then its points minus the best opponent's."""
    result = game.outcome(state)
    if result is not None:
        others = [p for s, p in enumerate(result.scores) if s != seat]
        margin: float = result.scores[seat] - max(others, default=0)
        return margin + (WIN if seat in result.winners else -WIN)
    points = POINTS.get(game.id)
    if points is None:
        return 0.0
    mine = points(state)
    return mine[seat] - max((p for s, p in enumerate(mine) if s != seat), default=0.0)


# -- determinization: a random world the seat cannot tell from the real one ------------


def _card_kind(game_id: str) -> Callable[[str], str]:
    """Which hidden cards may take each other's place (one game's small function)."""
    if game_id == "vilar-de-mouros":  # festival cards and bonus cards are separate decks
        return lambda card: "bonus" if card.startswith("bonus-") else "card"
    if game_id == "i-love-portugal":  # photos, backpacks (by colour), and each pile's cards
        return lambda card: "-".join(card.split("-")[:2]) if card.startswith("backpack-") else card.split("-")[0]
    if game_id == "miss-liz-parks":  # planning cards and tiles
        return lambda card: "plan" if card.startswith("plan-") else "tile"
    return lambda card: "card"  # itchy-feet: objects and passports share one deck


def _strings(value: Any, into: set[str]) -> None:
    if isinstance(value, str):
        into.add(value)
    elif isinstance(value, dict):
        for v in value.values():
            _strings(v, into)
    elif isinstance(value, list | tuple):
        for v in value:
            _strings(v, into)


def determinize(game: AnyGame, state: Any, seat: Seat, rng: Rng) -> Any:
    """The state with every card hidden from ``seat`` dealt again at random among the
    places hidden cards of its kind occupy. It depends only on what ``seat`` sees."""
    visible: set[str] = set()
    _strings(msgspec.to_builtins(game.view(state, seat)), visible)
    for option in game.step(state, seat).options:
        _strings(msgspec.to_builtins(option), visible)
    plain = msgspec.json.decode(msgspec.json.encode(state))  # every tuple a list, to write into
    places: list[tuple[list[Any], int]] = []

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            for v in value.values():
                walk(v)
        elif isinstance(value, list):
            for i, v in enumerate(value):
                if isinstance(v, str):
                    if v not in visible:
                        places.append((value, i))
                else:
                    walk(v)

    walk(plain)
    if not places:
        return state
    kind = _card_kind(game.id)
    by_kind: dict[str, list[tuple[list[Any], int]]] = {}
    for where, i in places:
        by_kind.setdefault(kind(where[i]), []).append((where, i))
    for name in sorted(by_kind):
        spots = by_kind[name]
        cards = sorted(where[i] for where, i in spots)
        rng.shuffle(cards)
        for (where, i), card in zip(spots, cards, strict=True):
            where[i] = card
    return msgspec.convert(plain, type(state))


# -- greedy ---------------------------------------------------------------------------


class SeededRng:
    """A small generator (splitmix64) for imagined worlds: the same seed, the same luck, so
    every command greedy tries meets the same draws. Domain code has no ``random`` of its own."""

    MASK = (1 << 64) - 1

    def __init__(self, seed: int) -> None:
        self.state = seed & self.MASK

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & self.MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & self.MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & self.MASK
        return z ^ (z >> 31)

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        if stop is None:
            start, stop = 0, start
        count = len(range(start, stop, step))
        if count <= 0:
            raise ValueError("empty range for randrange()")
        return start + step * (self.next() % count)

    def shuffle(self, x: list[Any]) -> None:
        for i in range(len(x) - 1, 0, -1):
            j = self.randrange(i + 1)
            x[i], x[j] = x[j], x[i]


def _after(game: AnyGame, state: Any, command: Any, seat: Seat, seed: int) -> Any | None:
    try:
        events = game.decide(state, command, seat, Ctx(rng=SeededRng(seed)))
    except (Rejected, KeyError, ValueError, IndexError):  # refused in the imagined world
        return None
    for event in events:
        state = game.evolve(state, event)
    return state


def greedy_bot(game: AnyGame, state: Any, seat: Seat, rng: Rng) -> Any:
    """The legal command that leaves the seat standing best, one command ahead."""
    commands = candidates(game, state, seat, rng)
    if len(commands) <= 1:
        return commands[0] if commands else None
    world = determinize(game, state, seat, rng)
    seed = rng.randrange(2**32)  # every command is tried with the same luck
    best: list[int] = []
    best_score = float("-inf")
    for i, command in enumerate(commands):
        after = _after(game, world, command, seat, seed)
        value = standing(game, after, seat) if after is not None else float("-inf")
        if value > best_score:
            best, best_score = [i], value
        elif value == best_score:
            best.append(i)
    return commands[best[rng.randrange(len(best))]]


BOTS: dict[str, Strategy] = {"random": random_bot, "greedy": greedy_bot}


# -- playing a whole game in process (the duel, tests) ------------------------------------


def play_out(game: AnyGame, strategies: Sequence[Strategy], rng: Rng, max_commands: int = 20_000) -> Any:
    """A whole game between ``strategies`` (one per seat), in process: its outcome (``None``
    if it did not end within ``max_commands``). Windows nobody closes close on their deadline."""
    ctx = Ctx(rng=rng)
    table = evolve_table(game, None, open_table(game, len(strategies), {}))
    for _ in strategies:
        for event in take_seat(game, table, None, "", None, ctx):
            table = evolve_table(game, table, event)
    state, now = table.state, 0
    for _ in range(max_commands):
        result = game.outcome(state)
        if result is not None:
            return result
        seats = sorted({a.seat for a in game.awaited(state)})
        rng.shuffle(seats)
        command, seat = None, CLOCK
        for seat in seats:
            command = strategies[seat](game, state, seat, rng)
            if command is not None:
                break
        if command is None:  # only a window's deadline can move the game on
            due = sorted(game.deadlines(state), key=lambda d: d.due_ms)
            if not due:
                return None
            seat, command, now = CLOCK, due[0].command, max(now, due[0].due_ms)
        for event in game.decide(state, command, seat, Ctx(rng=rng, now_ms=now)):
            state = game.evolve(state, event)
    return None


@dataclass(frozen=True)
class Duel:
    """Greedy against random at one game: how each game ended."""

    game: str
    games: int
    greedy: int  # greedy alone first
    ties: int  # both first
    random: int  # random alone first
    unfinished: int = 0

    @property
    def share(self) -> float:
        """Greedy's win share (ties count as neither a win nor a loss, and are shown apart)."""
        return self.greedy / self.games if self.games else 0.0


def duel(
    game: AnyGame,
    games: int,
    rng_for: Callable[[int], Rng] = SeededRng,
    first: Strategy = greedy_bot,
    second: Strategy = random_bot,
) -> Duel:
    """``games`` two-seat games of ``first`` (greedy) against ``second`` (random), alternating who
    sits first; game ``i`` is played with ``rng_for(i)``, so a duel can be replayed."""
    won = tied = lost = unfinished = 0
    for i in range(games):
        mine = i % 2
        seats = [second, second]
        seats[mine] = first
        result = play_out(game, seats, rng_for(i))
        if result is None:
            unfinished += 1
        elif result.winners == [mine]:
            won += 1
        elif mine in result.winners:
            tied += 1
        else:
            lost += 1
    return Duel(game.id, games, won, tied, lost, unfinished)
