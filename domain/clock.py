"""Turn clocks, the same for every game: per move, or per game (a chess clock), with a time bank
for games played over days.

A seat's clock runs while the game awaits it. Time is never read here: each step of a
table with a clock ends with a ``ClockTicked`` fact carrying the shared clock's time
(Redis TIME, lent through ``Ctx``), and the running clocks are a fold of those facts,
so they survive any restart. A running clock is a deadline (docs/architecture.md): when it is due,
any replica sends ``TimeUp`` from the seat ``CLOCK``, and the table's policy applies.

A clock per move may have a bank (Board Game Arena's turn-based time): a seat that takes longer
than a move's ``seconds`` draws the rest from its bank, which starts at ``bank`` seconds and
grows by ``credit`` after each move of the seat, never above where it started. Named presets
(:data:`PRESETS`) give a live game, one day a move and three days a move.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.engine import Rejected

OnTimeout = Literal["bot_move", "time_out", "ask"]


class Clock(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A table's clock setting, chosen when the table opens."""

    per: Literal["move", "game"] = "move"  # time for each move, or for the whole game
    seconds: int = 60
    # When a seat's time runs out: the greedy bot plays this move for it, the seat leaves (a bot
    # plays it on), or the other seats choose between waiting for it and a bot playing on.
    on_timeout: OnTimeout = "bot_move"
    bank: int = 0  # seconds a seat may draw on past a move's time (a clock per move), full at the start
    credit: int = 0  # seconds a seat's bank grows after each of its moves, never above ``bank``


DAY = 24 * 3600
PRESETS: dict[str, Clock] = {
    "live": Clock(per="move", seconds=90, bank=300, credit=30, on_timeout="bot_move"),
    "one-day": Clock(per="move", seconds=DAY, bank=2 * DAY, credit=DAY // 2, on_timeout="ask"),
    "three-days": Clock(per="move", seconds=3 * DAY, bank=5 * DAY, credit=DAY, on_timeout="ask"),
}


class Clocks(msgspec.Struct, frozen=True):
    """Every seat's clock: since when it runs (None: stopped), the time it has used, and what is
    left in its bank (milliseconds; empty: every bank as full as it started)."""

    since: tuple[int | None, ...]
    spent: tuple[int, ...]
    banks: tuple[int, ...] = ()


def stopped(players: int) -> Clocks:
    return Clocks((None,) * players, (0,) * players)


def bank_left(clock: Clock, clocks: Clocks, seat: int) -> int:
    return clocks.banks[seat] if clocks.banks else clock.bank * 1000


def tick(
    clocks: Clocks,
    awaited: set[int],
    actor: int | None,
    at_ms: int,
    clock: Clock | None = None,
    paused: frozenset[int] = frozenset(),
) -> Clocks:
    """The clocks after a step by ``actor`` at ``at_ms``, with ``awaited`` the seats awaited now.

    The actor's clock, and the clock of every seat no longer awaited (or ``paused``: its time ran
    out and the table waits for the others to choose), stops and is charged; the clock of every
    awaited seat that is stopped starts (the actor's again if it acts on). With a bank (``clock``),
    a move that took longer than its time draws the rest from the seat's bank, and the actor's
    bank then grows by the credit, never above where it started."""
    since, spent = list(clocks.since), list(clocks.spent)
    banks = [bank_left(clock, clocks, seat) for seat in range(len(since))] if clock is not None and clock.bank else []
    for seat, started in enumerate(clocks.since):
        if started is not None and (seat == actor or seat not in awaited or seat in paused):
            used = max(0, at_ms - started)
            spent[seat] += used
            since[seat] = None
            if banks and clock is not None and clock.per == "move":
                banks[seat] = max(0, banks[seat] - max(0, used - clock.seconds * 1000))
                if seat == actor:
                    banks[seat] = min(clock.bank * 1000, banks[seat] + clock.credit * 1000)
        if seat in awaited and seat not in paused and since[seat] is None:
            since[seat] = at_ms
    return Clocks(tuple(since), tuple(spent), tuple(banks))


def due_ms(clock: Clock, clocks: Clocks, seat: int) -> int | None:
    """When the seat's running clock runs out, its bank spent too (None: it is not running)."""
    started = clocks.since[seat]
    if started is None:
        return None
    budget = clock.seconds * 1000
    if clock.per == "move":
        return started + budget + bank_left(clock, clocks, seat)
    return started + max(0, budget - clocks.spent[seat])


def window(clocks: Clocks, seat: int) -> str:
    """The deadline window of the seat's running clock: a new one each time it starts."""
    return f"clock:{seat}:{clocks.since[seat]}"


MOST_SECONDS = 30 * DAY  # a move's time, a game's or a bank: up to a month


def check(clock: Clock) -> None:
    """Refuse a clock that gives no sensible time (``bad_clock``, naming the field)."""
    if not 1 <= clock.seconds <= MOST_SECONDS:
        raise Rejected(
            "bad_clock", "A turn clock gives 1 second to 30 days.", {"field": "clock.seconds", "case": "seconds"}
        )
    if not 0 <= clock.bank <= MOST_SECONDS:
        raise Rejected("bad_clock", "A time bank holds up to 30 days.", {"field": "clock.bank", "case": "bank"})
    if clock.bank and clock.per != "move":
        raise Rejected(
            "bad_clock", "A time bank goes with a clock per move.", {"field": "clock.bank", "case": "bank_per"}
        )
    if not 0 <= clock.credit <= clock.bank:
        raise Rejected(
            "bad_clock", "A bank's credit is at most the bank itself.", {"field": "clock.credit", "case": "credit"}
        )


def preset(name: str) -> Clock:
    """A named clock (``bad_clock`` for a name there is none of)."""
    found = PRESETS.get(name)
    if found is None:
        known = ", ".join(PRESETS)
        raise Rejected(
            "bad_clock",
            f"There is no clock {name!r}; presets: {known}.",
            {"field": "clock", "case": "preset", "name": name, "presets": list(PRESETS)},
        )
    return found
