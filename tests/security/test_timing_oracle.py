"""The timing oracle: how long a bot takes to answer tells nothing of what it holds.

At an Itchy Feet reaction window every other seat sees how long a bot seat takes to pass: a bot
that answered at once when it had nothing to react with, and thought otherwise, would tell the
table whether it holds a Mousetrap; at a trade offer, whether it holds the cards asked for. The
byte-level oracle (test_leak_oracle.py) cannot see that channel; this one measures it.

Twin decisions are found in random games: two points of play identical for the seat that waits
on the answer (the window's actor, the trade's offerer) but for cards hidden from it (a card of
the answering seat's hand it did not see go there, swapped with one of the deck), where the
answering seat has a single command in one twin and several in the other. Each twin is answered many times by the
server's own thinker (server/workers/bots.py ``Thinker``, the part that thinks and paces; the
queue and the append around it do not look at the state), timed on the wall clock, and the two
samples compared with a two-sample Kolmogorov-Smirnov test.

Power: with ``SIZE.timing_decisions`` answers a side (120 in CI) the test refuses, at
``ALPHA`` = 1e-4, any two distributions whose largest gap between distribution functions is over
``critical(n, n)`` (0.29 in CI; 0.10 soaked with 1,000): a bot that answered at once in a third
of its decisions of one kind and never in the other would be caught. The control that proves
it: the same harness, unpaced, with a bot that answers at once when it has one command (the
early return the strong bot once had), is refused every time (D = 1).
"""

from __future__ import annotations

import asyncio
import functools
import math
import random
import time
from collections.abc import Awaitable, Callable
from statistics import median
from typing import Any

import msgspec
import pytest

from domain.bots.search import strong
from domain.catalog import GAMES
from server.workers.bots import Thinker
from server.workers.pace import AT_ONCE, Pace
from tests.projections.test_no_leak import play, tables
from tests.reliability.harness import figure
from tests.reliability.sizes import SIZE, limit

GAME = GAMES["itchy-feet"]
OPTIONS = {"special_objects": True}  # Mousetraps: reaction windows at every action
ALPHA = 1e-4
CONCURRENT = 4  # answers thought at once (the thinker's pool has two processes)
SEARCH_SECONDS = 0.02  # the searching bots' CPU budget here: the pace below covers it with room


def ks(x: list[float], y: list[float]) -> tuple[float, float]:
    """The two-sample Kolmogorov-Smirnov statistic D and its asymptotic p-value."""
    xs, ys = sorted(x), sorted(y)
    i = j = 0
    d = 0.0
    while i < len(xs) and j < len(ys):
        t = min(xs[i], ys[j])
        while i < len(xs) and xs[i] <= t:
            i += 1
        while j < len(ys) and ys[j] <= t:
            j += 1
        d = max(d, abs(i / len(xs) - j / len(ys)))
    n = len(xs) * len(ys) / (len(xs) + len(ys))
    lam = (math.sqrt(n) + 0.12 + 0.11 / math.sqrt(n)) * d
    if lam < 0.2:  # the series converges slowly there, to 1 (its value at 0.2 is 1 - 1e-20)
        return d, 1.0
    p = 2 * sum((-1) ** (k - 1) * math.exp(-2 * k * k * lam * lam) for k in range(1, 101))
    return d, max(0.0, min(1.0, p))


def critical(n: int, m: int, alpha: float = ALPHA) -> float:
    """The least D refused at ``alpha`` with samples of ``n`` and ``m``."""
    return math.sqrt(-math.log(alpha / 2) / 2) * math.sqrt((n + m) / (n * m))


def test_the_statistic_is_the_textbook_one() -> None:
    same = [i / 100 for i in range(100)]
    assert ks(same, same) == (0.0, 1.0)
    apart = ks([0.0] * 50, [1.0] * 50)
    assert apart[0] == 1.0 and apart[1] < 1e-10
    assert 0.28 < critical(120, 120) < 0.30


# -- twin decisions ---------------------------------------------------------------------------


Twin = tuple[str, Any, Any, int]  # (kind, state with one command, state with several, answering seat)


def commands(state: Any, seat: int) -> int:
    return len(GAME.commands(state, seat))


def decisions(state: Any) -> list[tuple[str, int, int]]:
    """The windows open at ``state``: (kind, answering seat, the seat that waits on the answer)."""
    if state.window is not None:
        return [("reaction", seat, state.window.seat) for seat in state.window.waiting]
    if state.trade is not None and not state.trade.accepted:
        return [("trade", state.trade.target, state.trade.offerer)]
    return []


def twins(wanted: int, rng: random.Random) -> dict[str, list[Twin]]:
    """``wanted`` twin decisions of each kind, from random games."""
    found: dict[str, list[Twin]] = {"reaction": [], "trade": []}
    while min(len(v) for v in found.values()) < wanted:
        log = play(GAME, rng.randint(3, 5), rng.randrange(2**32), 150, options=OPTIONS)
        for table in tables(GAME, log):
            if table.state is None:
                continue
            for kind, seat, waiting in decisions(table.state):
                if len(found[kind]) < wanted and (twin := flipped(table.state, seat, waiting, rng)) is not None:
                    found[kind].append((kind, *twin, seat))
    return found


