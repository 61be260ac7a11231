"""The notifications' outbox: what is to be sent, durable in Redis, claimed by one replica at a time.

Every key shares the hash tag ``{outbox}`` (one Redis Cluster slot, so each script touches one node):

- ``lt:{outbox}:due``: a sorted set of item ids scored by when (ms on the shared clock, Redis
  TIME) the item is next to be tried;
- ``lt:{outbox}:items``: item id -> what a webhook item sends (a notice, JSON);
- ``lt:{outbox}:tries``: item id -> how many times it was claimed;
- ``lt:{outbox}:mail:<player_id>``: the notices waiting for the player's next email, oldest first.

A webhook item is ``w:<notice id>``, one a notice; a player's email is one item, ``m:<player_id>``,
whatever its list holds (one message, or a digest of several).

Claiming an item does not remove it: the claim moves its score a lease ahead (``lease_ms``), so a
replica killed mid-send leaves it to be claimed again once the lease runs out, and it is sent
again under the same notice ids (at least once: receivers drop a notice id they have seen). An
item leaves the outbox when it was sent or given up; a failed one is put back later. A sent
email item stays, due after the player's spacing, so that the next notices wait for it and go
out together.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from server.storage.connection import Client
from server.storage.keys import OUTBOX_DUE, OUTBOX_ITEMS, OUTBOX_MAIL, OUTBOX_TRIES

DUE: Final = OUTBOX_DUE.at()
ITEMS: Final = OUTBOX_ITEMS.at()
TRIES: Final = OUTBOX_TRIES.at()
MAIL_MOST: Final = 200  # notices one player's email list keeps (the oldest go first past it)

NOW_LUA: Final = "local t = redis.call('TIME') local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)\n"

# KEYS: due, items, then each email letter's mail list. ARGV: the most a mail list keeps, then per
# letter its item id, its notice and the index in KEYS of its mail list (0: a webhook letter). A
# webhook notice posted twice is kept once.
POST_LUA: Final = (
    NOW_LUA
    + r"""
local most = tonumber(ARGV[1])
for i = 2, #ARGV, 3 do
  local item, notice, list = ARGV[i], ARGV[i + 1], tonumber(ARGV[i + 2])
  if list == 0 then
    if redis.call('HSETNX', KEYS[2], item, notice) == 1 then
      redis.call('ZADD', KEYS[1], 'NX', now, item)
    end
  else
    redis.call('RPUSH', KEYS[list], notice)
    redis.call('LTRIM', KEYS[list], -most, -1)
    redis.call('ZADD', KEYS[1], 'NX', now, item)
  end
