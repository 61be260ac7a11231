"""How many WebSockets this replica holds, per client address and per game, and the caps on them.

One client that opens a thousand sockets holds a thousand queues and, with presence, makes
every arrival fan out to every watcher. Each replica caps what it holds itself
(``LUDOTECA_WS_PER_ADDRESS``, ``LUDOTECA_WS_PER_GAME``; 0: no cap): the count is in its
memory, since a socket lives on one replica, and a client spreading its sockets over the
replicas gains at most their number (docs/operations.md).
"""

from __future__ import annotations

from collections import Counter

from server.service.errors import TooMany


class Sockets:
    """The sockets this replica holds, counted by client address and by game."""

    def __init__(self, per_address: int, per_game: int) -> None:
        self.per_address = per_address
        self.per_game = per_game
        self.by_address: Counter[str] = Counter()
        self.by_game: Counter[str] = Counter()

    def take(self, address: str | None, game_id: str) -> None:
        """Count one more socket for ``address`` at ``game_id``; ``TooMany`` past a cap (nothing counted)."""
        if address is not None and self.per_address and self.by_address[address] >= self.per_address:
            raise TooMany(
                "too_many_sockets",
                f"This address already holds {self.per_address} sockets here; close some first.",
                {"limit": self.per_address, "case": "address"},
            )
        if self.per_game and self.by_game[game_id] >= self.per_game:
            raise TooMany(
                "too_many_sockets",
                f"This game already has {self.per_game} sockets here; try again later.",
                {"limit": self.per_game, "case": "game"},
            )
        if address is not None:
            self.by_address[address] += 1
        self.by_game[game_id] += 1

    def give_back(self, address: str | None, game_id: str) -> None:
        """A socket :meth:`take` counted has closed."""
        if address is not None:
            self.by_address[address] -= 1
            if self.by_address[address] <= 0:
                del self.by_address[address]
        self.by_game[game_id] -= 1
        if self.by_game[game_id] <= 0:
            del self.by_game[game_id]
