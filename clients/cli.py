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
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import shlex
import shutil
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeAlias

import httpx
import msgspec

from clients.bots import play_random, run_bots
from clients.python import (
    DEFAULT_URL,
    ApiError,
    AsyncClient,
    AsyncMove,
    CommandAnswer,
    MoveStep,
    Option,
    Pick,
    Progress,
    Step,
    TableView,
    Update,
    parse_log,
)
from clients.python import message_format as words
from clients.python.message_format import Words as Formatter
from clients.python.words import Phrasebook, user_language

Verb = Callable[[AsyncClient, argparse.Namespace], Awaitable[Any]]
Subparsers: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"


# Control characters (but newline and tab) and the bidirectional overrides: what could move the cursor, recolour
# or reorder the terminal if a name, a card or a message the server sends carried it.
CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def printable(text: str) -> str:
    """``text`` with every control character written as its ``\\uXXXX`` escape (inside a JSON string that is the
    same string, so JSON stays JSON)."""
    return CONTROL.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def emit(value: Any) -> None:
    sys.stdout.write(printable(msgspec.json.encode(value).decode()) + "\n")
    sys.stdout.flush()


def say(text: str = "") -> None:
    sys.stdout.write(printable(text) + "\n")
    sys.stdout.flush()


def note(text: str) -> None:
    sys.stderr.write(printable(text) + "\n")
    sys.stderr.flush()


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


def seat_or_full(text: str) -> int | str:
    if text == "full":
        return text
    if text.isdigit():
        return int(text)
    raise argparse.ArgumentTypeError(f"a seat number or 'full', not {text!r}")


# --- text for people ---------------------------------------------------------------------------------

# The CLI's own lines, one catalog per language (clients/words/<lang>.json); the game's words (its log lines,
# terms and refusals) come from the server (GET /api/v1/words/{lang}). docs/i18n.md says how to add a language.
LINES: dict[str, words.Catalog] = words.read("clients")


class Trouble(ValueError):
    """A mistake on the command line, said with one of the CLI's lines (``key``) and its parameters."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.params = params


class Voice:
    """What the CLI says, in the user's language (LANG, else English): its own lines, and once it knows the
    game, the game's words over them (log lines, moves, fields, what a seat is awaited for, seat names)."""

    def __init__(self, lang: str) -> None:
        self.lang = lang
        self.lines = LINES.get(lang, LINES[words.DEFAULT])["lines"]
        self.book: Phrasebook | None = None
        self.game: str | None = None
        self.names: dict[int, str] = {}

    def __call__(self, key: str, **params: Any) -> str:
        return Formatter(self.lang, self.terms(), self.seat_list()).format(self.lines[key], params)

    def terms(self) -> dict[str, str]:
        return self.book.terms if self.book is not None else {}

    def seat_list(self) -> list[str]:
        return [self.names.get(s, "") for s in range(max(self.names, default=-1) + 1)]

    async def learn(self, client: AsyncClient, game: str) -> None:
        """Fetch the game's words (once), and the printed names of its parts (cards, places, tiles)."""
        if self.game == game:
            return
        self.book = Phrasebook(await client.words(self.lang), game)
        self.book.with_names(printed_names((await client.components(game)).components))
        self.game = game

    def event(self, event: dict[str, Any]) -> str:
        if self.book is None:
            return str(event.get("type", "?"))
        self.book.names = self.seat_list()
        return self.book.event(event)

    def term(self, kind: str, value: Any) -> str:
        return self.book.term(kind, value) if self.book is not None else value_text(value)

    def seat(self, seat: int) -> str:
        return self("seat_named", name=self.names[seat], seat=seat) if seat in self.names else self("seat", seat=seat)

    def seat_name(self, seat: int, name: str, bot: str | None = None, named: bool | None = None) -> str:
        """A seat's name, a default one in the user's language (``named``: the view's; an event's name is
        told by being the default)."""
        return Formatter(self.lang, self.terms()).seat_name(seat, name, bot, named)


def printed_names(components: Any) -> dict[str, str]:
    """Every ``{"id", "name"}`` in a game's components: the names its parts are printed with."""
    found: dict[str, str] = {}
    stack = [components]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            if isinstance(value.get("id"), str) and isinstance(value.get("name"), str):
                found[value["id"]] = value["name"]
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
    return found


