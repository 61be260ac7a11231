"""Bots that play seats through the public API (the SDK), like any other client: random legal play."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable

from clients.python import ApiError, AsyncClient, Conflict, Joined, TableView, Update

# Refusals that mean "the table moved on while I chose": look again and choose again.
RETRY = frozenset({"version_conflict", "not_your_turn", "not_now", "window_closed"})
# Refusals of a seat that someone else took first.
TAKEN = frozenset({"seat_taken", "version_conflict"})


async def play_random(
    client: AsyncClient, game_id: str, seed: int | None = None, max_commands: int = 100_000
) -> TableView:
    """Play the seat ``client.token`` holds with random legal commands until the game ends; the final table.

    It wakes on every update of the game's socket, looks at the table's ``awaiting``, and when its seat is
    awaited sends one of its legal commands, chosen by a ``random.Random(seed)``, with ``expected_version``.
    """
    if client.token is None:
        raise ValueError("a bot needs a seat token (--token or LUDOTECA_TOKEN)")
    rng = random.Random(seed)
    sent = 0
    start = await client.table(game_id)
    if start.finished:
        return start
    async for _update in client.watch(game_id, after=start.version):
        while True:
            table = await client.table(game_id)
            if table.finished:
                return table
            if not table.awaits(table.seat):
                break
            legal = await client.legal(game_id)
            if not legal.commands:
                break  # awaited for something only a deadline ends: wait for the next update
            command = rng.choice(legal.commands)
            try:
                await client.send(game_id, command, expected_version=legal.version)
            except ApiError as exc:
                if exc.code not in RETRY:
                    raise
            sent += 1
            if sent >= max_commands:
                raise RuntimeError(f"the bot sent {sent} commands and the game is not over")
    raise RuntimeError("the game's socket ended before the game did")


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
) -> tuple[list[Joined], TableView]:
    """Seat random bots in every free seat of a table and play them until the game ends.

    ``on_update`` sees every update of the game (as a spectator), for progress. Seats that people hold are
    theirs to play: the bots wait for them. The seats the bots took, and the final table.
    """
    async with AsyncClient(base_url) as lobby:
        seats = await take_free_seats(lobby, game_id, name)
        bots = [lobby.as_seat(joined.token) for joined in seats]
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
