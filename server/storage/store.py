"""The event store on Redis: one game's keys and the calls on them (the Lua scripts they run are
server/storage/scripts.py; the pub/sub hint of each append, server/storage/notify.py).

Each game has five keys, all with the hash tag ``{<game_id>}`` (one Redis Cluster slot,
so every script of this module touches one node; server/storage/keys.py spells them):

``lt:{<game_id>}:events``
    the stream. Entry IDs are ``0-<version>``, versions contiguous from 1. Each entry
    has the fields ``e`` (the encoded event, opaque to the store), ``s`` (its schema
    version) and ``h`` (its chain link, see :class:`StoredEvent`).
``lt:{<game_id>}:commands``
    hash ``"<sender> <command_id>" -> record``: a command id is its sender's own (a
    seat, a bot, the clock), so nobody's id can collide with anyone else's. The record
    is opaque bytes (the caller keeps the body's hash and the versions in it).
``lt:{<game_id>}:meta``
    hash of short string fields (game type, status, ...); the append stamps ``touched_ms``
    (Redis TIME of the last event, or of its last return from the cold tier), and ``cold``
    (``"<version> <link>"``) says the stream and the command records are in the cold tier
    (server/storage/cold.py): every read and append brings them back first, entry ids and
    fields as they were.
``lt:{<game_id>}:tokens``
    hash ``sha256(token) hex -> seat``.
``lt:{<game_id>}:snapshots``
    sorted set of table snapshots scored by their version: only a cache, opaque to the
    store, written after the append that crossed one (server/service/snapshots.py says why a
    snapshot can never change what a reader sees).

The channel ``lt:notify`` carries ``"<game_id> <version>"`` after each append
(server/storage/notify.py). It is only a hint: the stream is the truth, and readers
sweep after a reconnect or periodically. What spans games (the lobby index, deadlines, the bots' queue, quotas,
leases, presence, the check secret) lives in modules of its own (server/storage/keys.py).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

import msgspec

from server.storage.cold import ColdTier, ColdTierError, Frozen
from server.storage.connection import Client, lean
from server.storage.groupcommit import GroupCommit
from server.storage.keys import COMMANDS, EVENTS, META, SNAPSHOTS, TOKENS
from server.storage.notify import NOTIFY_CHANNEL
from server.storage.resp.client import Pipe, Script, call, value
from server.storage.scripts import APPEND_LUA, DELETE_LUA, FREEZE_LUA, LOOK_LUA, SNAPSHOT_LUA, STAMP_LUA, THAW_LUA

__all__ = [
    "AppendResult",
    "Appended",
    "CommandKey",
    "Conflict",
    "Duplicate",
    "EventStore",
    "Head",
    "Look",
    "StoredEvent",
    "events_key",
]

log = logging.getLogger(__name__)

HEADS_BATCH: Final = 500  # games whose heads are read in one batch (a few ms of the loop to build and read)

# A game id becomes part of a hash tag and of the space-separated notification.
_GAME_ID = re.compile(r"[^\s{}]{1,200}")
_SENDER = re.compile(r"[^\s]{1,50}")  # the record's field is "<sender> <command_id>"


def _check_game_id(game_id: str) -> str:
    if not isinstance(game_id, str) or not _GAME_ID.fullmatch(game_id):
        raise ValueError(f"invalid game id {game_id!r}: 1-200 characters, no whitespace and no braces")
    return game_id


def events_key(game_id: str) -> str:
    return EVENTS.at(game_id=game_id)


def _game_keys(game_id: str) -> list[str]:
    # Readers take any id (a malformed one simply finds nothing); writers check it first.
    return [key.at(game_id=game_id) for key in (EVENTS, COMMANDS, META, TOKENS)]


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


def _stored(entry_id: bytes | str, entry: dict[Any, Any] | list[Any]) -> StoredEvent:
    fields = _as_dict(entry)  # a list as Redis sends it (redis-py's own pipeline makes it a dict)
    data = fields.get(b"e")
    if data is None:  # a client that decodes replies to text (this module's own reply bytes)
        fields = {_bytes(k): _bytes(v) for k, v in fields.items()}
        data = fields.get(b"e", b"")
    link = fields.get(b"h")
    return StoredEvent(_version_of(entry_id), int(fields.get(b"s", 1)), data, link.decode() if link else "")


def _flat(fields: list[Any] | dict[Any, Any]) -> list[Any]:
    """Field-value pairs as Redis sends them (``[field, value, ...]``), a dict flattened back."""
    return [x for pair in fields.items() for x in pair] if isinstance(fields, dict) else fields


def _as_dict(fields: list[Any] | dict[Any, Any]) -> dict[Any, Any]:
    """Field-value pairs as a dict, whether Redis's flat list or a dict a client made of it."""
    return fields if isinstance(fields, dict) else dict(zip(fields[::2], fields[1::2], strict=True))


