"""The rater: one replica at a time rates the rated tables that finished, in their finish order.

Every replica runs :func:`run`; a short lock in Redis lets one of them read the finished games
at a time, and rating a game is idempotent (a game rated already is left), so a replica that
dies halfway only leaves work for the next pass.
"""

from __future__ import annotations

import logging

from server.runtime.tasks import Trouble, cancelled, pause
from server.service.ratings import Ratings

log = logging.getLogger("ludoteca.ratings")
LOCK_MS = 60_000


async def once(ratings: Ratings) -> int:
    """One pass, if no other replica (or a rebuild) is making one: how many games it rated."""
    async with ratings.exclusive(LOCK_MS, wait=False) as held:
        return await ratings.catch_up(await ratings.games.store.now_ms()) if held else 0


async def run(ratings: Ratings, interval: float) -> None:
    """A pass every ``interval`` seconds until cancelled; a Redis outage only delays it."""
    trouble = Trouble(log, "could not rate the finished games; trying again later")
    while True:
        await pause(interval)
        try:
            rated = await once(ratings)
            if rated:
                log.info("rated %d finished tables", rated)
            trouble.ok()
        except Exception as exc:
            if cancelled():
                raise
            trouble.failed(exc)
