"""Contract tests for the event store, against a real Redis (see tests/conftest.py)."""

from __future__ import annotations

import asyncio
import hashlib
from typing import Any
from unittest.mock import ANY

import pytest
import redis.asyncio as aioredis
from redis.exceptions import DataError

from server.storage.connection import check_server, connect
from server.storage.index import LobbyIndex
from server.storage.store import (
    HEADS_BATCH,
    Appended,
    CommandKey,
    Conflict,
    Duplicate,
    EventStore,
    Head,
    StoredEvent,
)

GAME = "g1"


def landed(result: Any) -> int | None:
    """The version an append reached, or None if it did not land."""
    return result.version if isinstance(result, Appended) else None


EVENTS = "lt:{g1}:events"


async def raw_stream(redis: aioredis.Redis, key: str = EVENTS) -> list[Any]:
    entries: Any = await redis.xrange(key, "-", "+")
    return [(entry_id, sorted(fields.items())) for entry_id, fields in entries]


async def raw_game(redis: aioredis.Redis, game: str = GAME) -> dict[str, Any]:
    """Every key of the game, byte for byte."""
    return {
        "events": await raw_stream(redis, f"lt:{{{game}}}:events"),
        "commands": await redis.hgetall(f"lt:{{{game}}}:commands"),
        "meta": await redis.hgetall(f"lt:{{{game}}}:meta"),
        "tokens": await redis.hgetall(f"lt:{{{game}}}:tokens"),
    }


# -- append and read --------------------------------------------------------------------


async def test_append_and_read_back(store: EventStore) -> None:
    assert not await store.exists(GAME)
    assert await store.version(GAME) == 0
    assert await store.read(GAME) == []

    assert landed(await store.append(GAME, 0, [b"one", b"two"])) == 2
    assert landed(await store.append(GAME, 2, [b"three"], schema=3)) == 3

    assert await store.exists(GAME)
    assert await store.version(GAME) == 3
    assert await store.read(GAME) == [(1, b"one"), (2, b"two"), (3, b"three")]
    one = hashlib.sha1(b"one").hexdigest()
    two = hashlib.sha1(one.encode() + b"two").hexdigest()
    three = hashlib.sha1(two.encode() + b"three").hexdigest()
    assert await store.read_entries(GAME) == [
        StoredEvent(1, 1, b"one", one),
        StoredEvent(2, 1, b"two", two),
        StoredEvent(3, 3, b"three", three),
    ]


async def test_each_link_names_the_whole_history_up_to_its_version(store: EventStore) -> None:
    # Two streams whose last events are the same bytes after different histories: the
    # links differ, which is how a replica tells a stream written past lost versions.
    await store.append("a", 0, [b"start", b"lost", b"same"])
    await store.append("b", 0, [b"start", b"other", b"same"])
    await store.append("c", 0, [b"start"])
    await store.append("c", 1, [b"lost", b"same"])
    a, b, c = [await store.read_entries(game) for game in ("a", "b", "c")]
    assert a[0].link == b[0].link and a[2].data == b[2].data
    assert a[2].link != b[2].link
    assert [e.link for e in a] == [e.link for e in c]  # the same history, however it was appended
    assert (await store.append("a", 3, [b"more"])) == Appended(4, (await store.read_entries("a"))[-1].link)


async def test_versions_are_contiguous_and_equal_the_stream_ids(store: EventStore, redis: aioredis.Redis) -> None:
    version = 0
    for size in (1, 3, 2, 5):
        result = await store.append(GAME, version, [f"e{version + i + 1}".encode() for i in range(size)])
        assert landed(result) == version + size
        version += size
    entries: Any = await redis.xrange(EVENTS, "-", "+")
    assert [entry_id for entry_id, _ in entries] == [f"0-{v}".encode() for v in range(1, version + 1)]
    assert [fields[b"e"] for _, fields in entries] == [f"e{v}".encode() for v in range(1, version + 1)]
    assert all(fields[b"s"] == b"1" for _, fields in entries)
    assert [v for v, _ in await store.read(GAME)] == list(range(1, version + 1))


