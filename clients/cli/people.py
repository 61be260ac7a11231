"""The verbs for people: text, or JSON with ``--json``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import msgspec

from clients.bots import run_bots
from clients.cli.moves import FEW, build, next_picks, nobody_moves, option_text, step_lines
from clients.cli.text import (
    Trouble,
    Voice,
    awaiting_text,
    compact,
    emit,
    event_line,
    fit,
    know_table,
    names_of,
    note,
    outcome_lines,
    say,
    table_summary,
    who_am_i,
)
from clients.python import (
    ApiError,
    AsyncClient,
    CommandAnswer,
    MoveStep,
    Progress,
    Update,
    parse_log,
)


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
