"""The reads of a game: its view, its facts, a replay, the moves a seat may build, its export.

Each read is of a game caught up and of who asks (``Seated``: ``Games.seated`` finds both); what a
viewer may see is the projections' to say (projections/views.py), the reads only fetch and ask.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from domain.engine import FULL, AnyGame, Pick, Rejected, Step, Viewer
from domain.table import Table, status, undo_versions
from projections.export import Entry, Viewpoint
from projections.export import lines as export_lines
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
from server.service.errors import Forbidden, Invalid, refused
from server.service.records import steps_sent
from server.service.tables import Tables
from server.storage.players import PlayerRegistry
from server.storage.store import EventStore


@dataclass(frozen=True)
class Seated:
    """A read's game, caught up, and the seat asking (``None``: a spectator)."""

    game_id: str
    game: AnyGame
    table: Table
    seat: int | None


class Reads:
    """The reads of every game this replica serves, over the table cache and the event store;
    ``players`` names the players seated."""

    def __init__(self, store: EventStore, tables: Tables, players: PlayerRegistry) -> None:
        self.store = store
        self.tables = tables
        self.players = players

    async def names(self, table: Table) -> dict[str, str] | None:
        """The names of the players seated at ``table`` now (``None``: no player sits at it)."""
        ids = [seat.player for seat in table.seats if seat is not None and seat.player is not None]
        return await self.players.names(ids) if ids else None

    async def view(self, at: Seated) -> TableView:
        return table_view(at.game, at.game_id, at.table, at.seat, await self.names(at.table))

    async def events(self, at: Seated, after: int, limit: int) -> tuple[int, list[VersionedEvent]]:
        events = await self.tables.read(at.game, at.game_id, after, min(at.table.version, after + limit))
        return at.table.version, feed(at.game, events, at.seat, is_revealed(at.game, at.table), at.table)

    async def replay(self, at: Seated, version: int, as_: str | None) -> TableView:
        game, table = at.game, at.table
        if not 1 <= version <= table.version:
            raise Invalid(
                "no_such_version",
                f"Versions run from 1 to {table.version}.",
                {"field": "version", "most": table.version},
            )
        viewer: Viewer = at.seat
        if as_ is not None and as_ != str(at.seat):
            if status(game, table) != "finished":
                raise Forbidden("game_not_finished", "Other seats' views open up once the game is over.")
            viewer = FULL if as_ == "full" else self._seat_param(as_, table.players)
        then = await self.tables.table_at(at.game_id, version)  # from the nearest snapshot, not version 1
        return table_view(game, at.game_id, then, viewer, await self.names(then))

    @staticmethod
    def _seat_param(value: str, players: int) -> int:
        if value.isascii() and value.isdigit() and int(value) < players:
            return int(value)
        raise Invalid(
            "malformed",
            f"'as' is a seat from 0 to {players - 1}, or 'full'.",
            {"field": "as", "case": "as", "most": players - 1},
        )

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
            raise refused(exc, at.game.id) from None

    async def export(self, game_id: str, viewpoint: Viewpoint = "server", seat: int | None = None) -> list[bytes]:
        """The game as ``viewpoint`` saw it, a JSON line each: the header, then every fact, and on the
        first fact of each command's step the command (projections/export.py). Who may ask for which
        viewpoint is the caller's to check."""
        game, table = await self.tables.load(game_id)
        entries = await self.store.read_entries(game_id, after=0, limit=table.version)
        sent = steps_sent(await self.store.command_records(game_id), table.version)
        stored = [Entry(e.version, e.schema, e.data) for e in entries]
        return export_lines(game, game_id, table, stored, sent, viewpoint, seat)