def flipped(state: Any, seat: int, waiting: int, rng: random.Random) -> tuple[Any, Any] | None:
    """(the state with one command, the one with several) of ``state`` and a twin, if swapping a
    card of ``seat``'s hand with one of the deck (both hidden from ``waiting``: the deck's order,
    and a card it did not see go into that hand; both came from the one shuffled pile) gives
    ``seat`` one command in one and several in the other."""
    seen = set(state.known[waiting][seat]) if state.known else set()
    hand = [card for card in state.hands[seat] if card not in seen]
    mine = commands(state, seat)
    for _ in range(12):
        if not hand or not state.deck:
            return None
        mine_card, deck_at = rng.choice(hand), rng.randrange(len(state.deck))
        hands = list(state.hands)
        hands[seat] = tuple(state.deck[deck_at] if c == mine_card else c for c in state.hands[seat])
        deck = (*state.deck[:deck_at], mine_card, *state.deck[deck_at + 1 :])
        other = msgspec.structs.replace(state, hands=tuple(hands), deck=deck)
        if (mine == 1) != (commands(other, seat) == 1):
            return (state, other) if mine == 1 else (other, state)
    return None


# -- timing -----------------------------------------------------------------------------------


async def timed(answers: list[Callable[[], Awaitable[Any]]]) -> list[float]:
    """Each answer's wall time, ``CONCURRENT`` at a time."""
    gate = asyncio.Semaphore(CONCURRENT)

    async def one(answer: Callable[[], Awaitable[Any]]) -> float:
        async with gate:
            started = time.perf_counter()
            await answer()
            return time.perf_counter() - started

    return list(await asyncio.gather(*(one(a) for a in answers)))


async def compare(
    pairs: list[Twin], answer: Callable[[Any, int], Awaitable[Any]], per_side: int
) -> tuple[float, float, list[float], list[float]]:
    """(D, p) of the answer times at the twins with one command against those with several."""
    jobs: list[tuple[int, Callable[[], Awaitable[Any]]]] = []
    for i in range(per_side):
        _, one, several, seat = pairs[i % len(pairs)]
        jobs.append((0, functools.partial(answer, one, seat)))
        jobs.append((1, functools.partial(answer, several, seat)))
    random.shuffle(jobs)  # interleaved: the machine's load falls on both sides alike
    times = await timed([job for _, job in jobs])
    single = [t for (side, _), t in zip(jobs, times, strict=True) if side == 0]
    many = [t for (side, _), t in zip(jobs, times, strict=True) if side == 1]
    d, p = ks(single, many)
    return d, p, single, many


# The bots by the way they think: a thread for the quick ones, the pool of processes for the searches.
BOTS = {"random": Pace(0.03, 0.03), "beginner": Pace(0.03, 0.03), "greedy": Pace(0.03, 0.03)}
SEARCHING = {"skilled": Pace(0.12, 0.12), "expert": Pace(0.12, 0.12)}


@pytest.fixture(scope="module")
def pairs() -> dict[str, list[Twin]]:
    return twins(SIZE.timing_twins, random.Random("timing-twins"))


@pytest.mark.timeout(limit(240))
@pytest.mark.parametrize("bot", [*BOTS, *SEARCHING])
async def test_a_bots_answer_takes_as_long_whether_it_holds_a_card_to_answer_with_or_not(
    bot: str, pairs: dict[str, list[Twin]]
) -> None:
    """At every window kind (a reaction window, a trade offer), twin points of play where the bot
    has one command and where it has several give answer times no two-sample test tells apart."""
    pace = {**BOTS, **SEARCHING}[bot]
    thinker = Thinker(pace, seconds=SEARCH_SECONDS)
    overruns: list[None] = []
    try:
        await thinker.answer(GAME, pairs["reaction"][0][2], pairs["reaction"][0][3], bot, lambda: None)  # warm
        for kind, found in pairs.items():
            d, p, single, many = await compare(
                found, lambda s, seat: thinker.answer(GAME, s, seat, bot, lambda: overruns.append(None)),
                SIZE.timing_decisions,
            )  # fmt: skip
            figure(
                f"timing oracle ({bot}, {kind})",
                f"{len(single)} answers a side over {len(found)} twins: D = {d:.3f} (refused over "
                f"{critical(len(single), len(many)):.3f}), p = {p:.3f}; medians {median(single):.3f} s and "
                f"{median(many):.3f} s; {len(overruns)} answers past their drawn time",
            )
            assert p > ALPHA, f"{bot} at a {kind}: D = {d:.3f}, p = {p:.2g}"
    finally:
        thinker.close()


@pytest.mark.timeout(limit(120))
async def test_the_oracle_refuses_a_bot_that_answers_at_once_when_it_has_one_command(
    pairs: dict[str, list[Twin]],
) -> None:
    """The control: unpaced, a searching bot that returns at once with a single command (as the
    strong bot once did) is told apart at every window kind: the test has the power it claims."""

    def early(state: Any, seat: int) -> Any:
        if commands(state, seat) == 1:
            return GAME.commands(state, seat)[0]
        return strong(GAME, state, seat, random.SystemRandom(), 1, time.process_time, SEARCH_SECONDS)

    async def answer(state: Any, seat: int) -> Any:
        return await AT_ONCE.answer(lambda: asyncio.to_thread(early, state, seat))

    for kind, found in pairs.items():
        d, p, _, _ = await compare(found, answer, SIZE.timing_decisions)
        figure(f"timing oracle control ({kind})", f"an early return, unpaced: D = {d:.3f}, p = {p:.2g}")
        assert p < ALPHA, f"the control at a {kind} was not told apart: D = {d:.3f}"
