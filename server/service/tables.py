"""The table cache: each game this replica serves, folded from its stream, in a bounded LRU.

A cached table is kept with its :class:`~server.storage.store.Head` (the version and chain link of
its last event) and the seats of the tokens seen for it. Before a table is used it is
caught up from the stream, from the cached version itself, so that a stream that no longer
continues the cached history (Redis lost writes) is noticed and folded again from what
Redis holds.

A game not cached here (a cold load) and a replay fold from the nearest snapshot of the
game's table (server/service/snapshots.py) at or below the version wanted, or from version 1 when
none is valid. The stream is read a page at a time and a long fold runs in a worker
thread, so that no request holds the event loop while a long game is folded.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from domain.engine import AnyGame
from domain.table import Table, evolve
from server.service.codec import TABLE_OPENED, GameCodec
from server.service.errors import UnknownGame
from server.service.snapshots import EVERY, Snapshot, Snapshots
from server.storage.store import CommandKey, EventStore, Head, Look, StoredEvent

GAME_ID_BYTES = 8
log = logging.getLogger("ludoteca.games")

UNKNOWN_GAME = "There is no game with that id."
PAGE = 1000  # events a read brings at most, so that parsing one reply holds the loop a few ms at most
LONG_FOLD = 500  # a fold of more events than this runs in a worker thread (docs/performance.md, "Levers")


def valid_game_id(game_id: str) -> bool:
    return len(game_id) == 2 * GAME_ID_BYTES and all(c in "0123456789abcdef" for c in game_id)


@dataclass(slots=True)
class Cached:
    table: Table
    head: Head  # of ``table``'s last event
    seats: dict[str, int] = field(default_factory=dict)  # token hash -> seat (a token keeps its seat)


@dataclass(frozen=True, slots=True)
class Loaded:
    """A game caught up with its stream: the table, its head, and what else the read brought."""

    game: AnyGame
    table: Table
    head: Head
    look: Look


class Tables:
    """Every game's table this replica caches, over one event store."""

    def __init__(
        self, store: EventStore, games: Mapping[str, AnyGame], cache_size: int = 1000, snapshot_every: int = EVERY
    ) -> None:
        self.store = store
        self.games = dict(games)
        self.codecs = {kind: GameCodec(game) for kind, game in games.items()}
        self.cache: OrderedDict[str, Cached] = OrderedDict()
        self.cache_size = cache_size
        self.snapshots = Snapshots(self.games, snapshot_every)
        self.writing: set[asyncio.Task[None]] = set()  # snapshots being written, in the background

    async def look(self, game_id: str, token_hash: str | None = None, command: CommandKey | None = None) -> Loaded:
        """The game's table caught up with its stream, and in the same round trip what
        :meth:`EventStore.look` reads for a token and a command."""
        if not valid_game_id(game_id):
            raise UnknownGame("unknown_game", UNKNOWN_GAME)
        held = self.cache.get(game_id)
        if held is None:
            return await self._cold(game_id, token_hash, command)
        # Taken before the read (a Cached is updated in place: another request may cache a newer
        # table meanwhile, and the read starts from this one's version).
        before, since = held.table, held.head
        # Read from the cached version itself, to check it is still the event we folded.
        look = await self.store.look(game_id, since.version - 1, token_hash=token_hash, command=command)
        entries = look.entries
        if look.head == 0:  # deleted (expired or archived) since we cached it
            self.forget(game_id)
            raise UnknownGame("unknown_game", UNKNOWN_GAME)
        if not since.continued_by(entries):
            # The stream went backwards (a failover lost acknowledged writes), and may
            # have been written past them again: forget what we folded and start
            # again from what Redis holds.
            log.warning("game %s: the stream lost versions this replica had seen; reloading it", game_id)
            self.forget(game_id)
            return await self.look(game_id, token_hash, command)
        entries = entries[1:]
        codec = self.codecs[before.game]
        table = await self._fold(codec.game, before, entries)
        head = since.after(entries)
        self.remember(game_id, table, head)
        if token_hash is not None and look.seat is not None:
            self.know_seat(game_id, token_hash, look.seat)
        return Loaded(codec.game, table, head, look)

    async def _cold(self, game_id: str, token_hash: str | None, command: CommandKey | None) -> Loaded:
        """A game not cached here, folded from its nearest snapshot; what the first read brought."""
        looks: list[Look] = []

        async def first(after: int) -> tuple[list[StoredEvent], int]:
            look = await self.store.look(game_id, after, token_hash=token_hash, command=command, limit=PAGE)
            looks.append(look)
            return look.entries, look.head

        rebuilt = await self._rebuilt(game_id, None, first)
        if rebuilt is None:
            raise UnknownGame("unknown_game", UNKNOWN_GAME)
        table, head = rebuilt
        self.remember(game_id, table, head)
        look = looks[-1]
        if token_hash is not None and look.seat is not None:
            self.know_seat(game_id, token_hash, look.seat)
        return Loaded(self.codecs[table.game].game, table, head, look)

    async def table_at(self, game_id: str, version: int) -> Table:
        """The table as it was at ``version`` (which the stream holds), folded from the nearest snapshot."""

        async def first(after: int) -> tuple[list[StoredEvent], int]:
            return await self.store.read_entries(game_id, after=after, limit=min(PAGE, version - after)), version

        rebuilt = await self._rebuilt(game_id, version, first)
        if rebuilt is None or rebuilt[0].version != version:
            raise UnknownGame("unknown_game", UNKNOWN_GAME)
        return rebuilt[0]

    async def _rebuilt(
        self, game_id: str, until: int | None, first: Callable[[int], Awaitable[tuple[list[StoredEvent], int]]]
    ) -> tuple[Table, Head] | None:
        """The table at ``until`` (``None``: the stream's end) and its head, folded from the newest
        snapshot at or below it that the stream still continues, else from version 1 (``None``: no
        such game). ``first(after)`` reads the first page of events after ``after``, and says up to
        which version to read."""
        bases: list[Snapshot | None] = []
        for data in await self.store.snapshots(game_id, at_most=until):
            snapshot = self.snapshots.decode(data)
            if snapshot is not None and snapshot.head.version > 0:
                bases.append(snapshot)
        bases.append(None)
        for base in bases:
            since = base.head if base is not None else Head(0)
            # From the snapshot's own version, to check the stream holds its link there.
            entries, last = await first(max(since.version - 1, 0))
            if base is not None:
                if not since.continued_by(entries):
                    log.info(
                        "game %s: the snapshot at version %d is not of this stream; ignored", game_id, since.version
                    )
                    continue
                entries = entries[1:]
            elif not entries:
                return None
            kind = base.table.game if base is not None else TABLE_OPENED.decode(entries[0].data).game
            game = self.codecs[kind].game
            table = base.table if base is not None else None
            head = since
            # A page at a time: each page is folded and dropped before the next is read, so a
            # long stream never lives in memory whole (20,000 decoded events outliving the fold
            # set off a full garbage collection, which holds the loop as long as a fold did).
            while True:
                table = await self._fold(game, table, entries, game_id=game_id)
                head = head.after(entries)
                if not entries or head.version >= last:
                    break
                entries = await self.store.read_entries(
                    game_id, after=head.version, limit=min(PAGE, last - head.version)
                )
            assert table is not None
            return table, head
        raise AssertionError("version 1 is always a base")  # pragma: no cover

    async def _fold(
        self, game: AnyGame, table: Table | None, entries: list[StoredEvent], *, game_id: str | None = None
    ) -> Table:
        """``table`` with ``entries`` applied: in a worker thread when they are many (a long fold
        would hold the event loop). Given the ``game_id``, the tables at each multiple of the
        snapshot interval it folds past are kept as snapshots (a stream written before snapshots,
        or imported, gets them as it is read)."""
        if not entries:
            assert table is not None
            return table
        codec = self.codecs[game.id]
        every = self.snapshots.every if game_id is not None else 0
        start = table.version if table is not None else 0

        def run() -> tuple[Table, list[tuple[Table, Head]]]:
            events = codec.decode_events(entries)
            marks: list[tuple[Table, Head]] = []
            folded = table
            for entry, event in zip(entries, events, strict=True):
                folded = evolve(game, folded, event)
                if every and entry.version % every == 0 and entry.version > start:
                    marks.append((folded, Head(entry.version, entry.link)))
            assert folded is not None
            return folded, marks

        folded, marks = await asyncio.to_thread(run) if len(entries) > LONG_FOLD else run()
        if game_id is not None:
            for at, head in marks:
                self.keep_snapshot(game_id, at, head)
        return folded

    def keep_snapshot(self, game_id: str, table: Table, head: Head) -> None:
        """Write a snapshot of ``table`` (at ``head``) in the background: a failure is logged, and
        harmless (readers fold from an older one)."""
        task = asyncio.get_running_loop().create_task(self._write(game_id, table, head))
        self.writing.add(task)
        task.add_done_callback(self.writing.discard)

    async def _write(self, game_id: str, table: Table, head: Head) -> None:
        try:
            data = self.snapshots.encode(table, head)
            if data is None:
                log.warning(
                    "game %s: the table at version %d does not decode back to itself; no snapshot",
                    game_id,
                    head.version,
                )
                return
            await self.store.keep_snapshot(game_id, head, data)
        except Exception as exc:
            log.warning("game %s: no snapshot at version %d: %s: %s", game_id, head.version, type(exc).__name__, exc)

    async def written(self) -> None:
        """Wait for the snapshots being written (tests, and a replica that shuts down)."""
        while self.writing:
            await asyncio.gather(*self.writing, return_exceptions=True)

    async def load(self, game_id: str) -> tuple[AnyGame, Table]:
        """The game's table, caught up with its stream."""
        loaded = await self.look(game_id)
        return loaded.game, loaded.table

    def held(self, game_id: str) -> Cached | None:
        """What this replica caches of the game, unread (it may be behind the stream)."""
        return self.cache.get(game_id)

    def seat_of(self, game_id: str, token_hash: str) -> int | None:
        """The seat of a token seen here for a cached game (``None``: not known here)."""
        held = self.cache.get(game_id)
        return held.seats.get(token_hash) if held is not None else None

    def know_seat(self, game_id: str, token_hash: str, seat: int) -> None:
        held = self.cache.get(game_id)
        if held is not None:
            held.seats[token_hash] = seat

    def head_of(self, game_id: str, table: Table) -> Head | None:
        """The head of ``table`` when it is the table cached here (``None``: not known)."""
        held = self.cache.get(game_id)
        return held.head if held is not None and held.table is table else None

    def remember(self, game_id: str, table: Table, head: Head) -> None:
        """Cache ``table``, whose last event's head is ``head``, unless a newer one is cached."""
        held = self.cache.get(game_id)
        if held is None:
            self.cache[game_id] = Cached(table, head)
        elif held.table.version <= table.version:
            if held.table.tenures != table.tenures:  # a seat taken over: its former holder's tokens act no more
                taken = {tenure.seat for tenure in table.tenures[len(held.table.tenures) :]}
                held.seats = {token: seat for token, seat in held.seats.items() if seat not in taken}
            held.table, held.head = table, head
        self.cache.move_to_end(game_id)
        while len(self.cache) > self.cache_size:
            self.cache.popitem(last=False)

    def forget(self, game_id: str) -> None:
        self.cache.pop(game_id, None)

    def decode(self, game: AnyGame, entries: list[Any]) -> list[tuple[int, Any]]:
        """``(version, event)`` of stored entries."""
        return self.codecs[game.id].decode_entries(entries)

    async def read(self, game: AnyGame, game_id: str, after: int, until: int) -> list[tuple[int, Any]]:
        """Decoded events in ``(after, until]``."""
        if until <= after:
            return []
        entries = await self.store.read_entries(game_id, after=after, limit=until - after)
        return self.decode(game, entries)
