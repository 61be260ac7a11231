"""Single-use challenges of the sign-in ceremonies: a passkey's challenge, an OpenID Connect state.

Each is kept as ``lt:{challenge:<kind>:<id>}`` (its own slot) with a time to live, and taken with
GETDEL, so that it answers once: a second use of the same challenge (a replayed assertion, a
callback loaded twice) finds nothing, as one that expired does. What a challenge holds (the player
it was issued to, a PKCE verifier) is the service's to say.
"""

from __future__ import annotations

from typing import Any

from server.storage.connection import Client
from server.storage.keys import CHALLENGE


def _text(raw: Any) -> str:
    return raw.decode() if isinstance(raw, bytes) else str(raw)


class Challenges:
    """Challenges by kind and id, on the Redis every replica shares (a ceremony may end on another replica)."""

    def __init__(self, redis: Client) -> None:
        self.redis = redis

    async def put(self, kind: str, challenge_id: str, value: str, ttl_ms: int) -> bool:
        """Keep ``value`` under a new challenge for ``ttl_ms``; ``False`` if that id is in use."""
        key = CHALLENGE.at(kind=kind, challenge_id=challenge_id)
        return bool(await self.redis.set(key, value, px=ttl_ms, nx=True))

    async def take(self, kind: str, challenge_id: str) -> str | None:
        """What the challenge holds, which is used up; ``None`` if there is none (never issued, expired, used)."""
        found = await self.redis.getdel(CHALLENGE.at(kind=kind, challenge_id=challenge_id))
        return _text(found) if found is not None else None
