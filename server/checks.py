"""Check values: what a client echoes when it resumes, so that a replica can tell it holds other events.

Every ``update`` carries ``check``, a keyed hash of the game, its version and the stream's chain link
at that version (server/store.py). A client resuming with ``after`` and that ``check`` is reset (4009)
when the stream now holds other events at ``after``: lost writes, written past again, on a replica
that never saw the lost ones. The link itself is never sent, since it hashes hidden cards and a small
hidden space could be searched; without the key, the check tells nothing about them. The key is one
random secret that every replica on the same Redis shares (made once, with SET NX).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

from server.connection import Client
from server.keys import CHECK_SECRET
from server.store import Head

CHECK_BYTES = 16  # HMAC-SHA256 cut to 128 bits: enough to tell two histories apart, short on the wire
SHA256_BLOCK = 64

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
        # HMAC's two hashes with the key already in them (RFC 2104): a check copies them, about
        # a third of ``hmac.digest``'s time, which looks the hash up and keys it on every call.
        self._inner = self._outer = hashlib.sha256()

    async def ready(self) -> None:
        if self.secret is None:
            await self.read_secret()

    async def read_secret(self) -> None:
        """The secret every replica on this Redis shares: a fresh one if there was none (one atomic script)."""
        secret = await self._secret(keys=[CHECK_SECRET.at()], args=[secrets.token_hex(32).encode()])
        self.keyed(secret.encode() if isinstance(secret, str) else bytes(secret))

    def keyed(self, secret: bytes) -> None:
        """Use ``secret`` from now on."""
        key = (hashlib.sha256(secret).digest() if len(secret) > SHA256_BLOCK else secret).ljust(SHA256_BLOCK, b"\0")
        self._inner = hashlib.sha256(bytes(b ^ 0x36 for b in key))
        self._outer = hashlib.sha256(bytes(b ^ 0x5C for b in key))
        self.secret = secret

    def of(self, game_id: str, head: Head) -> str:
        """The check of the history ending at ``head`` ("" when its link is unknown)."""
        if self.secret is None or head.version <= 0 or not head.link:
            return ""
        inner, outer = self._inner.copy(), self._outer.copy()
        inner.update(f"{game_id} {head.version} {head.link}".encode())
        outer.update(inner.digest())
        return outer.digest()[:CHECK_BYTES].hex()

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
