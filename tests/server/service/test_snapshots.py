"""Snapshots of a game's table (server/service/snapshots.py): a cold load and a replay fold from the
nearest one, and a snapshot is only ever a cache: one that is not of this stream, not of
this code, or not decodable is ignored, and what anyone sees is the fold from version 1."""

from __future__ import annotations

import asyncio

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.catalog import GAMES
from domain.table import SeatInfo, Table, fold
from server.service.codec import encode
from server.service.senders import Holder
from server.service.snapshots import Envelope, Snapshots
from server.service.tables import Tables
from server.storage.connection import connect
from server.storage.index import LobbyIndex
from server.storage.store import EventStore, Head
from server.workers import housekeeping
from tests.server.service.test_games import a_legal_command, lobby_over, replica, started
from tests.support.games import play_to_end
from tests.support.long_game import LONG_GAME, append_log, long_log

GAME_ID = "00000000000000ab"


def same(a: Table, b: Table | None) -> bool:
    """Equal, and byte for byte the same when encoded."""
    return b is not None and a == b and msgspec.msgpack.encode(a) == msgspec.msgpack.encode(b)


async def kept(store: EventStore, game_id: str) -> list[int]:
    """The versions of the game's snapshots, oldest first."""
    snapshots = Snapshots(GAMES)
    found = [snapshots.decode(data) for data in await store.snapshots(game_id, count=10_000)]
    return sorted(s.head.version for s in found if s is not None)


async def head_at(store: EventStore, version: int) -> Head:
    head = await store.head_at(GAME_ID, version)
    assert head is not None
    return head


async def plant(store: EventStore, table: Table, head: Head, fingerprint: str | None = None) -> None:
    """A snapshot written straight to Redis, as if by some replica (the store checks the link)."""
    snapshots = Snapshots(GAMES)
    shapes = snapshots.shapes[table.game]
    data = msgspec.msgpack.encode(
        Envelope(table.game, head.version, head.link, fingerprint or shapes.fingerprint, msgspec.msgpack.encode(table))
    )
    await store.redis.zadd(f"lt:{{{GAME_ID}}}:snapshots", {data: head.version})


def doctored(table: Table) -> Table:
    """The same table with another name at seat 0: what a wrongly used snapshot would show."""
    seats = (SeatInfo(0, "not what was played"), *table.seats[1:])
    return msgspec.structs.replace(table, seats=seats)


async def test_the_replica_that_appends_across_an_interval_writes_a_snapshot_after_the_append(
    store: EventStore,
) -> None:
    tables = Tables(store, GAMES, snapshot_every=4)
    games = replica(store, tables)
    game_id, tokens = await started(games)
    for n in range(12):
        token, command = await a_legal_command(games, game_id, tokens)
        await games.handle(game_id, Holder(token), command, f"c{n}", None)
    await tables.written()
    _, table = await games.load(game_id)
    versions = await kept(store, game_id)
    assert versions and all(v <= table.version for v in versions)
    # One at the end of each append that crossed a multiple of 4 (one append may cross several).
    assert len(versions) >= 3 and versions[-1] >= table.version // 4 * 4
    assert all(any(m <= v for v in versions) for m in range(4, table.version + 1, 4))
    log = [e for _, e in await tables.read(GAMES["vilar-de-mouros"], game_id, 0, table.version)]
    for data in await store.snapshots(game_id, count=100):
        snapshot = Snapshots(GAMES).decode(data)
        assert snapshot is not None
        assert same(snapshot.table, fold(GAMES["vilar-de-mouros"], None, log[: snapshot.head.version]))


async def test_a_cold_load_of_a_stream_without_snapshots_writes_them_as_it_is_read(store: EventStore) -> None:
    log = long_log(1_234)
    await append_log(store, GAME_ID, log)
    tables = Tables(store, GAMES, snapshot_every=100)
    _, table = await tables.load(GAME_ID)
    await tables.written()
    assert same(table, fold(GAMES[LONG_GAME], None, log))
    assert await kept(store, GAME_ID) == list(range(100, 1_234, 100))


