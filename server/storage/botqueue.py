"""The bots' work queue: games with a bot seat, scored by when to look at them again.

``lt:{bots}:due`` is a sorted set of game ids scored by a time on the shared clock (Redis
TIME, ms). A game enters it when a bot sits down and leaves it once it is finished or gone;
server/workers/bots.py says who moves it when.
"""

from __future__ import annotations

from typing import Any, Final

from server.storage.connection import Client
from server.storage.keys import BOTS_DUE

DUE_KEY: Final = BOTS_DUE.at()


class BotQueue:
    """The queue, on the Redis every replica shares."""

    def __init__(self, redis: Client) -> None:
        self.redis = redis

    async def enlist(self, game_id: str, at_ms: int) -> None:
        """Put a game in the queue, due at ``at_ms`` (a game already there keeps its time)."""
        await self.redis.zadd(DUE_KEY, {game_id: at_ms}, nx=True)

    async def due_by(self, game_id: str, at_ms: int) -> None:
        """Make the game due by ``at_ms`` at the latest, putting it in the queue if it is not there
        (a seat a bot plays on since its person left enters the queue so)."""
        await self.redis.zadd(DUE_KEY, {game_id: at_ms}, lt=True)

    async def bring_forward(self, game_id: str, at_ms: int) -> None:
        """Make a queued game due by ``at_ms`` at the latest (a game not queued stays out)."""
        await self.redis.zadd(DUE_KEY, {game_id: at_ms}, xx=True, lt=True)

    async def move_to(self, game_id: str, at_ms: int) -> None:
        """Make a queued game due at ``at_ms``, earlier or later (a game not queued stays out)."""
        await self.redis.zadd(DUE_KEY, {game_id: at_ms}, xx=True)

    async def drop(self, game_id: str) -> None:
        await self.redis.zrem(DUE_KEY, game_id)

    async def due(self, now_ms: int, limit: int) -> list[str]:
        """The games due by ``now_ms``, earliest first."""
        members: Any = await self.redis.zrangebyscore(DUE_KEY, "-inf", now_ms, start=0, num=limit)
        return [m.decode() if isinstance(m, bytes) else str(m) for m in members]

    async def next_due_ms(self) -> float | None:
        """When the first game is due (``None``: the queue is empty)."""
        first: Any = await self.redis.zrange(DUE_KEY, 0, 0, withscores=True)
        return float(first[0][1]) if first else None

    async def due_at(self, game_id: str) -> float | None:
        """When the game is due (``None``: it is not queued)."""
        score: Any = await self.redis.zscore(DUE_KEY, game_id)
        return None if score is None else float(score)
