"""What each client address took this clock hour, counted in Redis so that every replica agrees.

Counts are per address and per clock hour, in keys that expire with their hour:
``lt:{quota}:<what>:<address>:<hour>`` (one hash tag, one Redis Cluster slot). What a count
may reach is the service's to say (server/service/quotas.py).
"""

from __future__ import annotations

from server.storage.connection import Client
from server.storage.keys import QUOTA

HOUR_MS = 3_600_000


class HourlyCounts:
    """Counts by what was taken, client address and clock hour, on the Redis every replica shares."""

    def __init__(self, redis: Client) -> None:
        self.redis = redis

    async def add(self, what: str, address: str, now_ms: int) -> int:
        """Count one more ``what`` for ``address`` in the hour of ``now_ms``; the count this hour, this one included."""
        key = QUOTA.at(what=what, address=address, hour=now_ms // HOUR_MS)
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.incr(key)
            pipe.expire(key, HOUR_MS // 1000 + 60)
            count, _ = await pipe.execute()
        return int(count)
