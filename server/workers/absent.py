"""Seats away too long: with ``LUDOTECA_DROP_AFTER`` set, a seat whose sockets all closed that long
ago leaves its game (``SeatResigned``, reason ``dropped``) and the table's bot plays it on."""

from __future__ import annotations

import functools
import logging
from typing import Any

from domain.engine import AnyGame
from domain.table import Table, drop
from server.runtime.tasks import Trouble, cancelled, pause
from server.service.errors import Refused, UnknownGame, VersionConflict
from server.service.games import Games
from server.storage import StoreError
from server.storage.presence import Presence

log = logging.getLogger("ludoteca.presence")


def leave_seat(game: AnyGame, table: Table, seat: int) -> list[Any]:
    return drop(game, table, seat)


async def drop_away(games: Games, presence: Presence, drop_after_ms: int) -> list[tuple[str, int]]:
    """Hand each seat away for ``drop_after_ms`` to a bot (``SeatResigned``, ``dropped``); those dropped."""
    now = await games.store.now_ms()
    dropped = []
    for game_id, seat in await presence.away_since(now - drop_after_ms):
        await presence.back(game_id, seat)
        if seat in (await presence.present(game_id)).seats:
            continue  # back on another replica in the meantime
        try:
            await games.facts(game_id, functools.partial(leave_seat, seat=seat))
        except (Refused, UnknownGame):  # the game is over or gone, or the seat had already left
            continue
        except VersionConflict:  # the table kept changing: away it stays, for the next pass
            await presence.away_again(game_id, seat, now - drop_after_ms)
            continue
        dropped.append((game_id, seat))
    return dropped


async def keep_dropping(games: Games, presence: Presence, drop_after: float) -> None:
    """Drop seats away too long, a few times per ``drop_after``, until cancelled."""
    trouble = Trouble(log, "could not look for seats away too long")
    while True:
        await pause(max(0.2, min(drop_after / 4, 30.0)))
        try:
            for game_id, seat in await drop_away(games, presence, int(drop_after * 1000)):
                log.info("seat %d of game %s was away too long: a bot plays it", seat, game_id)
            trouble.ok()
        except StoreError as exc:
            if cancelled():
                raise
            trouble.failed(exc)
