"""The game service: every change to a game goes through one decide-append loop; its reads are beside it
(``Games.reads``, server/service/reads.py).

``Games.handle`` is the one entry point for commands, whoever sends them: a person at a
seat (over HTTP or a socket), a bot the server plays, the clock (server/service/senders.py).
``Games.facts`` appends the table's own facts (a seat taken, a table called off) the same
way. The loop decides on the table this replica caches (server/service/tables.py), caught up
from the stream, and appends with the version and chain link it decided on; when the
stream moved on meanwhile it reads what is new and decides again, a bounded number of
times. What hears of an append (this replica's feeds, the bots' alarm) is handed to the
constructor, by the composition root (server/app.py).
"""

from __future__ import annotations

import hashlib
import logging
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import msgspec

from domain.chat import CHAT_COMMAND_TYPES
from domain.engine import AnyGame, Ctx, Rejected, no_deadlines
from domain.fair import SEED_BYTES
from domain.table import Decision, Table, chance, decided_on, decision, decision_of, status
from domain.table import deadlines as open_windows
from domain.table import decide as decide_at_table
from projections.lobby import lobby_entry, meta_fields
from projections.views import VersionedEvent, feed, is_revealed
from server.runtime.metrics import Metrics
from server.service.codec import encode
from server.service.errors import (
    BAD_JSON,
    AppError,
    CommandIdReused,
    Forbidden,
    Invalid,
    TooMany,
    Unauthorized,
    UnknownGame,
    VersionConflict,
    malformed,
    refused,
)
from server.service.rates import SeatRates
from server.service.reads import Reads, Seated
from server.service.records import RECORD, CommandRecord
from server.service.senders import Acting, Holder, Person, Sender
from server.service.tables import GAME_ID_BYTES, UNKNOWN_GAME, Loaded, Tables, valid_game_id
from server.service.tokens import is_player_token, player_seat_key, token_hash
from server.storage.index import LobbyIndex
from server.storage.players import PlayerRegistry
from server.storage.schedule import Schedule
from server.storage.store import Appended, AppendResult, CommandKey, Conflict, Duplicate, EventStore, Head

__all__ = ["GAME_ID_BYTES", "Change", "CommandAnswer", "Games", "Keeper", "Listener", "Seated", "valid_game_id"]

log = logging.getLogger("ludoteca.games")

COMMAND_ID_MOST = 100  # characters: a command id is kept in the game's command records for its life


class CommandAnswer(msgspec.Struct):
    version: int
    events: list[VersionedEvent]


@dataclass(frozen=True)
class Change:
    """An append this replica made: the tables before and after it, the events between
    them, and the heads of both (``before_head`` ``None`` when this replica did not know
    it). Enough for this replica's feed of the game to deliver it without reading it back."""

    game_id: str
    game: AnyGame
    before: Table
    after: Table
    events: Sequence[Any]
    before_head: Head | None
    after_head: Head
    by: str | None = None  # the sender's scope (``seat:0``, ``bot:1``, ``clock``); ``None``: the table's own facts


class Listener(Protocol):
    """Something on this replica that hears of every append it makes: that one ending at ``version``
    is under way (before it is sent), then at once that it landed (``appended``) or did not (a
    conflict, a command sent before, an error: ``not_appended``). What a listener does with them
    must not fail."""

    def appending(self, game_id: str, version: int) -> None: ...

    def appended(self, change: Change) -> None: ...

    def not_appended(self, game_id: str, version: int) -> None: ...


class Keeper(Protocol):
    """Something that writes down what an append means before its command is answered (the
    notifications' outbox): awaited after every append this replica makes, so that what it keeps
    outlives a replica killed once the answer is sent. A failure is logged, never the command's."""

    async def keep(self, change: Change) -> None: ...


@dataclass(frozen=True, slots=True)
class Landed:
    """What the loop ended with: the events appended (from ``table`` to ``after``), or, for a
    command its sender had sent before, that command's record."""

    game: AnyGame
    table: Table
    after: Table
    events: list[Any]
    record: bytes | None = None


def keeps_time(game: AnyGame, table: Table) -> bool:
    """Whether the game's decisions read the shared clock: windows that close by themselves, or a turn clock."""
    return game.deadlines is not no_deadlines or table.clock is not None


def may_act(table: Table, sender: Acting) -> int:
    """The seat ``sender``'s command is decided for: spectators, and people who left (a bot plays
    their seat), may not act."""
    if isinstance(sender, Person):
        if sender.seat is None:
            raise Forbidden(
                "spectator", "Spectators cannot send commands; take a seat and send its token.", {"case": "command"}
            )
        if sender.seat in table.resigned:
            raise Forbidden("resigned", "You left this game; a bot plays your seat now.")
    assert sender.seat is not None
    return sender.seat


