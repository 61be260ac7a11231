"""The operator's kit: every table by status as the server sees it, ending a table, removing a
seat's player, the notifications' outbox in figures and the quotas hit.

Each action is a table fact appended through ``Games.facts`` (``TableCancelled`` by the operator,
``SeatResigned`` ``removed``), so the stream says what the operator did; each is also a line of
the ``ludoteca.admin`` log, refused or not.
"""

from __future__ import annotations

import functools
import logging
from typing import Any

import msgspec

from domain.clock import Clock
from domain.table import Status, Table, cancel_by_operator, outcome, remove_seat, status
from projections.views import SeatClock, seat_clocks, seats_named
from server.runtime.metrics import Metrics
from server.service.attendance import Attendance
from server.service.errors import AppError
from server.service.games import Games
from server.service.lobby import Lobby
from server.service.quotas import QuotaHits, Quotas
from server.storage.outbox import Outbox
from server.storage.quotas import HOUR_MS

log = logging.getLogger("ludoteca.admin")

# What became of notices, as this replica's ``ludoteca_notices`` counter names it.
NOTICE_RESULTS = ("posted", "sent", "retried", "failed", "dropped", "deferred", "over_quota")


class AdminSeat(msgspec.Struct):
    seat: int
    taken: bool  # false: a free seat of an open table
    name: str = ""  # the seat's name, a player's as it is now
    bot: str | None = None  # the bot that plays the seat (a bot's seat, or one whose person left)
    player: str | None = None  # the id of the player who sits there
    left: bool = False  # its person left the game (resigned, dropped, out of time, removed)
    connected: bool = False  # a socket of the seat is open on some replica
    named: bool = True  # false: ``name`` is the default a seat taken without one gets (as a table view's seat)


class AdminTable(msgspec.Struct):
    """One table as the operator sees it: no view (an export as the server shows everything)."""

    game_id: str
    game: str
    status: Status
    version: int
    players: int
    seats: list[AdminSeat]
    awaiting: list[int]  # the seats the game waits for now
    clock: Clock | None = None
    clocks: list[SeatClock] = []  # each seat's clock: the time it had left when it last started, or now if stopped
    created_ms: int | None = None
    finished_ms: int | None = None
    outcome: Any = None  # how it ended: the game's own outcome, or ``abandoned`` with its reason


class AdminTables(msgspec.Struct):
    games: list[AdminTable]
    now_ms: int  # the shared clock, to count a running clock down from its ``since``
    next_cursor: int | None = None


class OutboxFigures(msgspec.Struct):
    """The notifications' outbox, in counts only (no player, no address)."""

    waiting: int  # items in the outbox (a player's email item stays there for its spacing)
    due: int  # items whose time to be sent (again) has come
    tried: int  # items tried before, failed and waiting to be tried again (or being sent now)
    # Notices by what became of them (posted, sent, retried, failed: given up, dropped...), on
    # this replica since it started (the ``ludoteca_notices`` metric, every channel together).
    this_replica: dict[str, int]


class QuotaFigures(msgspec.Struct):
    """Requests refused by a quota an hour, every replica's, and the clients refused most."""

    hour_ms: int  # when this clock hour began (the shared clock)
    quotas: list[QuotaHits]


class Admin:
    def __init__(
        self, games: Games, lobby: Lobby, attendance: Attendance, outbox: Outbox, quotas: Quotas, metrics: Metrics
    ) -> None:
        self.games = games
        self.lobby = lobby
        self.attendance = attendance
        self.outbox = outbox
        self.quotas = quotas
        self.metrics = metrics

    async def tables(self, status_: str, limit: int, cursor: int | None) -> AdminTables:
        """A page of the lobby index's tables with ``status_``, each read from its stream."""
        entries, next_cursor = await self.lobby.list_games(status_, limit, cursor)
        found = []
        for entry in entries:
            _, table = await self.games.load(entry.game_id)
            found.append(await self.row(entry.game_id, table, entry.created_ms, entry.finished_ms))
        return AdminTables(found, await self.games.store.now_ms(), next_cursor)

    async def row(
        self, game_id: str, table: Table, created_ms: int | None = None, finished_ms: int | None = None
    ) -> AdminTable:
        game = self.games.games[table.game]
        current = status(game, table)
        names = await self.games.reads.names(table)
        named = seats_named(table, names) if names is not None else list(table.seats)
        here = {p.seat for p in (await self.attendance.present(game_id)).seats}
        seats = [
            AdminSeat(seat, False)
            if s is None
            else AdminSeat(seat, True, s.name, s.bot, s.player, seat in table.resigned, seat in here, s.named)
            for seat, s in enumerate(named)
        ]
        awaiting = (
            sorted({a.seat for a in game.awaited(table.state)})
            if current == "active" and table.state is not None
            else []
        )
        return AdminTable(
            game_id, game.id, current, table.version, table.players, seats, awaiting, table.clock,
            seat_clocks(table), created_ms, finished_ms, outcome(game, table),
        )  # fmt: skip

    async def cancel(self, game_id: str, reason: str = "") -> AdminTable:
        """End a table that has not finished: called off by the operator (``reason``: for the log alone)."""
        return await self._act(game_id, "cancel", None, cancel_by_operator, reason)

    async def remove(self, game_id: str, seat: int) -> AdminTable:
        """Remove a seat's person from a game under way: the table's bot plays on (or the game ends)."""
        return await self._act(game_id, "remove", seat, functools.partial(remove_seat, seat=seat))

    async def _act(self, game_id: str, action: str, seat: int | None, decide: Any, reason: str = "") -> AdminTable:
        where = f"game {game_id}" + (f" seat {seat}" if seat is not None else "") + (f" ({reason!r})" if reason else "")
        try:
            events, after = await self.games.facts(game_id, decide)
        except AppError as exc:
            log.info("admin %s of %s refused: %s", action, where, exc.code)
            raise
        log.info("admin %s of %s: %s at version %d", action, where, [type(e).__name__ for e in events], after.version)
        meta = await self.games.store.meta(game_id)
        return await self.row(game_id, after, _ms(meta, "created_ms"), _ms(meta, "finished_ms"))

    async def outbox_figures(self) -> OutboxFigures:
        waiting, due, tried = await self.outbox.figures(await self.games.store.now_ms())
        registry = self.metrics.registry
        counts = {
            result: round(
                sum(
                    registry.get_sample_value("ludoteca_notices_total", {"channel": channel, "result": result}) or 0
                    for channel in ("webhook", "email")
                )
            )
            for result in NOTICE_RESULTS
        }
        return OutboxFigures(waiting, due, tried, counts)

    async def quota_figures(self) -> QuotaFigures:
        now_ms = await self.games.store.now_ms()
        return QuotaFigures(now_ms // HOUR_MS * HOUR_MS, await self.quotas.hits(now_ms))


def _ms(meta: dict[str, str], field: str) -> int | None:
    value = meta.get(field)
    return int(value) if value else None
