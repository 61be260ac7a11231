"""The schedule of windows that close by themselves: every game's, in one sorted set.

``lt:{deadlines}:due`` holds ``"<game_id> <window>"`` scored by when the window is due (ms on
the shared clock, Redis TIME). The command handler files a game's open windows after each
append; every replica's deadline worker (server/workers/deadlines.py) takes the due ones.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from server.storage.connection import Client, lean
from server.storage.keys import DEADLINES
from server.storage.resp.client import call

DEADLINES_KEY: Final = DEADLINES.at()


class Schedule:
    """Due windows, on the Redis every replica shares."""

    def __init__(self, redis: Client) -> None:
        self.redis = redis
        self._pipe = lean(redis)  # filing follows every command of a game with open windows

    async def file(self, game_id: str, due: Mapping[str, int]) -> None:
        """File each window of the game (``window -> due_ms``)."""
        if due:
            pairs = [part for window, ms in due.items() for part in (ms, f"{game_id} {window}")]
            await call(self._pipe, "ZADD", DEADLINES_KEY, *pairs)

    async def due(self, now_ms: int, limit: int) -> list[tuple[str, str]]:
        """``(game_id, window)`` of the windows due by ``now_ms``, earliest first."""
        members: Any = await self.redis.zrangebyscore(DEADLINES_KEY, "-inf", now_ms, start=0, num=limit)
        pairs = [(m.decode() if isinstance(m, bytes) else m).partition(" ") for m in members]
        return [(game_id, window) for game_id, _, window in pairs]

    async def drop(self, game_id: str, window: str) -> None:
        await self.redis.zrem(DEADLINES_KEY, f"{game_id} {window}")
