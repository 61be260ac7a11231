"""What each client address took this clock hour, counted in Redis so that every replica agrees.

Counts are per address and per clock hour, in keys that expire with their hour:
``lt:{quota}:<what>:<address>:<hour>`` (one hash tag, one Redis Cluster slot). What a count
may reach is the service's to say (server/service/quotas.py).

The requests a quota refused are counted too, for the operator: by quota an hour, and by the
addresses refused most (``lt:{quota-hits}:...``, kept for the hour and the one after it).
"""

from __future__ import annotations

from server.storage.connection import Client
from server.storage.keys import QUOTA, QUOTA_HITS, QUOTA_HITTERS

HOUR_MS = 3_600_000
Hitter = tuple[str, int]  # an address, and its requests refused
HITTERS_KEPT = 100  # the addresses refused most, a quota an hour (a client of many addresses grows no more)


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

    async def refused(self, what: str, address: str, now_ms: int) -> None:
        """Count a request of ``address`` that the quota ``what`` refused, in the hour of ``now_ms``."""
        hour = now_ms // HOUR_MS
        hits, hitters = QUOTA_HITS.at(hour=hour), QUOTA_HITTERS.at(what=what, hour=hour)
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.hincrby(hits, what, 1)
            pipe.zincrby(hitters, 1, address)
            pipe.zremrangebyrank(hitters, 0, -HITTERS_KEPT - 1)
            for key in (hits, hitters):
                pipe.expire(key, 2 * HOUR_MS // 1000 + 60)  # read as "the last hour" in the next one
            await pipe.execute()

    async def hits(self, hour: int, whats: list[str], top: int) -> tuple[dict[str, int], dict[str, list[Hitter]]]:
        """The refusals of ``hour`` by quota, and each quota's ``top`` addresses refused most (most first)."""
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.hgetall(QUOTA_HITS.at(hour=hour))
            for what in whats:
                pipe.zrevrange(QUOTA_HITTERS.at(what=what, hour=hour), 0, top - 1, withscores=True)
            counts, *ranked = await pipe.execute()
        by_quota = {k.decode(): int(v) for k, v in counts.items()}
        return by_quota, {w: [(a.decode(), int(n)) for a, n in r] for w, r in zip(whats, ranked, strict=True)}
