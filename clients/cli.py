"""``ludoteca play ...``: client verbs on the SDK, printing JSON (one value per line).

Every verb takes ``--url`` (default http://127.0.0.1:8000) and ``--token`` (default ``$LUDOTECA_TOKEN``).
A refusal prints the API's error as JSON on stderr and exits with 1.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from collections.abc import Awaitable, Callable
from typing import Any

import msgspec

from clients.bots import play_random
from clients.sdk import DEFAULT_URL, ApiError, Client

Verb = Callable[[Client, argparse.Namespace], Awaitable[Any]]


def emit(value: Any) -> None:
    sys.stdout.write(msgspec.json.encode(value).decode() + "\n")
    sys.stdout.flush()


def json_value(text: str) -> Any:
    try:
        return msgspec.json.decode(text)
    except msgspec.DecodeError:
        return text  # a bare word: a string option


def option(text: str) -> tuple[str, Any]:
    name, sep, value = text.partition("=")
    if not sep or not name:
        raise argparse.ArgumentTypeError(f"an option is NAME=VALUE, not {text!r}")
    return name, json_value(value)


def command_json(text: str) -> dict[str, Any]:
    try:
        value = msgspec.json.decode(text)
    except msgspec.DecodeError as exc:
        raise argparse.ArgumentTypeError(f"the command is not JSON: {exc}") from exc
    if not isinstance(value, dict):
        raise argparse.ArgumentTypeError("the command is a JSON object with a 'type'")
    return value


async def catalog(client: Client, args: argparse.Namespace) -> Any:
    return {"games": await client.catalog()}


async def components(client: Client, args: argparse.Namespace) -> Any:
    return await client.components(args.game)


async def create(client: Client, args: argparse.Namespace) -> Any:
    return await client.create(args.game, args.players, dict(args.option))


async def games(client: Client, args: argparse.Namespace) -> Any:
    return await client.games(args.status, args.limit, args.cursor)


async def join(client: Client, args: argparse.Namespace) -> Any:
    seat = await client.join(args.game_id, args.name, args.seat)
    return {"seat": seat.seat, "token": seat.token}


async def show(client: Client, args: argparse.Namespace) -> Any:
    return await client.table(args.game_id)


async def legal(client: Client, args: argparse.Namespace) -> Any:
    return await client.legal(args.game_id)


async def send(client: Client, args: argparse.Namespace) -> Any:
    return await client.send(args.game_id, args.command, args.command_id, args.expected_version)


async def events(client: Client, args: argparse.Namespace) -> Any:
    return await client.events(args.game_id, args.after, args.limit)


async def replay(client: Client, args: argparse.Namespace) -> Any:
    as_: int | str | None = args.as_
    if isinstance(as_, str) and as_.isdigit():
        as_ = int(as_)
    return await client.replay(args.game_id, args.version, as_)


async def watch(client: Client, args: argparse.Namespace) -> Any:
    """Print every update; stop after ``--count`` updates or, with ``--until-finished``, at the game's end."""
    seen = 0
    async for update in client.watch(args.game_id, args.after):
        emit(update)
        seen += 1
        if args.count is not None and seen >= args.count:
            break
        view = update.get("view")
        if args.until_finished and isinstance(view, dict) and view.get("finished"):
            break
    return None


async def bot(client: Client, args: argparse.Namespace) -> Any:
    table = await play_random(client, args.game_id, args.seed)
    return {
        "game_id": args.game_id,
        "status": table["status"],
        "version": table["version"],
        "outcome": table["outcome"],
    }


def run(verb: Verb) -> Callable[[argparse.Namespace], int]:
    def call(args: argparse.Namespace) -> int:
        async def go() -> Any:
            async with Client(args.url, args.token or None) as client:
                return await verb(client, args)

        try:
            result = asyncio.run(go())
        except ApiError as exc:
            sys.stderr.write(msgspec.json.encode(exc.to_json()).decode() + "\n")
            return 1
        except KeyboardInterrupt:
            return 130
        if result is not None:
            emit(result)
        return 0

    return call


def add_play_verbs(verbs: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Mount ``play`` and its verbs on a parser's subcommands (``ludoteca play catalog`` ...)."""
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--url", default=os.environ.get("LUDOTECA_URL", DEFAULT_URL), help="the server's base URL")
    common.add_argument(
        "--token", default=os.environ.get("LUDOTECA_TOKEN"), help="a seat token (LUDOTECA_TOKEN); none: a spectator"
    )
    play = verbs.add_parser("play", help="play and watch games on a server over its API (client verbs)")
    sub = play.add_subparsers(dest="play_verb", required=True)

    def verb(name: str, func: Verb, help: str) -> argparse.ArgumentParser:
        parser = sub.add_parser(name, parents=[common], help=help)
        parser.set_defaults(func=run(func))
        return parser

    verb("catalog", catalog, "the games the server hosts")
    verb("components", components, "a game's printed parts as data").add_argument("game")
    p = verb("create", create, "open a table")
    p.add_argument("game")
    p.add_argument("--players", type=int, required=True)
    p.add_argument("--option", type=option, action="append", default=[], metavar="NAME=VALUE", help="JSON value")
    p = verb("games", games, "the lobby, one page")
    p.add_argument("--status", default="open", choices=["open", "active", "finished"])
    p.add_argument("--limit", type=int)
    p.add_argument("--cursor", type=int)
    p = verb("join", join, "take a seat; prints the seat and its token")
    p.add_argument("game_id")
    p.add_argument("--name")
    p.add_argument("--seat", type=int)
    verb("show", show, "the table as the token's seat (or a spectator) sees it").add_argument("game_id")
    verb("legal", legal, "the commands the token's seat may send now").add_argument("game_id")
    p = verb("send", send, "send one command, given as JSON")
    p.add_argument("game_id")
    p.add_argument("command", type=command_json, help='e.g. \'{"type": "DrawFromDeck"}\'')
    p.add_argument("--command-id")
    p.add_argument("--expected-version", type=int)
    p = verb("events", events, "the feed of events after a version")
    p.add_argument("game_id")
    p.add_argument("--after", type=int, default=0)
    p.add_argument("--limit", type=int)
    p = verb("replay", replay, "the table at a version")
    p.add_argument("game_id")
    p.add_argument("--version", type=int, default=1)
    p.add_argument("--as", dest="as_", metavar="SEAT|full")
    p = verb("watch", watch, "print every update of a game, live (resumes after a dropped connection)")
    p.add_argument("game_id")
    p.add_argument("--after", type=int, default=0)
    p.add_argument("--count", type=int, help="stop after this many updates")
    p.add_argument("--until-finished", action="store_true", help="stop once the view says the game is finished")
    p = verb("bot", bot, "play the token's seat with random legal commands until the game ends")
    p.add_argument("game_id")
    p.add_argument("--seed", type=int)
