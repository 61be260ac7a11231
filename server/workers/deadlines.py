"""Windows that close by themselves: turn clocks, trade answers, reaction windows.

A game says which of its windows are open and when each is due (``Game.deadlines``),
and so does its table for running turn clocks (``domain.table.deadlines``);
the game service files them in the schedule (server/storage/schedule.py). Every replica polls
it on the shared clock (Redis TIME) and sends a due window's closing command from the
sender ``Clock`` through ``Games.handle``, with the command id ``deadline:<window>``: fired
twice, or by two replicas, it lands once; the game's decide accepts it only while that
window is open and due. The id is the clock's own (command ids are scoped to their
sender), so no player can take it first. Nothing lives in a replica's memory, so
deadlines survive restarts.
"""

from __future__ import annotations

import hashlib
import logging
import random

import msgspec

from domain.bots import BOTS
from domain.engine import AnyGame
from domain.table import Table, TimeUp, late_seat
from domain.table import deadlines as open_windows
from server.runtime.tasks import Trouble, cancelled, pause
from server.service.codec import encode
from server.service.errors import AppError, CommandIdReused, UnknownGame
from server.service.games import Games
from server.service.senders import Clock
from server.storage.schedule import Schedule

log = logging.getLogger("ludoteca.deadlines")


async def fire_due(games: Games, schedule: Schedule, limit: int = 100) -> int:
    """Close every window due by now; how many closing commands landed."""
    now = await games.store.now_ms()
    fired = 0
    for game_id, window in await schedule.due(now, limit):
        try:
            game, table = await games.load(game_id)
        except UnknownGame:  # the game is gone
            await schedule.drop(game_id, window)
            continue
        deadline = next((d for d in open_windows(game, table) if d.window == window), None)
        if deadline is None:  # closed by a player's move before it was due
            await schedule.drop(game_id, window)
            continue
        if deadline.due_ms > now:  # the window moved later: file it again
            await schedule.file(game_id, {window: deadline.due_ms})
            continue
        command = with_default_move(game, table, deadline.command)
        try:
            await close(games, game_id, window, encode(command))
            fired += 1
        except AppError as exc:  # another replica closed it first, or the game refused: either way it is done
            log.info("deadline %s of %s not applied: %s", window, game_id, exc.code)
        await schedule.drop(game_id, window)
    return fired


async def close(games: Games, game_id: str, window: str, body: bytes) -> None:
    """The clock's command closing ``window``, under the clock's own id for it."""
    sent = f"deadline:{window}"
    try:
        await games.handle(game_id, Clock(), body, sent, None)
    except CommandIdReused:
        # The clock closed a window of that name before with another command (a window opened
        # again after an undo, or another replica's code): say so once, and close this one under
        # an id of its own command, which lands once too.
        log.warning("deadline %s of %s: command id %s was used for another command", window, game_id, sent)
        await games.handle(game_id, Clock(), body, f"{sent}:{hashlib.sha256(body).hexdigest()[:16]}", None)


def with_default_move(game: AnyGame, table: Table, command: object) -> object:
    """A running clock's ``TimeUp``, with the move the greedy bot would make for the late seat.

    The bot sees what that seat sees (domain/bots/), like any bot client would. Its luck is the
    operating system's, never a seed a client could rebuild (docs/bots.md, "Unpredictable"):
    two replicas firing the same window may choose differently: the first to land closes the
    window, and the second is refused (``close``), so the first move stands."""
    if not isinstance(command, TimeUp) or table.clock is None or table.clock.on_timeout != "bot_move":
        return command
    seat = late_seat(table, command.window)
    if seat is None:
        return command
    move = BOTS["greedy"](game, table.state, seat, random.SystemRandom())
    return msgspec.structs.replace(command, move=None if move is None else msgspec.to_builtins(move))


async def run(games: Games, schedule: Schedule, interval: float) -> None:
    """Poll for due windows until cancelled; a Redis outage only delays them."""
    trouble = Trouble(log, "deadlines could not be checked")
    while True:
        try:
            await fire_due(games, schedule)
            trouble.ok()
        except Exception as exc:
            if cancelled():
                raise
            trouble.failed(exc)
        await pause(interval)
