"""Who is at the table: one short-lived key per WebSocket connection, on any replica.

A connection writes ``lt:{<game_id>}:presence:<conn>`` = ``"<seat> <since_ms>"`` with a
time to live and adds ``<conn>`` to the game's set ``lt:{<game_id>}:present``; its replica
renews the key while the socket lives and deletes it when the socket closes. A replica
that dies leaves keys that expire by themselves (``ttl``). Readers take the set and the
keys in one round trip and drop members whose key has expired. Every change is
published on ``lt:presence`` (the game id), so each replica pushes it to its sockets.
All of a game's keys share its hash tag, so this works on a Redis Cluster too.

A seat whose last socket closed is noted in ``lt:{presence}:away`` (``"<game_id> <seat>"``
scored by when); with ``LUDOTECA_DROP_AFTER`` set, a seat away that long leaves the game
(``SeatResigned``, reason ``dropped``) and a bot plays it on (server/workers/absent.py). A
seat that never held a socket (a client of the REST API only) is never dropped.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from typing import Any, Final, NamedTuple

from redis.exceptions import RedisError

from server.runtime.tasks import Trouble, cancelled, pause
from server.storage.connection import Client, lean
from server.storage.keys import AWAY, CONNECTION, PRESENCE, PRESENT
from server.storage.resp.client import Script, call, value

log = logging.getLogger("ludoteca.presence")


AWAY_KEY = AWAY.at()  # "<game_id> <seat>" of seats whose sockets all closed, scored by when
PRESENCE_CHANNEL = PRESENCE.at()  # a game id whose connections changed
RENEW_BATCH: Final = 500  # connections a renewal sends at once (two commands each): a few ms to build and read


# KEYS: the connection's key, the game's set of connections. ARGV: the seat, since when (empty:
# Redis's time now), the time to live, the connection, the channel, the game id. One round trip
# for what took four (the clock, the keys, the publish).
ARRIVE_LUA: Final = r"""
local since = ARGV[2]
if since == '' then
  local now = redis.call('TIME')
  since = string.format('%d', tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000))
