"""How late the event loop runs: a hold of the loop shows as a timer that ran that much late."""

from __future__ import annotations

import asyncio
import time

from server.runtime.lag import LoopLag


async def test_a_hold_of_the_loop_shows_as_a_timer_that_ran_as_late() -> None:
    late: list[float] = []
    lag = LoopLag(late.append, interval=0.01)
    lag.start()
    try:
        await asyncio.sleep(0.05)
        time.sleep(0.2)  # what a long collection or a large decode does to every socket
        await asyncio.sleep(0.05)
    finally:
        lag.stop()
    assert all(seconds >= 0 for seconds in late)
    assert 0.19 <= max(late) < 2.0  # the timer came due during the hold, at most 10 ms into it


async def test_a_stopped_sampler_observes_nothing_more() -> None:
    late: list[float] = []
    lag = LoopLag(late.append, interval=0.01)
    lag.start()
    await asyncio.sleep(0.05)
    lag.stop()
    seen = len(late)
    await asyncio.sleep(0.05)
    assert seen > 0
    assert len(late) == seen