def compact(value: Any, limit: int = 60) -> str:
    text = value if isinstance(value, str) else msgspec.json.encode(value).decode()
    return text if len(text) <= limit else text[: limit - 1] + "…"


def event_line(voice: Voice, version: int, event: dict[str, Any]) -> str:
    return fit(f"{version:>6}  {voice.event(event)}")


def awaiting_text(voice: Voice, awaiting: Any) -> str:
    if not isinstance(awaiting, list):
        awaiting = []
    told = []
    for a in awaiting:
        seat, reason = (a.seat, a.reason) if not isinstance(a, dict) else (a.get("seat"), a.get("reason"))
        if isinstance(seat, int):
            told.append(voice("awaited", who=voice.seat(seat), reason=voice.term("awaiting", reason)))
    return voice("awaiting", who=told)


def names_of(voice: Voice, table: TableView) -> dict[int, str]:
    """The seats' names, a default one ("named": false) in the user's language."""
    return {s.seat: voice.seat_name(s.seat, s.name, s.bot, s.named) for s in table.seats if s is not None}


async def know_table(voice: Voice, client: AsyncClient, table: TableView) -> None:
    await voice.learn(client, table.game)
    voice.names.update(names_of(voice, table))


def outcome_lines(voice: Voice, table: TableView) -> list[str]:
    outcome = table.outcome or {}
    scores = outcome.get("scores") or []
    places = outcome.get("places") or [0] * len(scores)
    rows = sorted(range(len(scores)), key=lambda s: (places[s], s))
    return ["  " + voice("score", place=places[s], who=voice.seat(s), score=scores[s]) for s in rows]


def table_summary(voice: Voice, table: TableView) -> list[str]:
    seated = sum(1 for s in table.seats if s is not None)
    lines = [
        voice(
            "summary",
            game=table.game,
            game_id=table.game_id,
            status=table.status,
            version=table.version,
            seated=seated,
            players=table.players,
            viewer=viewer_of(table),
        )
    ]
    if table.status == "active":
        lines.append(awaiting_text(voice, table.awaiting))
    if table.finished:
        lines += [voice("final_scores"), *outcome_lines(voice, table)]
    return lines


def viewer_of(table: TableView) -> str | int:
    if isinstance(table.view, dict) and table.view.get("viewer") == -1:
        return "full"
    return "spectator" if table.seat is None else table.seat


def who_am_i(voice: Voice, table: TableView) -> str:
    return voice("spectator") if table.seat is None else voice.seat(table.seat)


# --- the verbs for people ------------------------------------------------------------------------------


async def games(client: AsyncClient, args: argparse.Namespace) -> None:
    voice: Voice = args.voice
    catalog = (await client.catalog()).games
    tables = []
    async for entry in client.all_games(args.status):
        tables.append(entry)
        if args.limit is not None and len(tables) >= args.limit:
            break
    if args.json:
        emit({"catalog": catalog, "games": tables})
        return
    say(voice("games_header"))
    for game in catalog:
        options = " ".join(f"{k}={compact(v)}" for k, v in game.options.items()) or "-"
        say(f"{game.game:<18} {game.title:<40} {game.min_players}-{game.max_players:<6} {options}")
    say()
    if not tables:
        say(voice("no_tables", status=args.status))
        return
    say(voice("tables", status=args.status))
    say(voice("tables_header"))
    for entry in tables:
        say(f"{entry.game_id:<18} {entry.game:<18} {entry.seats_taken}/{entry.players}")


async def new(client: AsyncClient, args: argparse.Namespace) -> None:
    entry = await client.create(args.game, args.players, dict(args.option))
    if args.json:
        emit(entry)
        return
    say(entry.game_id)
    note(args.voice("opened", game=entry.game, players=entry.players, game_id=entry.game_id))


async def join(client: AsyncClient, args: argparse.Namespace) -> None:
    joined = await client.join(args.game_id, args.name, args.seat, args.bot)
    if args.json:
        emit(joined)
        return
    if joined.token is None:
        await know_table(args.voice, client, await client.table(args.game_id))
        note(args.voice("bot_seated", bot=args.bot, seat=joined.seat, game_id=args.game_id))
        return
    say(joined.token)
    note(args.voice("seated", seat=joined.seat, game_id=args.game_id))
    note(args.voice("seat_entropy", entropy=joined.entropy))


