"""A first-in first-out queue for one consumer that holds nothing while empty."""

from __future__ import annotations

import asyncio
import collections
from collections.abc import Callable
from typing import Generic, TypeVar

T = TypeVar("T")


class Mailbox(Generic[T]):
    """Items, first in first out, for one consumer: a deque made on the first item and dropped once
    drained (most sockets are idle most of the time, and an empty deque is not free), and ``wake``,
    called on every item, with which the consumer starts only when something is there. A socket's
    queue of messages (server/service/feeds.py) and the WebSocket protocol's inbox of ASGI events
    (server/runtime/uvicorn/websocket.py) are each one."""

    __slots__ = ("items", "wake")

    def __init__(self) -> None:
        self.items: collections.deque[T] | None = None
        self.wake: Callable[[], None] | None = None

    def qsize(self) -> int:
        return len(self.items) if self.items is not None else 0

    def empty(self) -> bool:
        return not self.items

    def put_nowait(self, item: T) -> None:
        if self.items is None:
            self.items = collections.deque()
        self.items.append(item)
        if self.wake is not None:
            self.wake()

    def get_nowait(self) -> T:
        if not self.items:
            raise asyncio.QueueEmpty
        item = self.items.popleft()
        if not self.items:
            self.items = None
        return item
