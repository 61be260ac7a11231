"""Whole games between bots, in process (the duel, the tests), and the ladder's figures.

``play_game`` seats one bot a seat and plays to the end; windows nobody closes close on their
deadline; it counts the game's events by type (how long a game runs, what the bots did).
``duel`` plays one bot against another at any table size: the first bot in one seat, the
second in every other, the first bot's seat rotating game after game; ``paired``, every deal is
played once from each seat, so that a deal's luck counts for both bots alike. ``Duel`` counts
who won and gives the first bot's win share with a 95% confidence interval (Wilson's score
interval), beside its fair share (one in as many players).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from domain.engine import CLOCK, AnyGame, Ctx, Outcome, Rng, Seat
from domain.table import decide_game, open_table, take_seat
from domain.table import evolve as evolve_table

Choose = Callable[[AnyGame, Any, Seat, Rng], Any]  # a bot: its command for a seat, or None
MAX_COMMANDS = 20_000


@dataclass(frozen=True)
class Played:
    """One game between bots: its outcome (``None``: it did not end within the cap), the
    commands it took, and its events counted by type."""

    outcome: Outcome | None
    commands: int
    events: Counter[str] = field(default_factory=Counter)


def play_game(
    game: AnyGame,
    bots: Sequence[Choose],
    rng: Rng,
    options: dict[str, Any] | None = None,
    max_commands: int = MAX_COMMANDS,
    deal: Rng | None = None,
) -> Played:
    """A whole game between ``bots`` (one per seat), in process. The table is dealt with ``deal``
    (default ``rng``), everything after with ``rng``; awaited seats are asked in a random order."""
    table = evolve_table(game, None, open_table(game, len(bots), options or {}))
    setup = Ctx(rng=deal or rng)
    for _ in bots:
        for event in take_seat(game, table, None, "", None, setup):
            table = evolve_table(game, table, event)
    state, now = table.state, 0
    events: Counter[str] = Counter()
    for commands in range(max_commands):
        result = game.outcome(state)
        if result is not None:
            return Played(result, commands, events)
        seats = sorted({a.seat for a in game.awaited(state)})
        rng.shuffle(seats)
        command, seat = None, CLOCK
        for seat in seats:
            command = bots[seat](game, state, seat, rng)
            if command is not None:
                break
        if command is None:  # only a window's deadline can move the game on
            due = sorted(game.deadlines(state), key=lambda d: d.due_ms)
            if not due:
                return Played(None, commands, events)
            seat, command, now = CLOCK, due[0].command, max(now, due[0].due_ms)
        for event in decide_game(game, state, command, seat, Ctx(rng=rng, now_ms=now)):
            events[type(event).__name__] += 1
            state = game.evolve(state, event)
    return Played(game.outcome(state), max_commands, events)


def play_out(
    game: AnyGame,
    bots: Sequence[Choose],
    rng: Rng,
    options: dict[str, Any] | None = None,
    max_commands: int = MAX_COMMANDS,
) -> Outcome | None:
    """A whole game between ``bots``: its outcome (``None`` if it did not end within ``max_commands``)."""
    return play_game(game, bots, rng, options, max_commands).outcome


def seats_for(index: int, players: int) -> int:
    """Where the first bot sits in game ``index`` of a duel: every seat in turn."""
    return index % players


def lineup(first: Choose, second: Choose, index: int, players: int) -> list[Choose]:
    """The bots of game ``index``: ``first`` in its rotating seat, ``second`` everywhere else."""
    bots = [second] * players
    bots[seats_for(index, players)] = first
    return bots


@dataclass(frozen=True)
class Duel:
    """How the games of one bot against another ended, from the first bot's side."""

    game: str
    players: int
    games: int
    won: int  # the first bot alone first
    tied: int  # first, with others
    lost: int  # someone else first
    unfinished: int = 0
    credit: float = 0.0  # wins, and a tie's share (1/k among k winners)

    @property
    def share(self) -> float:
        """The first bot's win share: a tie among k winners counts 1/k."""
        return self.credit / self.games if self.games else 0.0

    @property
    def fair(self) -> float:
        """What it would win at random: one game in as many players."""
        return 1 / self.players

    @property
    def interval(self) -> tuple[float, float]:
        """The share's 95% confidence interval (Wilson's score interval)."""
        return wilson(self.credit, self.games)


def wilson(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson's score interval for a share of ``wins`` in ``games`` (95% for z = 1.96)."""
    if games == 0:
        return (0.0, 1.0)
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return (max(0.0, centre - half), min(1.0, centre + half))


def tally(game: str, players: int, results: Iterable[tuple[int, Outcome | None]]) -> Duel:
    """The figure of a duel from each game's (first bot's seat, outcome)."""
    games = won = tied = lost = unfinished = 0
    credit = 0.0
    for seat, result in results:
        games += 1
        if result is None:
            unfinished += 1
        elif result.winners == [seat]:
            won += 1
            credit += 1
        elif seat in result.winners:
            tied += 1
            credit += 1 / len(result.winners)
        else:
            lost += 1
    return Duel(game, players, games, won, tied, lost, unfinished, credit)


DEALS = 10**9  # paired duels deal game i with seed DEALS + i // players: apart from the plays' seeds


def deal_of(index: int, players: int, paired: bool) -> int | None:
    """The seed game ``index`` of a duel is dealt with: paired, one deal for every ``players``
    games in a row (the first bot in each seat in turn); else none of its own (its game's seed)."""
    return DEALS + index // players if paired else None


def duel(
    game: AnyGame,
    games: int,
    first: Choose,
    second: Choose,
    players: int = 2,
    rng_for: Callable[[int], Rng] | None = None,
    options: dict[str, Any] | None = None,
    paired: bool = False,
) -> Duel:
    """``games`` games of ``first`` in one seat (each seat in turn) against ``second`` in the
    others; game ``i`` is played with ``rng_for(i)``, so a duel can be replayed; ``paired``, each
    deal is played once from every seat."""
    from domain.bots.world import SeededRng

    make = rng_for or SeededRng
    results = []
    for i in range(games):
        seed = deal_of(i, players, paired)
        played = play_game(
            game, lineup(first, second, i, players), make(i), options, deal=None if seed is None else make(seed)
        )
        results.append((seats_for(i, players), played.outcome))
    return tally(game.id, players, results)