end
return 1
"""
)

# KEYS: due, tries, items. ARGV: lease ms, most items. Returns id, attempt, body ('' for none) per item.
CLAIM_LUA: Final = (
    NOW_LUA
    + r"""
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now, 'LIMIT', 0, tonumber(ARGV[2]))
local out = {}
for _, id in ipairs(ids) do
  redis.call('ZADD', KEYS[1], now + tonumber(ARGV[1]), id)
  out[#out + 1] = id
  out[#out + 1] = redis.call('HINCRBY', KEYS[2], id, 1)
  out[#out + 1] = redis.call('HGET', KEYS[3], id) or ''
end
return out
"""
)

# KEYS: due, tries, items. ARGV: item id.
DONE_LUA: Final = r"""
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('HDEL', KEYS[2], ARGV[1])
redis.call('HDEL', KEYS[3], ARGV[1])
return 1
"""

# KEYS: due, tries. ARGV: item id, the attempt it was claimed as, delay ms, '1' if the attempt counts.
# Only the claim still holding the item moves it (another replica may have claimed it since).
LATER_LUA: Final = (
    NOW_LUA
    + r"""
if tonumber(redis.call('HGET', KEYS[2], ARGV[1]) or '0') ~= tonumber(ARGV[2]) then
  return 0
end
redis.call('ZADD', KEYS[1], 'XX', now + tonumber(ARGV[3]), ARGV[1])
if ARGV[4] ~= '1' then
  redis.call('HINCRBY', KEYS[2], ARGV[1], -1)
end
return 1
"""
)

# KEYS: due, tries, the player's mail list. ARGV: item id, notices sent (the list's first), spacing ms.
# The item stays, due after the spacing: notices that come meanwhile wait for it. Returns what is left.
MAILED_LUA: Final = (
    NOW_LUA
    + r"""
redis.call('LTRIM', KEYS[3], tonumber(ARGV[2]), -1)
redis.call('HDEL', KEYS[2], ARGV[1])
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[3]), ARGV[1])
return redis.call('LLEN', KEYS[3])
"""
)

# KEYS: due, tries, the player's mail list. ARGV: item id. The item leaves only with nothing to send
# (a notice posted meanwhile keeps it, due now).
DROP_MAIL_LUA: Final = (
    NOW_LUA
    + r"""
if redis.call('LLEN', KEYS[3]) > 0 then
  redis.call('ZADD', KEYS[1], now, ARGV[1])
  return 0
end
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('HDEL', KEYS[2], ARGV[1])
return 1
"""
)


def hook_item(notice_id: str) -> str:
    return f"w:{notice_id}"


def mail_item(player_id: str) -> str:
    return f"m:{player_id}"


def mail_player(item: str) -> str | None:
    """The player of an email item (``None``: a webhook item)."""
    return item[2:] if item.startswith("m:") else None


@dataclass(frozen=True)
class Letter:
    """One notice to post: for a webhook (``mail_to`` ``None``) or into a player's next email."""

    item: str
    notice: bytes
    mail_to: str | None = None  # the player whose email list takes it


@dataclass(frozen=True)
class Claimed:
    """An item this replica claimed: its ``attempt`` (1 the first time) and, for a webhook, its notice."""

    item: str
    attempt: int
    notice: bytes


def _bytes(value: Any) -> bytes:
    return value if isinstance(value, bytes) else str(value).encode()


class Outbox:
    """The outbox, on the Redis every replica shares."""

    def __init__(self, redis: Client) -> None:
        self.redis = redis
        self._post = redis.register_script(POST_LUA)
        self._claim = redis.register_script(CLAIM_LUA)
        self._done = redis.register_script(DONE_LUA)
        self._later = redis.register_script(LATER_LUA)
        self._mailed = redis.register_script(MAILED_LUA)
        self._drop_mail = redis.register_script(DROP_MAIL_LUA)

    async def post(self, letters: list[Letter]) -> None:
        """Post every letter, due now, in one script."""
        if not letters:
            return
        keys = [DUE, ITEMS]
        args: list[str | bytes | int] = [MAIL_MOST]
        for letter in letters:
            index = 0
            if letter.mail_to is not None:
                keys.append(OUTBOX_MAIL.at(player_id=letter.mail_to))
                index = len(keys)
            args += [letter.item, letter.notice, index]
        await self._post(keys=keys, args=args)

    async def claim(self, lease_ms: int, most: int) -> list[Claimed]:
        """Up to ``most`` items due now, each left to this replica for ``lease_ms``."""
        if most <= 0:
            return []
        flat: Any = await self._claim(keys=[DUE, TRIES, ITEMS], args=[lease_ms, most])
        return [
            Claimed(_bytes(flat[i]).decode(), int(flat[i + 1]), _bytes(flat[i + 2])) for i in range(0, len(flat), 3)
        ]

    async def mail(self, player_id: str, most: int) -> list[bytes]:
        """The first ``most`` notices waiting for the player's next email."""
        found: Any = await self.redis.lrange(OUTBOX_MAIL.at(player_id=player_id), 0, most - 1)
        return [_bytes(n) for n in found]

    async def done(self, item: str) -> None:
        """A webhook item sent, or given up: it leaves the outbox."""
        await self._done(keys=[DUE, TRIES, ITEMS], args=[item])

    async def later(self, item: str, attempt: int, delay_ms: int, counted: bool = True) -> bool:
        """Try ``item`` again in ``delay_ms`` (``counted``: that attempt counts towards giving up);
        ``False`` when another claim holds it now."""
        return bool(await self._later(keys=[DUE, TRIES], args=[item, attempt, delay_ms, "1" if counted else "0"]))

    async def mailed(self, player_id: str, count: int, spacing_ms: int) -> int:
        """The first ``count`` notices of the player's list are done (sent or given up); the next email
        is due no sooner than ``spacing_ms`` from now. How many notices wait for it."""
        mail = OUTBOX_MAIL.at(player_id=player_id)
        return int(await self._mailed(keys=[DUE, TRIES, mail], args=[mail_item(player_id), count, spacing_ms]))

    async def drop_mail(self, player_id: str) -> bool:
        """The player's email item leaves the outbox, if nothing waits in its list; whether it did."""
        mail = OUTBOX_MAIL.at(player_id=player_id)
        return bool(await self._drop_mail(keys=[DUE, TRIES, mail], args=[mail_item(player_id)]))

    async def forget(self, player_id: str) -> None:
        """Nothing more is emailed to a player that erased itself (its webhook items find no player)."""
        item = mail_item(player_id)
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.delete(OUTBOX_MAIL.at(player_id=player_id))
            pipe.zrem(DUE, item)
            pipe.hdel(TRIES, item)
            await pipe.execute()

    async def waiting(self) -> int:
        """Items in the outbox (sent ones leave it; a player's email item stays for its spacing)."""
        return int(await self.redis.zcard(DUE))

    async def figures(self, now_ms: int) -> tuple[int, int, int]:
        """Items waiting, those due by ``now_ms``, and those tried before (failed once or more, or
        claimed now): counts only, no item's player or address."""
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.zcard(DUE)
            pipe.zcount(DUE, "-inf", now_ms)
            pipe.hlen(TRIES)
            waiting, due, tried = await pipe.execute()
        return int(waiting), int(due), int(tried)

    async def due_at(self, item: str) -> float | None:
        score: Any = await self.redis.zscore(DUE, item)
        return None if score is None else float(score)
