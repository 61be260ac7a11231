"""The cold tier: a dormant game's history leaves Redis and comes back on its next read or move,
byte for byte. Every test runs over each tier: a directory, and an S3 bucket on moto's server."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis.asyncio as aioredis

from server.storage.cold import ColdBucket, ColdDirectory, ColdTier, ColdTierError
from server.storage.connection import Client, connect
from server.storage.store import Appended, CommandKey, Duplicate, EventStore, Head
from tests.server.storage.test_store import raw_game
from tests.support.replies import as_bytes
from tests.support.s3 import CREDENTIALS, moto_s3

GAME = "g1"
KEYS = {kind: f"lt:{{{GAME}}}:{kind}" for kind in ("events", "commands", "meta", "tokens", "snapshots")}


@pytest.fixture(scope="module")
def s3_endpoint() -> Iterator[str]:
    with moto_s3() as url:
        yield url


@pytest.fixture(params=["directory", "bucket"])
def tier(request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> ColdTier:
    if request.param == "directory":
        return ColdDirectory(tmp_path / "cold")
    for name, given in CREDENTIALS.items():
        monkeypatch.setenv(name, given)
    endpoint = request.getfixturevalue("s3_endpoint")
    bucket = ColdBucket(f"s3://cold-{uuid.uuid4().hex[:12]}/games", endpoint)
    bucket.s3.create_bucket(Bucket=bucket.bucket)
    return bucket


@pytest.fixture
def cold_store(redis: Client, tier: ColdTier) -> EventStore:
    return EventStore(redis, tier)


async def played(store: EventStore) -> None:
    """A game of five events, two command records, a token and two snapshots."""
    await store.append(GAME, 0, [b"opened", b"seated"], meta={"status": "active", "game": "g"}, tokens={"t0": 0})
    await store.append(GAME, 2, [b"moved"], command=CommandKey("seat:0", "c1"), command_record=b"r1")
    await store.append(GAME, 3, [b"moved again", b"turn"], command=CommandKey("seat:1", "c2"), command_record=b"r2")
    entries = await store.read_entries(GAME)
    assert await store.keep_snapshot(GAME, Head(2, entries[1].link), b"snapshot at 2")
    assert await store.keep_snapshot(GAME, Head(5, entries[4].link), b"snapshot at 5")


async def history(redis: aioredis.Redis, game_id: str = GAME) -> dict[str, Any]:
    """Every key of the game, byte for byte, but what a return stamps in the meta: when the game was
    last touched, and which history came back."""
    game = await raw_game(redis, game_id)
    return {**game, "meta": {k: v for k, v in game["meta"].items() if k not in (b"touched_ms", b"thawed")}}


async def test_a_dormant_game_keeps_only_its_meta_tokens_and_newest_snapshot_in_redis(
    redis: aioredis.Redis, cold_store: EventStore, tier: ColdTier
) -> None:
    await played(cold_store)
    assert await cold_store.freeze(GAME)
    assert not await redis.exists(KEYS["events"], KEYS["commands"])
    assert await redis.zrange(KEYS["snapshots"], 0, -1) == [b"snapshot at 5"]
    link = as_bytes(await redis.hget(KEYS["meta"], "cold")).decode()
    assert link.startswith("5 ") and len(link) == 42  # "<version> <sha1>"
    assert await redis.hget(KEYS["tokens"], "t0") == b"0"
    files, size = await tier.size()
    assert files == 1 and size > 0
    assert not await cold_store.freeze(GAME)  # dormant already


@pytest.mark.parametrize(
    "first_touch",
    ["read_entries", "look from the start", "look from a version", "command", "command_records", "head_at"],
)
async def test_every_read_brings_the_history_back_byte_for_byte(
    redis: aioredis.Redis, cold_store: EventStore, tier: ColdTier, first_touch: str
) -> None:
    await played(cold_store)
    before = await history(redis)
    entries = await cold_store.read_entries(GAME)
    assert await cold_store.freeze(GAME)
    marker = await redis.hget(KEYS["meta"], "cold")
    if first_touch == "read_entries":
        assert await cold_store.read_entries(GAME) == entries
    elif first_touch == "look from the start":
        look = await cold_store.look(GAME, 0, token_hash="t0", command=CommandKey("seat:0", "c1"))
        assert (look.entries, look.head, look.seat, look.record) == (entries, 5, 0, b"r1")
    elif first_touch == "look from a version":
        look = await cold_store.look(GAME, 3, token_hash="t0", command=CommandKey("seat:1", "c2"))
        assert (look.entries, look.head, look.seat, look.record) == (entries[3:], 5, 0, b"r2")
    elif first_touch == "command":
        assert await cold_store.command(GAME, CommandKey("seat:0", "c1")) == b"r1"
    elif first_touch == "command_records":
        assert await cold_store.command_records(GAME) == {"seat:0 c1": b"r1", "seat:1 c2": b"r2"}
    else:
        assert await cold_store.head_at(GAME, 4) == Head(4, entries[3].link)
    assert await history(redis) == before
    assert (await tier.size())[0] == 1  # the blob stays: a backup taken before may name it
    assert await redis.hget(KEYS["meta"], "thawed") == marker  # and the meta names it


async def test_a_game_frozen_again_removes_the_blob_it_came_back_from_by_name_without_listing_the_tier(
    redis: aioredis.Redis, cold_store: EventStore, tier: ColdTier, monkeypatch: pytest.MonkeyPatch
) -> None:
    listed: list[str] = []

    async def listing(game_id: str, keep: str | None = None) -> None:
        listed.append(game_id)

    monkeypatch.setattr(tier, "remove", listing)  # a listing grows with the tier: a freeze does without
    await played(cold_store)
    assert await cold_store.freeze(GAME)
    moved = await cold_store.append(GAME, 5, [b"next"], command=CommandKey("seat:0", "c3"), command_record=b"r3")
    assert isinstance(moved, Appended)
    assert await cold_store.freeze(GAME)
    assert (await tier.size())[0] == 1 and not listed
    assert not await redis.hexists(KEYS["meta"], "thawed")
    assert len(await cold_store.read_entries(GAME)) == 6


async def test_a_move_on_a_dormant_game_lands_after_its_history_and_a_repeated_one_is_still_known(
    redis: aioredis.Redis, cold_store: EventStore, tier: ColdTier
) -> None:
    await played(cold_store)
    entries = await cold_store.read_entries(GAME)
    assert await cold_store.freeze(GAME)
    repeated = await cold_store.append(GAME, 5, [b"again"], command=CommandKey("seat:1", "c2"), command_record=b"x")
    assert repeated == Duplicate(b"r2")
    assert await cold_store.freeze(GAME)
    moved = await cold_store.append(GAME, 5, [b"next"], command=CommandKey("seat:0", "c3"), command_record=b"r3")
    assert isinstance(moved, Appended) and moved.version == 6
    assert await cold_store.freeze(GAME)
    assert (await tier.size())[0] == 1  # the history at version 5 is pruned
    assert (await cold_store.read_entries(GAME))[:5] == entries
    assert int(await redis.hget(KEYS["meta"], "touched_ms") or 0) > 0


async def test_a_dormant_game_is_watched_without_being_brought_back(
    redis: aioredis.Redis, cold_store: EventStore
) -> None:
    await played(cold_store)
    heads = await cold_store.heads([GAME, "nothing"])
    assert await cold_store.freeze(GAME)
    assert await cold_store.heads([GAME, "nothing"]) == heads
    assert await cold_store.version(GAME) == 5
    assert await cold_store.exists(GAME)
    assert await cold_store.all_game_ids() == [GAME]
    assert await cold_store.snapshots(GAME) == [b"snapshot at 5"]
    assert not await redis.exists(KEYS["events"])


async def test_replicas_bringing_a_game_back_at_once_write_its_history_once(
    redis: aioredis.Redis, redis_url: str, tier: ColdTier
) -> None:
    clients = [connect(redis_url) for _ in range(4)]
    try:
        stores = [EventStore(client, tier) for client in clients]
        await played(stores[0])
        before = await history(redis)
        assert await stores[0].freeze(GAME)
        reads = await asyncio.gather(*(s.read_entries(GAME) for s in stores))
        assert all(read == reads[0] for read in reads) and len(reads[0]) == 5
        assert await history(redis) == before
    finally:
        for client in clients:
            await client.aclose()


class MovedWhileFreezing(ColdDirectory):
    """A directory during whose first write a player moves: that freeze must lose."""

    store: EventStore
    moved = False

    async def put(self, game_id: str, marker: str, blob: bytes) -> None:
        await super().put(game_id, marker, blob)
        if not self.moved:
            self.moved = True
            assert isinstance(await self.store.append(game_id, 5, [b"a move meanwhile"]), Appended)


async def test_a_game_that_moves_while_it_is_frozen_stays_in_redis(
    redis: aioredis.Redis, redis_url: str, tmp_path: Path
) -> None:
    tier = MovedWhileFreezing(tmp_path / "cold")
    other = connect(redis_url)
    try:
        tier.store = EventStore(other)
        store = EventStore(redis, tier)
        await played(store)
        assert not await store.freeze(GAME)
        assert await redis.xlen(KEYS["events"]) == 6
        assert not await redis.hexists(KEYS["meta"], "cold")
        assert (await tier.size())[0] == 1  # a blob of an older history, which the next freeze prunes
        assert await redis.hget(KEYS["meta"], "strays") == b"1"  # by listing the game's blobs
        assert await store.freeze(GAME)
        assert (await tier.size())[0] == 1
        assert not await redis.hexists(KEYS["meta"], "strays")
        assert len(await store.read_entries(GAME)) == 6
    finally:
        await other.aclose()


async def test_a_history_the_tier_lost_is_a_store_error_not_an_empty_game(
    redis: aioredis.Redis, cold_store: EventStore, tier: ColdTier
) -> None:
    await played(cold_store)
    assert await cold_store.freeze(GAME)
    await tier.remove(GAME)
    with pytest.raises(ColdTierError, match="holds no history 5 "):
        await cold_store.read_entries(GAME)
    with pytest.raises(ColdTierError, match="no cold tier is configured"):
        await EventStore(redis).read_entries(GAME)


async def test_deleting_a_dormant_game_deletes_its_history_in_the_tier(
    redis: aioredis.Redis, cold_store: EventStore, tier: ColdTier
) -> None:
    await played(cold_store)
    await redis.hset(KEYS["meta"], "status", "finished")
    assert await cold_store.freeze(GAME)
    assert await cold_store.delete_game(GAME, "finished")
    assert await tier.size() == (0, 0)
    assert not await cold_store.exists(GAME)
