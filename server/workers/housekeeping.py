"""Housekeeping: open games that never fill expire; finished games are archived, then leave Redis.

Every replica runs :func:`run`. A short lock in Redis lets one replica work at a time,
and every step is idempotent anyway: a game is deleted only while its status is still
the one it was chosen for, and an archive is written (to a temporary file, synced,
then renamed) before its game is deleted, so a replica that dies halfway only leaves
work for the next pass. Times are Redis TIME, shared by every replica.

An archive is ``<dir>/<game_id>.jsonl``, the lines of ``GET /games/{game_id}/export``;
``POST /games/import`` takes it back (as a new game id).
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
from dataclasses import dataclass
from pathlib import Path

from server.runtime.tasks import Trouble, cancelled, pause
from server.service.errors import UnknownGame
from server.service.games import Games
from server.storage.index import LobbyIndex
from server.storage.leases import Leases, housekeeping_lock

log = logging.getLogger("ludoteca.housekeeping")
LOCK_MS = 300_000  # longer than a pass; released at its end, or lapses if the replica dies


@dataclass(frozen=True)
class Policy:
    """When open games expire and finished ones are archived (seconds; the operator's settings)."""

    open_ttl: float  # 0: open games never expire
    archive_dir: Path | None  # None: finished games stay in Redis
    retention: float  # how long a finished game stays before it is archived
    interval: float  # between passes


async def expire_open(
    games: Games, index: LobbyIndex, max_age_ms: int, now_ms: int | None = None, batch: int = 100
) -> list[str]:
    """Delete the open games created at least ``max_age_ms`` ago; their ids.

    A game from before creation times were recorded is given one now.
    """
    store = games.store
    now = await store.now_ms() if now_ms is None else now_ms
    expired: list[str] = []
    cursor: int | None = None
    while True:
        ids, cursor = await index.list_games("open", batch, cursor)
        for game_id in ids:
            created = await store.stamp(game_id, "created_ms", now)
            if created is not None and now - created < max_age_ms:
                return expired  # the index runs oldest first: the rest are younger
            if await games.delete(game_id, "open"):
                expired.append(game_id)
        if cursor is None:
            return expired


def write_archive(directory: Path, game_id: str, lines: list[bytes]) -> Path:
    """``<directory>/<game_id>.jsonl``, complete or not at all."""
    directory.mkdir(parents=True, exist_ok=True)
    final = directory / f"{game_id}.jsonl"
    temporary = directory / f".{game_id}.jsonl.tmp"
    with temporary.open("wb") as out:
        out.writelines(line + b"\n" for line in lines)
        out.flush()
        os.fsync(out.fileno())
    os.replace(temporary, final)
    handle = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(handle)  # the rename itself survives a crash
    finally:
        os.close(handle)
    return final


async def archive_finished(
    games: Games, index: LobbyIndex, directory: Path, retention_ms: int, now_ms: int | None = None, limit: int = 100
) -> list[str]:
    """Archive, then delete, up to ``limit`` games finished at least ``retention_ms`` ago; their ids.

    A game that finished before finish times were recorded is given one now.
    """
    store = games.store
    now = await store.now_ms() if now_ms is None else now_ms
    await index.unfiled(now)
    archived: list[str] = []
    for game_id in await index.finished_before(now - retention_ms, limit):
        try:
            lines = await games.reads.export(game_id, "everyone")  # finished: every fact, for everyone
        except UnknownGame:  # gone already: only its index entries were left
            await games.delete(game_id, "finished")
            continue
        await asyncio.to_thread(write_archive, directory, game_id, lines)
        if await games.delete(game_id, "finished"):
            archived.append(game_id)
    return archived


async def once(games: Games, index: LobbyIndex, leases: Leases, policy: Policy) -> tuple[list[str], list[str]]:
    """One pass, if no other replica is making one: the games expired and archived."""
    owner = secrets.token_hex(8)
    lock = housekeeping_lock()
    if not await leases.take(lock, owner, LOCK_MS):
        return [], []
    try:
        expired = await expire_open(games, index, int(policy.open_ttl * 1000)) if policy.open_ttl > 0 else []
        archived = []
        if policy.archive_dir is not None:
            archived = await archive_finished(games, index, policy.archive_dir, int(policy.retention * 1000))
    finally:
        await leases.release(lock, owner)
    if expired or archived:
        log.info("expired %d open games, archived %d finished games", len(expired), len(archived))
    return expired, archived


async def run(games: Games, index: LobbyIndex, leases: Leases, policy: Policy) -> None:
    """A pass every ``policy.interval`` seconds until cancelled; a Redis outage only delays it."""
    trouble = Trouble(log, "housekeeping failed; trying again later")
    while True:
        await pause(policy.interval)
        try:
            await once(games, index, leases, policy)
            trouble.ok()
        except Exception as exc:
            if cancelled():
                raise
            trouble.failed(exc)