async def mine(client: AsyncClient, args: argparse.Namespace) -> None:
    """The player's tables, those awaiting it first (the token must be a player's)."""
    found = await client.my_tables(args.limit)
    if args.json:
        emit(found)
        return
    if not found.tables:
        say("you sit at no table yet (take a seat with your player token: ludoteca join GAME)")
        return
    for table in found.tables:
        what = f"your move ({table.awaiting})" if table.awaiting else table.status
        say(f"{table.game_id:<18} {table.game:<18} seat {table.seat}  v{table.version:<5} {what}")


async def player(client: AsyncClient, args: argparse.Namespace) -> None:
    """A player: make one, see it, rename it, a one-time code, sign in with one, sign out, erase."""
    action = args.action
    if action in ("new", "sign-in"):
        signed = await (client.make_player(args.value, args.lang) if action == "new" else client.sign_in(args.value))
        if args.json:
            emit(signed)
            return
        say(signed.token)
        note(f"{signed.player.name} ({signed.player.player_id}); the token above is shown once: "
             "export LUDOTECA_TOKEN=<it>")  # fmt: skip
        return
    if action == "code":
        code = await client.sign_in_code()
        emit(code) if args.json else say(code.code)
        if not args.json:
            note(f"type it on the other device within {code.expires_in // 60} minutes: ludoteca player sign-in CODE")
        return
    if action in ("sign-out", "sign-out-everywhere"):
        out = await (client.sign_out() if action == "sign-out" else client.sign_out_everywhere())
        emit(out) if args.json else say(f"signed out {out.signed_out} token{'s' * (out.signed_out != 1)}")
        return
    if action == "erase":
        erased = await client.erase_player()
        emit(erased) if args.json else say(f"erased player {erased.player_id}")
        return
    me = await (client.change_player(args.value, args.lang) if action == "rename" else client.player())
    emit(me) if args.json else say(f"{me.name} ({me.player_id}){f', {me.lang}' if me.lang else ''}")


async def show(client: AsyncClient, args: argparse.Namespace) -> None:
    table = await client.table(args.game_id)
    if args.json:
        emit(table)
        return
    await know_table(args.voice, client, table)
    for line in table_summary(args.voice, table):
        say(line)


async def legal(client: AsyncClient, args: argparse.Namespace) -> None:
    """The seat's moves now (each move, and for the few, their commands), or the next step after ``--pick``s."""
    voice: Voice = args.voice
    if args.wait:
        await wait_for_turn(client, args.game_id)
    if args.pick:
        move = await build(client, args.game_id, args.pick)
        if args.json:
            emit(MoveStep(move.version, list(move.picks), move.step))
            return
        await know_table(voice, client, await client.table(args.game_id))
        for line in step_lines(voice, move):
            say(line)
        return
    answer = await client.legal(args.game_id)
    if args.json:
        emit(answer)
        return
    table = await client.table(args.game_id)
    await know_table(voice, client, table)
    if not answer.step.options:
        say(nobody_moves(voice, table, answer.version))
        return
    moves = len(answer.step.options)
    say(voice("moves", who=who_am_i(voice, table), version=answer.version, count=moves))
    for option in answer.step.options:
        label = option_text(voice, option)
        listed = answer.commands_of(str(option.value))
        if listed is not None and len(listed) <= FEW:
            for i, command in enumerate(listed):
                say(f"  {label if i == 0 else '':<34} {compact(command, 1000)}")
            continue
        after = await client.moves(args.game_id, [option.pick])
        rest = next_picks(voice, after.step)
        row = voice("commands", count=len(listed), next=rest) if listed is not None else rest
        say(fit(f"  {label:<34} {row}"))
    say(voice("send_hint", game_id=args.game_id))
    say(voice("pick_hint", game_id=args.game_id))


