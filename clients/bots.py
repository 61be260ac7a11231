"""Bots that play seats through the public API (the SDK), like any other client: each move built pick by pick
from the step the server offers.

This is the protocol an outside bot follows (docs/bots.md, "Outside bots"): it holds a seat's token, wakes on
every update of the game's socket, and when an update awaits its seat walks the picks of that update's step
(``Walk``: any chooser, random here) and sends the command with the update's version as ``expected_version``.
``play_seat`` is that loop for any walk, ``play_random`` the random walk, ``against`` a series of games of a
walk against one of the server's bots (a named level), for its rating on the ladder."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from typing import Any

from clients.python import ApiError, AsyncClient, AsyncMove, Conflict, Joined, TableView, Update

# Refusals that mean "the table moved on while I chose": wait for the next update and choose again (a pick
# asked at a newer version than the update's may no longer be offered).
RETRY = frozenset({"version_conflict", "not_your_turn", "not_now", "window_closed", "not_offered"})
# Refusals of a seat that someone else took first.
TAKEN = frozenset({"seat_taken", "version_conflict"})


Walk = Callable[[AsyncMove, random.Random], Awaitable["dict[str, Any] | None"]]  # a bot: its command, pick by pick


async def play_seat(
    client: AsyncClient, game_id: str, walk: Walk, seed: int | None = None, max_commands: int = 100_000
) -> TableView:
    """Play the seat ``client.token`` holds with ``walk`` until the game ends; the final table.

    It wakes on every update of the game's socket. An update to a seat the game awaits carries the first step of
    its move: ``walk`` builds a command from there (asking the server for each further step), with a
    ``random.Random(seed)``, and the command is sent with the update's version as ``expected_version``. A
    refusal that means the table moved on meanwhile waits for the next update.
    """
    if client.token is None:
        raise ValueError("a bot needs a seat token (--token or LUDOTECA_TOKEN)")
    rng = random.Random(seed)
    sent = 0
    start = await client.table(game_id)
    if start.finished:
        return start
    async for update in client.watch(game_id, after=start.version):
        if update.status == "finished":
            return await client.table(game_id)
        if update.step is None or update.step.empty:
            continue  # not awaited, or awaited for something only a deadline ends: wait for the next update
        try:
            command = await walk(await client.move(game_id, update), rng)
            if command is None:
                continue
            await client.send(game_id, command, expected_version=update.version)
        except ApiError as exc:
            if exc.code not in RETRY:
                raise
        sent += 1
        if sent >= max_commands:
            raise RuntimeError(f"the bot sent {sent} commands and the game is not over")
    raise RuntimeError("the game's socket ended before the game did")


async def play_random(
    client: AsyncClient, game_id: str, seed: int | None = None, max_commands: int = 100_000
) -> TableView:
    """Play the seat ``client.token`` holds with random legal moves (:func:`random_walk`) until the game ends."""
    return await play_seat(client, game_id, random_walk, seed, max_commands)


async def against(
    base_url: str, game: str, walk: Walk, level: str = "casual", games: int = 4, players: int = 2, seed: int = 0
) -> list[float]:
    """``games`` games of ``walk`` in one seat (each seat in turn) against the server's ``level`` bot in every
    other: the walk's share of each game's win (1 alone first, 1/k among k winners, else 0). Its win share
    against a level of the ladder rates it there (docs/bots.md, "Outside bots")."""
    shares = []
    async with AsyncClient(base_url) as lobby:
        for i in range(games):
            table = await lobby.create(game, players)
            mine = i % players
            joined = await lobby.join(table.game_id, "Outside bot", mine)
            for seat in range(players):
                if seat != mine:
                    await lobby.join(table.game_id, seat=seat, bot=level)
            async with lobby.as_seat(joined.token) as me:
                final = await play_seat(me, table.game_id, walk, seed + i)
            winners = (final.outcome or {}).get("winners", [])
            shares.append(1 / len(winners) if mine in winners else 0.0)
    return shares


async def random_walk(move: AsyncMove, rng: random.Random) -> dict[str, Any] | None:
    """A complete command chosen at random one pick at a time from ``move``'s step: each option offered is one
    choice, and so is stopping where the picks already make a command; ``None`` when the step offers nothing."""
    while True:
        count = len(move.options) + move.complete
        if count == 0:
            return None
        choice = rng.randrange(count)
        if choice == len(move.options):
            return move.command
        option = move.options[choice]
        if option.command is not None:
            return option.command  # this pick ends the move: nothing left to ask
        move = await move.pick(option)


async def take_free_seats(client: AsyncClient, game_id: str, name: str = "Random bot") -> list[Joined]:
    """Take every seat still free at the table, named ``<name> <seat+1>``; the seats taken."""
    table = await client.table(game_id)
    seats = []
    for seat in table.free_seats():
        try:
            seats.append(await client.join(game_id, f"{name} {seat + 1}", seat))
        except Conflict as exc:
            if exc.code not in TAKEN and exc.code != "game_started":
                raise  # someone sat down first: leave that seat to them
    return seats


async def run_bots(
    base_url: str,
    game_id: str,
    seed: int | None = None,
    on_update: Callable[[Update], None] | None = None,
    name: str = "Random bot",
    mine: str | None = None,
) -> tuple[list[Joined], TableView]:
    """Seat random bots in every free seat of a table and play them until the game ends.

    ``on_update`` sees every update of the game (as a spectator), for progress. Seats that people hold are
    theirs to play: the bots wait for them; ``mine``, a seat token, is played by a bot too (yours, when
    you would rather watch). The seats the bots took, and the final table.
    """
    async with AsyncClient(base_url) as lobby:
        seats = await take_free_seats(lobby, game_id, name)
        bots = [lobby.as_seat(joined.token) for joined in seats] + ([lobby.as_seat(mine)] if mine else [])
        rng = random.Random(seed)

        async def follow() -> None:
            if on_update is not None:
                async for update in lobby.watch(game_id):
                    on_update(update)

        follower = asyncio.create_task(follow())
        try:
            plays = [play_random(bot, game_id, rng.randrange(2**32)) for bot in bots]
            await asyncio.gather(*plays)
        finally:
            follower.cancel()
            for bot in bots:
                await bot.aclose()
            await asyncio.gather(follower, return_exceptions=True)
        return seats, await lobby.table(game_id)
