"""A socket's session at one game: its seat, its place in the game's feed, its arrival in presence,
the opening catch-up (or the reset that replaces it), and its leaving.

The socket joins its game's feed before the catch-up starts, so nothing written during the
catch-up is missed; what the feed queues meanwhile waits behind the opening, and versions the
opening covered are not sent again (the web adapter's sender skips them). The adapter
(server/web/websocket.py) turns frames into messages and back; everything it asks of the game
goes through here or through ``Games``.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass

from domain.engine import AnyGame
from domain.table import Table
from projections.updates import update
from server.service.attendance import Attendance
from server.service.codec import encode
from server.service.feeds import Feed, Feeds, Reset, Subscriber
from server.service.games import Games
from server.storage import StoreError
from server.storage.checks import Checks
from server.storage.store import Head


@dataclass(frozen=True)
class Hello:
    """What a socket said when it came: its token (``None``: a spectator), the version it holds and
    that version's check, and whether it wants to be told who comes and goes."""

    token: str | None
    after: int = 0
    check: str | None = None
    presence: bool = False


class Session:
    """One socket's place at one game, from its hello to its leaving."""

    __slots__ = ("conn", "feed", "game", "game_id", "sessions", "sub")

    def __init__(self, sessions: Sessions, game_id: str, game: AnyGame, feed: Feed, sub: Subscriber) -> None:
        self.sessions = sessions
        self.game_id = game_id
        self.game = game
        self.feed = feed
        self.sub = sub
        self.conn: str | None = None

    @property
    def seat(self) -> int | None:
        return self.sub.viewer

    async def arrive(self) -> None:
        """Say in presence that this socket is at the table: a courtesy, never worth the socket."""
        with contextlib.suppress(StoreError):
            self.conn = await self.sessions.attendance.arrive(self.game_id, self.seat)

    async def leave(self) -> None:
        """Leave the game's feed and presence."""
        self.sessions.feeds.unsubscribe(self.feed, self.sub)
        if self.conn is not None:
            with contextlib.suppress(StoreError):
                await self.sessions.attendance.leave(self.conn)
            self.conn = None


class Opening:
    """What a socket is sent first: the versions after the client's ``after`` in chunks, each
    with its check, the last one carrying the view; or, when the stream went backwards since the
    client read them (past the head, or its check differs), one ``reset`` message and no more.

    Iterate it for the messages; then ``reset`` says whether the socket must close to start
    again, and ``version`` is the version sent up to. A store that fails raises ``StoreError``.
    The table it starts from is dropped once sent: a socket lives for hours."""

    def __init__(self, sessions: Sessions, session: Session, table: Table, hello: Hello) -> None:
        self.sessions = sessions
        self.session = session
        self.table: Table | None = table
        self.hello = hello
        self.reset = False
        self.version = hello.after

    async def __aiter__(self) -> AsyncIterator[bytes]:
        table, self.table = self.table, None
        assert table is not None, "an opening is sent once"
        sessions, game_id, after = self.sessions, self.session.game_id, self.hello.after
        store = sessions.games.store
        if after > table.version or (
            after > 0
            and self.hello.check
            and not await sessions.checks.matches(game_id, await store.head_at(game_id, after), self.hello.check)
        ):
            self.reset = True
            yield encode(Reset(table.version))
            return
        await sessions.checks.ready()
        tables, game, viewer = sessions.games.tables, self.session.game, self.session.seat
        while True:
            upto = min(table.version, self.version + sessions.catch_up_chunk)
            # The entries themselves (not Tables.read): the check needs the last one's chain link.
            entries = await store.read_entries(game_id, after=self.version, limit=upto - self.version)
            if entries and entries[-1].version == upto:
                head = Head(upto, entries[-1].link)
            else:  # nothing new (a resume at the head), or the stream is shorter than ``table`` now
                head = await store.head_at(game_id, upto) or Head(upto)
            check = sessions.checks.of(game_id, head)
            yield encode(update(game, table, tables.decode(game, entries), viewer, version=upto, check=check))
            self.version = upto
            if upto == table.version:
                return


class Sessions:
    """Where sockets join games: over the game service, this replica's feeds, the check secret and presence.

    ``queue_size``: the messages a socket may fall behind before it is told to resume;
    ``catch_up_chunk``: the versions an opening sends a message."""

    def __init__(
        self,
        games: Games,
        feeds: Feeds,
        checks: Checks,
        attendance: Attendance,
        *,
        queue_size: int,
        catch_up_chunk: int,
    ) -> None:
        self.games = games
        self.feeds = feeds
        self.checks = checks
        self.attendance = attendance
        self.queue_size = queue_size
        self.catch_up_chunk = catch_up_chunk

    async def join(self, game_id: str, hello: Hello) -> tuple[Session, Opening]:
        """Seat the hello's token and subscribe to the game's feed, the opening to send first; refused
        with the service's errors (an unknown game, a token not known here), ``StoreError`` when Redis fails."""
        at = await self.games.seated(game_id, hello.token)
        sub = Subscriber(at.seat, self.queue_size, hello.presence)
        feed, table = await self.feeds.subscribe(game_id, sub)
        session = Session(self, game_id, at.game, feed, sub)
        return session, Opening(self, session, table, hello)