async def test_binary_events_round_trip(store: EventStore) -> None:
    blobs = [bytes(range(256)), b"", b"\x00\xff\r\n", "ação".encode()]
    assert landed(await store.append(GAME, 0, blobs)) == 4
    assert [data for _, data in await store.read(GAME)] == blobs


async def test_read_after_and_limit(store: EventStore) -> None:
    await store.append(GAME, 0, [str(v).encode() for v in range(1, 11)])
    assert await store.read(GAME, after=7) == [(8, b"8"), (9, b"9"), (10, b"10")]
    assert await store.read(GAME, after=10) == []
    assert await store.read(GAME, after=25) == []
    assert await store.read(GAME, after=2, limit=3) == [(3, b"3"), (4, b"4"), (5, b"5")]
    assert await store.read(GAME, limit=1) == [(1, b"1")]
    assert await store.read(GAME, after=9, limit=5) == [(10, b"10")]
    assert await store.read(GAME, after=3, limit=0) == []
    assert await store.read("nothing-here", after=3) == []


async def test_a_stale_expected_version_conflicts_and_changes_nothing(store: EventStore, redis: aioredis.Redis) -> None:
    await store.append(
        GAME, 0, [b"a", b"b"], command=CommandKey("seat:0", "c1"), command_record=b"r1", meta={"status": "open"}
    )
    before = await raw_game(redis)

    for stale in (0, 1, 3, 17):
        result = await store.append(
            GAME,
            stale,
            [b"x", b"y"],
            command=CommandKey("seat:0", "c2"),
            command_record=b"r2",
            meta={"status": "x"},
            tokens={"t": 1},
        )
        assert result == Conflict(2)
        assert await raw_game(redis) == before
    assert await store.command(GAME, CommandKey("seat:0", "c2")) is None


async def test_a_new_game_conflicts_when_expected_is_not_zero(store: EventStore, redis: aioredis.Redis) -> None:
    assert await store.append(GAME, 1, [b"a"]) == Conflict(0)
    assert await redis.exists(EVENTS, "lt:{g1}:commands", "lt:{g1}:meta", "lt:{g1}:tokens") == 0


async def test_fifty_concurrent_appends_with_one_expected_version_land_once(store: EventStore, redis_url: str) -> None:
    await store.append(GAME, 0, [b"start"])
    clients = [connect(redis_url) for _ in range(50)]
    try:
        stores = [EventStore(client) for client in clients]
        await asyncio.gather(*(client.ping() for client in clients))  # 50 open connections
        results = await asyncio.gather(
            *(s.append(GAME, 1, [f"from {i}".encode(), b"second"]) for i, s in enumerate(stores))
        )
    finally:
        await asyncio.gather(*(client.aclose() for client in clients))
    winners = [i for i, result in enumerate(results) if landed(result) == 3]
    assert len(winners) == 1
    assert all(result == Conflict(3) for i, result in enumerate(results) if i != winners[0])
    assert await store.read(GAME) == [(1, b"start"), (2, f"from {winners[0]}".encode()), (3, b"second")]


async def test_a_command_id_appends_once_and_then_answers_duplicate(store: EventStore, redis: aioredis.Redis) -> None:
    await store.append(GAME, 0, [b"setup"])
    first = await store.append(
        GAME, 1, [b"move", b"moved"], command=CommandKey("seat:0", "cmd-1"), command_record=b"first answer"
    )
    assert landed(first) == 3
    after_first = await raw_game(redis)

    for attempt in range(3):
        again = await store.append(
            GAME,
            3,
            [f"again {attempt}".encode()],
            command=CommandKey("seat:0", "cmd-1"),
            command_record=f"other {attempt}".encode(),
        )
        assert again == Duplicate(b"first answer")
        assert await raw_game(redis) == after_first
    assert await store.command(GAME, CommandKey("seat:0", "cmd-1")) == b"first answer"
    assert await store.command(GAME, CommandKey("seat:0", "cmd-2")) is None


