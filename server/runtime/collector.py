"""The garbage collector's policy for a server that holds thousands of sockets for hours.

CPython's collections walk every tracked object of the generations they collect while nothing else
runs: with thousands of sockets held, a full one is a stall every seat feels (docs/performance.md,
"Garbage collection"). So what start-up built is
frozen (``gc.freeze``: kept out of every later collection), and so are the survivors of every
collection, once it is done: each collection walks only what was made since the one before.
Frozen objects still die as soon as nothing refers to them; only garbage in reference cycles among
them waits, until every ``thaw_every`` seconds everything is unfrozen and collected once (a single
pause of the old length, then frozen again). The server's own cycles are broken where they form (a
feed that stops lets go of its task, a WebSocket's handshake protocol of its parser), so a thaw finds
next to nothing.

The thresholds: the young generation is collected every 10,000 allocations, not 700 (a move makes
thousands of short-lived objects); the older two, which the freezes leave nearly empty, as soon as
they are due.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import time
from typing import Any

log = logging.getLogger("ludoteca.collector")

THRESHOLDS = (10_000, 10, 1)


class Collector:
    """Installed by :meth:`start` on the running loop, removed by :meth:`stop`; :meth:`thaws` runs
    the periodic full look (``thaw_every`` 0: never, the survivors stay frozen)."""

    def __init__(self, thaw_every: float) -> None:
        self.thaw_every = thaw_every
        self.loop: asyncio.AbstractEventLoop | None = None
        self.previous = gc.get_threshold()

    def start(self) -> None:
        self.loop = asyncio.get_running_loop()
        gc.collect()
        gc.freeze()
        self.previous = gc.get_threshold()
        gc.set_threshold(*THRESHOLDS)
        gc.callbacks.append(self.collected)

    def stop(self) -> None:
        """Give the process its collector back as it was (a test process starts many servers)."""
        if self.collected in gc.callbacks:
            gc.callbacks.remove(self.collected)
        gc.set_threshold(*self.previous)
        gc.unfreeze()
        self.loop = None

    def collected(self, phase: str, info: dict[str, Any]) -> None:
        # Called inside the collector, maybe on a worker thread: freeze once it is done, on the loop.
        loop = self.loop
        if phase == "stop" and loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(gc.freeze)

    def thaw(self) -> tuple[float, int]:
        """Unfreeze, collect everything, freeze the survivors again; the pause, in seconds, and the
        unreachable objects found (garbage in reference cycles that the freezes kept)."""
        started = time.perf_counter()
        gc.unfreeze()
        found = gc.collect()  # its callback freezes the survivors on the loop's next turn
        return time.perf_counter() - started, found

    async def thaws(self) -> None:
        if self.thaw_every <= 0:
            return
        while True:
            await asyncio.sleep(self.thaw_every)
            pause, found = self.thaw()
            log.info("collected every object once: a pause of %.0f ms, %d unreachable objects", pause * 1000, found)
