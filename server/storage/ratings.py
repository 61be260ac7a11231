"""Ratings in Redis, per game: each player's rating, the leaderboard, the order games were rated in,
and each player's history.

``lt:{ratings:<game>}`` holds each player's ``"mu sigma games wins"``; ``lt:{ratings:<game>}:board``
scores players by their ordinal (mu - 3 sigma); ``lt:{ratings:<game>}:rated`` scores the game ids
rated, in the order they were (the one fact a rebuild needs beside the streams); ``lt:{ratings}:cursor``
is how far the rater has read the finished games. A player's history is ``lt:{player:<id>}:ratings``
(one JSON line a rated game, oldest first). Ratings hold player ids, never names.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple

from server.storage.connection import Client
from server.storage.keys import RATED, RATING_BOARD, RATING_CURSOR, RATING_HISTORY, RATINGS


class Rating(NamedTuple):
    mu: float
    sigma: float
    games: int = 0
    wins: int = 0


def _text(raw: Any) -> str:
    return raw.decode() if isinstance(raw, bytes) else str(raw)


class RatingBook:
    """Every game's ratings, on the Redis every replica shares."""

    def __init__(self, redis: Client) -> None:
        self.redis = redis

    async def ratings(self, game: str, players: Iterable[str]) -> dict[str, Rating]:
        """The ratings the players among ``players`` have (a player never rated is missing)."""
        ids = list(players)
        if not ids:
            return {}
        found: Any = await self.redis.hmget(RATINGS.at(game=game), ids)
        return {pid: Rating(*_parse(raw)) for pid, raw in zip(ids, found, strict=True) if raw is not None}

    async def record(
        self,
        game: str,
        game_id: str,
        order: float,
        updates: Mapping[str, Rating],
        history: Mapping[str, bytes],
        board: Mapping[str, float],
    ) -> None:
        """A rated game's new ratings, its place in the order games were rated in, a line of each
        player's history, and the leaderboard's scores of those of its players it lists (``board``)."""
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.hset(RATINGS.at(game=game), mapping={pid: _format(r) for pid, r in updates.items()})
            if board:
                pipe.zadd(RATING_BOARD.at(game=game), dict(board))
            pipe.zadd(RATED.at(game=game), {game_id: order})
            await pipe.execute()
        for pid, line in history.items():
            await self.redis.rpush(RATING_HISTORY.at(player_id=pid), line)

    async def was_rated(self, game: str, game_id: str) -> bool:
        return await self.redis.zscore(RATED.at(game=game), game_id) is not None

    async def rated(self, game: str) -> list[str]:
        """The games rated, in the order they were."""
        return [_text(g) for g in await self.redis.zrange(RATED.at(game=game), 0, -1)]

    async def board(self, game: str, start: int, count: int) -> list[tuple[str, Rating]]:
        """Players by ordinal, the best first, from ``start``."""
        ids = [_text(p) for p in await self.redis.zrevrange(RATING_BOARD.at(game=game), start, start + count - 1)]
        found = await self.ratings(game, ids)
        return [(pid, found[pid]) for pid in ids if pid in found]

    async def history(self, player_id: str) -> list[bytes]:
        lines: Any = await self.redis.lrange(RATING_HISTORY.at(player_id=player_id), 0, -1)
        return [bytes(line) for line in lines]

    async def cursor(self) -> tuple[int, str]:
        raw = await self.redis.get(RATING_CURSOR.at())
        if raw is None:
            return -1, ""
        at, _, game_id = _text(raw).partition(" ")
        return int(at), game_id

    async def move_cursor(self, finished_ms: int, game_id: str) -> None:
        await self.redis.set(RATING_CURSOR.at(), f"{finished_ms} {game_id}")

    async def clear(self, games: Iterable[str], players: Iterable[str]) -> None:
        """Forget every rating of ``games`` and the histories of ``players`` (before a rebuild)."""
        keys = [key.at(game=game) for game in games for key in (RATINGS, RATING_BOARD, RATED)]
        keys += [RATING_HISTORY.at(player_id=pid) for pid in players]
        if keys:
            await self.redis.delete(*keys)
        await self.redis.delete(RATING_CURSOR.at())

    async def forget_player(self, games: Iterable[str], player_id: str) -> None:
        """An erased player leaves every leaderboard, and its history goes."""
        for game in games:
            await self.redis.hdel(RATINGS.at(game=game), player_id)
            await self.redis.zrem(RATING_BOARD.at(game=game), player_id)
        await self.redis.delete(RATING_HISTORY.at(player_id=player_id))


def _parse(raw: Any) -> tuple[float, float, int, int]:
    mu, sigma, games, wins = _text(raw).split()
    return float(mu), float(sigma), int(games), int(wins)


def _format(rating: Rating) -> str:
    return f"{rating.mu!r} {rating.sigma!r} {rating.games} {rating.wins}"
