"""Players in Redis: who they are, the tokens that sign them in, the seats they hold, one-time codes.

A player's own keys share the hash tag ``{player:<player_id>}`` (one Redis Cluster slot):
``lt:{player:<id>}`` (a hash: ``name``, ``lang``, ``created_ms``, and what it is told by:
``email``, ``webhook``, ``notify``), its token hashes
``lt:{player:<id>}:tokens`` and its seats ``lt:{player:<id>}:seats`` (``"<game_id> <seat>"``
scored by when it sat down). A token's hash finds its player through ``lt:{player-token:<hash>}``,
a one-time code through ``lt:{player-code:<code>}``, and a subject of the operator's identity
provider through ``lt:{player-subject:<hash>}`` (each its own slot: they are looked up before the
player is known; the player's hash keeps its subject's hash as ``subject``, for erasure). Names
live here alone, never in a game's stream: erasing a player deletes every one of these keys, and
the games it sat at keep only its id.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from server.storage.connection import Client
from server.storage.keys import PLAYER, PLAYER_CODE, PLAYER_SEATS, PLAYER_SUBJECT, PLAYER_TOKEN, PLAYER_TOKENS


def _text(raw: Any) -> str:
    return raw.decode() if isinstance(raw, bytes) else str(raw)


class PlayerRegistry:
    """Every player's keys, on the Redis every replica shares."""

    def __init__(self, redis: Client) -> None:
        self.redis = redis

    async def create(self, player_id: str, fields: dict[str, str | int], token_hash: str) -> None:
        """A new player, signed in by the token whose hash is ``token_hash``."""
        await self.redis.hset(PLAYER.at(player_id=player_id), mapping=fields)  # type: ignore[arg-type]
        await self.add_token(player_id, token_hash)

    async def get(self, player_id: str) -> dict[str, str] | None:
        found: dict[Any, Any] = await self.redis.hgetall(PLAYER.at(player_id=player_id))
        return {_text(k): _text(v) for k, v in found.items()} or None

    async def update(self, player_id: str, fields: dict[str, str | int]) -> bool:
        """Set ``fields`` of a player that exists; whether it did."""
        key = PLAYER.at(player_id=player_id)
        if not await self.redis.exists(key):
            return False
        await self.redis.hset(key, mapping=fields)  # type: ignore[arg-type]
        return True

    async def clear(self, player_id: str, *fields: str) -> None:
        """Remove ``fields`` of a player (a webhook taken down, an email address removed)."""
        await self.redis.hdel(PLAYER.at(player_id=player_id), *fields)

    async def fields(self, player_ids: Iterable[str], names: tuple[str, ...]) -> dict[str, dict[str, str]]:
        """The fields ``names`` of each player that exists among ``player_ids`` (those it has set)."""
        ids = list(dict.fromkeys(player_ids))
        if not ids:
            return {}
        async with self.redis.pipeline(transaction=False) as pipe:
            for player_id in ids:
                pipe.hmget(PLAYER.at(player_id=player_id), ["created_ms", *names])
            found = await pipe.execute()
        return {
            player_id: {name: _text(v) for name, v in zip(names, values[1:], strict=True) if v is not None}
            for player_id, values in zip(ids, found, strict=True)
            if values[0] is not None  # every player has created_ms: none, no player
        }

    async def names(self, player_ids: Iterable[str]) -> dict[str, str]:
        """The names of the players that exist among ``player_ids``."""
        ids = list(dict.fromkeys(player_ids))
        if not ids:
            return {}
        async with self.redis.pipeline(transaction=False) as pipe:
            for player_id in ids:
                pipe.hget(PLAYER.at(player_id=player_id), "name")
            found = await pipe.execute()
        return {player_id: _text(name) for player_id, name in zip(ids, found, strict=True) if name is not None}

    # -- tokens ----------------------------------------------------------------------------

    async def add_token(self, player_id: str, token_hash: str) -> None:
        await self.redis.sadd(PLAYER_TOKENS.at(player_id=player_id), token_hash)
        await self.redis.set(PLAYER_TOKEN.at(token_hash=token_hash), player_id)

    async def player_of(self, token_hash: str) -> str | None:
        found = await self.redis.get(PLAYER_TOKEN.at(token_hash=token_hash))
        return _text(found) if found is not None else None

    async def drop_token(self, player_id: str, token_hash: str) -> None:
        await self.redis.delete(PLAYER_TOKEN.at(token_hash=token_hash))
        await self.redis.srem(PLAYER_TOKENS.at(player_id=player_id), token_hash)

    async def drop_tokens(self, player_id: str) -> int:
        """Sign the player out everywhere: every token it holds stops working; how many there were."""
        key = PLAYER_TOKENS.at(player_id=player_id)
        hashes = [_text(h) for h in await self.redis.smembers(key)]
        if hashes:
            await self.redis.delete(*(PLAYER_TOKEN.at(token_hash=h) for h in hashes))
        await self.redis.delete(key)
        return len(hashes)

    # -- seats -----------------------------------------------------------------------------

    async def sat(self, player_id: str, game_id: str, seat: int, at_ms: int) -> None:
        await self.redis.zadd(PLAYER_SEATS.at(player_id=player_id), {f"{game_id} {seat}": at_ms})

    async def seats(self, player_id: str, most: int) -> list[tuple[str, int, int]]:
        """The player's seats, the latest first: (game id, seat, when it sat down)."""
        found: Any = await self.redis.zrevrange(PLAYER_SEATS.at(player_id=player_id), 0, most - 1, withscores=True)
        seats = []
        for member, score in found:
            game_id, _, seat = _text(member).partition(" ")
            seats.append((game_id, int(seat), int(score)))
        return seats

    async def left(self, player_id: str, game_id: str, seat: int) -> None:
        """The player's seat at ``game_id`` is no longer listed (the game is gone)."""
        await self.redis.zrem(PLAYER_SEATS.at(player_id=player_id), f"{game_id} {seat}")

    # -- one-time codes ----------------------------------------------------------------------

    async def new_code(self, code: str, player_id: str, ttl_ms: int) -> bool:
        """Keep ``code`` for ``player_id`` for ``ttl_ms``; ``False`` if that code is in use."""
        return bool(await self.redis.set(PLAYER_CODE.at(code=code), player_id, px=ttl_ms, nx=True))

    async def take_code(self, code: str) -> str | None:
        """The player of ``code``, which is used up; ``None`` if there is no such code (or it expired)."""
        found = await self.redis.getdel(PLAYER_CODE.at(code=code))
        return _text(found) if found is not None else None

    # -- identity providers' subjects ------------------------------------------------------------

    async def subject_player(self, subject_hash: str) -> str | None:
        """The player a provider's subject signs in, if it has one."""
        found = await self.redis.get(PLAYER_SUBJECT.at(subject_hash=subject_hash))
        return _text(found) if found is not None else None

    async def link_subject(self, subject_hash: str, player_id: str, replace: bool = False) -> str:
        """Let the subject sign ``player_id`` in, unless it signs another in already (``replace``: even
        then); the player it signs in now."""
        key = PLAYER_SUBJECT.at(subject_hash=subject_hash)
        if replace:
            await self.redis.set(key, player_id)
            return player_id
        if await self.redis.set(key, player_id, nx=True):
            return player_id
        return await self.subject_player(subject_hash) or player_id

    # -- erasure -----------------------------------------------------------------------------

    async def erase(self, player_id: str) -> None:
        """Delete every key that holds anything of the player (its tokens first, so that none signs
        in while the rest goes)."""
        await self.drop_tokens(player_id)
        subject = await self.redis.hget(PLAYER.at(player_id=player_id), "subject")
        if subject is not None:
            await self.redis.delete(PLAYER_SUBJECT.at(subject_hash=_text(subject)))
        await self.redis.delete(PLAYER.at(player_id=player_id), PLAYER_SEATS.at(player_id=player_id))
