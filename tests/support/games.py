"""Random games played at the table level, in process: the stored log of a whole game."""

from __future__ import annotations

import random
from typing import Any

from domain.bots.greedy import greedy
from domain.engine import CLOCK, AnyGame, Ctx
from domain.table import Table, decide, evolve, open_table, status, take_seat

# Random seats of Itchy Feet rarely end a game (in process, none of 30 two-seat games ended within
# 30,000 steps, and the server calls a game of 20,000 events too long); the greedy bot travels.
RANDOM_PLAY_RARELY_ENDS = frozenset({"itchy-feet"})


def ending_bot(game_id: str) -> str:
    """The server's bot a test seats beside random play so that the game ends."""
    return "greedy" if game_id in RANDOM_PLAY_RARELY_ENDS else "random"


def play_to_end(
    game: AnyGame, players: int, options: dict[str, Any], seed: int, max_steps: int = 20_000, ending: bool = False
) -> tuple[list[Any], Table]:
    """Every stored event of a random game played to its end, and the final table.

    A seat with a legal command plays one, built at random pick by pick; when nobody can
    act, the clock closes the earliest open window (as the server's deadlines do). ``ending``:
    where random play rarely ends a game, seat 0 plays the greedy bot's command instead.
    """
    rng = random.Random(seed)
    now_ms = 0
    log: list[Any] = [open_table(game, players, options)]
    table = evolve(game, None, log[0])

    def apply(events: list[Any]) -> None:
        nonlocal table
        for event in events:
            log.append(event)
            table = evolve(game, table, event)

    greedy_seat = 0 if ending and game.id in RANDOM_PLAY_RARELY_ENDS else None

    def command_of(seat: int) -> Any:
        if seat == greedy_seat:
            return greedy(game, table.state, seat, rng)
        return game.random_command(table.state, seat, rng)

    for _ in range(players):
        apply(take_seat(game, table, None, "", None, Ctx(rng=rng, now_ms=now_ms)))
    for _ in range(max_steps):
        if status(game, table) != "active":
            return log, table
        now_ms += 1000
        choices = [(seat, c) for seat in range(players) if (c := command_of(seat)) is not None]
        if choices:
            seat, command = rng.choice(choices)
            apply(decide(game, table, command, seat, Ctx(rng=rng, now_ms=now_ms)))
            continue
        deadline = min(game.deadlines(table.state), key=lambda d: d.due_ms)
        now_ms = max(now_ms, deadline.due_ms)
        apply(decide(game, table, deadline.command, CLOCK, Ctx(rng=rng, now_ms=now_ms)))
    raise RuntimeError(f"{game.id}: no end after {max_steps} steps")
