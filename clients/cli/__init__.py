"""The client verbs of the ``ludoteca`` command, on the SDK (clients.python); they speak only the public API.

For people (text; ``--json`` for scripts): ``games``, ``new``, ``join``, ``watch``, ``replay``, ``export``,
``import``, ``bots``, ``player`` and ``mine`` (a player's tables), and ``show``, ``legal``, ``send``
(``legal GAME --pick MOVE --pick VALUE ...`` builds a move one pick at a time, ``send GAME --pick ...`` sends
it), and ``say`` (the table's chat: ``watch`` and ``replay`` show what was said among the log's lines). For
scripts, printing JSON (one value a line), the older ``ludoteca play catalog | components | create | games |
join | show | legal | moves | send | events | replay | watch | bot``. Every verb takes ``--url``
(``$LUDOTECA_URL``, default http://127.0.0.1:8000) and ``--token`` (``$LUDOTECA_TOKEN``: a seat's or a
player's); ``export`` and ``import`` take ``--admin-token`` (``$LUDOTECA_ADMIN_TOKEN``). A refusal prints the
API's error on stderr (as JSON with ``--json`` and under ``play``) and exits with 1. Long work draws a progress
line on stderr.

This module wires the verbs to the command line; ``text`` says things (safely, in the user's language),
``people`` holds the verbs for people, ``moves`` builds a move from its picks, ``scripts`` the ``play`` verbs.
"""

from __future__ import annotations

import argparse
import asyncio
import os
from collections.abc import Callable
from typing import Any

import httpx
import msgspec

from clients.cli.people import (
    bots,
    export,
    games,
    import_,
    join,
    legal,
    mine,
    new,
    player,
    replay,
    say_,
    send,
    show,
    watch,
)
from clients.cli.scripts import (
    play_bot,
    play_catalog,
    play_components,
    play_create,
    play_events,
    play_games,
    play_join,
    play_legal,
    play_moves,
    play_replay,
    play_send,
    play_show,
    play_watch,
)
from clients.cli.text import (
    Subparsers,
    Trouble,
    Verb,
    Voice,
    command_json,
    emit,
    note,
    option,
    printable,
    seat_or_full,
)
from clients.python import DEFAULT_URL, ApiError, AsyncClient
from clients.python.words import user_language

__all__ = ["add_client_verbs", "add_play_verbs", "printable"]


def run(verb: Verb, json_errors: bool = False) -> Callable[[argparse.Namespace], int]:
    def call(args: argparse.Namespace) -> int:
        voice = args.voice = Voice(user_language())

        async def go() -> Any:
            async with AsyncClient(args.url, args.token or None, lang=voice.lang) as client:
                return await verb(client, args)

        try:
            result = asyncio.run(go())
        except ApiError as exc:
            if json_errors or getattr(args, "json", False):
                note(msgspec.json.encode(exc.to_json()).decode())
            else:
                # The server wrote the message in the user's language (the client sends it as Accept-Language).
                note(voice("refused", status=exc.status, code=exc.code, message=exc.message))
            return 1
        except KeyboardInterrupt:
            return 130
        except (OSError, httpx.TransportError) as exc:
            note(voice("unreachable", url=args.url, reason=str(exc) or type(exc).__name__))
            return 1
        except Trouble as exc:
            note(voice("trouble", message=voice(exc.key, **exc.params)))
            return 2
        except (ValueError, RuntimeError) as exc:  # e.g. a bot without a seat token
            note(voice("trouble", message=str(exc)))
            return 2
        if result is not None:
            emit(result)
        return 0

    return call


def common_options() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--url", default=os.environ.get("LUDOTECA_URL", DEFAULT_URL), help="the server's base URL (LUDOTECA_URL)"
    )
    common.add_argument(
        "--token", default=os.environ.get("LUDOTECA_TOKEN"), help="a seat token (LUDOTECA_TOKEN); none: a spectator"
    )
    return common


