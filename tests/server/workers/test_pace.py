"""The pace of a bot's answers (server/workers/pace.py)."""

from __future__ import annotations

import asyncio
import random
import time

from server.workers.bots import THINK_SECONDS, think_budget
from server.workers.pace import AT_ONCE, Pace


async def test_an_answer_is_held_until_its_drawn_time_whatever_the_thinking_took() -> None:
    pace = Pace(0.05, 0.05, random.Random(1))
    overruns: list[None] = []

    async def quick() -> str:
        return "PassReaction"

    started = time.perf_counter()
    assert await pace.answer(quick, lambda: overruns.append(None)) == "PassReaction"
    assert time.perf_counter() - started >= 0.05 and not overruns


async def test_an_answer_that_thought_past_its_drawn_time_lands_when_ready_and_is_counted() -> None:
    pace = Pace(0.01, 0.0)
    overruns: list[None] = []

    async def slow() -> str:
        await asyncio.sleep(0.05)
        return "AcceptTrade"

    assert await pace.answer(slow, lambda: overruns.append(None)) == "AcceptTrade"
    assert len(overruns) == 1


async def test_unpaced_answers_come_at_once_and_count_no_overrun() -> None:
    overruns: list[None] = []

    async def slow() -> int:
        await asyncio.sleep(0.01)
        return 1

    assert await AT_ONCE.answer(slow, lambda: overruns.append(None)) == 1
    assert not AT_ONCE.paced and not overruns


def test_draws_stay_within_the_pace() -> None:
    pace = Pace(0.7, 0.7, random.Random(2))
    draws = [pace.draw() for _ in range(1000)]
    assert min(draws) >= 0.7 and max(draws) <= 1.4


def test_the_search_budget_fits_inside_the_least_time_of_a_paced_answer() -> None:
    assert think_budget(AT_ONCE) == THINK_SECONDS
    assert think_budget(Pace(0.7, 0.7)) <= 0.7 * 0.7
    assert think_budget(Pace(0.1, 0.0)) <= 0.07
