"""Who is at each table, on every replica: the connections presence keeps in Redis
(server/storage/presence.py), as the ``presence`` a view and a socket's message carry."""

from __future__ import annotations

from projections.views import Present, SeatPresence
from server.storage.presence import Here, Presence


def present(here: Here) -> Present:
    return Present([SeatPresence(seat, since) for seat, since in here.seats.items()], here.spectators)


class Attendance:
    """Sockets arriving at and leaving tables, and who is at one now."""

    def __init__(self, presence: Presence) -> None:
        self.presence = presence

    async def present(self, game_id: str) -> Present:
        return present(await self.presence.present(game_id))

    async def arrive(self, game_id: str, seat: int | None) -> str:
        """A socket joined ``game_id`` at ``seat`` (``None``: a spectator); its connection id, to leave with."""
        return await self.presence.arrive(game_id, seat)

    async def leave(self, conn: str) -> None:
        await self.presence.leave(conn)
