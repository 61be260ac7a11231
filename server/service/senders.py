"""Who sends a command: a person at a seat, a bot the server plays for a seat, or the clock.

Every command enters through ``Games.handle`` with its sender. The sender decides which
seat the command is decided for, whether it may act at all, and the scope of its command
ids: an id is its sender's own (``seat:0``, ``bot:0``, ``clock``), so nobody can take an id
another sender will use, not even one it can predict (a bot's ``bot:<seat>:<version>``, the
clock's ``deadline:<window>``).
"""

from __future__ import annotations

from dataclasses import dataclass

from domain.engine import CLOCK


@dataclass(frozen=True, slots=True)
class Holder:
    """Whoever holds ``token`` (a request's bearer; ``None``: a spectator): the seat is learnt
    from the token, on the way to the command, in the same read."""

    token: str | None


@dataclass(frozen=True, slots=True)
class Person:
    """The person at ``seat``, known already (a socket's, since its hello; ``None``: a spectator)."""

    seat: int | None

    @property
    def scope(self) -> str:
        return f"seat:{self.seat}"


@dataclass(frozen=True, slots=True)
class Bot:
    """The server's bot playing ``seat`` (one that sat down as a bot, or one that left)."""

    seat: int

    @property
    def scope(self) -> str:
        return f"bot:{self.seat}"


@dataclass(frozen=True, slots=True)
class Clock:
    """The shared clock, closing a window that closes by itself (decided for the seat ``CLOCK``)."""

    seat: int = CLOCK

    @property
    def scope(self) -> str:
        return "clock"


Sender = Holder | Person | Bot | Clock
Acting = Person | Bot | Clock  # a sender once its seat is known
