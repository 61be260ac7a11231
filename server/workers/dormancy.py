"""Dormancy: the games nobody has played for a while leave their history in the cold tier.

Every replica runs :func:`run`; a lock in Redis lets one replica make a pass at a time. A pass
reads when each active or finished game last got an event (the append stamps it) and freezes
those idle past the operator's threshold (server/storage/store.py, ``EventStore.freeze``): their
stream and command records go to the cold tier, and the next read or move brings them back.
A game from before the stamp existed is stamped now, and waits the whole threshold from today.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable

from server.runtime.tasks import Trouble, cancelled, pause
from server.storage.index import LobbyIndex
from server.storage.leases import Leases, housekeeping_lock
from server.storage.store import EventStore

log = logging.getLogger("ludoteca.dormancy")
LOCK_MS = 900_000  # longer than a pass over a million games; released at its end
BATCH = 500  # games read per round trip


async def freeze_idle(store: EventStore, index: LobbyIndex, idle_ms: int, now_ms: int | None = None) -> list[str]:
    """Freeze every active or finished game whose last event is at least ``idle_ms`` old; their ids."""
    now = await store.now_ms() if now_ms is None else now_ms
    frozen: list[str] = []
    for status in ("active", "finished"):
        cursor: int | None = None
        while True:
            ids, cursor = await index.list_games(status, BATCH, cursor)
            for game_id, touched in (await store.touched(ids)).items():
                if touched is None:
                    await store.stamp(game_id, "touched_ms", now)
                elif now - touched >= idle_ms and await store.freeze(game_id):
                    frozen.append(game_id)
            if cursor is None:
                break
    return frozen


async def once(
    store: EventStore, index: LobbyIndex, leases: Leases, idle: float, counted: Callable[[int], None] = lambda n: None
) -> list[str]:
    """One pass, if no other replica is making one: the games frozen."""
    owner = secrets.token_hex(8)
    lock = housekeeping_lock("dormancy")
    if not await leases.take(lock, owner, LOCK_MS):
        return []
    try:
        frozen = await freeze_idle(store, index, int(idle * 1000))
    finally:
        await leases.release(lock, owner)
    counted(len(frozen))
    if frozen:
        log.info("%d games idle for %.0f s moved to the cold tier", len(frozen), idle)
    return frozen


async def run(
    store: EventStore,
    index: LobbyIndex,
    leases: Leases,
    idle: float,
    interval: float,
    counted: Callable[[int], None] = lambda n: None,
) -> None:
    """A pass every ``interval`` seconds until cancelled (``counted`` is told how many games each
    sent away); a Redis or cold tier outage only delays it."""
    trouble = Trouble(log, "moving dormant games to the cold tier failed; trying again later")
    while True:
        await pause(interval)
        try:
            await once(store, index, leases, idle, counted)
            trouble.ok()
        except Exception as exc:
            if cancelled():
                raise
            trouble.failed(exc)