async def test_a_cold_load_folds_from_the_nearest_snapshot_that_matches_the_stream(store: EventStore) -> None:
    log = long_log(900)
    await append_log(store, GAME_ID, log)
    at_600 = fold(GAMES[LONG_GAME], None, log[:600])
    assert at_600 is not None
    await plant(store, doctored(at_600), await head_at(store, 600))
    _, table = await Tables(store, GAMES, snapshot_every=10_000).load(GAME_ID)
    # The doctored seat shows: the load started from the snapshot, not from version 1.
    assert table.seats[0] == SeatInfo(0, "not what was played") and table.version == 900


@pytest.mark.parametrize(
    "whose",
    [
        # Lost writes: the stream was written past them again, so the snapshot is of another history.
        "link is not the stream's",
        # Folded by code of another shape (another rules version, FORMAT or table schema).
        "fingerprint is stale",
    ],
)
async def test_a_snapshot_is_ignored_when_its(store: EventStore, whose: str) -> None:
    log = long_log(900)
    await append_log(store, GAME_ID, log)
    at_600 = fold(GAMES[LONG_GAME], None, log[:600])
    assert at_600 is not None
    if whose == "link is not the stream's":
        await plant(store, doctored(at_600), Head(600, "0" * 40))
    else:
        await plant(store, doctored(at_600), await head_at(store, 600), fingerprint="folded by other code")
    tables = Tables(store, GAMES, snapshot_every=10_000)
    _, table = await tables.load(GAME_ID)
    assert same(table, fold(GAMES[LONG_GAME], None, log))
    assert same(await tables.table_at(GAME_ID, 650), fold(GAMES[LONG_GAME], None, log[:650]))


async def test_a_snapshot_that_does_not_decode_strictly_is_ignored(store: EventStore) -> None:
    log = long_log(700)
    await append_log(store, GAME_ID, log)
    head = await head_at(store, 600)
    shapes = Snapshots(GAMES).shapes[LONG_GAME]
    wrong_shape = msgspec.msgpack.encode({"game": LONG_GAME, "version": 600})
    for data in (
        b"not msgpack at all",
        msgspec.msgpack.encode(Envelope(LONG_GAME, 600, head.link, shapes.fingerprint, wrong_shape)),
        msgspec.msgpack.encode(Envelope("no-such-game", 600, head.link, shapes.fingerprint, wrong_shape)),
    ):
        await store.redis.zadd(f"lt:{{{GAME_ID}}}:snapshots", {data: 600})
    tables = Tables(store, GAMES, snapshot_every=10_000)
    _, table = await tables.load(GAME_ID)
    assert same(table, fold(GAMES[LONG_GAME], None, log))


async def test_a_replay_at_every_version_near_the_snapshots_equals_the_fold_from_version_1(store: EventStore) -> None:
    log = long_log(1_000)
    await append_log(store, GAME_ID, log)
    writer = Tables(store, GAMES, snapshot_every=250)
    await writer.load(GAME_ID)
    await writer.written()
    assert await kept(store, GAME_ID) == [250, 500, 750, 1_000]
    tables = Tables(store, GAMES, snapshot_every=250)
    for boundary in (250, 500, 750, 1_000):
        for version in range(boundary - 2, min(boundary + 3, 1_001)):
            assert same(await tables.table_at(GAME_ID, version), fold(GAMES[LONG_GAME], None, log[:version]))
    assert same(await tables.table_at(GAME_ID, 1), fold(GAMES[LONG_GAME], None, log[:1]))


async def test_deleting_a_game_deletes_its_snapshots(store: EventStore) -> None:
    tables = Tables(store, GAMES, snapshot_every=1)
    games = replica(store, tables)
    game_id, _ = await started(games)
    await tables.written()
    assert await kept(store, game_id)
    assert await games.delete(game_id, "active")
    assert await store.redis.keys(f"lt:{{{game_id}}}:*") == []
    # A snapshot written after the game is gone leaves no key behind.
    assert not await store.keep_snapshot(game_id, Head(1, "whatever"), b"late")
    assert await store.redis.keys(f"lt:{{{game_id}}}:*") == []