def command_arguments(parser: argparse.ArgumentParser, pick: Callable[[str], Any]) -> None:
    """What ``send`` takes, for people and for scripts alike: a command as JSON, or the picks that build it."""
    parser.add_argument("game_id")
    parser.add_argument("command", nargs="?", type=command_json, help='e.g. \'{"type": "DrawFromDeck"}\'')
    pick_argument(parser, pick, "build the command from these picks instead (see legal)")
    parser.add_argument("--command-id")
    parser.add_argument("--expected-version", type=int, help="default: the version the picks were made at")


def pick_argument(parser: argparse.ArgumentParser, pick: Callable[[str], Any], help: str) -> None:
    parser.add_argument("--pick", type=pick, action="append", default=[], metavar="FIELD=VALUE", help=help)


def add_client_verbs(verbs: Subparsers) -> None:
    """Mount the client verbs on the ``ludoteca`` command: the verbs for people, and ``play ...`` for scripts."""
    common = common_options()
    as_json = argparse.ArgumentParser(add_help=False)
    as_json.add_argument("--json", action="store_true", help="print JSON instead of text")
    admin = argparse.ArgumentParser(add_help=False)
    admin.add_argument(
        "--admin-token",
        default=os.environ.get("LUDOTECA_ADMIN_TOKEN"),
        help="the server's admin token (LUDOTECA_ADMIN_TOKEN)",
    )

    def verb(name: str, func: Verb, help: str, *parents: argparse.ArgumentParser) -> argparse.ArgumentParser:
        parser = verbs.add_parser(name, parents=[common, as_json, *parents], help=help, description=help)
        parser.set_defaults(func=run(func))
        return parser

    p = verb("games", games, "the games this server hosts, and its open tables")
    p.add_argument("--status", default="open", choices=["open", "active", "finished"], help="which tables to list")
    p.add_argument("--limit", type=int, help="list at most this many tables")
    p = verb("new", new, "open a table; prints its game id")
    p.add_argument("game", help="a game id of the catalog (ludoteca games)")
    p.add_argument("--players", type=int, required=True)
    p.add_argument("--option", type=option, action="append", default=[], metavar="NAME=VALUE", help="JSON value")
    p = verb("join", join, "take a seat; prints its token (shown once: keep it)")
    p.add_argument("game_id")
    p.add_argument("--seat", type=int, help="a free seat number (default: the first free one)")
    p.add_argument("--name")
    p.add_argument("--bot", help="seat a bot the server plays (random, greedy) instead of yourself")
    verb("show", show, "the table as the token's seat (or a spectator) sees it").add_argument("game_id")
    p = verb("mine", mine, "your tables (a player's token), those awaiting you first")
    p.add_argument("--limit", type=int, help="list at most this many tables")
    p = verb("player", player, "a player who comes back: new NAME, me, rename NAME, code, sign-in CODE, sign-out...")
    p.add_argument(
        "action", choices=["new", "me", "rename", "code", "sign-in", "sign-out", "sign-out-everywhere", "erase"]
    )
    p.add_argument("value", nargs="?", default=None, help="the name (new, rename) or the code (sign-in)")
    p.add_argument("--lang", choices=["pt", "gl", "es", "en"], help="the player's language")
    p = verb("legal", legal, "the moves the token's seat may make now; with --pick, the next step of one")
    p.add_argument("game_id")
    pick_argument(p, str, "a pick toward a move: its type first (e.g. PlaceCards), then FIELD=VALUE or VALUE")
    p.add_argument("--wait", action="store_true", help="first wait until it is your seat's move (or the game ends)")
    command_arguments(verb("send", send, "send one command, given as JSON or built with --pick"), str)
    p = verb("say", say_, "say something at the table as the token's seat (--to: a private line to one seat)")
    p.add_argument("game_id")
    p.add_argument("text", help="the message (at most 500 characters)")
    p.add_argument("--to", type=int, metavar="SEAT", help="say it to this seat alone: only you and that seat read it")
    p = verb("watch", watch, "follow a game live in the terminal until it ends (resumes after a dropped connection)")
    p.add_argument("game_id")
    p.add_argument("--after", type=int, default=0, help="start after this version")
    p.add_argument("--count", type=int, help="stop after this many updates")
    p.add_argument("--forever", action="store_true", help="keep watching after the game ends")
    p = verb("replay", replay, "the game as it was at a version, with the events that led there")
    p.add_argument("game_id")
    p.add_argument("--as", dest="as_", type=seat_or_full, metavar="SEAT|full", help="another seat's view, or all")
    p.add_argument("--to", type=int, metavar="VERSION", help="the version to show (default: the last)")
    p.add_argument("--view", action="store_true", help="also print the game's view at that version")
    p = verb("export", export, "write a game as JSON lines, as one viewpoint saw it (docs/API.md, Exports)", admin)
    p.add_argument("game_id")
    p.add_argument("--out", help="write to this file instead of stdout")
    p.add_argument(
        "--as",
        dest="as_",
        choices=["seat", "spectator", "everyone", "server"],
        help="your seat's (any time), a spectator's, everyone's (once over), the server's (admin token); "
        "default: everyone's once over, else the server's",
    )
    p = verb("import", import_, "bring a finished game in from an export (admin token); prints its new id", admin)
    p.add_argument("file", help="an export (JSON lines), '-' for stdin")
    p = verb("bots", bots, "random bots take a table's free seats over the API and play until the game ends")
    p.add_argument("--game", required=True, metavar="GAME_ID")
    p.add_argument("--seed", type=int)
    p.add_argument("--name", help="the bots' names: NAME 1, NAME 2... (default: 'Random bot' in your language)")
    p.add_argument("--mine", action="store_true", help="a random bot plays your own seat (the token's) too")
    add_play_verbs(verbs, common)