async def wait_for_turn(client: AsyncClient, game_id: str) -> None:
    """Return once the game awaits the token's seat, or is over (following the game's socket)."""
    table = await client.table(game_id)
    if table.seat is None:
        raise Trouble("wait_needs_token")
    if table.finished or table.awaits(table.seat):
        return
    async for update in client.watch(game_id, after=table.version):
        if update.step is not None or update.status == "finished":
            return


async def send(client: AsyncClient, args: argparse.Namespace) -> None:
    if args.pick:
        if args.command is not None:
            raise Trouble("json_or_picks")
        move = await build(client, args.game_id, args.pick)
        if move.command is None:
            raise Trouble("incomplete", fields=sorted({o.field for o in move.options}))
        command, version = move.ready(), move.version
    elif args.command is None:
        raise Trouble("command_needed")
    else:
        command, version = args.command, None
    expected = args.expected_version if args.expected_version is not None else version
    await answered(client, args, await client.send(args.game_id, command, args.command_id, expected))


async def say_(client: AsyncClient, args: argparse.Namespace) -> None:
    """Say something at the table as the token's seat: to the table, or ``--to`` one seat alone."""
    await answered(client, args, await client.say(args.game_id, args.text, args.to))


async def answered(client: AsyncClient, args: argparse.Namespace, answer: CommandAnswer) -> None:
    """A command's answer: as JSON, or its events as the log's lines."""
    if args.json:
        emit(answer)
        return
    await know_table(args.voice, client, await client.table(args.game_id))
    for event in answer.events:
        say(event_line(args.voice, event.version, event.event))


# --- building a move from the command line --------------------------------------------------------------

FEW = 6  # a move with at most this many commands is shown as its commands, else as what to pick next
FIELD = re.compile(r"[a-z_][a-z0-9_]*")


def nobody_moves(voice: Voice, table: TableView, version: int) -> str:
    if table.finished:
        return voice("nothing_over", version=version)
    if table.status == "open":
        return voice("nothing_open", version=version)
    return voice(
        "nothing_else", version=version, who=who_am_i(voice, table), awaiting=awaiting_text(voice, table.awaiting)
    )


def value_text(value: Any) -> str:
    """A pick's value as one types it after ``--pick``: a card or a number as it is, a cell as ``row,column``."""
    if isinstance(value, list) and all(isinstance(v, int) for v in value):
        return ",".join(str(v) for v in value)
    return value if isinstance(value, str) else msgspec.json.encode(value).decode()


def option_text(voice: Voice, option: Option) -> str:
    """An option as one types it, with the word for it when it is not the same (a move, a card's name, a seat's)."""
    shown = value_text(option.value)
    if option.kind == "seat" and isinstance(option.value, int):
        word = voice.seat(option.value)
    elif option.field == "type":
        return move_text(voice, option.value)
    else:
        word = voice.term("name", option.value) if isinstance(option.value, str) else shown
    return shown if word == shown else voice("option", value=shown, word=word)


def move_text(voice: Voice, move: Any) -> str:
    """A move's type as one types it, with its word."""
    word = voice.term("move", move)
    return value_text(move) if word == value_text(move) else voice("option", value=value_text(move), word=word)


def fields_text(voice: Voice, options: list[Option]) -> list[tuple[str, list[Option]]]:
    """The options by field, in the order offered, each field with its word (and its name, to type it)."""
    groups: dict[str, list[Option]] = {}
    for option in options:
        groups.setdefault(option.field, []).append(option)
    return [(voice("field", field=f, word=voice.term("field", f)), group) for f, group in groups.items()]


def next_picks(voice: Voice, step: Step) -> str:
    """What to pick next, or the command the picks make, in one line (the choices apart by " | ")."""
    parts = [
        voice("offered", field=label, count=len(group), options=[option_text(voice, o) for o in group])
        for label, group in fields_text(voice, step.options)
    ]
    if step.command is not None:
        parts.insert(0, voice("complete", command=compact(step.command, 1000)))
    return " | ".join(parts) or voice("nothing_to_pick")


def fit(line: str) -> str:
    """``line`` cut to the terminal's width."""
    width = max(60, shutil.get_terminal_size((160, 24)).columns)
    return line if len(line) <= width else line[: width - 1] + "…"


