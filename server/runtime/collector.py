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

So the hourly look first counts that garbage where it stalls nothing: in a copy of the process
(``os.fork``), which unfreezes and collects its own copy of the heap and says how many unreachable
objects it found. The server pauses only for the fork (page tables copied: 20 to 40 ms a GiB of
heap, where a thaw pauses about 600 ms a GiB), and thaws only when the copy found at least
``thaw_above`` objects. The copy counts at the lowest CPU priority: on cores it shares with the
replicas, its second of work waits for them. It dirties about half the heap's pages while it
counts (copy on write), for about a second per ten million objects: memory a container's limit
must leave room for (``thaw_above`` 0: no copy, every look a thaw).

The thresholds: the older two generations, which the freezes leave nearly empty, are collected as
soon as they are due. The young generation's threshold follows its collections' pauses, aiming each at
``PAUSE``, within ``YOUNG``. CPython collects it once its allocations less its deallocations pass the
threshold, and the death of a frozen object is a deallocation too: where most new objects replace
frozen ones (each move's table replaces the table before it), the count rises far slower than the
young generation fills. At a player's pace, a fixed 10,000 let collections walk 28,000 to 111,000
young objects, 12 to 80 ms each at 4,000 to 6,000 tables: the slices that broke a move's p99. At
saturation, following the pauses cost no CPU a move but lengthened the p99 to every seat by about
10 ms, as a fixed 1,000 did (docs/performance.md, "Garbage collection").
"""

from __future__ import annotations

import asyncio
import gc
import logging
import os
import select
import signal
import sys
import time
import warnings
from collections.abc import Callable
from typing import Any, NoReturn

log = logging.getLogger("ludoteca.collector")

THRESHOLDS = (10_000, 10, 1)  # the young generation's is where it starts
YOUNG = (700, 10_000)  # the young generation's threshold stays within these (700: CPython's own)
PAUSE = 0.002  # seconds a young collection should pause the server: a 25th of a move's p99 budget
RISE = 1.1  # the young threshold's step up after a collection shorter than PAUSE
THAW_ABOVE = 100_000  # unreachable objects (about 10 MB) a census must find before a thaw is worth its pause
CENSUS_TIMEOUT = 300.0  # seconds the copy may count; past them it is killed and the look thaws


def follow(threshold: int, pause: float) -> int:
    """The young generation's threshold after one of its collections paused ``pause`` seconds, within
    ``YOUNG``: after a pause past ``PAUSE``, at once the threshold that would have paused ``PAUSE`` (the
    pause grows with what the young generation held); after a shorter one, a tenth higher. Down fast,
    up slowly: the pauses vary from one collection to the next, and the long ones are what a socket
    feels."""
    moved = threshold * PAUSE / pause if pause > PAUSE else threshold * RISE
    return int(min(max(moved, YOUNG[0]), YOUNG[1]))


class Collector:
    """Installed by :meth:`start` on the running loop, removed by :meth:`stop`; :meth:`thaws` runs
    the periodic full look (``thaw_every`` 0: never, the survivors stay frozen), a thaw when a
    census finds at least ``thaw_above`` unreachable objects (0: a thaw every time, no census)."""

    def __init__(
        self,
        thaw_every: float,
        thaw_above: int = THAW_ABOVE,
        looked: Callable[[float, int], None] | None = None,
        failed: Callable[[], None] | None = None,
        timed: Callable[[int, float], None] | None = None,
    ) -> None:
        self.thaw_every = thaw_every
        self.thaw_above = thaw_above
        self.looked = looked or (lambda pause, found: None)  # each look's pause (seconds) and garbage found
        self.failed = failed or (lambda: None)  # each look that raised
        self.timed = timed or (lambda generation, seconds: None)  # each collection's generation and pause
        self.young = THRESHOLDS[0]  # the young generation's threshold now
        self.started = 0.0  # when the collection under way started
        self.loop: asyncio.AbstractEventLoop | None = None
        self.previous = gc.get_threshold()

    def start(self) -> None:
        self.loop = asyncio.get_running_loop()
        gc.collect()
        gc.freeze()
        self.previous = gc.get_threshold()
        self.young = THRESHOLDS[0]
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
        if phase == "start":
            self.started = time.perf_counter()
            return
        pause = time.perf_counter() - self.started
        self.timed(info["generation"], pause)
        if info["generation"] == 0:  # the server's own gc.collect() calls are full ones, and rare
            self.young = follow(self.young, pause)
            gc.set_threshold(self.young, *THRESHOLDS[1:])
        loop = self.loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(gc.freeze)

    def thaw(self) -> tuple[float, int]:
        """Unfreeze, collect everything, freeze the survivors again; the pause, in seconds, and the
        unreachable objects found (garbage in reference cycles that the freezes kept)."""
        started = time.perf_counter()
        gc.unfreeze()
        found = gc.collect()  # its callback freezes the survivors on the loop's next turn
        return time.perf_counter() - started, found

    async def census(self, timeout: float = CENSUS_TIMEOUT) -> tuple[float, int | None]:
        """The unreachable objects the freezes keep, counted in a copy of the process; the pause
        the copy cost the server, in seconds, and the count (``None``: the copy failed or ran
        past ``timeout``). The server's own heap is left as it was."""
        read, write = os.pipe()
        started = time.perf_counter()
        # Python 3.12 warns of forking a process with threads: the copy runs none of their code.
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            pid = os.fork()
        if pid == 0:
            os.close(read)
            _count_and_exit(write)
        paused = time.perf_counter() - started
        os.close(write)
        stop, stopping = os.pipe()  # the waiting thread alone kills and reaps the copy: no pid reused
        try:
            return paused, await asyncio.to_thread(_answer, pid, read, stop, timeout)
        except asyncio.CancelledError:  # the server stops: its shutdown must not wait for the count
            os.write(stopping, b"stop")
            raise
        finally:
            os.close(stopping)

    async def thaws(self) -> None:
        if self.thaw_every <= 0:
            return
        while True:
            await asyncio.sleep(self.thaw_every)
            try:
                await self.look()
            except Exception:  # one failed look must not end the looks for the rest of the server's life
                log.exception("the full look at every object failed; the next one is due in %g s", self.thaw_every)
                self.failed()

    async def look(self) -> None:
        """One full look: a census in a copy, then a thaw only if it found enough (or failed)."""
        if self.thaw_above > 0:
            paused, counted = await self.census()
            if counted is not None and counted < self.thaw_above:
                self.looked(paused, counted)
                log.info(
                    "counted the frozen garbage in a copy of the process: %d unreachable objects, "
                    "under %d, no thaw (the copy paused the server %.1f ms)",
                    counted,
                    self.thaw_above,
                    paused * 1000,
                )
                return
            if counted is None:
                log.warning("the copy of the process that counts the frozen garbage failed: thawing instead")
        pause, found = self.thaw()
        self.looked(pause, found)
        log.info("collected every object once: a pause of %.0f ms, %d unreachable objects", pause * 1000, found)


def _count_and_exit(write: int) -> NoReturn:
    """In the copy: let go of every descriptor but ``write`` (a finalizer of the garbage found must
    not write to, shut or close a socket or file the server still uses), collect everything, write
    the count, and leave without running any exit handler."""
    code = 1
    try:
        os.nice(19)  # the count can wait: the replicas on the same cores serve moves first
        gc.callbacks.clear()  # the server's own freeze on its loop is not the copy's to schedule
        sys.unraisablehook = _dropped  # a finalizer's error here is expected (its descriptor is gone)
        quiet = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(quiet, fd)
        os.closerange(3, write)
        os.closerange(write + 1, os.sysconf("SC_OPEN_MAX"))
        gc.unfreeze()
        os.write(write, str(gc.collect()).encode())
        code = 0
    finally:
        os._exit(code)


def _dropped(unraisable: Any) -> None:
    """In the copy, an error a finalizer raises is dropped: kept (as a hook may keep it), it would
    hold its object alive and out of the count."""


def _answer(pid: int, read: int, stop: int, timeout: float) -> int | None:
    """The copy's count, waited for on a thread; ``None`` if it failed, ran past ``timeout`` or
    was told to ``stop`` (then it is killed, and reaped here either way)."""
    text = b""
    try:
        # poll, not select: a server holding a thousand sockets gives these pipes numbers past
        # select's 1,024, where it raised and the looks ended.
        watch = select.poll()
        watch.register(read, select.POLLIN)
        watch.register(stop, select.POLLIN)
        ready = {fd for fd, _ in watch.poll(timeout * 1000)}
        if read in ready:
            text = os.read(read, 32)
        else:
            os.kill(pid, signal.SIGKILL)
    finally:
        os.close(read)
        os.close(stop)
        os.waitpid(pid, 0)
    return int(text) if text.isdigit() else None
