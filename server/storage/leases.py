"""Leases and locks: a short claim one replica holds on some work so that the others leave it.

A lease is a string key set with ``SET NX PX`` to its owner's random id; it lapses by itself
when its owner dies, and its owner releases it with one script that deletes it only if it
still holds it. Two kinds: the housekeeping pass's lock (``lt:{housekeeping}:lock:<name>``) and
the bots' lease on one game (``lt:{bots}:lease:<game_id>``).
"""

from __future__ import annotations

from typing import Final

from server.storage.connection import Client
from server.storage.keys import BOT_LEASE, LOCK

RELEASE_LUA: Final = r"""
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
"""


def housekeeping_lock(name: str = "housekeeping") -> str:
    return LOCK.at(name=name)


def bot_lease(game_id: str) -> str:
    return BOT_LEASE.at(game_id=game_id)


class Leases:
    """Claims on work, on the Redis every replica shares."""

    def __init__(self, redis: Client) -> None:
        self.redis = redis
        self._release = redis.register_script(RELEASE_LUA)

    async def take(self, lease: str, owner: str, ttl_ms: int) -> bool:
        """Claim ``lease`` for ``ttl_ms`` unless another owner holds it."""
        return bool(await self.redis.set(lease, owner, nx=True, px=ttl_ms))

    async def release(self, lease: str, owner: str) -> None:
        """Give ``lease`` up, if ``owner`` still holds it."""
        await self._release(keys=[lease], args=[owner])