def add_play_verbs(verbs: Subparsers, common: argparse.ArgumentParser | None = None) -> None:
    """Mount ``play`` and its verbs (``ludoteca play catalog`` ...), which print JSON."""
    common = common or common_options()
    play = verbs.add_parser("play", help="the client verbs for scripts, printing JSON")
    sub = play.add_subparsers(dest="play_verb", required=True)

    def verb(name: str, func: Verb, help: str) -> argparse.ArgumentParser:
        parser = sub.add_parser(name, parents=[common], help=help)
        parser.set_defaults(func=run(func, json_errors=True))
        return parser

    verb("catalog", play_catalog, "the games the server hosts")
    verb("components", play_components, "a game's printed parts as data").add_argument("game")
    p = verb("create", play_create, "open a table")
    p.add_argument("game")
    p.add_argument("--players", type=int, required=True)
    p.add_argument("--option", type=option, action="append", default=[], metavar="NAME=VALUE", help="JSON value")
    p = verb("games", play_games, "the lobby, one page")
    p.add_argument("--status", default="open", choices=["open", "active", "finished"])
    p.add_argument("--limit", type=int)
    p.add_argument("--cursor", type=int)
    p = verb("join", play_join, "take a seat; prints the seat and its token")
    p.add_argument("game_id")
    p.add_argument("--name")
    p.add_argument("--seat", type=int)
    p.add_argument("--bot")
    verb("show", play_show, "the table as the token's seat (or a spectator) sees it").add_argument("game_id")
    verb("legal", play_legal, "the first step of the seat's moves, and the commands of the few").add_argument("game_id")
    p = verb("moves", play_moves, "the next step of a move after its picks")
    p.add_argument("game_id")
    pick_argument(p, option, "a pick, in order: type=MOVE first; VALUE is JSON (a bare word: a string)")
    command_arguments(verb("send", play_send, "send one command, given as JSON or as its picks"), option)
    p = verb("events", play_events, "the feed of events after a version")
    p.add_argument("game_id")
    p.add_argument("--after", type=int, default=0)
    p.add_argument("--limit", type=int)
    p = verb("replay", play_replay, "the table at a version")
    p.add_argument("game_id")
    p.add_argument("--version", type=int, default=1)
    p.add_argument("--as", dest="as_", type=seat_or_full, metavar="SEAT|full")
    p = verb("watch", play_watch, "print every update of a game, live (resumes after a dropped connection)")
    p.add_argument("game_id")
    p.add_argument("--after", type=int, default=0)
    p.add_argument("--count", type=int, help="stop after this many updates")
    p.add_argument("--until-finished", action="store_true", help="stop once the view says the game is finished")
    p = verb("bot", play_bot, "play the token's seat with random legal commands until the game ends")
    p.add_argument("game_id")
    p.add_argument("--seed", type=int)