def step_lines(voice: Voice, move: AsyncMove) -> list[str]:
    """The step after the picks, for people: the command made, if any, then each option (with the command it ends
    the move with), and how to go on."""
    made = [move_text(voice, p.value) if p.field == "type" else pick_arg(p) for p in move.picks]
    lines = [voice("step", picks=made, version=move.version)]
    picks = " ".join(f"--pick {shlex.quote(pick_arg(p))}" for p in move.picks)
    if move.command is not None:
        lines += [
            "  " + voice("complete", command=compact(move.command, 1000)),
            "  " + voice("send_it", game_id=move.game_id, picks=picks),
        ]
    for label, group in fields_text(voice, move.options):
        lines.append("  " + voice("pick_more" if move.command is not None else "pick", field=label))
        shown = [option_text(voice, o) for o in group]
        width = min(40, max(map(len, shown)))
        for text, option in zip(shown, group, strict=True):
            ends = f"  -> {compact(option.command, 1000)}" if option.command is not None else ""
            lines.append(f"    {text:<{width}}{ends}".rstrip())
    if move.options:
        verb = "send" if all(o.command is not None for o in move.options) else "legal"
        field = shlex.quote(move.options[0].field)
        lines.append("  " + voice("next", command=f"ludoteca {verb} {move.game_id} {picks} --pick {field}=VALUE"))
    if move.empty:
        lines.append("  " + voice("no_such_move"))
    return lines


def pick_arg(pick: Pick) -> str:
    return f"{pick.field}={value_text(pick.value)}"


def names_value(text: str, value: Any) -> bool:
    """Whether ``text`` (as typed after ``--pick``) names the option value ``value``."""
    return text == value_text(value) or json_value(text) == value


def resolve(text: str, options: list[Option]) -> Pick:
    """The pick ``text`` names among the options offered: ``FIELD=VALUE``, or a ``VALUE`` only one option has.

    A value no option has is still sent as typed (the server refuses it with ``not_offered``)."""
    name, sep, value = text.partition("=")
    if sep and FIELD.fullmatch(name):
        matches = [o for o in options if o.field == name and names_value(value, o.value)]
        return matches[0].pick if matches else Pick(name, json_value(value))
    matches = [o for o in options if names_value(text, o.value)]
    fields = sorted({o.field for o in matches or options})
    if len(fields) > 1:
        raise Trouble("which_field", value=text, fields=fields)
    if matches:
        return matches[0].pick
    return Pick(fields[0] if fields else "type", json_value(text))


async def build(client: AsyncClient, game_id: str, picks: list[str]) -> AsyncMove:
    """The move the ``--pick``s make, each resolved against the options of the step before it."""
    move = await client.move(game_id)
    for text in picks:
        move = await move.pick(resolve(text, move.options))
    return move


async def watch(client: AsyncClient, args: argparse.Namespace) -> None:
    """Follow a game live: every event as it lands, whom the game awaits, and the final scores."""
    voice: Voice = args.voice
    if not args.json:
        table = await client.table(args.game_id)
        await know_table(voice, client, table)
        note(voice("watching", game=table.game, game_id=args.game_id, after=args.after))
    seen = 0
    last = [""]
    async for update in client.watch(args.game_id, args.after):
        seen += 1
        finished = isinstance(update.view, dict) and bool(update.view.get("finished"))
        if args.json:
            emit(update)
        else:
            show_update(voice, update, last)
        if args.count is not None and seen >= args.count:
            return
        if finished and not args.forever:
            break
    if not args.json:
        table = await client.table(args.game_id)
        voice.names.update(names_of(voice, table))
        say(voice("finished", version=table.version))
        for line in outcome_lines(voice, table):
            say(line)


def show_update(voice: Voice, update: Update, last: list[str]) -> None:
    """Print an update's events, then whom the game awaits when that changed (``last`` holds the previous)."""
    for item in update.events:
        event = item.event
        if event.get("type") == "SeatTaken" and isinstance(event.get("seat"), int):
            name, bot = str(event.get("name") or ""), event.get("bot")
            seat_name = voice.seat_name(event["seat"], name, bot if isinstance(bot, str) else None) if name else ""
            voice.names[event["seat"]] = seat_name or voice.seat(event["seat"])
        say(event_line(voice, item.version, event))
    if isinstance(update.view, dict):
        awaited = awaiting_text(voice, update.view.get("awaiting"))
        if awaited != last[0]:
            say(f"{'':>6}  -- {awaited}")
            last[0] = awaited


