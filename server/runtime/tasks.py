"""Background loops that stop when asked to.

redis-py's asyncio client can swallow a task's cancellation (it may surface as a
ConnectionError, or not at all), so every long-running loop asks ``cancelled()``
before it goes round again instead of trusting the CancelledError to arrive.
"""

from __future__ import annotations

import asyncio
import logging
import time


def cancelled() -> bool:
    """Whether the running task has been asked to stop."""
    task = asyncio.current_task()
    return task is not None and task.cancelling() > 0


async def pause(seconds: float) -> None:
    """``asyncio.sleep``, raising CancelledError at once if a cancellation was swallowed."""
    if cancelled():
        raise asyncio.CancelledError
    await asyncio.sleep(seconds)


class Trouble:
    """A background loop's failures, logged as an outage rather than once a round: the first
    failure with its error, then a reminder at most every ``every`` seconds, and the recovery.

    A loop that runs several times a second and logged a traceback each time would fill the log
    while Redis is down (docs/reliability.md)."""

    __slots__ = ("every", "failures", "last", "log", "what")

    def __init__(self, log: logging.Logger, what: str, every: float = 60.0) -> None:
        self.log = log
        self.what = what  # "bots could not be played"
        self.every = every
        self.failures = 0
        self.last = 0.0

    def failed(self, exc: BaseException) -> None:
        self.failures += 1
        now = time.monotonic()
        if self.failures == 1:
            self.log.warning("%s: %s: %s (logged once until it works again)", self.what, type(exc).__name__, exc)
            self.last = now
        elif now - self.last >= self.every:
            self.log.warning("%s, still: %d failures so far (%s)", self.what, self.failures, exc)
            self.last = now

    def ok(self) -> None:
        if self.failures:
            self.log.warning("%s no more: it works again after %d failures", self.what, self.failures)
            self.failures = 0
