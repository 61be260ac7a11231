"""Live delivery: one feed per watched game per replica, fanned out to its sockets.

The append script PUBLISHes ``(game, version)`` on one channel; this replica's single
pub/sub connection wakes the feed of that game, which reads the new entries with
XRANGE from the last version it delivered (once: it folds them itself, and hands the
table it made to the table cache), builds one update per distinct viewer (each seat, one
spectator form; projections/updates.py) and queues the same text on every socket of that
viewer. A command this replica appended is handed to its feed directly (the feeds are a
listener of ``Games``), with no read: its own notification, which may come before the
append's answer, waits while the append is under way, and wakes the feed only if the
handoff did not deliver that version. Notifications are only hints: a periodic sweep reads
every watched game's head in one round trip and wakes the feeds that are behind it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

import msgspec

from domain.engine import Viewer
from domain.table import Table, fold
from projections.updates import standing, update
from server.runtime.mailbox import Mailbox
from server.runtime.metrics import Metrics
from server.runtime.tasks import Trouble, cancelled, pause
from server.service.attendance import Attendance
from server.service.codec import encode
from server.service.games import Change
from server.service.tables import Tables
from server.storage import StoreError
from server.storage.checks import Checks
from server.storage.store import EventStore, Head

log = logging.getLogger("ludoteca.feeds")
STORE_TROUBLE = Trouble(log, "feeds could not read their games' streams")  # one outage for every feed


class Reset(msgspec.Struct, tag="reset", tag_field="type"):
    """The stream went backwards (Redis lost writes): start again from ``version``."""

    version: int


# Queue markers, in place of a version: close the socket once what is queued is sent.
SLOW = -1  # the socket fell too far behind: it should resume from its last version
RESET = -2  # the stream went backwards: it should start again


Message = tuple[int, bytes | str]  # a version (or a marker) and JSON, as bytes or already as text


class Subscriber:
    """One socket's place in a feed: its viewer, its bounded queue of messages, and whether
    it asked to be told who is at the table."""

    __slots__ = ("presence", "queue", "size", "viewer")

    def __init__(self, viewer: Viewer, size: int, presence: bool = False) -> None:
        self.viewer = viewer
        self.presence = presence
        self.queue: Mailbox[Message] = Mailbox()  # at most ``size`` messages, then the markers
        self.size = size

    def push(self, version: int, message: bytes | str) -> None:
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

    def __init__(self, game_id: str, tables: Tables, store: EventStore, checks: Checks, metrics: Metrics) -> None:
        self.game_id = game_id
        self.tables = tables
        self.store = store
        self.checks = checks
        self.metrics = metrics
        self.reads = 0  # of the stream: what the handoff of this replica's own appends is there to spare
        self.table: Table | None = None  # the table at the last delivered version
        self.head = Head(0)  # the head of that table's history
        self.subscribers: set[Subscriber] = set()
        self.lock = asyncio.Lock()
        self.wake = asyncio.Event()
        self.task: asyncio.Task[None] | None = None

    @property
    def version(self) -> int:
        return self.table.version if self.table else 0

    async def advance(self) -> None:
        """Deliver whatever the stream holds past the last delivered version."""
        await self.checks.ready()
        if self.table is None:  # the first time: start from the table cache, delivering nothing
            loaded = await self.tables.look(self.game_id)
            self.table, self.head = loaded.table, loaded.head
            return
        # From the last delivered version itself: still the same event, or writes were lost.
        self.reads += 1
        self.metrics.feed_reads.inc()
        entries = await self.store.read_entries(self.game_id, after=self.head.version - 1)
        if not self.head.continued_by(entries):
            # The stream went backwards (and may have been written past it again): the
            # sockets start again; the next advance starts this feed again from the stream.
            _, table = await self.tables.load(self.game_id)
            self.table, self.head = None, Head(0)
            message = encode(Reset(table.version))
            for sub in self.subscribers:
                sub.stop(RESET, message)
            return
        new = entries[1:]
        if not new:
            return
        game = self.tables.games[self.table.game]
        events = self.tables.decode(game, new)
        after = fold(game, self.table, [event for _, event in events])
        assert after is not None
        head = self.head.after(new)
        self.deliver(after, events, head)
        self.table, self.head = after, head
        self.tables.remember(self.game_id, after, head)  # the next command here starts from it

    def handoff(self, change: Change) -> bool:
        """Deliver a command this replica appended, if it follows what was delivered last
        (the same head) and no read is under way; ``False`` otherwise."""
        if self.lock.locked() or self.table is None or change.before_head != self.head:
            return False
        first = change.before.version + 1
        events = list(zip(range(first, change.after.version + 1), change.events, strict=True))
        self.deliver(change.after, events, change.after_head)
        self.table, self.head = change.after, change.after_head
        return True

    def deliver(self, table: Table, events: list[tuple[int, Any]], head: Head) -> None:
        """Queue ``events`` (ending at ``table``, whose head is ``head``) on every socket: one message
        per distinct viewer."""
        game = self.tables.games[table.game]
        check = self.checks.of(self.game_id, head)
        now = standing(game, table)
        viewers: dict[Viewer, list[Subscriber]] = {}
        for sub in self.subscribers:
            viewers.setdefault(sub.viewer, []).append(sub)
        for viewer, subs in viewers.items():
            message = encode(update(game, table, events, viewer, check=check, now=now))
            for sub in subs:
                sub.push(table.version, message)

    def stop(self) -> asyncio.Task[None] | None:
        """Cancel the feed's task and let go of it (the task, once cancelled, keeps its
        ``CancelledError``, whose traceback keeps this feed: holding the task too would make a
        cycle that only a full collection frees, some 17 objects a game that stopped being watched)."""
        task, self.task = self.task, None
        if task is not None:
            task.cancel()
        return task

    async def run(self) -> None:
        while not cancelled():
            await self.wake.wait()
            self.wake.clear()
            try:
                async with self.lock:
                    await self.advance()
                STORE_TROUBLE.ok()
            except StoreError as exc:  # Redis down: keep the feed, the sweep retries
                if cancelled():
                    raise
                STORE_TROUBLE.failed(exc)
                await pause(0.5)
            except Exception:  # a bad entry: keep the feed, the sweep retries
                if cancelled():
                    raise
                log.warning("feed %s could not advance", self.game_id, exc_info=True)
                await pause(0.5)


class Feeds:
    """Every feed this replica runs, woken by notifications, by its own appends and by a periodic sweep."""

    def __init__(
        self,
        tables: Tables,
        store: EventStore,
        checks: Checks,
        attendance: Attendance,
        metrics: Metrics,
        sweep_interval: float,
        presence_delay: float = 0.05,
    ) -> None:
        self.tables = tables
        self.store = store
        self.checks = checks
        self.sweep_interval = sweep_interval
        self.feeds: dict[str, Feed] = {}
        self.attendance = attendance
        self.presence_delay = presence_delay
        self.metrics = metrics
        # This replica's appends under way, by game and the version each would end at, and the
        # notifications (or sweeps' heads) at one of those versions that came meanwhile: such a
        # notification is most likely of the append itself, which the feed is about to be handed, so
        # it is judged once the append is over (a conflict may mean another replica's was).
        self.under_way: dict[tuple[str, int], int] = {}
        self.held: set[tuple[str, int]] = set()
        self.pushing: set[asyncio.Task[None]] = set()  # presence pushes under way
        # Games with a presence push under way, and whether someone came or went since it read.
        self.changed_again: dict[str, bool] = {}

    def presence_changed(self, game_id: str) -> None:
        """Someone came to or left the game's table (on any replica): tell its sockets here.

        Coalesced: changes that come while a push for the game waits or reads make one more push
        after it, not one each (200 watchers arriving at once sent 401 messages to each before)."""
        feed_ = self.feeds.get(game_id)
        if feed_ is None or not any(s.presence for s in feed_.subscribers):
            return
        if game_id in self.changed_again:
            self.changed_again[game_id] = True
            return
        self.changed_again[game_id] = False
        task = asyncio.create_task(self._push_presence(feed_))
        self.pushing.add(task)
        task.add_done_callback(self.pushing.discard)

    async def _push_presence(self, feed_: Feed) -> None:
        game_id = feed_.game_id
        try:
            while True:
                await asyncio.sleep(self.presence_delay)  # let the arrivals of a burst gather
                self.changed_again[game_id] = False
                try:
                    message = encode(await self.attendance.present(game_id))
                except StoreError:
                    log.warning("could not read who is at game %s", game_id)
                    return
                for sub in list(feed_.subscribers):
                    if sub.presence:
                        sub.push(0, message)
                if not self.changed_again[game_id]:
                    return
        finally:
            self.changed_again.pop(game_id, None)

    def notify(self, game_id: str, version: int) -> None:
        """A replica appended up to ``version``: wake the game's feed unless it delivered that already,
        or an append of this replica to that version is under way."""
        feed_ = self.feeds.get(game_id)
        if feed_ is not None and version != feed_.version and not self.hold(game_id, version):
            feed_.wake.set()

    def hold(self, game_id: str, version: int) -> bool:
        """Whether an append of this replica to ``version`` is under way: a hint of that version then
        waits for it to be over."""
        key = (game_id, version)
        if key not in self.under_way:
            return False
        self.held.add(key)
        return True

    # -- a Games listener: this replica's own appends ---------------------------------------

    def appending(self, game_id: str, version: int) -> None:
        key = (game_id, version)
        self.under_way[key] = self.under_way.get(key, 0) + 1

    def appended(self, change: Change) -> None:
        """Hand the events to the feed, or let it read them."""
        feed_ = self.feeds.get(change.game_id)
        try:
            if feed_ is not None and not feed_.handoff(change):
                feed_.wake.set()
        finally:  # a handoff that failed to deliver still ends the append (Games logs what it raised)
            self.over(change.game_id, change.after.version)

    def not_appended(self, game_id: str, version: int) -> None:
        self.over(game_id, version)

    def over(self, game_id: str, version: int) -> None:
        """The append to ``version`` is over (landed and handed to the feed, or not): a notification
        held for it is judged now."""
        key = (game_id, version)
        left = self.under_way.pop(key) - 1
        if left:
            self.under_way[key] = left
        elif key in self.held:
            self.held.discard(key)
            self.notify(game_id, version)

    def wake_all(self) -> None:
        for feed_ in self.feeds.values():
            feed_.wake.set()

    async def sweep(self) -> None:
        trouble = Trouble(log, "the sweep could not read the watched games' heads")
        while True:
            await pause(self.sweep_interval)
            try:
                await self.wake_behind()
                trouble.ok()
            except (StoreError, OSError) as exc:
                trouble.failed(exc)

    async def wake_behind(self) -> None:
        """Wake every feed whose head is not the stream's: a lost notification, or a stream that went
        backwards. A feed that delivered while the heads were read is left to the next sweep: what
        was read may be older than what it delivered."""
        watched = [(f, f.head) for f in self.feeds.values()]
        if not watched:
            return
        heads = await self.store.heads([f.game_id for f, _ in watched])
        for feed_, delivered in watched:
            head = heads[feed_.game_id]
            behind = feed_.head == delivered and head != delivered and not self.hold(feed_.game_id, head.version)
            if feed_.table is None or behind:
                feed_.wake.set()

    async def subscribe(self, game_id: str, sub: Subscriber) -> tuple[Feed, Table]:
        """Join a game's feed; the table returned is where live updates start from."""
        feed_ = self.feeds.get(game_id)
        if feed_ is None:
            feed_ = self.feeds[game_id] = Feed(game_id, self.tables, self.store, self.checks, self.metrics)
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
            feed_.stop()

    async def close(self) -> None:
        for task in list(self.pushing):
            task.cancel()
        for feed_ in list(self.feeds.values()):
            stopping = feed_.stop()
            if stopping is not None:
                with contextlib.suppress(asyncio.CancelledError):
                    await stopping
        self.feeds.clear()