async def replay(client: AsyncClient, args: argparse.Namespace) -> None:
    """The game as it was at ``--to`` (default: now), as ``--as`` saw it, with the events that led there."""
    voice: Voice = args.voice
    version = args.to if args.to is not None else (await client.table(args.game_id)).version
    table = await client.replay(args.game_id, version, args.as_)
    if args.json:
        emit(table)
        return
    await know_table(voice, client, table)
    progress = Progress(voice("progress_events"), stream=sys.stderr)
    progress.start(version)
    async for item in client.all_events(args.game_id, 0, version):
        say(event_line(voice, item.version, item.event))
        progress.update(item.version)
    progress.done()
    for line in table_summary(voice, table):
        say(line)
    if args.view:
        say(msgspec.json.format(msgspec.json.encode(table.view), indent=2).decode())


async def export(client: AsyncClient, args: argparse.Namespace) -> None:
    if args.as_ in (None, "server"):  # a seat's export is asked for with its own token
        client.token = args.admin_token or client.token
    log = await client.export(
        args.game_id, Progress(args.voice("progress_export", game_id=args.game_id), " B"), args.as_
    )
    if args.out:
        Path(args.out).write_bytes(log)
    else:
        sys.stdout.buffer.write(log)
        sys.stdout.flush()
    lines = log.count(b"\n") - log.startswith(b'{"format"')  # the header is no event
    note(args.voice("exported", count=lines, game_id=args.game_id, out=args.out or None))


async def import_(client: AsyncClient, args: argparse.Namespace) -> None:
    voice: Voice = args.voice
    client.token = args.admin_token or client.token
    log = sys.stdin.buffer.read() if args.file == "-" else Path(args.file).read_bytes()
    try:
        lines = parse_log(log)
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        message = voice("not_an_export", file=args.file, reason=str(exc))
        raise ApiError(400, "malformed", message, {"field": "log", "case": "not_an_export"}) from None
    if [line.version for line in lines] != list(range(1, len(lines) + 1)):
        message = voice("log_versions", file=args.file)
        raise ApiError(400, "malformed", message, {"field": "log.version", "case": "log_versions"})
    progress = Progress(voice("progress_import", count=len(lines)), " B")
    imported = await client.import_log(log, progress)
    if args.json:
        emit(imported)
        return
    say(imported.game_id)
    note(voice("imported", count=len(lines), game_id=imported.game_id))


async def bots(client: AsyncClient, args: argparse.Namespace) -> None:
    """Random bots take the free seats and play until the game ends (over the API, like any client)."""
    voice: Voice = args.voice
    progress = Progress(voice("progress_bots", game_id=args.game), stream=sys.stderr)
    progress.start(None)
    table = await client.table(args.game)
    await know_table(voice, client, table)

    def on_update(update: Update) -> None:
        awaited = update.view.get("awaiting") if isinstance(update.view, dict) else None
        progress.update(update.version, f"({awaiting_text(voice, awaited)})")

    mine = client.token if args.mine else None
    if args.mine and mine is None:
        raise Trouble("mine_needs_token")
    own = table.seat if mine else None  # the seat the token holds
    name = args.name or voice("bot_name")
    seats, table = await run_bots(client.base_url, args.game, args.seed, on_update, name, mine)
    progress.done(f"({voice('status', status=table.status)})")
    taken = [s.seat for s in seats]
    if args.json:
        emit(
            {
                "game_id": table.game_id,
                "seats": taken,
                "mine": own,
                "status": table.status,
                "version": table.version,
                "outcome": table.outcome,
            }
        )
        return
    voice.names.update(names_of(voice, table))
    say(voice("bots_played", seats=sorted([*taken, *([own] if own is not None else [])]), game_id=table.game_id))
    if own is not None:
        say(voice("bots_played_yours", seat=own))
    for line in table_summary(voice, table):
        say(line)


# --- ``ludoteca play ...``: JSON for scripts -------------------------------------------------------------


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


# --- wiring ---------------------------------------------------------------------------------------------


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
