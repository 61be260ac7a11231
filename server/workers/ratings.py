"""The rater: one replica at a time rates the rated tables that finished, in their finish order.

Every replica runs :func:`run`; a short lock in Redis lets one of them read the finished games
at a time, and rating a game is idempotent (a game rated already is left), so a replica that
dies halfway only leaves work for the next pass.
"""

from __future__ import annotations

import logging
import secrets

from server.runtime.tasks import Trouble, cancelled, pause
from server.service.ratings import Ratings
from server.storage.leases import Leases, housekeeping_lock

log = logging.getLogger("ludoteca.ratings")
LOCK_MS = 60_000


async def once(ratings: Ratings, leases: Leases) -> int:
    """One pass, if no other replica is making one: how many games it rated."""
    owner, lock = secrets.token_hex(8), housekeeping_lock("ratings")
    if not await leases.take(lock, owner, LOCK_MS):
        return 0
    try:
        return await ratings.catch_up(await ratings.games.store.now_ms())
    finally:
        await leases.release(lock, owner)


async def run(ratings: Ratings, leases: Leases, interval: float) -> None:
    """A pass every ``interval`` seconds until cancelled; a Redis outage only delays it."""
    trouble = Trouble(log, "could not rate the finished games; trying again later")
    while True:
        await pause(interval)
        try:
            rated = await once(ratings, leases)
            if rated:
                log.info("rated %d finished tables", rated)
            trouble.ok()
        except Exception as exc:
            if cancelled():
                raise
            trouble.failed(exc)
