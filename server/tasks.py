"""Background loops that stop when asked to.

redis-py's asyncio client can swallow a task's cancellation (it may surface as a
ConnectionError, or not at all), so every long-running loop asks ``cancelled()``
before it goes round again instead of trusting the CancelledError to arrive.
"""

from __future__ import annotations

import asyncio


def cancelled() -> bool:
    """Whether the running task has been asked to stop."""
    task = asyncio.current_task()
    return task is not None and task.cancelling() > 0


async def pause(seconds: float) -> None:
    """``asyncio.sleep``, raising CancelledError at once if a cancellation was swallowed."""
    if cancelled():
        raise asyncio.CancelledError
    await asyncio.sleep(seconds)
