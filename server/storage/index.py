"""The lobby index: every game filed under its status, and finished games by when they finished.

It spans games, so it is written outside a game's append script, and it can be rebuilt
from the streams, which are the authority (``server.service.lobby.rebuild_index``). The sorted
sets ``lt:{games}:open``, ``:active`` and ``:finished`` score each game by its creation
sequence (``INCR lt:{games}:seq``); ``lt:{games}:retention`` scores finished games by their
finish time (ms, Redis TIME), for archiving. They share the hash tag ``{games}``, so that
moving a game between them is one MULTI on Redis Cluster too.
"""

from __future__ import annotations

from typing import Any, Final, Literal

from server.storage.connection import Client
from server.storage.keys import BY_STATUS, RETENTION, SEQUENCE

GameStatus = Literal["open", "active", "finished"]
STATUSES: Final[tuple[GameStatus, ...]] = ("open", "active", "finished")
SEQUENCE_KEY: Final = SEQUENCE.at()
RETENTION_KEY: Final = RETENTION.at()


def _status_key(status: str) -> str:
    if status not in STATUSES:
        raise ValueError(f"unknown game status {status!r} (one of {', '.join(STATUSES)})")
    return BY_STATUS.at(status=status)


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


class LobbyIndex:
    """The lobby's sorted sets, on the Redis every replica shares."""

    def __init__(self, redis: Client) -> None:
        self.redis = redis

    async def built(self) -> bool:
        """Whether the index was ever built here (its sequence counter exists)."""
        return bool(await self.redis.exists(SEQUENCE_KEY))

    async def next_sequence(self) -> int:
        """A new creation sequence number (``INCR lt:{games}:seq``)."""
        return int(await self.redis.incr(SEQUENCE_KEY))

    async def file(self, game_id: str, status: str, sequence: int, finished_ms: int | None = None) -> None:
        """File the game under ``status`` (scored by ``sequence``) and remove it from the other two.

        ``finished_ms`` files a finished game for retention too (kept if it is there already).
        """
        target = _status_key(status)
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.zadd(target, {game_id: sequence})
            for other in STATUSES:
                if other != status:
                    pipe.zrem(_status_key(other), game_id)
            if finished_ms is not None:
                pipe.zadd(RETENTION_KEY, {game_id: finished_ms}, nx=True)
            await pipe.execute()

    async def remove(self, game_id: str, status: str) -> None:
        """Take a deleted game out of its status's set and of retention."""
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.zrem(_status_key(status), game_id)
            pipe.zrem(RETENTION_KEY, game_id)
            await pipe.execute()

    async def count(self, status: str) -> int:
        """How many games the index holds under ``status``."""
        return int(await self.redis.zcard(_status_key(status)))

    async def list_games(self, status: str, limit: int, cursor: int | None = None) -> tuple[list[str], int | None]:
        """Game ids with ``status``, oldest first (ascending creation sequence).

        ``cursor`` is the sequence to continue after (None: from the start). The
        second value is the cursor for the next page, or None when there is none.
        """
        if limit <= 0:
            raise ValueError(f"limit must be > 0, not {limit}")
        low = "-inf" if cursor is None else f"({int(cursor)}"
        rows: Any = await self.redis.zrangebyscore(
            _status_key(status), low, "+inf", start=0, num=limit + 1, withscores=True
        )
        page = rows[:limit]
        ids = [_text(member) for member, _ in page]
        next_cursor = int(page[-1][1]) if len(rows) > limit else None
        return ids, next_cursor

    async def finished_before(self, ms: int, limit: int) -> list[str]:
        """Finished games whose finish time is at or before ``ms``, earliest first."""
        members: Any = await self.redis.zrangebyscore(RETENTION_KEY, "-inf", ms, start=0, num=limit)
        return [_text(m) for m in members]

    async def finished_after(self, after: tuple[int, str], upto_ms: int, limit: int) -> list[tuple[int, str]]:
        """Finished games after ``after`` (a finish time and a game id) up to ``upto_ms``, in that order:
        ``(finished_ms, game_id)``, earliest first (ties by id)."""
        start, last = after
        rows: Any = await self.redis.zrangebyscore(
            RETENTION_KEY, max(start, 0), upto_ms, start=0, num=limit + 64, withscores=True
        )
        found = [(int(score), _text(member)) for member, score in rows]
        return [row for row in found if row > (start, last)][:limit]

    async def unfiled(self, now_ms: int) -> int:
        """File every finished game that has no finish time (finished before retention existed) at ``now_ms``."""
        if await self.redis.zcard(RETENTION_KEY) >= await self.count("finished"):
            return 0
        added = 0
        cursor: int | None = None
        while True:
            ids, cursor = await self.list_games("finished", 500, cursor)
            if ids:
                count: Any = await self.redis.zadd(RETENTION_KEY, dict.fromkeys(ids, now_ms), nx=True)
                added += int(count)
            if cursor is None:
                return added

    async def clear(self) -> None:
        """Delete the three status sets (the sequence counter stays, so sequences never repeat)."""
        await self.redis.delete(*(_status_key(s) for s in STATUSES))
