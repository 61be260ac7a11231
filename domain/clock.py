"""Turn clocks, the same for every game: per move, or per game (a chess clock).

A seat's clock runs while the game awaits it. Time is never read here: each step of a
table with a clock ends with a ``ClockTicked`` fact carrying the shared clock's time
(Redis TIME, lent through ``Ctx``), and the running clocks are a fold of those facts,
so they survive any restart. A running clock is a deadline (docs/architecture.md): when it is due,
any replica sends ``TimeUp`` from the seat ``CLOCK``, and the table's policy applies.
"""

from __future__ import annotations

from typing import Literal

import msgspec


class Clock(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A table's clock setting, chosen when the table opens."""

    per: Literal["move", "game"] = "move"  # time for each move, or for the whole game
    seconds: int = 60
    on_timeout: Literal["bot_move", "time_out"] = "bot_move"  # greedy plays this move / the seat leaves


class Clocks(msgspec.Struct, frozen=True):
    """Every seat's clock: since when it runs (None: stopped) and the time it has used."""

    since: tuple[int | None, ...]
    spent: tuple[int, ...]


def stopped(players: int) -> Clocks:
    return Clocks((None,) * players, (0,) * players)


def tick(clocks: Clocks, awaited: set[int], actor: int | None, at_ms: int) -> Clocks:
    """The clocks after a step by ``actor`` at ``at_ms``, with ``awaited`` the seats awaited now.

    The actor's clock, and the clock of every seat no longer awaited, stops and is charged;
    the clock of every awaited seat that is stopped starts (the actor's again if it acts on)."""
    since, spent = list(clocks.since), list(clocks.spent)
    for seat, started in enumerate(clocks.since):
        if started is not None and (seat == actor or seat not in awaited):
            spent[seat] += max(0, at_ms - started)
            since[seat] = None
        if seat in awaited and since[seat] is None:
            since[seat] = at_ms
    return Clocks(tuple(since), tuple(spent))


def due_ms(clock: Clock, clocks: Clocks, seat: int) -> int | None:
    """When the seat's running clock runs out (None: it is not running)."""
    started = clocks.since[seat]
    if started is None:
        return None
    budget = clock.seconds * 1000
    return started + max(0, budget if clock.per == "move" else budget - clocks.spent[seat])


def window(clocks: Clocks, seat: int) -> str:
    """The deadline window of the seat's running clock: a new one each time it starts."""
    return f"clock:{seat}:{clocks.since[seat]}"
