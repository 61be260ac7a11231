"""Whole games between bots, in process (the duel, the tests), and the ladder's figures.

``play_out`` seats one bot a seat and plays to the end; windows nobody closes close on their
deadline. ``duel`` plays one bot against another at any table size: the first bot in one seat,
the second in every other, the first bot's seat rotating game after game; ``Duel`` counts who
won and gives the first bot's win share with a 95% confidence interval (Wilson's score
interval), beside its fair share (one in as many players).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from domain.engine import CLOCK, AnyGame, Ctx, Outcome, Rng, Seat
from domain.table import decide_game, open_table, take_seat
from domain.table import evolve as evolve_table

Choose = Callable[[AnyGame, Any, Seat, Rng], Any]  # a bot: its command for a seat, or None
MAX_COMMANDS = 20_000


def play_out(
    game: AnyGame,
    bots: Sequence[Choose],
    rng: Rng,
    options: dict[str, Any] | None = None,
    max_commands: int = MAX_COMMANDS,
) -> Outcome | None:
    """A whole game between ``bots`` (one per seat), in process: its outcome (``None`` if it did
    not end within ``max_commands``). Awaited seats are asked in a random order."""
    ctx = Ctx(rng=rng)
    table = evolve_table(game, None, open_table(game, len(bots), options or {}))
    for _ in bots:
        for event in take_seat(game, table, None, "", None, ctx):
            table = evolve_table(game, table, event)
    state, now = table.state, 0
    for _ in range(max_commands):
        result = game.outcome(state)
        if result is not None:
            return result  # type: ignore[no-any-return]
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
                return None
            seat, command, now = CLOCK, due[0].command, max(now, due[0].due_ms)
        for event in decide_game(game, state, command, seat, Ctx(rng=rng, now_ms=now)):
            state = game.evolve(state, event)
    return None


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


def duel(
    game: AnyGame,
    games: int,
    first: Choose,
    second: Choose,
    players: int = 2,
    rng_for: Callable[[int], Rng] | None = None,
    options: dict[str, Any] | None = None,
) -> Duel:
    """``games`` games of ``first`` in one seat (each seat in turn) against ``second`` in the
    others; game ``i`` is dealt and played with ``rng_for(i)``, so a duel can be replayed."""
    from domain.bots.world import SeededRng

    make = rng_for or SeededRng
    results = []
    for i in range(games):
        outcome = play_out(game, lineup(first, second, i, players), make(i), options)
        results.append((seats_for(i, players), outcome))
    return tally(game.id, players, results)
