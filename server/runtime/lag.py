"""How late the event loop runs: a timer due every ``interval`` seconds, and how long after its time it ran.

Everything a replica does shares one loop: whatever holds it (a collection of the older generations,
a fork, a large decode, a burst of work in one callback) delays every socket's next message by as
long. A timer that is always pending is late by what held the loop when it came due, whatever held
it, so its lateness is what the sockets felt (an `interval` of 10 ms: a hold of H ms shows as H - 10
to H). Node's ``monitorEventLoopDelay`` measures the same way.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

INTERVAL = 0.01  # seconds: 100 timers a second, a few microseconds each


class LoopLag:
    """Calls ``observe`` with each timer's lateness in seconds, from :meth:`start` on the running
    loop to :meth:`stop`."""

    def __init__(self, observe: Callable[[float], None], interval: float = INTERVAL) -> None:
        self.observe = observe
        self.interval = interval
        self.loop: asyncio.AbstractEventLoop | None = None
        self.timer: asyncio.TimerHandle | None = None
        self.due = 0.0

    def start(self) -> None:
        self.loop = asyncio.get_running_loop()
        self._next(self.loop.time())

    def stop(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
        self.timer = self.loop = None

    def _next(self, now: float) -> None:
        assert self.loop is not None
        self.due = now + self.interval
        self.timer = self.loop.call_at(self.due, self._tick)

    def _tick(self) -> None:
        assert self.loop is not None
        now = self.loop.time()
        self.observe(max(0.0, now - self.due))  # a timer may run up to the clock's resolution early
        self._next(now)