def _bytes(value: bytes | str) -> bytes:
    return value.encode() if isinstance(value, str) else bytes(value)


def time_ms(time: tuple[int, int]) -> int:
    """Redis ``TIME`` (seconds, microseconds) in milliseconds."""
    seconds, micros = time
    return int(seconds) * 1000 + int(micros) // 1000


def _version_of(entry_id: bytes | str) -> int:
    """``0-<n>`` -> n (the append script writes every id so, and refuses to append after any other)."""
    return int(entry_id[2:])


# -- results -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Appended:
    """The events landed; ``version`` is the version of the last one, ``link`` its chain link."""

    version: int
    link: str = ""

    @property
    def head(self) -> Head:
        return Head(self.version, self.link)


@dataclass(frozen=True, slots=True)
class Conflict:
    """``expected_version`` was stale; nothing was written."""

    current_version: int


@dataclass(frozen=True, slots=True)
class Duplicate:
    """The command id was already used; nothing was written. ``record`` is what was stored with it."""

    record: bytes


AppendResult = Appended | Conflict | Duplicate


class StoredEvent(msgspec.Struct, frozen=True):
    """One stream entry: its version, event schema version and encoded event.

    ``link`` chains the stream: the SHA-1 of the previous entry's link and this event's
    bytes, so one link names the whole history up to its version. A stream that lost
    writes and was written past them again has another link at the same version, even
    when the new event's bytes happen to equal the lost one's.
    """

    version: int
    schema: int
    data: bytes
    link: str = ""


@dataclass(frozen=True, slots=True)
class Head:
    """Where a history ends: the version of its last event and that event's chain link
    (``Head(0)``: no event yet). One link names the whole history up to it, so a head
    answers whether a stream still continues the history a reader holds.

    Redis can lose acknowledged writes (a failover, a crash under ``everysec``) and be
    written past them again: the stream is then shorter than what a reader folded, or
    holds other events at the same versions. Every reader that caches a history keeps
    its head and asks it, rather than comparing versions and links by hand.
    """

    version: int
    link: str = ""

    def continued_by(self, entries: Sequence[StoredEvent]) -> bool:
        """Whether ``entries``, read from this head's own version on, continue the history it ends:
        the first of them is the event at this version, with this link (a history of no events
        is continued by anything)."""
        if self.version == 0:
            return True
        return bool(entries) and entries[0].version == self.version and entries[0].link == self.link

    def after(self, entries: Sequence[StoredEvent]) -> Head:
        """The head of this history once ``entries`` (read from this head's version on) are added."""
        if entries and entries[-1].version >= self.version:
            return Head(entries[-1].version, entries[-1].link)
        return self


def head_of(entry: StoredEvent | None) -> Head:
    return Head(0) if entry is None else Head(entry.version, entry.link)


@dataclass(frozen=True, slots=True)
class CommandKey:
    """A command id within its sender's scope: ``sender`` names who sent it (``seat:0``, ``bot:1``,
    ``clock``), so the same id from two senders names two commands.

    ``legacy_seat``: records written before ids were scoped are kept under the bare id, as a
    JSON object naming its seat; one of those counts for this sender when its seat is
    ``legacy_seat`` (a person's retry across the upgrade is still answered, not applied twice).
    """

    sender: str
    command_id: str
    legacy_seat: int | None = None

    @property
    def field(self) -> str:
        return f"{self.sender} {self.command_id}"

    def args(self) -> list[str]:
        """The script arguments: the field, the bare id and the legacy seat ('' for none)."""
        legacy = "" if self.legacy_seat is None else str(self.legacy_seat)
        return [self.field, self.command_id, legacy]


@dataclass(frozen=True, slots=True)
class Look:
    """What :meth:`EventStore.look` read: the events after a version, the stream's last
    version, and, when asked, a token's seat, a command's record and the clock (ms)."""

    entries: list[StoredEvent]
    head: int
    seat: int | None = None
    command: CommandKey | None = None  # the command whose record was read
    record: bytes | None = None
    now_ms: int | None = None


