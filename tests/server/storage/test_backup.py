"""server/storage/backup.py on redis-servers of its own: the snapshot over SYNC (with a password),
its manifest and checksum, and a restore that keeps times to live and refuses a Redis holding data.
The whole drill, under load, with the CLI and S3: tests/reliability/test_restore_drill.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from server.storage import backup
from server.storage.connection import connect
from server.storage.embedded import EmbeddedRedis

pytestmark = pytest.mark.redis


async def test_a_snapshot_restores_every_key_with_its_time_to_live_and_never_over_data(tmp_path: Path) -> None:
    with EmbeddedRedis(tmp_path / "a") as original:
        first = connect(original.url)
        await first.config_set("requirepass", "s3cret")  # the snapshot's own connection logs in
        await first.aclose()
        client = connect(original.url.replace("unix://", "unix://:s3cret@"))
        try:
            await client.xadd("lt:{g}:events", {"e": b"\x00\xff"}, id="0-1")
            await client.set("lt:{quota}:games:x:1", "3", px=600_000)
            await client.hset("lt:{g}:meta", mapping={"status": "open"})
            manifest = await backup.fetch_snapshot(client, tmp_path / "snap.rdb")
            await client.set("after", "the snapshot")  # not in it
        finally:
            await client.aclose()
    assert manifest.keys == 3 and manifest.size == (tmp_path / "snap.rdb").stat().st_size
    assert manifest.redis_version and manifest.db == 0
    kept = backup.store(tmp_path / "snap.rdb", manifest, str(tmp_path / "backups"))
    assert kept.endswith(f"{manifest.name}.rdb")
    (tmp_path / "fetched").mkdir()
    rdb, again = backup.fetch(str(tmp_path / "backups"), tmp_path / "fetched")
    assert again == manifest
    with backup.load_into(rdb) as loaded, EmbeddedRedis(tmp_path / "b") as target:
        source, into = connect(loaded.url), connect(target.url)
        try:
            assert await backup.restore_keys(source, into) == 3
            assert await into.xrange("lt:{g}:events") == [(b"0-1", {b"e": b"\x00\xff"})]
            assert 0 < await into.pttl("lt:{quota}:games:x:1") <= 600_000
            assert await into.get("after") is None
            with pytest.raises(backup.BackupError, match="not empty"):
                await backup.restore_keys(source, into)
        finally:
            await source.aclose()
            await into.aclose()


def test_a_snapshot_that_does_not_match_its_manifest_is_refused(tmp_path: Path) -> None:
    manifest = backup.Manifest("ludoteca-1", 0, 9, "0" * 64, "6.2.14", 0, 0, 0.0)
    (tmp_path / "ludoteca-1.rdb").write_bytes(b"REDIS0009")
    (tmp_path / "ludoteca-1.json").write_bytes(manifest.encode())
    (tmp_path / "out").mkdir()
    with pytest.raises(backup.BackupError, match="SHA-256"):
        backup.fetch(str(tmp_path / "ludoteca-1.rdb"), tmp_path / "out")
    with pytest.raises(backup.BackupError, match="no backup"):
        backup.fetch(str(tmp_path / "out"), tmp_path / "out")