end
local value = ARGV[1] .. ' ' .. since
redis.call('SET', KEYS[1], value, 'PX', ARGV[3])
redis.call('SADD', KEYS[2], ARGV[4])
redis.call('PEXPIRE', KEYS[2], tonumber(ARGV[3]) * 4)
redis.call('PUBLISH', ARGV[5], ARGV[6])
return value
"""

# KEYS: the game's set of connections. ARGV: the prefix of its connections' keys (each key is the
# prefix and the connection: the same hash tag), the channel, the game id, then the connections
# leaving. Their keys and members go, members whose keys expired too; it answers Redis's time and
# the values of the connections still there, in one round trip for what took five.
LEAVE_LUA: Final = r"""
local prefix = ARGV[1]
local leaving, keys = {}, {}
for i = 4, #ARGV do
  leaving[#leaving + 1] = ARGV[i]
  keys[#keys + 1] = prefix .. ARGV[i]
end
if #leaving > 0 then
  redis.call('DEL', unpack(keys))
  redis.call('SREM', KEYS[1], unpack(leaving))
end
local here = {}
local members = redis.call('SMEMBERS', KEYS[1])
if #members > 0 then
  local member_keys, gone = {}, {}
  for i, member in ipairs(members) do
    member_keys[i] = prefix .. member
  end
  for i, value in ipairs(redis.call('MGET', unpack(member_keys))) do
    if value then
      here[#here + 1] = value
    else
      gone[#gone + 1] = members[i]
    end
  end
  if #gone > 0 then
    redis.call('SREM', KEYS[1], unpack(gone))
  end
end
redis.call('PUBLISH', ARGV[2], ARGV[3])
local now = redis.call('TIME')
return {tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000), here}
"""


def _set_key(game_id: str) -> str:
    return PRESENT.at(game_id=game_id)


def _conn_key(game_id: str, conn: str) -> str:
    return CONNECTION.at(game_id=game_id, conn=conn)


class Here(NamedTuple):
    """Who is connected to a game now: each seat with a socket, and since when its oldest one
    (Redis milliseconds); spectators' sockets counted."""

    seats: dict[int, int]
    spectators: int


class Leaving(NamedTuple):
    """A closed socket waiting to be written as gone."""

    game_id: str
    value: str  # "<seat> <since_ms>"
    conn: str
    now_ms: int | None
    done: asyncio.Future[None]


class Presence:
    """This replica's connections, written to Redis where every replica reads them."""

    channel = PRESENCE_CHANNEL  # what Notifications listens to for this module

    def __init__(self, redis: Client, ttl_ms: int = 30_000) -> None:
        self.redis = redis
        self.ttl_ms = ttl_ms
        self.local: dict[str, tuple[str, str]] = {}  # conn -> (game_id, value)
        self.leaving: list[Leaving] = []  # sockets closed, waiting for the next batch
        self.writer: asyncio.Task[None] | None = None  # the task writing batches of leaves
        # Every socket's opening and closing runs these: over the lean connection (server/storage/resp/client.py).
        self._pipe = lean(redis)
        self._arrive = Script(self._pipe, redis.script_load, ARRIVE_LUA)
        self._leave = Script(self._pipe, redis.script_load, LEAVE_LUA)

    async def arrive(self, game_id: str, seat: int | None, now_ms: int | None = None) -> str:
        """A socket joined ``game_id`` as ``seat`` (None: a spectator) at ``now_ms`` (else Redis's
        time now); its connection id."""
        conn = secrets.token_hex(8)
        since = "" if now_ms is None else str(now_ms)
        keys = [_conn_key(game_id, conn), _set_key(game_id)]
        args: list[str | int] = [-1 if seat is None else seat, since, self.ttl_ms, conn, PRESENCE_CHANNEL, game_id]
        value = _text(await self._arrive(keys=keys, args=args))
        self.local[conn] = (game_id, value)
        if seat is not None:  # the away list spans games: another hash tag, another call
            await call(self._pipe, "ZREM", AWAY_KEY, f"{game_id} {seat}")
        return conn

    async def leave(self, conn: str, now_ms: int | None = None) -> None:
        """A socket closed (``now_ms``: when, else Redis TIME when its batch is written).

        Leaves are written in batches, one batch at a time: the leaves that come while one is
        written make the next. A thousand sockets closing at once (a client's network gone, a
        proxy restarted) take a few round trips per game, one connection at a time, instead of
        six round trips each, which took the whole Redis pool for seconds and refused new
        sockets meanwhile."""
        found = self.local.pop(conn, None)
        if found is None:
            return
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.leaving.append(Leaving(*found, conn, now_ms, done))
        if self.writer is None or self.writer.done():
            self.writer = asyncio.create_task(self._write_leaves())
        await done

    async def _write_leaves(self) -> None:
        while self.leaving:
            batch, self.leaving = self.leaving, []
            try:
                await self._left(batch)
            except BaseException as exc:  # every waiting close hears of it, whatever it was
                for one in batch:
                    if not one.done.done():
                        one.done.set_exception(exc if isinstance(exc, RedisError) else RedisError("presence stopped"))
                if not isinstance(exc, RedisError):
                    raise
            else:
                for one in batch:
                    if not one.done.done():
                        one.done.set_result(None)

    async def _left(self, batch: list[Leaving]) -> None:
        stamps = [one.now_ms for one in batch if one.now_ms is not None]
        by_game: dict[str, list[Leaving]] = {}
        for one in batch:
            by_game.setdefault(one.game_id, []).append(one)
        for game_id, leaving in by_game.items():  # one slot per game: one script call each
            args = [_conn_key(game_id, ""), PRESENCE_CHANNEL, game_id, *(one.conn for one in leaving)]
            redis_ms, here = await self._leave(keys=[_set_key(game_id)], args=args)
            seats = {_seat(one.value) for one in leaving} - {-1}
            still = {_seat(_text(value)) for value in here}
            now_ms = max(stamps) if len(stamps) == len(batch) else int(redis_ms)
            away = {f"{game_id} {seat}": now_ms for seat in seats - still}
            if away:
                await call(self._pipe, "ZADD", AWAY_KEY, *(x for member, at in away.items() for x in (at, member)))

    async def renew(self) -> None:
        """Keep this replica's connections alive (call well within ``ttl_ms``): on the lean
        connection, a batch of connections at a time, each batch built only once the one before is
        answered, so that no stretch holds the loop long (docs/performance.md, "Levers")."""
        held = list(self.local)
        ttl = self.ttl_ms
        for start in range(0, len(held), RENEW_BATCH):
            commands: list[tuple[str | int, ...]] = []
            for conn in held[start : start + RENEW_BATCH]:
                # A socket that closed while the batches before were answered is left out: its key
                # is deleted (or about to be), and setting it again would show it for a time to live.
                found = self.local.get(conn)
                if found is not None:
                    game_id, seen = found
                    commands += [("SET", _conn_key(game_id, conn), seen, "PX", ttl), ("SADD", _set_key(game_id), conn)]
            await self._send(commands)
        games = list({game_id for game_id, _ in self.local.values()})
        for start in range(0, len(games), 2 * RENEW_BATCH):
            batch = games[start : start + 2 * RENEW_BATCH]
            await self._send([("PEXPIRE", _set_key(game_id), ttl * 4) for game_id in batch])

    async def _send(self, commands: list[tuple[str | int, ...]]) -> None:
        for reply in await self._pipe(commands):
            value(reply)  # an error reply raises

    async def keep(self) -> None:
        """Renew this replica's connections until cancelled (three times a time to live)."""
        trouble = Trouble(log, "could not renew this replica's connections")
        while True:
            await pause(self.ttl_ms / 3000)
            try:
                await self.renew()
                trouble.ok()
            except RedisError as exc:
                if cancelled():
                    raise
                trouble.failed(exc)

    async def away_since(self, before_ms: int, limit: int = 100) -> list[tuple[str, int]]:
        """Seats whose sockets all closed before ``before_ms``: (game id, seat)."""
        members: Any = await self.redis.zrangebyscore(AWAY_KEY, "-inf", before_ms, start=0, num=limit)
        found = []
        for member in members:
            game_id, _, seat = (member.decode() if isinstance(member, bytes) else member).partition(" ")
            found.append((game_id, int(seat)))
        return found

    async def away_again(self, game_id: str, seat: int, since_ms: int) -> None:
        await self.redis.zadd(AWAY_KEY, {f"{game_id} {seat}": since_ms})

    async def back(self, game_id: str, seat: int) -> None:
        """``seat`` is no longer counted away (it is dealt with, or it came back)."""
        await self.redis.zrem(AWAY_KEY, f"{game_id} {seat}")

    async def present(self, game_id: str) -> Here:
        """Who is connected to ``game_id`` now, on every replica."""
        members: Any = await call(self._pipe, "SMEMBERS", _set_key(game_id))
        conns = sorted(m.decode() if isinstance(m, bytes) else m for m in members)
        if not conns:
            return Here({}, 0)
        values: Any = await call(self._pipe, "MGET", *(_conn_key(game_id, c) for c in conns))
        gone = [c for c, v in zip(conns, values, strict=True) if v is None]
        if gone:
            await call(self._pipe, "SREM", _set_key(game_id), *gone)
        since: dict[int, int] = {}
        spectators = 0
        for held in values:
            if held is None:
                continue
            seat_text, since_text = (held.decode() if isinstance(held, bytes) else held).split()
            seat, at = int(seat_text), int(since_text)
            if seat < 0:
                spectators += 1
            else:
                since[seat] = min(at, since.get(seat, at))
        return Here(dict(sorted(since.items())), spectators)


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def _seat(value: str) -> int:
    """The seat of a connection's value, ``"<seat> <since_ms>"`` (-1: a spectator)."""
    return int(value.split()[0])