def _legacy(record: bytes | None, seat: int | None) -> bytes | None:
    """A record kept under a bare id, if it counts for ``seat`` (what ``recorded`` does in Lua)."""
    if record is None or seat is None:
        return None
    try:
        decoded = msgspec.json.decode(record)
    except msgspec.DecodeError:
        return None
    return record if isinstance(decoded, dict) and decoded.get("seat") == seat else None


# -- the store -----------------------------------------------------------------


class EventStore:
    """Streams of events per game on one ``redis.asyncio.Redis`` (created by :func:`connect`).

    Redis errors (connection refused, timeouts) propagate as ``redis.exceptions``
    errors; the server maps them to 503.
    """

    def __init__(self, redis: Client, cold: ColdTier | None = None, wait: tuple[int, int] | None = None) -> None:
        """``wait``: (replicas, milliseconds) each append waits for (``WAIT``, server/storage/groupcommit.py);
        a single primary's only (``redis://``, ``redis+sentinel://``)."""
        self.redis = redis
        self.cold = cold  # where dormant games' histories wait (None: they stay in Redis)
        # A loop turn's appends share one round trip (server/storage/groupcommit.py); they and the look,
        # which every socket's opening and every command of a game that keeps time runs, go over
        # the client's lean connection (server/storage/resp/client.py).
        self._pipe = pipe = lean(redis)
        if wait is not None and not isinstance(pipe, Pipe):
            raise ValueError("WAIT for replicas needs a single primary (redis:// or redis+sentinel://), not a Cluster")
        self._append = GroupCommit(pipe, redis.script_load, APPEND_LUA, wait)
        self._look = Script(pipe, redis.script_load, LOOK_LUA)
        self._delete = redis.register_script(DELETE_LUA)
        self._stamp = redis.register_script(STAMP_LUA)
        self._snapshot = redis.register_script(SNAPSHOT_LUA)
        self._freeze = redis.register_script(FREEZE_LUA)
        self._thaw_script = redis.register_script(THAW_LUA)

    async def append(
        self,
        game_id: str,
        expected_version: int,
        events: Sequence[bytes],
        *,
        schema: int = 1,
        command: CommandKey | None = None,
        command_record: bytes = b"",
        meta: Mapping[str, str | int] | None = None,
        tokens: Mapping[str, int] | None = None,
        expected_link: str = "",
    ) -> AppendResult:
        """Append ``events`` if the game is at ``expected_version``: all of them or none.

        In one script, in this order: a ``command`` its sender already sent answers
        :class:`Duplicate` with the record stored the first time (whatever the
        expected version); a stale ``expected_version`` answers :class:`Conflict`;
        otherwise the events get versions ``expected_version + 1 ...``, the command
        record, ``meta`` fields and ``tokens`` (token hash -> seat; seat -1 deletes the entry) are written,
        ``"<game_id> <version>"`` is published on ``lt:notify`` (only when events were
        appended) and :class:`Appended` carries the new version. An empty ``events``
        list writes only the command record, meta and tokens. Given an
        ``expected_link``, the last event's chain link must be it too: a stream that
        lost writes and was written back to the same length is a conflict.

        The appends made within one turn of the event loop share one round trip (group
        commit, server/storage/groupcommit.py); each is still answered only once Redis ran it.
        """
        keys = _game_keys(_check_game_id(game_id))
        if isinstance(expected_version, bool) or not isinstance(expected_version, int) or expected_version < 0:
            raise ValueError(f"expected_version must be an int >= 0, not {expected_version!r}")
        if isinstance(schema, bool) or not isinstance(schema, int) or schema < 0:
            raise ValueError(f"schema must be an int >= 0, not {schema!r}")
        if command is not None and (not command.command_id or not _SENDER.fullmatch(command.sender)):
            raise ValueError(f"a command needs a non-empty id and a sender without spaces, not {command!r}")
        args: list[bytes | str | int] = [
            game_id,
            expected_version,
            "1" if command is not None else "0",
            *(command.args() if command is not None else ["", "", ""]),
            command_record,
            schema,
            expected_link,
            NOTIFY_CHANNEL,
            len(events),
        ]
        for event in events:
            if not isinstance(event, (bytes, bytearray, memoryview)):
                raise TypeError(f"events must be bytes, not {type(event).__name__}")
            args.append(bytes(event))
        meta_items = list((meta or {}).items())
        args.append(len(meta_items))
        for field, given in meta_items:
            args += [field, str(given)]
        token_items = list((tokens or {}).items())
        args.append(len(token_items))
        for token_hash, seat in token_items:
            args += [token_hash, int(seat)]

        reply = await self._append(keys, args)
        kind = _text(reply[0])
        if kind == "cold":  # dormant: its history comes back first, then the append runs as sent
            await self._thaw(game_id)
            reply = await self._append(keys, args)
            kind = _text(reply[0])
        if kind == "ok":
            return Appended(int(reply[1]), _text(reply[2]))
        if kind == "conflict":
            return Conflict(int(reply[1]))
        if kind == "dup":
            return Duplicate(_bytes(reply[1]))
        raise RuntimeError(f"unexpected answer from the append script: {reply!r}")  # pragma: no cover

    async def read(self, game_id: str, after: int = 0, limit: int | None = None) -> list[tuple[int, bytes]]:
        """``(version, event bytes)`` for the versions after ``after``, oldest first, at most ``limit``."""
        return [(e.version, e.data) for e in await self.read_entries(game_id, after, limit)]

    async def read_entries(self, game_id: str, after: int = 0, limit: int | None = None) -> list[StoredEvent]:
        """Like :meth:`read`, with each event's schema version and chain link."""
        if after < 0:
            raise ValueError(f"after must be >= 0, not {after}")
        if limit is not None and limit <= 0:
            return []
        count = ["COUNT", limit] if limit is not None else []
        entries: Any = await call(self._pipe, "XRANGE", events_key(game_id), f"0-{after + 1}", "+", *count)
        if not entries:  # dormant, or brought back by another replica since that read: read again
            await self._thaw(game_id)
            entries = await call(self._pipe, "XRANGE", events_key(game_id), f"0-{after + 1}", "+", *count)
        return [_stored(entry_id, fields) for entry_id, fields in entries]

    async def catch_up(self, game_id: str, after: int) -> tuple[list[StoredEvent], int]:
        """The events after ``after`` and the stream's last version, in one round trip.

        A last version below ``after`` means the stream went backwards (lost writes).
        """
        look = await self.look(game_id, after)
        return look.entries, look.head

    async def look(
        self,
        game_id: str,
        after: int,
        *,
        token_hash: str | None = None,
        command: CommandKey | None = None,
        limit: int | None = None,
        retry: bool = True,
    ) -> Look:
        """What a request needs before it decides, in one round trip: the events after
        ``after`` and the stream's last version (as :meth:`catch_up`), the seat of
        ``token_hash`` (as :meth:`seat_for_token`), and, given a ``command``, its
        record (as :meth:`command`) and the shared clock (as :meth:`now_ms`).

        Every key is the game's (one hash tag), so this works on Redis Cluster too. A
        replica that has the game cached reads a few entries: one read-only script, cheaper
        for this process than a pipeline of the same commands. A first load
        reads the whole stream: a pipeline, since Lua would copy every entry twice, and
        without the clock (a cluster pipeline cannot carry the keyless TIME: the command
        reads it itself, on that rare path). ``limit``: read at most this many events (a
        long stream is read a page at a time, so no reply holds the event loop long).
        """
        events, commands, meta, tokens = _game_keys(game_id)
        if after > 0:
            scoped = ["1", *command.args()] if command is not None else ["0", "", "", ""]
            args = [f"0-{after + 1}", token_hash or "", *scoped, limit or 0]
            reply = await self._look(keys=[events, commands, tokens, meta], args=args)
            if reply and reply[0] == b"cold":
                await self._thaw(game_id)
                reply = await self._look(keys=[events, commands, tokens, meta], args=args)
            entries, last, seat, found, now = reply
            return Look(
                entries=[_stored(entry_id, fields) for entry_id, fields in entries],
                head=0 if last is None else _version_of(last),
                seat=None if seat is None else int(seat),
                command=command,
                record=None if found is None else _bytes(found),
                now_ms=None if now is None else time_ms(now),
            )
        pipe = self.redis.pipeline(transaction=False)
        pipe.xrange(events, f"0-{after + 1}", "+", count=limit)
        pipe.xrevrange(events, "+", "-", count=1)
        if token_hash is not None:
            pipe.hget(tokens, token_hash)
        if command is not None:
            pipe.hmget(commands, [command.field, command.command_id])
        pipe.hexists(meta, "cold")
        read = await pipe.execute()
        # Dormant, or (no event) brought back by another replica between the two reads: again.
        if read[-1] or (not read[1] and retry):
            await self._thaw(game_id)
            return await self.look(game_id, after, token_hash=token_hash, command=command, limit=limit, retry=False)
        replies = iter(read)
        entries, last = next(replies), next(replies)
        seat = next(replies) if token_hash is not None else None
        record: bytes | None = None
        if command is not None:
            own, old = next(replies)
            record = (
                _bytes(own) if own is not None else _legacy(None if old is None else _bytes(old), command.legacy_seat)
            )
        return Look(
            entries=[_stored(entry_id, fields) for entry_id, fields in entries],
            head=_version_of(last[0][0]) if last else 0,
            seat=None if seat is None else int(seat),
            command=command,
            record=record,
            now_ms=None,
        )

    async def heads(self, game_ids: Sequence[str]) -> dict[str, Head]:
        """Each game's head (``Head(0)`` for no events), on the lean connection, a batch of games
        at a time: the feeds' sweep reads every watched game's, thousands on a busy replica,
        so that no batch holds the loop long (docs/performance.md, "Levers")."""
        heads = {}
        for start in range(0, len(game_ids), HEADS_BATCH):
            batch = game_ids[start : start + HEADS_BATCH]
            replies = await self._pipe([("XREVRANGE", events_key(g), "+", "-", "COUNT", 1) for g in batch])
            empty = []
            for game_id, reply in zip(batch, replies, strict=True):
                last = value(reply)
                heads[game_id] = head_of(_stored(*last[0]) if last else None)
                if not last:
                    empty.append(game_id)
            heads.update(await self._cold_heads(empty))
        return heads

    async def _cold_heads(self, game_ids: list[str]) -> dict[str, Head]:
        """The heads of those of ``game_ids`` that are dormant, from their markers: a socket watching a
        dormant game does not bring its history back."""
        if not game_ids:
            return {}
        replies = await self._pipe(
            [(command, *args) for g in game_ids for command, *args in (("HGET", META.at(game_id=g), "cold"),
             ("XREVRANGE", events_key(g), "+", "-", "COUNT", 1))]
        )  # fmt: skip
        heads = {}
        for n, game_id in enumerate(game_ids):
            marker, last = value(replies[2 * n]), value(replies[2 * n + 1])
            if marker is not None:
                version, _, link = _text(marker).partition(" ")
                heads[game_id] = Head(int(version), link)
            elif last:  # brought back by another replica since the first read
                heads[game_id] = head_of(_stored(*last[0]))
        return heads

    async def head_at(self, game_id: str, version: int) -> Head | None:
        """The head of the history up to ``version`` (``None``: the stream holds no such version)."""
        if version <= 0:
            return None
        entries = await self.read_entries(game_id, after=version - 1, limit=1)
        return head_of(entries[0]) if entries and entries[0].version == version else None

    async def version(self, game_id: str) -> int:
        """The version of the last event (0 when the game has none)."""
        last: Any = await self.redis.xrevrange(events_key(game_id), "+", "-", count=1)
        if not last:
            return (await self._cold_heads([game_id])).get(game_id, Head(0)).version
        return _version_of(last[0][0])

    async def command(self, game_id: str, command: CommandKey) -> bytes | None:
        """The record stored with ``command``, or None if its sender never used that id."""
        own, old = await self.redis.hmget(_game_keys(game_id)[1], [command.field, command.command_id])
        if own is None and old is None and await self._thaw(game_id):
            own, old = await self.redis.hmget(_game_keys(game_id)[1], [command.field, command.command_id])
        if own is not None:
            return _bytes(own)
        return _legacy(None if old is None else _bytes(old), command.legacy_seat)

    async def meta(self, game_id: str) -> dict[str, str]:
        raw = await self.redis.hgetall(_game_keys(game_id)[2])
        return {_text(k): _text(v) for k, v in raw.items()}

    async def stamp(self, game_id: str, field: str, value: int) -> int | None:
        """Set an int meta field unless it is set; the field's value either way (None: no such game)."""
        stamped = await self._stamp(keys=[_game_keys(_check_game_id(game_id))[2]], args=[field, value])
        return None if stamped is None else int(stamped)

    async def delete_game(self, game_id: str, status: str) -> bool | None:
        """Delete every key of the game if its meta status is still ``status``: True; False when it
        has another status; None when there is no such game."""
        keys = [*_game_keys(_check_game_id(game_id)), SNAPSHOTS.at(game_id=game_id)]
        deleted = int(await self._delete(keys=keys, args=[status]))
        if deleted == 1 and self.cold is not None:
            await self.cold.remove(game_id)
        return None if deleted < 0 else deleted == 1

    async def snapshots(self, game_id: str, at_most: int | None = None, count: int = 3) -> list[bytes]:
        """The game's newest ``count`` snapshots at or below version ``at_most`` (any: ``None``), newest first."""
        top = "+inf" if at_most is None else at_most
        found: Any = await self.redis.zrevrangebyscore(SNAPSHOTS.at(game_id=game_id), top, "-inf", start=0, num=count)
        return [_bytes(data) for data in found]

    async def keep_snapshot(self, game_id: str, head: Head, data: bytes) -> bool:
        """Keep a snapshot of the table at ``head``, if the stream still holds ``head``'s link at its
        version (replacing any other of that version): whether it was kept."""
        keys = [events_key(game_id), SNAPSHOTS.at(game_id=_check_game_id(game_id))]
        return bool(await self._snapshot(keys=keys, args=[head.version, head.link, data]))

    async def command_records(self, game_id: str) -> dict[str, bytes]:
        """Every command record of the game, by its field: ``<sender> <command id>`` (a bare id for
        records written before ids were scoped). An export carries them: a verifier decides each
        command again (docs/fair-play.md)."""
        await self._thaw(game_id)
        raw = await self.redis.hgetall(_game_keys(game_id)[1])
        return {_text(k): v if isinstance(v, bytes) else v.encode() for k, v in raw.items()}

    async def keep_command_records(self, game_id: str, records: dict[str, bytes]) -> None:
        """Write command records back (an imported game's, read from its export)."""
        if records:
            await self.redis.hset(_game_keys(_check_game_id(game_id))[1], mapping=records)  # type: ignore[arg-type]

    async def seat_for_token(self, game_id: str, token_hash: str) -> int | None:
        seat = await self.redis.hget(_game_keys(game_id)[3], token_hash)
        return None if seat is None else int(seat)

    async def tokens_of_seat(self, game_id: str, seat: int) -> list[str]:
        """Every entry of the game's tokens that holds ``seat`` (token hashes, ``player:<id>``...)."""
        held: Any = await self.redis.hgetall(_game_keys(game_id)[3])
        return [_text(field) for field, value in held.items() if int(value) == seat]

    async def exists(self, game_id: str) -> bool:
        """Whether the game has at least one event (in Redis, or in the cold tier)."""
        events, _, meta, _ = _game_keys(game_id)
        pipe = self.redis.pipeline(transaction=False)
        pipe.exists(events)
        pipe.hexists(meta, "cold")
        return any(await pipe.execute())

    async def all_game_ids(self) -> list[str]:
        """Every game that has a stream (SCAN), dormant ones too, sorted; for rebuilding the index
        from the streams.

        On Redis Cluster, run it against each primary.
        """
        found: set[str] = set()
        async for key in self.redis.scan_iter(match=EVENTS.at(game_id="*"), count=1000):
            parts = EVENTS.parts(_text(key))
            if parts is not None:
                found.add(parts["game_id"])
        # A meta without a stream is a dormant game's (its history in the cold tier) or a game being
        # made: asked of Redis a thousand keys at a round trip, not one.
        metas: list[tuple[str, str]] = []
        async for key in self.redis.scan_iter(match=META.at(game_id="*"), count=1000):
            parts = META.parts(_text(key))
            if parts is not None and parts["game_id"] not in found:
                metas.append((parts["game_id"], _text(key)))
        for start in range(0, len(metas), 1000):
            batch = metas[start : start + 1000]
            pipe = self.redis.pipeline(transaction=False)
            for _, key in batch:
                pipe.hexists(key, "cold")
            for (game_id, _), cold in zip(batch, await pipe.execute(), strict=True):
                if cold:
                    found.add(game_id)
        return sorted(found)

    # -- the cold tier (server/storage/cold.py) -----------------------------------------------------

    async def freeze(self, game_id: str) -> bool:
        """Move the game's history (its stream and command records) to the cold tier, keeping in
        Redis its meta, tokens and newest snapshot: whether it moved. Not when there is no cold
        tier, when the game is dormant already or has no events, nor when an event or a command
        landed while the history was being written out (the next pass tries again)."""
        if self.cold is None:
            return False
        events, commands, meta, _ = _game_keys(_check_game_id(game_id))
        # On the lean connection the entries come as Redis sends them, each ``[id, [field, value, ...]]``,
        # as the blob keeps them (redis-py's pipeline, on a Cluster, makes dicts of them).
        replies = await self._pipe([("HEXISTS", meta, "cold"), ("XRANGE", events, "-", "+"), ("HGETALL", commands)])
        dormant, entries, flat_records = (value(reply) for reply in replies)
        records = _as_dict(flat_records)
        if dormant or not entries:
            return False
        last = _stored(*entries[-1])
        marker = f"{last.version} {last.link}"
        frozen = Frozen(
            game_id,
            marker,
            [[_bytes(entry_id), *map(_bytes, _flat(fields))] for entry_id, fields in entries],
            {_text(field): _bytes(record) for field, record in records.items()},
        )
        await self.cold.put(game_id, marker, frozen.encode())
        keys = [events, commands, meta, SNAPSHOTS.at(game_id=game_id)]
        won = await self._freeze(keys=keys, args=[entries[-1][0], marker, len(records)])
        if not won:
            # lost the race to a move: the blob names an older history, which the next freeze prunes
            await self.stamp(game_id, "strays", 1)
            return False
        thawed, strays = (_text(field) for field in won)
        if strays:  # a lost race left blobs of its own: every blob of the game but this one goes
            await self.cold.remove(game_id, keep=marker)
        elif thawed and thawed != marker:  # the history last brought back, by its name (no listing)
            await self.cold.forget(game_id, thawed)
        return True

    async def touched(self, game_ids: Sequence[str]) -> dict[str, int | None]:
        """When each game of ``game_ids`` that is not dormant last got an event (Redis TIME, ms;
        ``None``: before the append stamped it). Dormant games and games that are gone are left out."""
        found: dict[str, int | None] = {}
        for start in range(0, len(game_ids), HEADS_BATCH):
            batch = game_ids[start : start + HEADS_BATCH]
            replies = await self._pipe([("HMGET", META.at(game_id=g), "touched_ms", "cold", "status") for g in batch])
            for game_id, reply in zip(batch, replies, strict=True):
                touched, cold, status = value(reply)
                if cold is None and status is not None:
                    found[game_id] = None if touched is None else int(touched)
        return found

    async def _thaw(self, game_id: str) -> bool:
        """Bring the game's history back from the cold tier if it is there: whether it was (brought
        back here or by another replica meanwhile)."""
        meta = META.at(game_id=game_id)
        dormant = False
        while (found := await self.redis.hget(meta, "cold")) is not None:
            dormant = True
            marker = _text(found)
            if self.cold is None:
                raise ColdTierError(f"game {game_id} is dormant, and no cold tier is configured to bring it back")
            blob = await self.cold.get(game_id, marker)
            if blob is None:
                if await self.redis.hget(meta, "cold") == found:  # still this history: it is lost
                    raise ColdTierError(f"the cold tier {self.cold.where} holds no history {marker} of game {game_id}")
                continue  # brought back, moved on and sent away again meanwhile
            frozen = Frozen.decode(blob)
            args: list[bytes | str | int] = [marker, len(frozen.entries)]
            for entry_id, *fields in frozen.entries:
                args += [entry_id, len(fields), *fields]
            args.append(len(frozen.commands))
            for field, record in frozen.commands.items():
                args += [field, record]
            if await self._thaw_script(keys=[events_key(game_id), COMMANDS.at(game_id=game_id), meta], args=args):
                log.info("game %s: brought back from the cold tier at version %s", game_id, marker.split()[0])
        return dormant

    async def now_ms(self) -> int:
        """The shared clock: Redis TIME, in milliseconds."""
        return time_ms(await self.redis.time())

    async def ping(self) -> None:
        """Whether Redis answers (raises a ``RedisError`` when it does not)."""
        await self.redis.ping()

    async def memory(self) -> int:
        """The bytes Redis holds (``INFO`` ``used_memory``; on a Cluster, every primary's together)."""
        info: Any = await self.redis.info("memory")
        if "used_memory" in info:
            return int(info["used_memory"])
        return sum(int(node["used_memory"]) for node in info.values() if isinstance(node, dict))