async def test_the_command_id_is_checked_before_the_version(store: EventStore, redis: aioredis.Redis) -> None:
    await store.append(GAME, 0, [b"a"], command=CommandKey("seat:0", "cmd"), command_record=b"rec")
    await store.append(GAME, 1, [b"b"])
    before = await raw_game(redis)
    # Expected version 0 is stale (the game is at 2), but the id was used: Duplicate, not Conflict.
    assert await store.append(GAME, 0, [b"a"], command=CommandKey("seat:0", "cmd"), command_record=b"rec") == Duplicate(
        b"rec"
    )
    assert await raw_game(redis) == before


async def test_meta_and_tokens_are_written_with_the_events(store: EventStore, redis: aioredis.Redis) -> None:
    assert await store.meta(GAME) == {}
    result = await store.append(
        GAME, 0, [b"opened"], meta={"game": "itchy-feet", "status": "open", "sequence": 7}, tokens={"aa" * 32: 0}
    )
    assert landed(result) == 1
    meta = await store.meta(GAME)
    assert abs(int(meta.pop("touched_ms")) - await store.now_ms()) < 5_000  # when its last event landed
    assert meta == {"game": "itchy-feet", "status": "open", "sequence": "7"}
    assert await store.seat_for_token(GAME, "aa" * 32) == 0
    assert await store.seat_for_token(GAME, "bb" * 32) is None

    await store.append(GAME, 1, [b"joined"], meta={"status": "active"}, tokens={"bb" * 32: 1})
    assert await store.meta(GAME) == {**meta, "touched_ms": ANY, "status": "active"}
    assert await store.seat_for_token(GAME, "bb" * 32) == 1

    # A conflicting append writes neither.
    assert await store.append(GAME, 1, [b"late"], meta={"status": "finished"}, tokens={"cc" * 32: 2}) == Conflict(2)
    assert (await store.meta(GAME))["status"] == "active"
    assert await store.seat_for_token(GAME, "cc" * 32) is None


async def test_an_empty_append_writes_only_the_records(store: EventStore) -> None:
    await store.append(GAME, 0, [b"a"])
    assert (
        landed(await store.append(GAME, 1, [], command=CommandKey("seat:0", "c"), command_record=b"r", meta={"k": "v"}))
        == 1
    )
    assert await store.version(GAME) == 1
    assert await store.command(GAME, CommandKey("seat:0", "c")) == b"r"
    assert await store.meta(GAME) == {"k": "v", "touched_ms": ANY}  # stamped by the first append only


@pytest.mark.parametrize("after", [0, 1, 2], ids=["first-load", "cached", "caught-up"])
async def test_look_reads_what_a_command_needs_in_one_call(store: EventStore, after: int) -> None:
    await store.append(
        GAME, 0, [b"one", b"two"], command=CommandKey("seat:0", "c1"), command_record=b"r1", tokens={"aa" * 32: 1}
    )
    await store.append(GAME, 2, [b"three"])
    entries, head = await store.catch_up(GAME, after)
    before = await store.now_ms()

    look = await store.look(GAME, after, token_hash="aa" * 32, command=CommandKey("seat:0", "c1"))
    assert (look.entries, look.head) == (entries, head) == (entries, 3)
    assert [e.version for e in look.entries] == list(range(after + 1, 4))
    assert look.entries[-1].link == (await store.read_entries(GAME, 2))[0].link
    assert (look.seat, look.command, look.record) == (1, CommandKey("seat:0", "c1"), b"r1")
    if after:  # a cached game's look brings the clock; a first load leaves it to the command
        assert look.now_ms is not None and before <= look.now_ms <= await store.now_ms()
    else:
        assert look.now_ms is None

    # what is not there, and what was not asked for
    unknown = await store.look(GAME, after, token_hash="bb" * 32, command=CommandKey("seat:0", "c2"))
    assert (unknown.seat, unknown.record) == (None, None) and (unknown.now_ms is not None) == (after > 0)
    bare = await store.look(GAME, after)
    assert (bare.entries, bare.head) == (entries, 3)
    assert (bare.seat, bare.command, bare.record, bare.now_ms) == (None, None, None, None)


