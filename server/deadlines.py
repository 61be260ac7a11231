"""Windows that close by themselves: turn clocks, trade answers, reaction windows.

A game says which of its windows are open and when each is due (``Game.deadlines``),
and so does its table for running turn clocks (``domain.table.deadlines``);
the command handler files them in one sorted set. Every replica polls that set on the
shared clock (Redis TIME) and sends a due window's closing command from the seat
``CLOCK`` through the ordinary command path, with the command id
``deadline:<window>``: fired twice, or by two replicas, it lands once; the game's
decide accepts it only while that window is open and due. Nothing lives in a replica's
memory, so deadlines survive restarts.
"""

from __future__ import annotations

import logging
import random

import msgspec

from domain.bots import BOTS
from domain.engine import CLOCK, AnyGame
from domain.table import Table, TimeUp, late_seat
from domain.table import deadlines as open_windows
from server.codec import encode
from server.errors import ApiError
from server.games import Games, Seated
from server.tasks import Trouble, cancelled, pause

log = logging.getLogger("ludoteca.deadlines")


async def fire_due(games: Games, limit: int = 100) -> int:
    """Close every window due by now; how many closing commands landed."""
    store = games.store
    now = await store.now_ms()
    fired = 0
    for game_id, window in await store.due(now, limit):
        try:
            game, table = await games.load(game_id)
        except ApiError:  # the game is gone
            await store.unschedule(game_id, window)
            continue
        deadline = next((d for d in open_windows(game, table) if d.window == window), None)
        if deadline is None:  # closed by a player's move before it was due
            await store.unschedule(game_id, window)
            continue
        if deadline.due_ms > now:  # the window moved later: file it again
            await store.schedule(game_id, {window: deadline.due_ms})
            continue
        try:
            command = with_default_move(game, table, deadline.command)
            await games.command(Seated(game_id, game, table, CLOCK), CLOCK, encode(command), f"deadline:{window}", None)
            fired += 1
        except ApiError as exc:  # another replica closed it first, or the game refused: either way it is done
            log.info("deadline %s of %s not applied: %s", window, game_id, exc.code)
        await store.unschedule(game_id, window)
    return fired


def with_default_move(game: AnyGame, table: Table, command: object) -> object:
    """A running clock's ``TimeUp``, with the move the greedy bot would make for the late seat.

    The bot sees what that seat sees (domain/bots/), like any bot client would. Its luck is the
    operating system's, never a seed a client could rebuild (docs/bots.md, "Unpredictable"):
    two replicas firing the same window may choose differently, and the second one's command
    (the same command id) is refused, so the first move stands."""
    if not isinstance(command, TimeUp) or table.clock is None or table.clock.on_timeout != "bot_move":
        return command
    seat = late_seat(table, command.window)
    if seat is None:
        return command
    move = BOTS["greedy"](game, table.state, seat, random.SystemRandom())
    return msgspec.structs.replace(command, move=None if move is None else msgspec.to_builtins(move))


async def run(games: Games, interval: float) -> None:
    """Poll for due windows until cancelled; a Redis outage only delays them."""
    trouble = Trouble(log, "deadlines could not be checked")
    while True:
        try:
            await fire_due(games)
            trouble.ok()
        except Exception as exc:
            if cancelled():
                raise
            trouble.failed(exc)
        await pause(interval)
