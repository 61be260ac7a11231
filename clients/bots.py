"""Bots that play a seat through the public API (the SDK), like any other client."""

from __future__ import annotations

import random
from typing import Any

from clients.sdk import ApiError, Client

# Refusals that mean "the table moved on while I chose": look again and choose again.
RETRY = frozenset({"version_conflict", "not_your_turn", "not_now", "window_closed"})


async def play_random(
    client: Client, game_id: str, seed: int | None = None, max_commands: int = 100_000
) -> dict[str, Any]:
    """Play the seat ``client.token`` holds with random legal commands until the game ends; the final table.

    It wakes on every update of the game's socket, looks at the table's ``awaiting``, and when its seat is
    awaited sends one of its legal commands, chosen by a ``random.Random(seed)``, with ``expected_version``.
    """
    if client.token is None:
        raise ValueError("a bot needs a seat token")
    rng = random.Random(seed)
    sent = 0
    start = await client.table(game_id)
    if start["status"] == "finished":
        return start
    async for _update in client.watch(game_id, after=start["version"]):
        while True:
            table = await client.table(game_id)
            if table["status"] == "finished":
                return table
            if not any(a["seat"] == table["seat"] for a in table["awaiting"]):
                break
            legal = await client.legal(game_id)
            if not legal["commands"]:
                break  # awaited for something only a deadline ends: wait for the next update
            command = rng.choice(legal["commands"])
            try:
                await client.send(game_id, command, expected_version=legal["version"])
            except ApiError as exc:
                if exc.code not in RETRY:
                    raise
            sent += 1
            if sent >= max_commands:
                raise RuntimeError(f"the bot sent {sent} commands and the game is not over")
    raise RuntimeError("the game's socket ended before the game did")