async def test_look_at_a_game_that_is_not_there(store: EventStore) -> None:
    for after in (0, 5):
        look = await store.look("nothing", after, token_hash="aa" * 32, command=CommandKey("seat:0", "c"))
        assert (look.entries, look.head, look.seat, look.record) == ([], 0, None, None)


async def test_heads_reads_every_last_version_and_link_at_once(store: EventStore) -> None:
    await store.append("a", 0, [b"a1", b"a2"])
    await store.append("b", 0, [b"b1"])
    links = {g: (await store.read_entries(g))[-1].link for g in ("a", "b")}
    assert await store.heads(["a", "b", "none"]) == {
        "a": Head(2, links["a"]),
        "b": Head(1, links["b"]),
        "none": Head(0),
    }
    assert await store.heads([]) == {}


async def test_heads_of_more_games_than_one_batch_holds_are_each_their_own(store: EventStore) -> None:
    games = [f"h{n}" for n in range(HEADS_BATCH * 2 + 7)]
    for n, game_id in enumerate(games):
        await store.append(game_id, 0, [b"e"] * (n % 3 + 1))
    heads = await store.heads([*games, "none"])
    assert [heads[g].version for g in games] == [n % 3 + 1 for n in range(len(games))]
    assert heads["none"] == Head(0)


async def test_games_are_separate(store: EventStore) -> None:
    await store.append("a", 0, [b"a1"], command=CommandKey("seat:0", "same"), command_record=b"in a")
    assert (
        landed(await store.append("b", 0, [b"b1"], command=CommandKey("seat:0", "same"), command_record=b"in b")) == 1
    )
    assert await store.read("a") == [(1, b"a1")]
    assert await store.read("b") == [(1, b"b1")]
    assert await store.command("b", CommandKey("seat:0", "same")) == b"in b"


async def test_invalid_arguments_are_refused_before_redis(store: EventStore) -> None:
    for bad_id in ("", "with space", "br{ace", "br}ace"):
        with pytest.raises(ValueError):
            await store.append(bad_id, 0, [b"x"])
    with pytest.raises(ValueError):
        await store.append(GAME, -1, [b"x"])
    with pytest.raises(ValueError):
        await store.append(GAME, 0, [b"x"], command=CommandKey("seat:0", ""))
    with pytest.raises(TypeError):
        await store.append(GAME, 0, ["not bytes"])  # type: ignore[list-item]
    assert not await store.exists(GAME)


async def test_a_foreign_stream_id_is_an_error_not_a_partial_write(store: EventStore, redis: aioredis.Redis) -> None:
    await redis.xadd(EVENTS, {"e": b"x"}, id="5-1")
    with pytest.raises(aioredis.ResponseError, match="unexpected stream id"):
        await store.append(GAME, 0, [b"y"], meta={"a": "b"})
    assert await redis.xlen(EVENTS) == 1
    assert not await redis.exists("lt:{g1}:meta")


# -- the lobby index -------------------------------------------------------------------


async def test_sequences_increase(store: EventStore) -> None:
    index = LobbyIndex(store.redis)
    first = await index.next_sequence()
    assert [await index.next_sequence() for _ in range(3)] == [first + 1, first + 2, first + 3]


async def test_index_moves_a_game_between_statuses(store: EventStore) -> None:
    index = LobbyIndex(store.redis)
    await index.file("a", "open", 1)
    await index.file("b", "open", 2)
    assert await index.list_games("open", 10, None) == (["a", "b"], None)
    await index.file("a", "active", 1)
    assert await index.list_games("open", 10, None) == (["b"], None)
    assert await index.list_games("active", 10, None) == (["a"], None)
    await index.file("a", "finished", 1)
    assert await index.list_games("active", 10, None) == ([], None)
    assert await index.list_games("finished", 10, None) == (["a"], None)
    with pytest.raises(ValueError):
        await index.file("a", "lost", 1)
    with pytest.raises(ValueError):
        await index.list_games("lost", 10, None)


