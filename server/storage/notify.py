"""The pub/sub hint that a game's stream grew: ``lt:notify`` carries ``"<game_id> <version>"`` after
each append (server/storage/store.py publishes it), and other owners' channels ride the same
subscription. Only a hint: the stream is the truth, and readers sweep after a reconnect."""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable, Mapping
from typing import Any, Final

from redis.exceptions import RedisError

from server.runtime.tasks import pause
from server.storage.connection import Client, endpoint, initialize
from server.storage.keys import NOTIFY
from server.storage.resp.client import Subscription

log = logging.getLogger(__name__)

NOTIFY_CHANNEL: Final = NOTIFY.at()


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


class Notifications:
    """One subscription per process to ``lt:notify``, and to the channels other owners name, on a
    lean connection of its own (server/storage/resp/client.py) to where ``redis`` connects (with a
    Sentinel, the primary it names at each connection: after a failover, the new one).

    :meth:`run` calls ``on_notify(game_id, version)`` for each append, and
    ``channels[name](text)`` for each message on another channel (who is at a table,
    server/storage/presence.py), as each message is read. After the connection was lost (or could not
    be made), it retries with a capped backoff and, once subscribed again, calls
    ``on_reconnect()`` so callers sweep what they may have missed. Notifications are only hints.
    ``subscribed`` is set while the subscription is live.
    """

    def __init__(self, redis: Client, *, min_backoff: float = 0.05, max_backoff: float = 2.0) -> None:
        self.redis = redis
        self.min_backoff = min_backoff
        self.max_backoff = max_backoff
        self.subscribed = asyncio.Event()
        self.reconnects = 0

    async def run(
        self,
        on_notify: Callable[[str, int], None],
        on_reconnect: Callable[[], None],
        channels: Mapping[str, Callable[[str], None]] | None = None,
    ) -> None:
        """Loop until cancelled."""
        others = {name.encode(): callback for name, callback in (channels or {}).items()}

        def on_message(channel: bytes, data: bytes) -> None:
            other = others.get(channel)
            if other is not None:
                self._call(functools.partial(other, _text(data)))
            else:
                self._dispatch(data, on_notify)

        backoff = self.min_backoff
        lost = False
        while True:
            subscription: Subscription | None = None
            try:
                await initialize(self.redis)
                subscription = await Subscription.open(
                    await endpoint(self.redis), [NOTIFY_CHANNEL, *(c.decode() for c in others)], on_message
                )
                self.subscribed.set()
                backoff = self.min_backoff
                if lost:
                    lost = False
                    self.reconnects += 1
                    self._call(on_reconnect)
                await subscription.watch()
                raise RedisError("the connection was lost")
            except (RedisError, OSError) as exc:  # connection lost, timeouts, and e.g. -LOADING after a restart
                self.subscribed.clear()
                if not lost:
                    log.warning("lost the Redis notification connection (%s); reconnecting", exc)
                lost = True
            finally:
                self.subscribed.clear()
                if subscription is not None:
                    subscription.close()
            await pause(backoff)
            backoff = min(backoff * 2, self.max_backoff)

    def _dispatch(self, data: Any, on_notify: Callable[[str, int], None]) -> None:
        try:
            game_id, _, version = _text(data).partition(" ")
            parsed = int(version)
        except (ValueError, TypeError, UnicodeDecodeError):
            log.warning("ignoring a malformed notification %r", data)
            return
        try:
            on_notify(game_id, parsed)
        except Exception:
            log.exception("on_notify failed for %s %s", game_id, parsed)

    @staticmethod
    def _call(callback: Callable[[], None]) -> None:
        try:
            callback()
        except Exception:
            log.exception("a notification callback failed")
