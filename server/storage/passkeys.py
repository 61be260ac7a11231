"""Players' passkeys in Redis: each player's in one hash, and which player each credential signs in.

``lt:{player:<player_id>}:passkeys`` (beside the player's other keys, one slot) maps a credential's
id (base64url) to its record, a JSON text the service writes (the public key, the signature
counter, when it was made and last used). ``lt:{passkey:<credential_id>}`` names the player a
credential signs in: a sign-in finds the player from the credential before it knows anything
else. Erasing a player deletes both.
"""

from __future__ import annotations

from typing import Any

from server.storage.connection import Client
from server.storage.keys import PASSKEY, PASSKEYS


def _text(raw: Any) -> str:
    return raw.decode() if isinstance(raw, bytes) else str(raw)


class PasskeyStore:
    """Every player's passkeys, on the Redis every replica shares."""

    def __init__(self, redis: Client) -> None:
        self.redis = redis

    async def add(self, player_id: str, credential_id: str, record: str) -> bool:
        """Keep a new passkey of ``player_id``; ``False`` (and nothing written) if the credential is known here."""
        if not await self.redis.set(PASSKEY.at(credential_id=credential_id), player_id, nx=True):
            return False
        await self.redis.hset(PASSKEYS.at(player_id=player_id), credential_id, record)
        return True

    async def owner(self, credential_id: str) -> str | None:
        """The player ``credential_id`` signs in, if it is known here."""
        found = await self.redis.get(PASSKEY.at(credential_id=credential_id))
        return _text(found) if found is not None else None

    async def get(self, player_id: str, credential_id: str) -> str | None:
        found = await self.redis.hget(PASSKEYS.at(player_id=player_id), credential_id)
        return _text(found) if found is not None else None

    async def update(self, player_id: str, credential_id: str, record: str) -> bool:
        """Write a passkey's record again (after a sign-in); ``False`` if it was deleted meanwhile."""
        key = PASSKEYS.at(player_id=player_id)
        if not await self.redis.hexists(key, credential_id):
            return False
        await self.redis.hset(key, credential_id, record)
        return True

    async def all(self, player_id: str) -> dict[str, str]:
        """Every passkey of the player: credential id -> record."""
        found: dict[Any, Any] = await self.redis.hgetall(PASSKEYS.at(player_id=player_id))
        return {_text(k): _text(v) for k, v in found.items()}

    async def count(self, player_id: str) -> int:
        return int(await self.redis.hlen(PASSKEYS.at(player_id=player_id)))

    async def remove(self, player_id: str, credential_id: str) -> bool:
        """Delete one passkey of the player; ``False`` if it has none by that id."""
        if not await self.redis.hdel(PASSKEYS.at(player_id=player_id), credential_id):
            return False
        await self.redis.delete(PASSKEY.at(credential_id=credential_id))
        return True

    async def erase(self, player_id: str) -> int:
        """Delete every passkey of the player; how many there were."""
        key = PASSKEYS.at(player_id=player_id)
        ids = [_text(k) for k in await self.redis.hkeys(key)]
        if ids:
            await self.redis.delete(*(PASSKEY.at(credential_id=c) for c in ids))
        await self.redis.delete(key)
        return len(ids)
