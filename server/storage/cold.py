"""The cold tier: where the history of a dormant game waits, off Redis, until someone plays it again.

A game nobody has played for a while keeps in Redis only what every look at it needs without its
history: its meta (status, players; ``cold`` names the history that left), its tokens and its
newest snapshot. Its stream and its command records go to the cold tier, one blob per history:

``<directory>/<fan>/<game>.<version>-<link>.cold``
    on disk (the embedded Redis's default: ``<data_dir>/cold``), written to a temporary file,
    synced, then renamed, so a blob is whole or absent; ``<fan>`` is two hex digits of the game
    id's hash, so no directory holds a million files.
``s3://bucket/prefix/<game>/<version>-<link>.cold``
    in an S3-compatible object store, for replicas that share no disk (boto3, the ``s3`` extra).

A blob is named by the version and chain link of its last event, so a freeze that lost its race
never overwrites the history another one froze, and it is never changed once written. Bringing a
game back leaves its blob (a Redis backup taken before may still name it) and names it in the meta
(``thawed``); the game's next freeze removes it by that name. A freeze that lost its race marks
the meta (``strays``), and the next one lists the game's blobs and removes all but its own: a
listing grows with the folder, so it is kept for that rare case. Deleting the game removes all.
The event store (server/storage/store.py) freezes a game and thaws it; this module only keeps
blobs.
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import re
import zlib
from pathlib import Path
from typing import Any, Protocol

import msgspec
from redis.exceptions import RedisError

__all__ = ["ColdBucket", "ColdDirectory", "ColdTier", "ColdTierError", "Frozen", "cold_tier"]

_PLAIN = re.compile(r"[A-Za-z0-9_-]{1,100}")


class ColdTierError(RedisError):
    """The cold tier cannot give back a history Redis says it holds: a store error (the server says 503)."""


class Frozen(msgspec.Struct, frozen=True):
    """One game's history as it left Redis: every stream entry (its id, then its fields and values,
    in Redis's order) and every command record. ``marker`` is ``"<version> <link>"`` of the last entry."""

    game_id: str
    marker: str
    entries: list[list[bytes]]
    commands: dict[str, bytes]

    def encode(self) -> bytes:
        return zlib.compress(msgspec.msgpack.encode(self), 6)

    @staticmethod
    def decode(blob: bytes) -> Frozen:
        return msgspec.msgpack.decode(zlib.decompress(blob), type=Frozen)


def _game(game_id: str) -> str:
    """The game's part of a blob's name: the id itself when it is plain, else its hash."""
    return game_id if _PLAIN.fullmatch(game_id) else hashlib.sha256(game_id.encode()).hexdigest()


def _history(marker: str) -> str:
    version, _, link = marker.partition(" ")
    return f"{int(version)}-{link[:16] or 'none'}"


class ColdTier(Protocol):
    """Where blobs are kept: each call is one blob, and safe to repeat."""

    where: str

    async def put(self, game_id: str, marker: str, blob: bytes) -> None: ...

    async def get(self, game_id: str, marker: str) -> bytes | None: ...

    async def remove(self, game_id: str, keep: str | None = None) -> None:
        """Remove every blob of the game but the one of the history ``keep`` names."""
        ...

    async def forget(self, game_id: str, marker: str) -> None:
        """Remove the blob of the history ``marker`` names, if it is there."""
        ...

    async def size(self) -> tuple[int, int]:
        """How many blobs the tier holds, and their bytes."""
        ...


