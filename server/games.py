"""The command handler: load -> decide -> append -> publish, and the reads beside it.

Each replica caches ``Table`` (state and version) per game in a bounded LRU and
catches up from the stream before it decides; a conflict means another replica (or
another request) wrote first: catch up and decide again, a bounded number of times.
"""

from __future__ import annotations

import hashlib
import logging
import random
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import msgspec

from domain.engine import FULL, AnyGame, Ctx, Pick, Rejected, Step, Viewer, no_deadlines
from domain.table import Table, fold, status, undo_versions
from domain.table import deadlines as open_windows
from domain.table import decide as decide_at_table
from projections.lobby import lobby_entry, meta_fields
from projections.replay import replay
from projections.views import (
    TableView,
    VersionedEvent,
    feed,
    is_revealed,
    listed_commands,
    may_move,
    move_step,
    table_view,
)
from server.auth import token_hash
from server.codec import TABLE_OPENED, GameCodec, encode
from server.errors import BAD_JSON, ApiError, malformed, rejected
from server.metrics import Metrics, result_class
from server.quotas import Quotas
from server.store import Appended, AppendResult, Conflict, Duplicate, EventStore, Look

GAME_ID_BYTES = 8
log = logging.getLogger("ludoteca.games")


class CommandRecord(msgspec.Struct):
    """What the store keeps per command id, to answer a retry as the first time."""

    seat: int
    hash: str
    first: int  # the first and last versions the command appended
    last: int


class CommandAnswer(msgspec.Struct):
    version: int
    events: list[VersionedEvent]


RECORD = msgspec.json.Decoder(CommandRecord)


@dataclass(frozen=True)
class Seated:
    """A request's game, caught up, and the seat asking (``None``: a spectator).

    ``look`` is what was read with the catch-up for a command (its id's record and the
    clock), so that the command needs no other read before its append. ``cached``: the
    table and the seat come from this replica's cache, unread (see :meth:`Games.cached`).
    """

    game_id: str
    game: AnyGame
    table: Table
    seat: int | None
    look: Look | None = None
    cached: bool = False


@dataclass(frozen=True)
class Change:
    """An append this replica made: the tables before and after it, the events between
    them, and the chain links of both tables' last events. Enough for this replica's feed
    of the game to deliver it without reading it back from Redis."""

    game_id: str
    game: AnyGame
    before: Table
    after: Table
    events: Sequence[Any]
    before_link: str
    after_link: str


def acting_seat(at: Seated) -> int:
    """The seat a command comes from; spectators and seats that left (a bot plays them) may not act."""
    if at.seat is None:
        raise ApiError(403, "spectator", "Spectators cannot send commands; take a seat and send its token.")
    if at.seat in at.table.resigned:
        raise ApiError(403, "resigned", "You left this game; a bot plays your seat now.")
    return at.seat


def keeps_time(game: AnyGame, table: Table) -> bool:
    """Whether the game's decisions read the shared clock: windows that close by themselves, or a turn clock."""
    return game.deadlines is not no_deadlines or table.clock is not None


def valid_game_id(game_id: str) -> bool:
    return len(game_id) == 2 * GAME_ID_BYTES and all(c in "0123456789abcdef" for c in game_id)


