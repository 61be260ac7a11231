"""When a bot's answer lands: at a time drawn from one distribution, whatever the bot held.

How long a seat takes to answer is seen by every seat the window is open to. A bot that answers
at once when it has a single legal command (nothing to react with, say) and thinks otherwise
tells the table what it holds (docs/fair-play.md, "Time"). So every decision of the bot worker
lands ``least + U(0, spread)`` seconds after the worker took it up, drawn from the operating
system's randomness: thinking happens inside that time, and the wait makes up the rest.

A decision that thought longer than its drawn time lands when it is ready, and is counted
(``ludoteca_bot_pace_overruns_total``): the think budget is kept below ``least`` so that this
happens only on an overloaded replica, and an operator sees when it does.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Final, TypeVar

T = TypeVar("T")


@dataclass(frozen=True)
class Pace:
    """A decision's time: ``least`` seconds and up to ``spread`` more, uniformly; (0, 0) answers at once."""

    least: float = 0.0
    spread: float = 0.0
    rng: random.Random = field(default_factory=random.SystemRandom, compare=False, repr=False)

    @property
    def paced(self) -> bool:
        return self.least > 0 or self.spread > 0

    def draw(self) -> float:
        return self.least + self.rng.uniform(0.0, self.spread)

    async def answer(self, decide: Callable[[], Awaitable[T]], overran: Callable[[], None] = lambda: None) -> T:
        """``decide()``'s result, handed back no sooner than a drawn time after the call."""
        loop = asyncio.get_running_loop()
        due = loop.time() + self.draw()
        result = await decide()
        left = due - loop.time()
        if left > 0:
            await asyncio.sleep(left)
        elif self.paced:
            overran()
        return result


AT_ONCE: Final = Pace()  # no pacing: tests, and the bench
