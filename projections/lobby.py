"""The lobby's read models: the catalog of games and the list of tables."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import msgspec

from domain.clock import PRESETS, Clock
from domain.engine import AnyGame
from domain.table import Status, Table, option_bounds, status


class CatalogEntry(msgspec.Struct):
    game: str
    title: str
    min_players: int
    max_players: int
    options: dict[str, Any]  # each option with its default
    bounds: dict[str, tuple[int, int]] = {}  # each number option's least and greatest value


class GameComponents(msgspec.Struct):
    game: str
    title: str
    components: Any  # the game's data file: cards, map, tiles, each value with its source


class LobbyEntry(msgspec.Struct, omit_defaults=True):
    game_id: str
    game: str
    status: Status
    players: int
    seats_taken: int
    bots: list[int]  # the seats bots hold (the server plays them)
    # When the table was opened and when its game ended, in ms since the Unix epoch on the shared clock
    # (Redis TIME); in the lobby's lists (left out until known), not in the answer that opens a table.
    created_ms: int | None = None
    finished_ms: int | None = None
    rated: bool = False  # its result counts on its players' ratings
    clock: str | None = None  # its turn clock: a preset's name ("live", "one-day", "three-days"), "custom", or none
    lang: str | None = None  # the language its people speak, when its creator said (pt, gl, es, en)


def catalog(games: Iterable[AnyGame]) -> list[CatalogEntry]:
    return [
        CatalogEntry(
            g.id,
            g.title,
            g.min_players,
            g.max_players,
            msgspec.to_builtins(g.options_type()),
            option_bounds(g.options_type),
        )
        for g in games
    ]


def lobby_entry(game: AnyGame, game_id: str, table: Table) -> LobbyEntry:
    bots = [s.seat for s in table.seats if s is not None and s.bot is not None]
    return LobbyEntry(
        game_id,
        game.id,
        status(game, table),
        table.players,
        table.seats_taken,
        bots,
        rated=table.rated,
        clock=clock_name(table.clock),
        lang=table.lang,
    )


def clock_name(turn_clock: Clock | None) -> str | None:
    """A table's clock as the lobby shows it: the preset it is, else ``custom`` (None: no clock)."""
    if turn_clock is None:
        return None
    return next((name for name, preset in PRESETS.items() if preset == turn_clock), "custom")


def meta_fields(entry: LobbyEntry) -> dict[str, str | int]:
    """The entry as the short fields kept beside a game's stream (``bots`` only once a bot sits)."""
    fields: dict[str, str | int] = {
        "game": entry.game,
        "status": entry.status,
        "players": entry.players,
        "seats_taken": entry.seats_taken,
    }
    if entry.bots:
        fields["bots"] = ",".join(map(str, entry.bots))
    if entry.rated:
        fields["rated"] = 1
    if entry.clock is not None:
        fields["clock"] = entry.clock
    if entry.lang is not None:
        fields["lang"] = entry.lang
    return fields


def entry_from_meta(game_id: str, meta: Mapping[str, str]) -> LobbyEntry:
    return LobbyEntry(
        game_id,
        meta["game"],
        msgspec.convert(meta["status"], Status),
        int(meta["players"]),
        int(meta["seats_taken"]),
        [int(seat) for seat in meta.get("bots", "").split(",") if seat],
        int(meta["created_ms"]) if meta.get("created_ms") else None,
        int(meta["finished_ms"]) if meta.get("finished_ms") else None,
        rated=meta.get("rated") == "1",
        clock=meta.get("clock") or None,
        lang=meta.get("lang") or None,
    )
