"""Quotas: what one client address may take, counted in Redis so that every replica agrees.

Counts are per address and per clock hour, in keys that expire with their hour:
``lt:{quota}:<what>:<address>:<hour>`` (one hash tag, one Redis Cluster slot). The
address is the connection's peer, or the one a trusted proxy reports
(``LUDOTECA_TRUSTED_PROXIES``): a client cannot choose its own address by sending a
header (docs/operations.md, "Quotas").
"""

from __future__ import annotations

from dataclasses import dataclass

from server.service.errors import TooMany
from server.storage.connection import Client
from server.storage.keys import QUOTA

HOUR_MS = 3_600_000


@dataclass(frozen=True)
class Quota:
    """``limit`` of ``what`` an hour for one address (0: no limit), and how a refusal reads."""

    what: str  # "games", "seats": part of the key and of the refusal's code
    limit: int
    sentence: str  # "This address may open {limit} tables an hour"


class Quotas:
    """Every per-address quota of this server, on the Redis every replica shares."""

    def __init__(self, redis: Client, games_per_hour: int, seats_per_hour: int) -> None:
        self.redis = redis
        self.games = Quota("games", games_per_hour, "This address may open {limit} games an hour")
        self.seats = Quota("seats", seats_per_hour, "This address may take {limit} seats an hour")

    async def take(self, quota: Quota, client: str | None, now_ms: int) -> None:
        """Count one of ``quota`` for ``client``; 429 past the limit (with when to try again)."""
        if not quota.limit or not client:
            return
        window = now_ms // HOUR_MS
        key = QUOTA.at(what=quota.what, address=client, hour=window)
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.incr(key)
            pipe.expire(key, HOUR_MS // 1000 + 60)
            count, _ = await pipe.execute()
        if int(count) > quota.limit:
            retry_after = ((window + 1) * HOUR_MS - now_ms) // 1000 + 1
            raise TooMany(
                f"too_many_{quota.what}",
                quota.sentence.format(limit=quota.limit) + "; try again later.",
                {"limit": quota.limit, "retry_after": retry_after},
            )