ENDING = ["vilar-de-mouros", "i-love-portugal", "miss-liz-parks"]  # random play ends them soon


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    kind=st.sampled_from(ENDING),
    players=st.integers(2, 4),
    seed=st.integers(0, 10_000),
    every=st.integers(1, 40),
    data=st.data(),
)
def test_a_log_folded_through_snapshots_equals_the_live_table(
    redis_url: str, kind: str, players: int, seed: int, every: int, data: st.DataObject
) -> None:
    game = GAMES[kind]
    log, live = play_to_end(game, min(players, game.max_players), {}, seed)
    version = data.draw(st.integers(1, len(log)), label="replay at")

    async def run() -> tuple[Table, Table, Table]:
        client = connect(redis_url)
        store = EventStore(client)
        try:
            game_id = f"{seed:08x}{every:04x}{players:04x}"
            await client.delete(*(f"lt:{{{game_id}}}:{k}" for k in ("events", "snapshots")))
            for start in range(0, len(log), 7):  # small appends, as play makes them
                await store.append(
                    game_id, start, [encode(e) for e in log[start : start + 7]], schema=game.event_schema
                )
            first = Tables(store, GAMES, snapshot_every=every)
            _, cold = await first.load(game_id)
            await first.written()
            again = Tables(store, GAMES, snapshot_every=every)
            _, warm = await again.load(game_id)
            then = await again.table_at(game_id, version)
            await client.delete(*(f"lt:{{{game_id}}}:{k}" for k in ("events", "snapshots")))
            return cold, warm, then
        finally:
            await client.aclose()

    cold, warm, then = asyncio.run(run())
    assert same(cold, live) and same(warm, live)
    expected = fold(game, None, log[:version])
    assert expected is not None and same(then, expected)


async def test_an_imported_game_carries_no_snapshots_and_gets_them_as_it_is_read(store: EventStore) -> None:
    game = GAMES["vilar-de-mouros"]
    log, live = play_to_end(game, 3, {}, seed=5)
    lines = [b'{"version":%d,"schema":%d,"event":%s}' % (v, game.event_schema, encode(e)) for v, e in enumerate(log, 1)]
    tables = Tables(store, GAMES, snapshot_every=50)
    games = replica(store, tables)
    game_id, _ = await lobby_over(games).import_log(lines)
    assert await kept(store, game_id) == []
    _, table = await tables.load(game_id)
    await tables.written()
    assert same(table, live)
    assert await kept(store, game_id) == list(range(50, len(log) + 1, 50))
    assert (await games.reads.export(game_id))[1:] == lines  # and an export carries none (after its header)


async def test_an_open_game_that_expires_takes_its_snapshots_with_it(store: EventStore) -> None:
    tables = Tables(store, GAMES, snapshot_every=1)
    index = LobbyIndex(store.redis)
    games = replica(store, tables)
    lobby = lobby_over(games, index)
    game_id = (await lobby.create("vilar-de-mouros", 3, {})).game_id
    await lobby.join(game_id, None, "", None)
    await tables.written()
    assert await kept(store, game_id) == [2]  # the seat's append crossed 2
    assert game_id in await housekeeping.expire_open(games, index, 0)
    assert await store.redis.keys(f"lt:{{{game_id}}}:*") == []


def test_the_fingerprint_covers_the_seats_shape_so_a_snapshot_from_before_a_new_seat_field_is_ignored() -> None:
    """A field added to a seat (``named``) changes every game's fingerprint: a snapshot folded by code that did not
    know it (and would decode with its default) is not of this code, and the stream is folded again."""
    shapes = Snapshots(GAMES).shapes[LONG_GAME]
    seat = msgspec.json.schema(shapes.table_type)["$defs"]["SeatInfo"]["properties"]
    assert set(seat) == {f.name for f in msgspec.structs.fields(SeatInfo)} and "named" in seat