async def test_list_games_pages_oldest_first_with_a_cursor(store: EventStore) -> None:
    index = LobbyIndex(store.redis)
    ids = [f"game{n:02d}" for n in range(7)]
    for game_id in reversed(ids):  # insertion order does not matter, the sequence does
        await index.file(game_id, "open", ids.index(game_id) * 10 + 5)
    pages: list[list[str]] = []
    cursor: int | None = None
    while True:
        page, cursor = await index.list_games("open", 3, cursor)
        pages.append(page)
        if cursor is None:
            break
    assert pages == [ids[0:3], ids[3:6], ids[6:7]]
    # An exact fit ends with None rather than an empty last page.
    assert await index.list_games("open", 7, None) == (ids, None)
    first, cursor = await index.list_games("open", 6, None)
    assert first == ids[:6]
    assert cursor == 55
    assert await index.list_games("open", 6, cursor) == ([ids[6]], None)


async def test_all_game_ids_and_rebuilding_the_index(store: EventStore, redis: aioredis.Redis) -> None:
    index = LobbyIndex(store.redis)
    for game_id in ("x1", "x2", "x3"):
        await store.append(game_id, 0, [b"opened"])
    await redis.set("lt:{x9}:meta-not-a-stream", "1")
    await index.file("x1", "open", 1)
    await index.file("x2", "finished", 2)
    assert sorted(await store.all_game_ids()) == ["x1", "x2", "x3"]
    await index.clear()
    for status in ("open", "active", "finished"):
        assert await index.list_games(status, 10) == ([], None)
    sequence = await index.next_sequence()
    assert sequence >= 1  # the counter survives clear_index: sequences never repeat


# -- the server check ------------------------------------------------------------------


async def test_check_server_warns_about_eviction(redis: aioredis.Redis) -> None:
    policy: Any = (await redis.config_get("maxmemory-policy"))["maxmemory-policy"]
    try:
        await redis.config_set("maxmemory-policy", "noeviction")
        assert not any("maxmemory-policy" in w for w in await check_server(redis))
        await redis.config_set("maxmemory-policy", "allkeys-lru")
        assert any("maxmemory-policy" in w and "allkeys-lru" in w for w in await check_server(redis))
    finally:
        await redis.config_set("maxmemory-policy", policy)


async def test_connect_fails_fast_when_redis_is_down(tmp_path: Any) -> None:
    client = connect(f"unix://{tmp_path}/no-such.sock")
    try:
        with pytest.raises(aioredis.ConnectionError):
            async with asyncio.timeout(3):
                await client.ping()
    finally:
        await client.aclose()


@pytest.mark.parametrize("url", ["redis://127.0.0.1:1", "unix:///no/such.sock", "rediss://127.0.0.1:1"])
def test_connect_packs_commands_by_hiredis_into_the_bytes_redis_py_packs(url: str) -> None:
    client = connect(url)
    assert isinstance(client, aioredis.Redis)
    pool = client.connection_pool
    packed = pool.connection_class(**pool.connection_kwargs)
    plain = next(base for base in type(packed).__mro__[1:] if base.__module__.startswith("redis."))(
        **pool.connection_kwargs
    )
    assert type(packed).__name__ != type(plain).__name__  # ours, on the URL's own kind of connection
    for args in [
        ("EVALSHA", "a" * 40, 2, "lt:{g}:events", "lt:{g}:meta", 17, b"\x00\xff\r\n", "ação", bytearray(b"b")),
        ("SCRIPT LOAD", "return 1"),
        (b"CLIENT SETINFO", b"LIB-NAME", "redis-py"),
        ("ZADD", "z", 0.1, "m", 1e-7, "n", float("inf"), "o", 10**20, "p"),
        ("SET", "k", memoryview(b"view")),
    ]:
        assert b"".join(packed.pack_command(*args)) == b"".join(map(bytes, plain.pack_command(*args)))
    bad: Any
    for bad in (None, True, object()):
        with pytest.raises(DataError):
            packed.pack_command("SET", "k", bad)
