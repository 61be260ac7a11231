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

from server.store import Client, check_secret

CHECK_BYTES = 16  # HMAC-SHA256 cut to 128 bits: enough to tell two histories apart, short on the wire


class Checks:
    """This replica's check values, from the shared secret (read once, then cached)."""

    def __init__(self, redis: Client) -> None:
        self.redis = redis
        self.secret: bytes | None = None

    async def ready(self) -> None:
        if self.secret is None:
            self.secret = await check_secret(self.redis, secrets.token_hex(32).encode())

    def of(self, game_id: str, version: int, link: str) -> str:
        """The check of ``version`` whose chain link is ``link`` ("" when either is unknown)."""
        if self.secret is None or version <= 0 or not link:
            return ""
        message = f"{game_id} {version} {link}".encode()
        return hmac.new(self.secret, message, hashlib.sha256).digest()[:CHECK_BYTES].hex()

    async def matches(self, game_id: str, version: int, link: str | None, check: str) -> bool:
        """Whether ``check`` is the check of ``version``, whose link is ``link`` (``None``: no such version)."""
        if link is None:
            return False
        await self.ready()
        if hmac.compare_digest(self.of(game_id, version, link).encode(), check.encode()):
            return True
        # Another replica may have made a new secret (Redis lost this one): read it again, once.
        self.secret = await check_secret(self.redis, secrets.token_hex(32).encode())
        return hmac.compare_digest(self.of(game_id, version, link).encode(), check.encode())
