"""Who is at the table: one short-lived key per WebSocket connection, on any replica.

A connection writes ``lt:{<game_id>}:presence:<conn>`` = ``"<seat> <since_ms>"`` with a
time to live and adds ``<conn>`` to the game's set ``lt:{<game_id>}:present``; its replica
renews the key while the socket lives and deletes it when the socket closes. A replica
that dies leaves keys that expire by themselves (``ttl``). Readers take the set and the
keys in one round trip and drop members whose key has expired. Every change is
published on ``lt:presence`` (the game id), so each replica pushes it to its sockets.
All of a game's keys share its hash tag, so this works on a Redis Cluster too.
"""

from __future__ import annotations

import secrets
from typing import Any, Final

import msgspec

from server.store import Client

PRESENCE_CHANNEL: Final = "lt:presence"


class SeatPresence(msgspec.Struct, frozen=True):
    """A seat with at least one live connection, connected since ``since_ms`` (its oldest)."""

    seat: int
    since_ms: int


class Present(msgspec.Struct, frozen=True):
    """Who is at a game's table now: the connected seats and how many spectators watch."""

    seats: list[SeatPresence]
    spectators: int


def _set_key(game_id: str) -> str:
    return f"lt:{{{game_id}}}:present"


def _conn_key(game_id: str, conn: str) -> str:
    return f"lt:{{{game_id}}}:presence:{conn}"


class Presence:
    """This replica's connections, written to Redis where every replica reads them."""

    def __init__(self, redis: Client, ttl_ms: int = 30_000) -> None:
        self.redis = redis
        self.ttl_ms = ttl_ms
        self.local: dict[str, tuple[str, str]] = {}  # conn -> (game_id, value)

    async def arrive(self, game_id: str, seat: int | None, now_ms: int) -> str:
        """A socket joined ``game_id`` as ``seat`` (None: a spectator); its connection id."""
        conn = secrets.token_hex(8)
        value = f"{-1 if seat is None else seat} {now_ms}"
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.set(_conn_key(game_id, conn), value, px=self.ttl_ms)
            pipe.sadd(_set_key(game_id), conn)
            pipe.pexpire(_set_key(game_id), self.ttl_ms * 4)
            await pipe.execute()
        self.local[conn] = (game_id, value)
        await self.redis.publish(PRESENCE_CHANNEL, game_id)
        return conn

    async def leave(self, conn: str) -> None:
        found = self.local.pop(conn, None)
        if found is None:
            return
        game_id, _ = found
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.delete(_conn_key(game_id, conn))
            pipe.srem(_set_key(game_id), conn)
            await pipe.execute()
        await self.redis.publish(PRESENCE_CHANNEL, game_id)

    async def renew(self) -> None:
        """Keep this replica's connections alive (call well within ``ttl_ms``)."""
        by_game: dict[str, list[tuple[str, str]]] = {}
        for conn, (game_id, value) in self.local.items():
            by_game.setdefault(game_id, []).append((conn, value))
        for game_id, conns in by_game.items():  # one slot per game: one pipeline each
            async with self.redis.pipeline(transaction=False) as pipe:
                for conn, value in conns:
                    pipe.set(_conn_key(game_id, conn), value, px=self.ttl_ms)
                    pipe.sadd(_set_key(game_id), conn)
                pipe.pexpire(_set_key(game_id), self.ttl_ms * 4)
                await pipe.execute()

    async def present(self, game_id: str) -> Present:
        """Who is connected to ``game_id`` now, on every replica."""
        members: Any = await self.redis.smembers(_set_key(game_id))
        conns = sorted(m.decode() if isinstance(m, bytes) else m for m in members)
        if not conns:
            return Present([], 0)
        values: Any = await self.redis.mget([_conn_key(game_id, c) for c in conns])
        gone = [c for c, v in zip(conns, values, strict=True) if v is None]
        if gone:
            await self.redis.srem(_set_key(game_id), *gone)
        since: dict[int, int] = {}
        spectators = 0
        for value in values:
            if value is None:
                continue
            seat_text, since_text = (value.decode() if isinstance(value, bytes) else value).split()
            seat, at = int(seat_text), int(since_text)
            if seat < 0:
                spectators += 1
            else:
                since[seat] = min(at, since.get(seat, at))
        return Present([SeatPresence(s, since[s]) for s in sorted(since)], spectators)
