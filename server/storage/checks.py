"""Check values: what a client echoes when it resumes, so that a replica can tell it holds other events.

Every ``update`` carries ``check``, a keyed hash of the game, its version and the stream's chain link
at that version (server/storage/store.py). A client resuming with ``after`` and that ``check`` is reset (4009)
when the stream now holds other events at ``after``: lost writes, written past again, on a replica
that never saw the lost ones. The link itself is never sent, since it hashes hidden cards and a small
hidden space could be searched; without the key, the check tells nothing about them. The key is one
random secret that every replica on the same Redis shares (made once, with SET NX).
"""

from __future__ import annotations

import hmac
import secrets

from server.storage.connection import Client
from server.storage.keys import CHECK_SECRET
from server.storage.store import Head

CHECK_BYTES = 16  # HMAC-SHA256 cut to 128 bits: enough to tell two histories apart, short on the wire

# KEYS: the secret's key. ARGV: a fresh random secret, kept only if there is none yet.
SECRET_LUA = r"""
redis.call('SET', KEYS[1], ARGV[1], 'NX')
return redis.call('GET', KEYS[1])
"""


class Checks:
    """This replica's check values, from the shared secret (read once, then cached)."""

    def __init__(self, redis: Client) -> None:
        self.redis = redis
        self.secret: bytes | None = None
        self._secret = redis.register_script(SECRET_LUA)
        # HMAC keyed once: a check copies it, where ``hmac.digest`` looks the hash up and keys it
        # again on every call.
        self._keyed = hmac.new(b"", digestmod="sha256")

    async def ready(self) -> None:
        if self.secret is None:
            await self.read_secret()

    async def read_secret(self) -> None:
        """The secret every replica on this Redis shares: a fresh one if there was none (one atomic script)."""
        secret = await self._secret(keys=[CHECK_SECRET.at()], args=[secrets.token_hex(32).encode()])
        self.secret = secret.encode() if isinstance(secret, str) else bytes(secret)
        self._keyed = hmac.new(self.secret, digestmod="sha256")

    def of(self, game_id: str, head: Head) -> str:
        """The check of the history ending at ``head`` ("" when its link is unknown)."""
        if self.secret is None or head.version <= 0 or not head.link:
            return ""
        check = self._keyed.copy()
        check.update(f"{game_id} {head.version} {head.link}".encode())
        return check.digest()[:CHECK_BYTES].hex()

    async def keyed(self, purpose: str, text: str, again: bool = False) -> str:
        """A keyed hash of ``text`` for ``purpose`` (an unsubscribe link's), under the same shared
        secret, kept apart from the checks by its purpose; ``again``: read the secret again first
        (another replica may have made a new one)."""
        if again or self.secret is None:
            await self.read_secret()
        assert self.secret is not None
        return hmac.new(self.secret, f"{purpose}\0{text}".encode(), "sha256").hexdigest()[:32]

    async def matches(self, game_id: str, head: Head | None, check: str) -> bool:
        """Whether ``check`` is the check of the history ending at ``head`` (``None``: no such version)."""
        if head is None:
            return False
        await self.ready()
        if hmac.compare_digest(self.of(game_id, head).encode(), check.encode()):
            return True
        # Another replica may have made a new secret (Redis lost this one): read it again, once.
        await self.read_secret()
        return hmac.compare_digest(self.of(game_id, head).encode(), check.encode())
