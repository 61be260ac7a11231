"""``ludoteca play ...``: the verbs for scripts, printing JSON (one value a line)."""

from __future__ import annotations

import argparse
from typing import Any

from clients.bots import play_random
from clients.cli.text import emit
from clients.python import (
    AsyncClient,
    Pick,
)


async def play_catalog(client: AsyncClient, args: argparse.Namespace) -> Any:
    return await client.catalog()


async def play_components(client: AsyncClient, args: argparse.Namespace) -> Any:
    return await client.components(args.game)


async def play_create(client: AsyncClient, args: argparse.Namespace) -> Any:
    return await client.create(args.game, args.players, dict(args.option))


async def play_games(client: AsyncClient, args: argparse.Namespace) -> Any:
    return await client.games(args.status, args.limit, args.cursor)


async def play_join(client: AsyncClient, args: argparse.Namespace) -> Any:
    return await client.join(args.game_id, args.name, args.seat, args.bot)


async def play_show(client: AsyncClient, args: argparse.Namespace) -> Any:
    return await client.table(args.game_id)


async def play_legal(client: AsyncClient, args: argparse.Namespace) -> Any:
    return await client.legal(args.game_id)


async def play_moves(client: AsyncClient, args: argparse.Namespace) -> Any:
    return await client.moves(args.game_id, [Pick(field, value) for field, value in args.pick])


async def play_send(client: AsyncClient, args: argparse.Namespace) -> Any:
    if not args.pick:
        if args.command is None:
            raise ValueError("give the command as JSON, or its picks with --pick FIELD=VALUE")
        return await client.send(args.game_id, args.command, args.command_id, args.expected_version)
    if args.command is not None:
        raise ValueError("give the command as JSON or its picks with --pick, not both")
    move = await client.move(args.game_id, await play_moves(client, args))
    expected = args.expected_version if args.expected_version is not None else move.version
    return await client.send(args.game_id, move.ready(), args.command_id, expected)


async def play_events(client: AsyncClient, args: argparse.Namespace) -> Any:
    return await client.events(args.game_id, args.after, args.limit)


async def play_replay(client: AsyncClient, args: argparse.Namespace) -> Any:
    return await client.replay(args.game_id, args.version, args.as_)


async def play_watch(client: AsyncClient, args: argparse.Namespace) -> Any:
    """Print every update; stop after ``--count`` updates or, with ``--until-finished``, at the game's end."""
    seen = 0
    async for update in client.watch(args.game_id, args.after):
        emit(update)
        seen += 1
        if args.count is not None and seen >= args.count:
            break
        if args.until_finished and isinstance(update.view, dict) and update.view.get("finished"):
            break
    return None


async def play_bot(client: AsyncClient, args: argparse.Namespace) -> Any:
    table = await play_random(client, args.game_id, args.seed)
    return {"game_id": args.game_id, "status": table.status, "version": table.version, "outcome": table.outcome}