class ColdDirectory:
    """Blobs in a directory (one machine's disk, or a volume every replica mounts)."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.where = str(directory)

    def _folder(self, game_id: str) -> Path:
        return self.directory / hashlib.sha256(game_id.encode()).hexdigest()[:2]

    def _path(self, game_id: str, marker: str) -> Path:
        return self._folder(game_id) / f"{_game(game_id)}.{_history(marker)}.cold"

    async def put(self, game_id: str, marker: str, blob: bytes) -> None:
        await asyncio.to_thread(self._put, self._path(game_id, marker), blob)

    @staticmethod
    def _put(path: Path, blob: bytes) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_name(f".{path.name}.tmp")
        with temporary.open("wb") as out:
            out.write(blob)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)
        handle = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(handle)  # the rename survives a crash: Redis forgets the history only after this
        finally:
            os.close(handle)

    async def get(self, game_id: str, marker: str) -> bytes | None:
        path = self._path(game_id, marker)
        try:
            return await asyncio.to_thread(path.read_bytes)
        except FileNotFoundError:
            return None

    async def remove(self, game_id: str, keep: str | None = None) -> None:
        kept = None if keep is None else self._path(game_id, keep)

        def unlink() -> None:  # in a thread: the folder's listing grows with the games it holds
            for path in self._folder(game_id).glob(f"{_game(game_id)}.*.cold"):
                if path != kept:
                    path.unlink(missing_ok=True)

        await asyncio.to_thread(unlink)

    async def forget(self, game_id: str, marker: str) -> None:
        await asyncio.to_thread(self._path(game_id, marker).unlink, missing_ok=True)

    async def size(self) -> tuple[int, int]:
        def count() -> tuple[int, int]:
            files = list(self.directory.glob("*/*.cold"))
            return len(files), sum(f.stat().st_size for f in files)

        return await asyncio.to_thread(count)


class ColdBucket:
    """Blobs under a prefix of an S3-compatible bucket (replicas on machines that share no disk)."""

    def __init__(self, location: str, endpoint_url: str | None = None) -> None:
        from server.storage.s3 import client  # boto3: only a cold tier in S3 needs it

        bucket, _, prefix = location.removeprefix("s3://").partition("/")
        if not bucket:
            raise ValueError(f"{location} names no bucket (s3://bucket/prefix)")
        self.bucket, self.prefix = bucket, prefix.strip("/")
        self.where = location
        self.s3: Any = client(endpoint_url)

    def _key(self, game_id: str, marker: str | None = None) -> str:
        folder = f"{self.prefix}/{_game(game_id)}/" if self.prefix else f"{_game(game_id)}/"
        return folder if marker is None else f"{folder}{_history(marker)}.cold"

    async def put(self, game_id: str, marker: str, blob: bytes) -> None:
        await asyncio.to_thread(self.s3.put_object, Bucket=self.bucket, Key=self._key(game_id, marker), Body=blob)

    async def get(self, game_id: str, marker: str) -> bytes | None:
        def read() -> bytes | None:
            try:
                return bytes(self.s3.get_object(Bucket=self.bucket, Key=self._key(game_id, marker))["Body"].read())
            except self.s3.exceptions.NoSuchKey:
                return None

        return await asyncio.to_thread(read)

    def _keys(self, prefix: str) -> list[tuple[str, int]]:
        found = []
        for page in self.s3.get_paginator("list_objects_v2").paginate(Bucket=self.bucket, Prefix=prefix):
            found += [(item["Key"], int(item["Size"])) for item in page.get("Contents", [])]
        return found

    async def remove(self, game_id: str, keep: str | None = None) -> None:
        kept = None if keep is None else self._key(game_id, keep)

        def delete() -> None:
            for key, _ in self._keys(self._key(game_id)):
                if key != kept:
                    self.s3.delete_object(Bucket=self.bucket, Key=key)

        await asyncio.to_thread(delete)

    async def forget(self, game_id: str, marker: str) -> None:
        await asyncio.to_thread(self.s3.delete_object, Bucket=self.bucket, Key=self._key(game_id, marker))

    async def size(self) -> tuple[int, int]:
        keys = await asyncio.to_thread(self._keys, f"{self.prefix}/" if self.prefix else "")
        return len(keys), sum(size for _, size in keys)


def cold_tier(location: str, endpoint_url: str | None = None) -> ColdTier:
    """The tier a setting names: ``s3://bucket/prefix``, else a directory."""
    if location.startswith("s3://"):
        return ColdBucket(location, endpoint_url)
    return ColdDirectory(Path(location.removeprefix("file://")))
