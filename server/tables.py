"""The table cache: each game this replica serves, folded from its stream, in a bounded LRU.

A cached table is kept with its :class:`~server.store.Head` (the version and chain link of
its last event) and the seats of the tokens seen for it. Before a table is used it is
caught up from the stream, from the cached version itself, so that a stream that no longer
continues the cached history (Redis lost writes) is noticed and folded again from what
Redis holds.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from domain.engine import AnyGame
from domain.table import Table, fold
from server.codec import TABLE_OPENED, GameCodec
from server.errors import UnknownGame
from server.store import CommandKey, EventStore, Head, Look

GAME_ID_BYTES = 8
log = logging.getLogger("ludoteca.games")

UNKNOWN_GAME = "There is no game with that id."


def valid_game_id(game_id: str) -> bool:
    return len(game_id) == 2 * GAME_ID_BYTES and all(c in "0123456789abcdef" for c in game_id)


@dataclass(slots=True)
class Cached:
    table: Table
    head: Head  # of ``table``'s last event
    seats: dict[str, int] = field(default_factory=dict)  # token hash -> seat (a token keeps its seat)


@dataclass(frozen=True, slots=True)
class Loaded:
    """A game caught up with its stream: the table, its head, and what else the read brought."""

    game: AnyGame
    table: Table
    head: Head
    look: Look


class Tables:
    """Every game's table this replica caches, over one event store."""

    def __init__(self, store: EventStore, games: Mapping[str, AnyGame], cache_size: int = 1000) -> None:
        self.store = store
        self.games = dict(games)
        self.codecs = {kind: GameCodec(game) for kind, game in games.items()}
        self.cache: OrderedDict[str, Cached] = OrderedDict()
        self.cache_size = cache_size

    async def look(self, game_id: str, token_hash: str | None = None, command: CommandKey | None = None) -> Loaded:
        """The game's table caught up with its stream, and in the same round trip what
        :meth:`EventStore.look` reads for a token and a command."""
        if not valid_game_id(game_id):
            raise UnknownGame("unknown_game", UNKNOWN_GAME)
        held = self.cache.get(game_id)
        # Taken before the read (a Cached is updated in place: another request may cache a newer
        # table meanwhile, and the read starts from this one's version).
        before, since = (held.table, held.head) if held is not None else (None, Head(0))
        # Read from the cached version itself, to check it is still the event we folded.
        look = await self.store.look(game_id, since.version - 1 if held else 0, token_hash=token_hash, command=command)
        entries = look.entries
        if before is not None:
            if look.head == 0:  # deleted (expired or archived) since we cached it
                self.forget(game_id)
                raise UnknownGame("unknown_game", UNKNOWN_GAME)
            if not since.continued_by(entries):
                # The stream went backwards (a failover lost acknowledged writes), and may
                # have been written past them again: forget what we folded and start
                # again from what Redis holds.
                log.warning("game %s: the stream lost versions this replica had seen; reloading it", game_id)
                self.forget(game_id)
                return await self.look(game_id, token_hash, command)
            entries = entries[1:]
        elif not entries:
            raise UnknownGame("unknown_game", UNKNOWN_GAME)
        kind = before.game if before else TABLE_OPENED.decode(entries[0].data).game
        codec = self.codecs[kind]
        table = fold(codec.game, before, codec.decode_events(entries))
        assert table is not None
        head = since.after(entries)
        self.remember(game_id, table, head)
        if token_hash is not None and look.seat is not None:
            self.know_seat(game_id, token_hash, look.seat)
        return Loaded(codec.game, table, head, look)

    async def load(self, game_id: str) -> tuple[AnyGame, Table]:
        """The game's table, caught up with its stream."""
        loaded = await self.look(game_id)
        return loaded.game, loaded.table

    def held(self, game_id: str) -> Cached | None:
        """What this replica caches of the game, unread (it may be behind the stream)."""
        return self.cache.get(game_id)

    def seat_of(self, game_id: str, token_hash: str) -> int | None:
        """The seat of a token seen here for a cached game (``None``: not known here)."""
        held = self.cache.get(game_id)
        return held.seats.get(token_hash) if held is not None else None

    def know_seat(self, game_id: str, token_hash: str, seat: int) -> None:
        held = self.cache.get(game_id)
        if held is not None:
            held.seats[token_hash] = seat

    def head_of(self, game_id: str, table: Table) -> Head | None:
        """The head of ``table`` when it is the table cached here (``None``: not known)."""
        held = self.cache.get(game_id)
        return held.head if held is not None and held.table is table else None

    def remember(self, game_id: str, table: Table, head: Head) -> None:
        """Cache ``table``, whose last event's head is ``head``, unless a newer one is cached."""
        held = self.cache.get(game_id)
        if held is None:
            self.cache[game_id] = Cached(table, head)
        elif held.table.version <= table.version:
            held.table, held.head = table, head
        self.cache.move_to_end(game_id)
        while len(self.cache) > self.cache_size:
            self.cache.popitem(last=False)

    def forget(self, game_id: str) -> None:
        self.cache.pop(game_id, None)

    def decode(self, game: AnyGame, entries: list[Any]) -> list[tuple[int, Any]]:
        """``(version, event)`` of stored entries."""
        return self.codecs[game.id].decode_entries(entries)

    async def read(self, game: AnyGame, game_id: str, after: int, until: int) -> list[tuple[int, Any]]:
        """Decoded events in ``(after, until]``."""
        if until <= after:
            return []
        entries = await self.store.read_entries(game_id, after=after, limit=until - after)
        return self.decode(game, entries)