class Games:
    """Every game this replica serves, over one event store."""

    def __init__(
        self,
        store: EventStore,
        games: Mapping[str, AnyGame],
        *,
        cache_size: int = 1000,
        command_retries: int = 5,
        on_append: Callable[[str], None] | None = None,
        quotas: Quotas | None = None,
        max_open_games: int = 0,
    ) -> None:
        self.store = store
        self.games = dict(games)
        self.codecs = {kind: GameCodec(game) for kind, game in games.items()}
        self.cache: OrderedDict[str, Table] = OrderedDict()
        # The chain link of each cached table's last event: a stream that lost writes and
        # was written past them again has another link at that version.
        self.heads: dict[str, str] = {}
        # The seats of the tokens seen for each cached game (token hash -> seat): a token
        # keeps its seat for the game's life (a seat that leaves is marked in the table).
        self.seats: dict[str, dict[str, int]] = {}
        self.cache_size = cache_size
        self.command_retries = command_retries
        self.on_append = on_append  # tells this replica's feeds at once, before the notification
        self.on_change: Callable[[Change], None] | None = None  # hands a command's events to this replica's feed
        self.quotas = quotas or Quotas(store.redis, 0, 0)  # what one client address may take
        self.max_open_games = max_open_games  # open games in total, every replica together (0: no limit)
        self.metrics: Metrics | None = None
        self.rng = random.SystemRandom()

    # -- loading ---------------------------------------------------------------

    async def load(self, game_id: str) -> tuple[AnyGame, Table]:
        """The game's table, caught up with its stream."""
        game, table, _ = await self.look(game_id)
        return game, table

    async def look(
        self, game_id: str, token_hash: str | None = None, command_id: str | None = None
    ) -> tuple[AnyGame, Table, Look]:
        """:meth:`load`, and in the same round trip what :meth:`EventStore.look` reads
        for a token and a command id."""
        if not valid_game_id(game_id):
            raise ApiError(404, "unknown_game", "There is no game with that id.")
        # Both taken before the read: another request may cache a newer table meanwhile.
        cached, cached_link = self.cache.get(game_id), self.heads.get(game_id)
        # Read from the cached version itself, to check it is still the event we folded.
        look = await self.store.look(
            game_id, cached.version - 1 if cached else 0, token_hash=token_hash, command_id=command_id
        )
        entries, head = look.entries, look.head
        if cached is not None:
            if head == 0:  # deleted (expired or archived) since we cached it
                self.forget(game_id)
                raise ApiError(404, "unknown_game", "There is no game with that id.")
            if head < cached.version or not entries or entries[0].link != cached_link:
                # The stream went backwards (a failover lost acknowledged writes), and may
                # have been written past them again: forget what we folded and start
                # again from what Redis holds.
                log.warning("game %s: the stream lost versions this replica had seen; reloading it", game_id)
                self.forget(game_id)
                return await self.look(game_id, token_hash, command_id)
            entries = entries[1:]
        if cached is None and not entries:
            raise ApiError(404, "unknown_game", "There is no game with that id.")
        kind = cached.game if cached else TABLE_OPENED.decode(entries[0].data).game
        codec = self.codecs[kind]
        table = fold(codec.game, cached, codec.decode_events(entries))
        assert table is not None
        self.remember(game_id, table, entries[-1].link if entries else cached_link)
        return codec.game, table, look

    async def sit(self, game_id: str, token: str | None, command_id: str | None = None) -> Seated:
        """The game, caught up, and who is asking: a seat, or ``None`` for a spectator.

        With the ``command_id`` of a command about to be sent, what :meth:`command` reads
        first comes in the same round trip (``Seated.look``).
        """
        hashed = token_hash(token) if token is not None else None
        # 404 before 401: an unknown game is unknown to everyone
        game, table, look = await self.look(game_id, hashed, command_id)
        seat = look.seat if look.seat is not None else await self.seat_of(game_id, token)
        if hashed is not None and seat is not None and game_id in self.cache:
            self.seats.setdefault(game_id, {})[hashed] = seat
        return Seated(game_id, game, table, seat, look if command_id is not None else None)

    def cached(self, game_id: str, token: str | None) -> Seated | None:
        """A command's game and seat from this replica's cache alone, without a read; or
        ``None`` when that is not enough: the game or the token's seat is not cached here,
        or the game keeps time (its decisions need the shared clock, read from Redis).

        The cached table may be behind the stream: :meth:`command` decides on it and its
        append checks the version and the chain link; when those differ, or the command is
        refused, it reads and decides again (a retried command is answered from its record).
        """
        seat = self.seats.get(game_id, {}).get(token_hash(token)) if token is not None else None
        return None if seat is None else self.cached_seat(game_id, seat)

    def cached_seat(self, game_id: str, seat: int) -> Seated | None:
        """:meth:`cached`, for a seat already known (a WebSocket's)."""
        table = self.cache.get(game_id)
        if table is None or keeps_time(self.games[table.game], table):
            return None
        return Seated(game_id, self.games[table.game], table, seat, cached=True)

    def remember(self, game_id: str, table: Table, head: str | None) -> None:
        """Cache ``table``, whose last event has the chain link ``head``."""
        current = self.cache.get(game_id)
        if current is None or current.version <= table.version:
            if head is None:
                self.forget(game_id)
                return
            self.cache[game_id] = table
            self.heads[game_id] = head
        self.cache.move_to_end(game_id)
        while len(self.cache) > self.cache_size:
            evicted, _ = self.cache.popitem(last=False)
            self.heads.pop(evicted, None)
            self.seats.pop(evicted, None)

    def forget(self, game_id: str) -> None:
        self.cache.pop(game_id, None)
        self.heads.pop(game_id, None)
        self.seats.pop(game_id, None)

    def link_of(self, game_id: str, table: Table) -> str:
        """The chain link of ``table``'s last event, when it is the table cached here ('' if not known)."""
        return self.heads.get(game_id, "") if self.cache.get(game_id) is table else ""

    async def read(self, game: AnyGame, game_id: str, after: int, until: int) -> list[tuple[int, Any]]:
        """Decoded events in ``(after, until]``."""
        if until <= after:
            return []
        entries = await self.store.read_entries(game_id, after=after, limit=until - after)
        return self.codecs[game.id].decode_entries(entries)

    async def ctx(self) -> Ctx:
        return Ctx(rng=self.rng, now_ms=await self.store.now_ms())

    # -- seats -------------------------------------------------------------------

    async def seat_of(self, game_id: str, token: str | None) -> int | None:
        """The seat a token holds in this game; ``None`` for a spectator (no token)."""
        if token is None:
            return None
        seat = await self.store.seat_for_token(game_id, token_hash(token))
        if seat is not None:
            return seat
        other, _, _ = token.partition(".")
        if (
            other != game_id
            and valid_game_id(other)
            and await self.store.seat_for_token(other, token_hash(token)) is not None
        ):
            raise ApiError(403, "not_seated", "That token holds a seat in another game, not this one.")
        raise ApiError(401, "unknown_token", "That token is not known here.")

    # -- commands ----------------------------------------------------------------

    async def command(
        self, at: Seated, seat: int, body: bytes, command_id: str, expected_version: int | None
    ) -> CommandAnswer:
        """``seat``'s command on the game ``at`` was loaded for (it is caught up again after a conflict)."""
        try:
            answer = await self._command(at, seat, body, command_id, expected_version)
        except ApiError as exc:
            if self.metrics is not None:
                self.metrics.commands.labels(at.game.id, result_class(exc.status)).inc()
            raise
        if self.metrics is not None:
            self.metrics.commands.labels(at.game.id, "accepted").inc()
        return answer

    async def _command(
        self, at: Seated, seat: int, body: bytes, command_id: str, expected_version: int | None
    ) -> CommandAnswer:
        game_id, game, table = at.game_id, at.game, at.table
        command = self.decode_command(game, body)
        body_hash = hashlib.sha256(encode(command)).hexdigest()
        look: Look | None = at.look if at.look is not None and at.look.command_id == command_id else None
        if at.cached:
            # Decided on the cached table with no read first: the append checks the version,
            # the chain link and the command id. Anything else - a refusal, a version the
            # client did not expect, a conflict - is settled by reading and deciding again.
            landed = await self._optimistic(at, seat, command, body_hash, command_id, expected_version)
            if landed is not None:
                return landed
            game, table, look = await self.look(game_id, command_id=command_id)
            seat = acting_seat(Seated(game_id, game, table, seat))
        known = look.record if look is not None else await self.store.command(game_id, command_id)
        if known is not None:
            return await self._answer_again(game, game_id, seat, body_hash, known)
        now_ms = look.now_ms if look is not None else None
        for attempt in range(self.command_retries):
            if attempt:
                game, table = await self.load(game_id)
                now_ms = None
                if self.metrics is not None:
                    self.metrics.retries.labels(game.id).inc()
            if expected_version is not None and expected_version != table.version:
                raise ApiError(
                    409,
                    "version_conflict",
                    f"The game is at version {table.version}, not {expected_version}.",
                    {"version": table.version},
                )
            try:
                ctx = Ctx(rng=self.rng, now_ms=now_ms) if now_ms is not None else await self.ctx()
                events = decide_at_table(game, table, command, seat, ctx)
            except Rejected as exc:
                raise rejected(exc) from None
            result = await self._append(game_id, game, table, events, seat, body_hash, command_id)
            if not isinstance(result, Conflict):
                return result
            if expected_version is not None:
                raise ApiError(
                    409, "version_conflict", "Another command landed first.", {"version": result.current_version}
                )
        raise ApiError(409, "version_conflict", "The game kept changing; send the command again.")

    async def _optimistic(
        self, at: Seated, seat: int, command: Any, body_hash: str, command_id: str, expected_version: int | None
    ) -> CommandAnswer | None:
        """The command decided on the cached table and appended, in one round trip; ``None``
        when it must be read and decided again (see :meth:`cached`)."""
        game, table = at.game, at.table
        if expected_version is not None and expected_version != table.version:
            return None
        try:
            events = decide_at_table(game, table, command, seat, Ctx(rng=self.rng))  # the game keeps no time
        except Rejected:
            return None
        result = await self._append(at.game_id, game, table, events, seat, body_hash, command_id)
        return None if isinstance(result, Conflict) else result

    async def _append(
        self, game_id: str, game: AnyGame, table: Table, events: list[Any], seat: int, body_hash: str, command_id: str
    ) -> CommandAnswer | Conflict:
        """Append a command's ``events`` decided on ``table``: the answer, or the conflict."""
        first, last = table.version + 1, table.version + len(events)
        record = encode(CommandRecord(seat, body_hash, first, last))
        new_table, result = await self.append(game_id, game, table, events, command_id=command_id, record=record)
        if isinstance(result, Appended):
            mine = feed(game, zip(range(first, last + 1), events, strict=True), seat, is_revealed(game, new_table))
            return CommandAnswer(last, mine)
        if isinstance(result, Duplicate):
            return await self._answer_again(game, game_id, seat, body_hash, result.record)
        if self.metrics is not None:
            self.metrics.conflicts.labels(game.id).inc()
        return result

    async def append(
        self,
        game_id: str,
        game: AnyGame,
        table: Table,
        events: list[Any],
        *,
        command_id: str | None = None,
        record: bytes = b"",
        tokens: Mapping[str, int] | None = None,
    ) -> tuple[Table, AppendResult]:
        """Append ``events`` decided on ``table`` if the stream is still there: the table after
        them, and what the store answered (on success this replica's cache and feeds know)."""
        new_table = fold(game, table, events)
        assert new_table is not None
        result = await self.store.append(
            game_id,
            table.version,
            [encode(e) for e in events],
            schema=game.event_schema,
            command_id=command_id,
            command_record=record,
            meta=meta_fields(lobby_entry(game, game_id, new_table)),
            tokens=tokens,
            expected_link=self.link_of(game_id, table),
        )
        if isinstance(result, Appended):
            await self.appended(game_id, game, table, new_table, result.link, events)
        elif isinstance(result, Conflict) and result.current_version < table.version:
            self.forget(game_id)  # the stream went backwards: our fold is of writes Redis lost
        return new_table, result

    def decode_command(self, game: AnyGame, body: bytes) -> Any:
        try:
            return self.codecs[game.id].commands.decode(body)
        except BAD_JSON as exc:
            raise malformed(exc, prefix="command") from None

    async def _answer_again(
        self, game: AnyGame, game_id: str, seat: int, body_hash: str, stored: bytes
    ) -> CommandAnswer:
        record = RECORD.decode(stored)
        if record.seat != seat or record.hash != body_hash:
            raise ApiError(409, "command_id_reused", "That command id was already used for another command.")
        _, table = await self.load(game_id)
        events = await self.read(game, game_id, record.first - 1, record.last)
        return CommandAnswer(record.last, feed(game, events, seat, is_revealed(game, table)))

    async def appended(
        self, game_id: str, game: AnyGame, before: Table, after: Table, link: str, events: Sequence[Any] | None = None
    ) -> None:
        """This replica appended ``events`` (when given) to ``before``, which made ``after``."""
        # The link of ``before`` is known when ``before`` is still the table this replica caches.
        previous = self.link_of(game_id, before)
        self.remember(game_id, after, link or self.heads.get(game_id))
        if self.on_change is not None and events is not None and previous and link:
            self.on_change(Change(game_id, game, before, after, events, previous, link))
        await self.schedule(game_id, game, after)
        if status(game, before) != status(game, after):
            meta = await self.store.meta(game_id)
            await self.file(game_id, game, after, int(meta["sequence"]))
        if self.on_append is not None:
            self.on_append(game_id)

    async def file(self, game_id: str, game: AnyGame, table: Table, sequence: int) -> None:
        """File the game in the lobby index under its status; a finished game also by when it finished."""
        current = status(game, table)
        finished = None
        if current == "finished":
            now = await self.store.now_ms()
            finished = await self.store.stamp(game_id, "finished_ms", now) or now
        await self.store.index(game_id, current, sequence, finished)

    async def schedule(self, game_id: str, game: AnyGame, table: Table) -> None:
        """File the game's open windows in the due index (closed ones drop out when due)."""
        if keeps_time(game, table) and status(game, table) == "active":
            await self.store.schedule(game_id, {d.window: d.due_ms for d in open_windows(game, table)})

    # -- reads ---------------------------------------------------------------------

    def view(self, at: Seated) -> TableView:
        return table_view(at.game, at.game_id, at.table, at.seat)

    async def events(self, at: Seated, after: int, limit: int) -> tuple[int, list[VersionedEvent]]:
        events = await self.read(at.game, at.game_id, after, min(at.table.version, after + limit))
        return at.table.version, feed(at.game, events, at.seat, is_revealed(at.game, at.table))

    async def replay(self, at: Seated, version: int, as_: str | None) -> TableView:
        game, table = at.game, at.table
        if not 1 <= version <= table.version:
            raise ApiError(400, "no_such_version", f"Versions run from 1 to {table.version}.", {"field": "version"})
        viewer: Viewer = at.seat
        if as_ is not None and as_ != str(at.seat):
            if status(game, table) != "finished":
                raise ApiError(403, "game_not_finished", "Other seats' views open up once the game is over.")
            viewer = FULL if as_ == "full" else self._seat_param(as_, table.players)
        events = await self.read(game, at.game_id, 0, version)
        return replay(game, at.game_id, events, version, viewer)

    @staticmethod
    def _seat_param(value: str, players: int) -> int:
        if value.isascii() and value.isdigit() and int(value) < players:
            return int(value)
        raise ApiError(400, "malformed", f"'as' is a seat from 0 to {players - 1}, or 'full'.", {"field": "as"})

    def legal(self, at: Seated) -> tuple[Step, list[Any], bool, list[int]]:
        """The caller's first step of a move, the commands of its moves that are few (and whether
        that is all of them), and the versions it may go back to with ``Undo``.

        Nothing for a spectator, or for a person whose seat a bot plays since they left."""
        first = move_step(at.game, at.table, at.seat)
        listed, every = listed_commands(at.game, at.table, at.seat, first)
        undo = undo_versions(at.table, at.seat) if at.seat is not None and may_move(at.game, at.table, at.seat) else []
        return first, listed, every, undo

    def moves(self, at: Seated, picks: tuple[Pick, ...]) -> Step:
        """The caller's next step after ``picks`` (a pick that was not offered: 422 ``not_offered``)."""
        try:
            return move_step(at.game, at.table, at.seat, picks)
        except Rejected as exc:
            raise rejected(exc) from None

    async def export_lines(self, game_id: str) -> list[bytes]:
        """The whole log, one ``{"version", "schema", "event"}`` JSON object a line."""
        _, table = await self.load(game_id)
        entries = await self.store.read_entries(game_id, after=0, limit=table.version)
        return [b'{"version":%d,"schema":%d,"event":%s}' % (e.version, e.schema, e.data) for e in entries]
