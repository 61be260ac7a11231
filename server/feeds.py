"""Live delivery: one feed per watched game per replica, fanned out to its sockets.

The append script PUBLISHes ``(game, version)`` on one channel; this replica's single
pub/sub connection wakes the feed of that game, which reads the new entries with
XRANGE from the last version it delivered, renders one message per distinct viewer
(each seat, one spectator form) and queues the same bytes on every socket of that
viewer. Notifications are only hints: a periodic sweep covers a lost one.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

import msgspec

from domain.engine import Viewer
from domain.table import Table
from projections.views import VersionedEvent, feed, is_revealed
from server.codec import encode
from server.games import Games
from server.tasks import cancelled, pause

log = logging.getLogger("ludoteca.feeds")


class Update(msgspec.Struct, tag="update", tag_field="type"):
    version: int
    events: list[VersionedEvent]
    view: Any


class Reset(msgspec.Struct, tag="reset", tag_field="type"):
    """The stream went backwards (Redis lost writes): start again from ``version``."""

    version: int


# Queue markers, in place of a version: close the socket once what is queued is sent.
SLOW = -1  # the socket fell too far behind: it should resume from its last version
RESET = -2  # the stream went backwards: it should start again


class Subscriber:
    """One socket's place in a feed: its viewer and its bounded queue of messages."""

    def __init__(self, viewer: Viewer, size: int) -> None:
        self.viewer = viewer
        self.queue: asyncio.Queue[tuple[int, bytes]] = asyncio.Queue(size + 2)  # room for the markers
        self.size = size

    def push(self, version: int, message: bytes) -> None:
        if self.queue.qsize() >= self.size:
            self.stop(SLOW)
        else:
            self.queue.put_nowait((version, message))

    def stop(self, marker: int, last: bytes = b"") -> None:
        """Drop what is queued, then send ``last`` (if any) and close with ``marker``."""
        while not self.queue.empty():
            self.queue.get_nowait()
        if last:
            self.queue.put_nowait((0, last))
        self.queue.put_nowait((marker, b""))


class Feed:
    """One game's deliveries on this replica."""

    def __init__(self, game_id: str, games: Games) -> None:
        self.game_id = game_id
        self.games = games
        self.table: Table | None = None  # the table at the last delivered version
        self.head: str | None = None  # the chain link of the event at that version
        self.subscribers: set[Subscriber] = set()
        self.lock = asyncio.Lock()
        self.wake = asyncio.Event()
        self.task: asyncio.Task[None] | None = None

    @property
    def version(self) -> int:
        return self.table.version if self.table else 0

    async def advance(self) -> None:
        """Deliver whatever the stream holds past the last delivered version."""
        game, table = await self.games.load(self.game_id)
        delivered = self.table.version if self.table is not None else table.version
        # From the last delivered version itself: still the same event, or writes were lost.
        entries = await self.games.store.read_entries(
            self.game_id, after=delivered - 1, limit=table.version - delivered + 1
        )
        if self.table is not None and (
            table.version < self.table.version or not entries or entries[0].link != self.head
        ):
            # The stream went backwards (and may have been written past it again): the
            # sockets start again; the next advance starts this feed again from the stream.
            self.table, self.head = None, None
            message = encode(Reset(table.version))
            for sub in self.subscribers:
                sub.stop(RESET, message)
            return
        if entries and entries[-1].version == table.version:
            self.head = entries[-1].link
        if self.table is not None and table.version > self.table.version:
            events = self.games.codecs[game.id].decode_entries([(e.version, e.data) for e in entries[1:]])
            revealed = is_revealed(game, table)
            viewers: dict[Viewer, list[Subscriber]] = {}
            for sub in self.subscribers:
                viewers.setdefault(sub.viewer, []).append(sub)
            for viewer, subs in viewers.items():
                view = game.view(table.state, viewer) if table.state is not None else None
                message = encode(Update(table.version, feed(game, events, viewer, revealed), view))
                for sub in subs:
                    sub.push(table.version, message)
        self.table = table

    async def run(self) -> None:
        while not cancelled():
            await self.wake.wait()
            self.wake.clear()
            try:
                async with self.lock:
                    await self.advance()
            except Exception:  # Redis down or a bad entry: keep the feed, the sweep retries
                if cancelled():
                    raise
                log.warning("feed %s could not advance", self.game_id, exc_info=True)
                await pause(0.5)


class Feeds:
    """Every feed this replica runs, woken by notifications and by a periodic sweep."""

    def __init__(self, games: Games, sweep_interval: float) -> None:
        self.games = games
        self.sweep_interval = sweep_interval
        self.feeds: dict[str, Feed] = {}

    def notify(self, game_id: str, version: int = 0) -> None:
        feed_ = self.feeds.get(game_id)
        if feed_ is not None and (version == 0 or version != feed_.version):
            feed_.wake.set()

    def wake_all(self) -> None:
        for feed_ in self.feeds.values():
            feed_.wake.set()

    async def sweep(self) -> None:
        while True:
            await pause(self.sweep_interval)
            self.wake_all()

    async def subscribe(self, game_id: str, sub: Subscriber) -> tuple[Feed, Table]:
        """Join a game's feed; the table returned is where live updates start from."""
        feed_ = self.feeds.get(game_id)
        if feed_ is None:
            feed_ = self.feeds[game_id] = Feed(game_id, self.games)
            feed_.task = asyncio.create_task(feed_.run())
        async with feed_.lock:
            if feed_.table is None:
                try:
                    await feed_.advance()
                except BaseException:
                    self.unsubscribe(feed_, sub)
                    raise
            feed_.subscribers.add(sub)
            assert feed_.table is not None
            return feed_, feed_.table

    def unsubscribe(self, feed_: Feed, sub: Subscriber) -> None:
        feed_.subscribers.discard(sub)
        if not feed_.subscribers and self.feeds.get(feed_.game_id) is feed_:
            del self.feeds[feed_.game_id]
            if feed_.task is not None:
                feed_.task.cancel()

    async def close(self) -> None:
        for feed_ in list(self.feeds.values()):
            if feed_.task is not None:
                feed_.task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await feed_.task
        self.feeds.clear()