Decide = Callable[[AnyGame, Table, Ctx], Decision]
CHAT_RATE, CHAT_BURST = 0.5, 5  # a seat's chat: one message every 2 s on average, bursts of 5 (on each replica)


class Games:
    """Every game this replica serves: commands and table facts, over one event store, and its reads
    (``reads``).

    ``tables``: the table cache; ``index`` and ``schedule``: where an append files the game's
    status and its open windows; ``rates``: the seats' token buckets; ``metrics``: what the
    service counts; ``players``: who signs in with a player's token, and players' names;
    ``listeners`` hear of every append (this replica's feeds, the bots' alarm); ``keepers`` write
    down what it means before the command is answered (the notifications' outbox).
    """

    def __init__(
        self,
        store: EventStore,
        tables: Tables,
        index: LobbyIndex,
        schedule: Schedule,
        rates: SeatRates,
        metrics: Metrics,
        players: PlayerRegistry,
        listeners: Iterable[Listener] = (),
        command_retries: int = 5,
        keepers: Iterable[Keeper] = (),
    ) -> None:
        self.store = store
        self.players = players
        self.tables = tables
        self.games = tables.games
        self.index = index
        self.schedule = schedule
        self.listeners = tuple(listeners)
        self.keepers = tuple(keepers)
        self.rates = rates
        self.chat_rates = SeatRates(CHAT_RATE, CHAT_BURST)  # besides the seat's own: chat is slower than play
        self.metrics = metrics
        self.command_retries = command_retries
        # Each table's server seed comes from the operating system; every shuffle and draw of a
        # table derives from it and its seats' entropy (domain/fair.py). Tables from before fair
        # play draw from here directly. A test that plays a random game of a known length swaps
        # in a seeded generator (tests/server/conftest.py).
        self.rng: random.Random = random.SystemRandom()
        self.reads = Reads(store, tables, players)

    async def load(self, game_id: str) -> tuple[AnyGame, Table]:
        """The game's table, caught up with its stream."""
        return await self.tables.load(game_id)

    async def ping(self) -> None:
        """Whether the store answers (``StoreError`` if not)."""
        await self.store.ping()

    async def memory(self) -> int:
        """The bytes Redis holds (every node's)."""
        return await self.store.memory()

    async def ctx(self) -> Ctx:
        return Ctx(rng=self.rng, now_ms=await self.store.now_ms())

    def new_seed(self) -> str:
        """A new table's server seed, in hex (domain/fair.py)."""
        return self.rng.randbytes(SEED_BYTES).hex()

    # -- seats -------------------------------------------------------------------

    async def seat_key(self, token: str) -> str:
        """Where a token's seat is found in a game's tokens: a seat token by its hash, a player's token
        by the player it signs in (looked up every time, so that a token signed out stops at once)."""
        if not is_player_token(token):
            return token_hash(token)
        player_id = await self.players.player_of(token_hash(token))
        if player_id is None:
            raise Unauthorized("unknown_token", "That token is not known here (signed out, or never issued).")
        return player_seat_key(player_id)

    async def seated(self, game_id: str, token: str | None) -> Seated:
        """The game, caught up, and who is asking: a seat, or ``None`` for a spectator (404 before 401:
        an unknown game is unknown to everyone)."""
        hashed = await self.seat_key(token) if token is not None else None
        loaded = await self.tables.look(game_id, hashed)
        seat = loaded.look.seat
        if token is not None and seat is None:
            seat = await self.seat_of(game_id, token, hashed)
        return Seated(game_id, loaded.game, loaded.table, seat)

    async def seat_of(self, game_id: str, token: str | None, hashed: str | None = None) -> int | None:
        """The seat a token holds in this game; ``None`` for a spectator (no token). ``hashed``: the
        token's :meth:`seat_key`, if the caller has it."""
        if token is None:
            return None
        hashed = hashed or await self.seat_key(token)
        seat = self.tables.seat_of(game_id, hashed)
        if seat is None:
            seat = await self.store.seat_for_token(game_id, hashed)
        if seat is not None:
            self.tables.know_seat(game_id, hashed, seat)
            return seat
        if not valid_game_id(game_id) or not await self.store.exists(game_id):
            raise UnknownGame("unknown_game", UNKNOWN_GAME)
        if is_player_token(token):
            return None  # a player with no seat here watches, as anyone may
        other, _, _ = token.partition(".")
        if (
            other != game_id
            and valid_game_id(other)
            and await self.store.seat_for_token(other, token_hash(token)) is not None
        ):
            raise Forbidden("not_seated", "That token holds a seat in another game, not this one.")
        raise Unauthorized("unknown_token", "That token is not known here.")

    # -- commands ----------------------------------------------------------------

    async def handle(
        self, game_id: str, sender: Sender, body: bytes, command_id: str, expected_version: int | None
    ) -> CommandAnswer:
        """``sender``'s command (``body``, the JSON of one command of the game) under ``command_id``:
        the sender's own events, as its seat may see them.

        ``command_id`` makes the command safe to send again: a sender's id already used answers
        what it answered the first time (or ``command_id_reused``, for another command); ids
        are the sender's own, so no other sender's can collide with them. ``expected_version``:
        the version the sender decided at; the command is refused with ``version_conflict`` at
        once if the game is elsewhere, rather than decided again."""
        try:
            kind, answer = await self._handle(game_id, sender, body, command_id, expected_version)
        except AppError as exc:
            held = self.tables.held(game_id)  # counted once the game is known
            if held is not None:
                self.metrics.commands.labels(held.table.game, exc.result).inc()
            raise
        self.metrics.commands.labels(kind, "accepted").inc()
        return answer

    async def _handle(
        self, game_id: str, sender: Sender, body: bytes, command_id: str, expected_version: int | None
    ) -> tuple[str, CommandAnswer]:
        holder = sender.token if isinstance(sender, Holder) else None
        hashed = await self.seat_key(holder) if holder is not None else None
        acting: Acting = Person(await self.seat_of(game_id, holder, hashed)) if isinstance(sender, Holder) else sender
        key = CommandKey(acting.scope, command_id, acting.seat if isinstance(acting, Person) else None)
        seat: int = 0
        command: Any = None
        encoded = b""  # the command as read, encoded again: hashed, and kept in its record
        body_hash = ""

        def check(game: AnyGame, table: Table) -> None:
            """Who may act, then whether the command can be read: on every table the loop decides on."""
            nonlocal seat, command, encoded, body_hash
            seat = may_act(table, acting)
            if hashed is not None:
                self.tables.know_seat(game_id, hashed, seat)
            if command is not None:
                return
            # A person's command takes from the seat's bucket before it is read at all: one that
            # cannot be read costs the same, so unreadable commands are no way around the rate.
            if isinstance(acting, Person):
                self.charge(game_id, seat)
            if not 1 <= len(command_id) <= COMMAND_ID_MOST:
                raise Invalid(
                    "malformed",
                    f"A command_id has 1 to {COMMAND_ID_MOST} characters.",
                    {"field": "command_id", "case": "length", "most": COMMAND_ID_MOST},
                )
            command = self.decode_command(game, body)
            if type(command) in CHAT_COMMAND_TYPES and not self.chat_rates.allow(game_id, seat):
                raise TooMany(
                    "too_many",
                    "Too many chat messages; slow down.",
                    {"retry_after": round(1 / CHAT_RATE), "case": "chat"},
                )
            encoded = encode(command)
            body_hash = hashlib.sha256(encoded).hexdigest()

        def decide(game: AnyGame, table: Table, ctx: Ctx) -> Decision:
            return decision(game, table, command, seat, ctx)

        def record(table: Table, events: list[Any], ctx: Ctx) -> bytes:
            first, last = table.version + 1, table.version + len(events)
            return encode(CommandRecord(seat, body_hash, first, last, msgspec.Raw(encoded), ctx.now_ms))

        landed = await self._decide_and_append(
            game_id, decide, check=check, command=key, record=record, expected_version=expected_version
        )
        game = landed.game
        if landed.record is not None:
            return game.id, await self._answer_again(game, game_id, seat, body_hash, landed.record)
        versions = range(landed.table.version + 1, landed.after.version + 1)
        mine = feed(
            game, zip(versions, landed.events, strict=True), seat, is_revealed(game, landed.after), landed.after
        )
        return game.id, CommandAnswer(landed.after.version, mine)

    def checking(self, at: Seated) -> int:
        """The seat ``at`` may check a command for (as it may send one), charged as a command is:
        before the command is read, so checks are no way around the rate."""
        seat = may_act(at.table, Person(at.seat))
        self.charge(at.game_id, seat)
        return seat

    async def check(self, at: Seated, seat: int, body: bytes) -> AppError | None:
        """Whether ``seat`` (:meth:`checking`) could send the command ``body`` now: ``None`` when it
        would land, the rule's refusal sending it would get when not (a command that cannot be read
        raises, as sending it would). Nothing is appended and no chance is drawn for good: the
        decision is made on the caught-up table and thrown away."""
        command = self.decode_command(at.game, body)
        now_ms = await self.store.now_ms() if keeps_time(at.game, at.table) else 0
        ctx = Ctx(rng=chance(at.table) or random.Random(0), now_ms=now_ms)  # thrown away with its events
        try:
            decide_at_table(at.game, at.table, command, seat, ctx)
        except Rejected as exc:
            return refused(exc, at.game.id)
        return None

    def charge(self, game_id: str, seat: int | None) -> None:
        """Take one from the seat's bucket, shared by its commands, move building and legal
        commands over REST and its sockets on this replica (a spectator has none to take from);
        ``TooMany`` when it is empty."""
        if seat is not None and not self.rates.allow(game_id, seat):
            raise TooMany(
                "too_many", "Too many requests from this seat; slow down.", {"retry_after": 1, "case": "requests"}
            )

    def decode_command(self, game: AnyGame, body: bytes) -> Any:
        try:
            return self.tables.codecs[game.id].commands.decode(body)
        except BAD_JSON as exc:
            raise malformed(exc, prefix="command") from None

    async def _answer_again(
        self, game: AnyGame, game_id: str, seat: int, body_hash: str, stored: bytes
    ) -> CommandAnswer:
        record = RECORD.decode(stored)
        if record.seat != seat or record.hash != body_hash:
            raise CommandIdReused("command_id_reused", "That command id was already used for another command.")
        _, table = await self.load(game_id)
        events = await self.tables.read(game, game_id, record.first - 1, record.last)
        return CommandAnswer(record.last, feed(game, events, seat, is_revealed(game, table), table))

    # -- the table's own facts -----------------------------------------------------

    async def facts(
        self,
        game_id: str,
        decide: Callable[[AnyGame, Table], list[Any]],
        tokens: Callable[[list[Any]], dict[str, int] | None] = lambda events: None,
    ) -> tuple[list[Any], Table]:
        """Table facts (``decide`` on the caught-up table) appended as any command is, with the token
        hashes (and seats) ``tokens`` gives; the facts and the table after them (no facts: no append)."""
        landed = await self._decide_and_append(
            game_id, lambda game, table, ctx: decision_of(game, table, decide(game, table)), tokens=tokens
        )
        return landed.events, landed.after

    # -- the loop --------------------------------------------------------------------

    async def _decide_and_append(
        self,
        game_id: str,
        decide: Decide,
        *,
        check: Callable[[AnyGame, Table], None] = lambda game, table: None,
        command: CommandKey | None = None,
        record: Callable[[Table, list[Any], Ctx], bytes] | None = None,
        expected_version: int | None = None,
        tokens: Callable[[list[Any]], dict[str, int] | None] = lambda events: None,
    ) -> Landed:
        """Decide on the caught-up table and append, again on what is new if another write came first.

        A command (``command``, its ``record``) whose game this replica caches and which keeps no
        time is first decided on the cached table with no read: the append checks the version,
        the chain link and the command id, and anything else - a refusal, a version the sender
        did not expect, a conflict - is settled by reading and deciding again. A read brings the
        command's record with it: a command its sender already sent is answered from it."""
        cached = self.tables.held(game_id) if command is not None else None
        optimistic = cached is not None and not keeps_time(self.games[cached.table.game], cached.table)
        reads = 0
        landed_first = False
        while True:
            loaded: Loaded | None = None
            if optimistic:
                assert cached is not None
                game, table, head, now_ms = self.games[cached.table.game], cached.table, cached.head, 0
            else:
                if reads:
                    if reads >= self.command_retries:
                        raise VersionConflict(
                            "version_conflict",
                            "The game kept changing; send the command again.",
                            {"case": "kept_changing"},
                        )
                    self.metrics.retries.labels(game.id).inc()
                reads += 1
                loaded = await self.tables.look(game_id, command=command)
                game, table, head = loaded.game, loaded.table, loaded.head
                now_ms = loaded.look.now_ms or 0
                if command is not None and loaded.look.now_ms is None:  # a first load reads no clock
                    now_ms = await self.store.now_ms()
            check(game, table)
            if loaded is not None and loaded.look.record is not None:
                return Landed(game, table, table, [], loaded.look.record)
            if expected_version is not None and not decided_on(table, expected_version):
                if optimistic:
                    optimistic = False
                    continue
                if landed_first:
                    raise VersionConflict(
                        "version_conflict",
                        "Another command landed first.",
                        {"version": table.version, "case": "landed_first"},
                    )
                raise VersionConflict(
                    "version_conflict",
                    f"The game is at version {table.version}, not {expected_version}.",
                    {"version": table.version, "expected": expected_version, "case": "expected"},
                )
            ctx = Ctx(rng=chance(table) or self.rng, now_ms=now_ms)  # the table's own chance (domain/fair.py)
            try:
                decided = decide(game, table, ctx)
            except Rejected as exc:
                if optimistic:
                    optimistic = False
                    continue
                raise refused(exc, game.id) from None
            events, after = decided
            if not events and command is None:
                return Landed(game, table, table, [])
            result = await self._append(
                game_id, game, table, head, decided,
                command=command, record=record(table, events, ctx) if record else b"", tokens=tokens(events),
            )  # fmt: skip
            if isinstance(result, Appended):
                return Landed(game, table, after, events)
            if isinstance(result, Duplicate):
                return Landed(game, table, table, [], result.record)
            self.metrics.conflicts.labels(game.id).inc()
            optimistic = False
            # A command that expected a version is decided again only if nothing but chat came first.
            landed_first = expected_version is not None

    async def _append(
        self,
        game_id: str,
        game: AnyGame,
        table: Table,
        head: Head,
        decided: Decision,
        *,
        command: CommandKey | None,
        record: bytes,
        tokens: Mapping[str, int] | None,
    ) -> AppendResult:
        """Append the events ``decided`` on ``table`` (whose head is ``head``) if the stream still ends there."""
        events, after = decided
        for listener in self.listeners:
            listener.appending(game_id, after.version)
        result: AppendResult | None = None
        try:
            result = await self.store.append(
                game_id,
                table.version,
                [encode(e) for e in events],
                schema=game.event_schema,
                command=command,
                command_record=record,
                meta=meta_fields(lobby_entry(game, game_id, after)),
                tokens=tokens,
                expected_link=head.link,
            )
        finally:
            if not isinstance(result, Appended):
                for listener in self.listeners:
                    listener.not_appended(game_id, after.version)
        if isinstance(result, Appended):
            by = command.sender if command is not None else None
            await self._landed(Change(game_id, game, table, after, events, head, result.head, by))
            if self.tables.snapshots.due(table.version, after.version):
                self.tables.keep_snapshot(game_id, after, result.head)  # in the background, after the append
        elif isinstance(result, Conflict) and result.current_version < table.version:
            self.tables.forget(game_id)  # the stream went backwards: our fold is of writes Redis lost
        return result

    async def _landed(self, change: Change) -> None:
        """An append of this replica landed: the cache, the listeners, the schedule and the index learn of it."""
        game_id, game = change.game_id, change.game
        self.tables.remember(game_id, change.after, change.after_head)
        for listener in self.listeners:
            try:
                listener.appended(change)
            except Exception:  # never fail the append that called it: the sweeps cover what it missed
                log.exception("%r failed to hear of an append to %s", listener, game_id)
        for keeper in self.keepers:
            try:
                await keeper.keep(change)
            except Exception:  # the append landed: its command is answered whatever the keeper met
                log.exception("%r failed to keep what an append to %s means", keeper, game_id)
        await self.file_windows(game_id, game, change.after)
        if status(game, change.before) != status(game, change.after):
            meta = await self.store.meta(game_id)
            await self.file(game_id, game, change.after, int(meta["sequence"]))

    async def file(self, game_id: str, game: AnyGame, table: Table, sequence: int) -> None:
        """File the game in the lobby index under its status; a finished game also by when it finished."""
        current = status(game, table)
        finished = None
        if current == "finished":
            now = await self.store.now_ms()
            finished = await self.store.stamp(game_id, "finished_ms", now) or now
        await self.index.file(game_id, current, sequence, finished)

    async def file_windows(self, game_id: str, game: AnyGame, table: Table) -> None:
        """File the game's open windows in the schedule (closed ones drop out when due)."""
        if keeps_time(game, table) and status(game, table) == "active":
            await self.schedule.file(game_id, {d.window: d.due_ms for d in open_windows(game, table)})

    async def delete(self, game_id: str, status_: str) -> bool:
        """Delete the game and its index entries if its status is still ``status_`` (a game that is
        gone leaves the index too); whether this deleted it."""
        deleted = await self.store.delete_game(game_id, status_)
        if deleted is not False:
            await self.index.remove(game_id, status_)
        self.tables.forget(game_id)
        return deleted is True
