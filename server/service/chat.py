"""What the table's chat needs beyond a seat's commands: the spectators' channel and an operator's hand.

A seat chats with commands (``Say``, ``HideMessage``, ``Mute``: domain/chat.py), decided and
appended as any command. A player watching a table, seated at none of its seats, says something
on the spectators' channel here, at the same rate a seat chats; an operator hides any message.
Both are table facts appended through ``Games.facts``.
"""

from __future__ import annotations

from typing import Any

from domain.chat import hidden_by_operator
from domain.engine import FULL, Viewer
from domain.table import Table, spectator_chat
from projections.views import feed, is_revealed
from server.service.errors import TooMany
from server.service.games import CHAT_BURST, CHAT_RATE, CommandAnswer, Games
from server.service.rates import SeatRates


class TableChat:
    def __init__(self, games: Games) -> None:
        self.games = games
        self.rates = SeatRates(CHAT_RATE, CHAT_BURST)  # one bucket a watching player at each table

    async def spectator_says(self, game_id: str, player: str, text: str) -> CommandAnswer:
        """The message of ``player`` (its id), watching ``game_id``; the spectators' feed of it."""
        await self.games.tables.look(game_id)  # an unknown game is 404 before the rate is charged
        if not self.rates.allow(game_id, player):
            raise TooMany(
                "too_many",
                "Too many chat messages; slow down.",
                {"retry_after": round(1 / CHAT_RATE), "case": "chat"},
            )
        events, after = await self.games.facts(game_id, lambda game, table: spectator_chat(game, table, text, player))
        return self._answer(after, events, None)

    async def hide(self, game_id: str, version: int) -> CommandAnswer:
        """An operator hides the message said at ``version`` (nothing new if it is hidden already)."""
        events, after = await self.games.facts(game_id, lambda game, table: hidden_by_operator(table.chat, version))
        return self._answer(after, events, FULL)

    def _answer(self, after: Table, events: list[Any], viewer: Viewer) -> CommandAnswer:
        """The new facts as ``viewer`` sees them, and the version they end at."""
        game = self.games.games[after.game]
        versions = range(after.version - len(events) + 1, after.version + 1)
        seen = feed(game, zip(versions, events, strict=True), viewer, is_revealed(game, after), after)
        return CommandAnswer(after.version, seen)
