"""Rate limits in this replica's memory: token buckets, one per seat of a game, and one per spectator socket.

A seat's bucket is shared by its REST commands and every message of its sockets on this
replica (``LUDOTECA_WS_RATE`` a second on average, bursts of ``LUDOTECA_WS_BURST``); a
spectator's socket has a bucket of its own. Buckets are not shared between replicas: a
shared one would cost every command and every socket message another Redis round trip,
and a client spreading its requests over the replicas gains at most their number in rate
(docs/operations.md). A bucket that has refilled is forgotten: a new one is the same.
"""

from __future__ import annotations

import time
from collections.abc import Callable


class Throttle:
    """A token bucket: ``rate`` messages a second on average, bursts of ``burst``."""

    __slots__ = ("burst", "rate", "stamp", "tokens")  # one a seat, or a spectator's socket

    def __init__(self, rate: float, burst: int, now: float) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.stamp = now

    def allow(self, now: float) -> bool:
        self.tokens = min(self.burst, self.tokens + max(0.0, now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False

    def full_at(self) -> float:
        """When this bucket will have refilled, if nothing takes from it."""
        return self.stamp + (self.burst - self.tokens) / self.rate if self.rate > 0 else float("inf")


class SeatRates:
    """The buckets of every seat this replica has heard from."""

    def __init__(self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self.buckets: dict[tuple[str, int | str], Throttle] = {}
        self.next_sweep = 0.0

    def allow(self, game_id: str, seat: int | str) -> bool:
        """Take one from the seat's bucket; ``False`` when it is empty."""
        now = self.clock()
        if now >= self.next_sweep:
            self.sweep(now)
        bucket = self.buckets.get((game_id, seat))
        if bucket is None:
            bucket = self.buckets[(game_id, seat)] = Throttle(self.rate, self.burst, now)
        return bucket.allow(now)

    def sweep(self, now: float) -> None:
        """Forget the buckets that have refilled since (a new one would be the same), now and then."""
        self.buckets = {key: b for key, b in self.buckets.items() if b.full_at() > now}
        self.next_sweep = now + (self.burst / self.rate if self.rate > 0 else 60.0)
