"""The ``ludoteca`` command: ``serve``, ``bench``, ``verify``, ``duel`` and the ``admin`` verbs."""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import os
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import msgspec

from clients.cli import add_client_verbs
from clients.python.words import user_language
from domain import words
from domain.catalog import GAMES
from domain.words.format import Words
from projections.export import read as read_export
from projections.verify import Said
from projections.verify import verify as check_export
from server.duel import add_duel_verb
from server.runtime import logs
from server.service.words import SHARED, catalog
from server.settings import Settings
from server.web.schema import add_schema_verb

if TYPE_CHECKING:
    from server.service.games import Games
    from server.storage.connection import Client
    from server.storage.index import LobbyIndex


def serve(args: argparse.Namespace) -> int:
    from server.serve import serve as run_server  # uvicorn and the app: only what serving needs

    try:
        settings = Settings.from_env()
    except ValueError as exc:
        print(f"ludoteca serve: {exc}", file=sys.stderr)
        return 2
    changes = {
        "host": args.host,
        "port": args.port,
        "data_dir": Path(args.data_dir) if args.data_dir else None,
        "redis_url": args.redis_url,
        "log_level": args.log_level,
        "log_format": args.log_format,
    }
    settings = dataclasses.replace(settings, **{k: v for k, v in changes.items() if v is not None})
    return run_server(settings)


def bench(args: argparse.Namespace) -> int:
    from server.bench import main as run_bench  # the bench imports what serve never needs

    only = set(args.only.split(",")) if args.only else None
    return run_bench(args.quick, args.json, args.peer, only, args.dormant_games)


def admin(args: argparse.Namespace) -> int:
    """Expire or archive now, back up or restore, on the Redis every replica uses (REDIS_URL)."""
    settings = Settings.from_env()
    if args.action == "restore":
        logs.configure(settings.log_level)
        return restore(args, settings)
    if settings.redis_url is None:
        print("ludoteca admin needs REDIS_URL: the Redis the servers use", file=sys.stderr)
        return 2
    logs.configure(settings.log_level)
    return asyncio.run(housekeep(args, settings.redis_url, settings))


async def housekeep(args: argparse.Namespace, url: str, settings: Settings) -> int:
    from domain.catalog import GAMES
    from server.runtime.metrics import Metrics
    from server.service.games import Games
    from server.service.rates import SeatRates
    from server.service.tables import Tables
    from server.storage.connection import connect, initialize
    from server.storage.index import LobbyIndex
    from server.storage.players import PlayerRegistry
    from server.storage.schedule import Schedule
    from server.storage.store import EventStore
    from server.workers import housekeeping

    redis = connect(url, socket_timeout=30)
    try:
        if args.action == "backup":
            return await backup(args, redis)
        await initialize(redis)
        index = LobbyIndex(redis)
        store = EventStore(redis)
        rates = SeatRates(settings.ws_rate, settings.ws_burst)
        tables = Tables(store, GAMES, settings.cache_size)
        games = Games(store, tables, index, Schedule(redis), rates, Metrics(), PlayerRegistry(redis))
        if args.action == "ratings":
            from server.service.ratings import Ratings
            from server.storage.leases import Leases
            from server.storage.ratings import RatingBook

            ratings = Ratings(RatingBook(redis), games, index, PlayerRegistry(redis), Leases(redis))
            archive = Path(args.dir) if args.dir else settings.archive_dir
            count = await ratings.rebuild(sorted(GAMES), archive)
            print(f"rated {count} games again from their logs")
            return 0
        if args.action == "expire":
            if args.older_than is None and settings.open_ttl <= 0:
                print("open games never expire (LUDOTECA_OPEN_TTL=0); give --older-than", file=sys.stderr)
                return 2
            age = args.older_than if args.older_than is not None else settings.open_ttl
            expired = await housekeeping.expire_open(games, index, int(age * 1000))
            print(f"expired {len(expired)} open games")
            return 0
        directory = Path(args.dir) if args.dir else settings.archive_dir
        if directory is None:
            print("ludoteca admin archive needs --dir or LUDOTECA_ARCHIVE_DIR", file=sys.stderr)
            return 2
        age = args.older_than if args.older_than is not None else settings.retention
        total = 0
        while archived := await housekeeping.archive_finished(games, index, directory, int(age * 1000)):
            total += len(archived)
        print(f"archived {total} finished games to {directory}")
        return 0
    finally:
        await redis.aclose()


async def backup(args: argparse.Namespace, redis: Client) -> int:
    """A consistent snapshot of the Redis (SYNC, as a replica takes one) kept in a directory or on S3."""
    from server.storage import backup as backups

    name = backups.backup_name()
    try:
        # Straight into a directory (a temporary file renamed into place); through a temporary one to S3.
        local = not backups.is_s3(args.dest)
        with tempfile.TemporaryDirectory(prefix="lt-backup-") as scratch:
            into = Path(args.dest) if local else Path(scratch)
            into.mkdir(parents=True, exist_ok=True)
            manifest = await backups.fetch_snapshot(redis, into / f"{name}.rdb")
            where = await asyncio.to_thread(backups.store, into / f"{name}.rdb", manifest, args.dest, args.s3_endpoint)
    except (backups.BackupError, OSError) as exc:
        print(f"ludoteca admin backup: {exc}", file=sys.stderr)
        return 1
    print(f"backed up {manifest.keys} keys ({manifest.size} bytes, {manifest.seconds:g} s) to {where}")
    return 0


def restore(args: argparse.Namespace, settings: Settings) -> int:
    """A backup into an empty Redis: the embedded one of a new data directory, or REDIS_URL; then
    the lobby index again from the restored streams."""
    from server.storage import backup as backups
    from server.storage.embedded import EmbeddedRedis, EmbeddedRedisError, Fsync

    if (args.data_dir is None) == (settings.redis_url is None):
        print("ludoteca admin restore needs --data-dir (a new embedded Redis) or REDIS_URL, not both", file=sys.stderr)
        return 2
    started = time.monotonic()
    try:
        with tempfile.TemporaryDirectory(prefix="lt-restore-") as scratch:
            rdb, manifest = backups.fetch(args.src, Path(scratch), args.s3_endpoint)
            with backups.load_into(rdb) as loaded:  # the main thread: its parent-death signal
                if args.data_dir is not None:
                    fsync: Fsync = "always" if settings.appendfsync == "always" else "everysec"
                    target = EmbeddedRedis(args.data_dir, appendfsync=fsync)
                    if target.data_dir.exists() and any(target.data_dir.glob("appendonly*")):
                        print(f"ludoteca admin restore: {target.data_dir} holds data already", file=sys.stderr)
                        return 2
                    with target:
                        copied = asyncio.run(restored(loaded.url, manifest.db, target.url, settings))
                else:
                    assert settings.redis_url is not None
                    copied = asyncio.run(restored(loaded.url, manifest.db, settings.redis_url, settings))
    except (backups.BackupError, EmbeddedRedisError, OSError) as exc:
        print(f"ludoteca admin restore: {exc}", file=sys.stderr)
        return 1
    keys, games = copied
    print(f"restored {keys} keys and {games} games from {manifest.name} in {time.monotonic() - started:.1f} s")
    return 0


async def restored(source_url: str, db: int, target_url: str, settings: Settings) -> tuple[int, int]:
    """The keys of ``db`` at ``source_url`` copied to ``target_url``, then the lobby index rebuilt there:
    it is written after each append, outside the append script, so a snapshot may hold it a step behind
    a stream (the streams are the authority). The keys copied and the games filed."""
    from server.service.lobby import Lobby
    from server.service.quotas import Quotas
    from server.storage.backup import restore_keys
    from server.storage.botqueue import BotQueue
    from server.storage.connection import connect, initialize
    from server.storage.quotas import HourlyCounts

    source = connect(f"{source_url}?db={db}", socket_timeout=60)
    target = connect(target_url, socket_timeout=60)
    try:
        copied = await restore_keys(source, target)
        await initialize(target)
        games, index = service(target, settings)
        registry = games.players
        lobby = Lobby(games, index, Quotas(HourlyCounts(target), 0, 0), BotQueue(target), registry)
        return copied, await lobby.rebuild_index()
    finally:
        await source.aclose()
        await target.aclose()


def service(redis: Client, settings: Settings) -> tuple[Games, LobbyIndex]:
    """The game service over ``redis``, as a replica composes it, for the admin verbs."""
    from server.runtime.metrics import Metrics
    from server.service.games import Games
    from server.service.rates import SeatRates
    from server.service.tables import Tables
    from server.storage.index import LobbyIndex
    from server.storage.players import PlayerRegistry
    from server.storage.schedule import Schedule
    from server.storage.store import EventStore

    index = LobbyIndex(redis)
    store = EventStore(redis)
    rates = SeatRates(settings.ws_rate, settings.ws_burst)
    tables = Tables(store, GAMES, settings.cache_size)
    games = Games(store, tables, index, Schedule(redis), rates, Metrics(), PlayerRegistry(redis))
    return games, index


def verify(args: argparse.Namespace) -> int:
    """Check an export (docs/fair-play.md): 0 when every check passes, 1 when one fails, 2 when it cannot be read."""
    try:
        data = sys.stdin.buffer.read() if args.file == "-" else Path(args.file).read_bytes()
        export = read_export(data)
    except (OSError, msgspec.ValidationError, msgspec.DecodeError) as exc:
        print(f"ludoteca verify: {args.file} is not an export: {exc}", file=sys.stderr)
        return 2
    report = check_export(export, GAMES)
    if args.json:  # in English, for scripts, and each line as its code and parameters
        fields = {
            "fair": report.fair,
            "game": report.game,
            "viewpoint": report.viewpoint,
            "checked": report.checked,
            "problems": report.problems,
            "notes": report.notes,
            "codes": report.codes(),
        }
        print(msgspec.json.encode(fields).decode())
        return 0 if report.fair else 1
    # For people: in the user's language (LC_ALL, LC_MESSAGES, LANG; else English), as the player CLI speaks.
    lang = user_language()
    game = GAMES.get(report.game)
    refusals, terms = catalog(game, lang)
    said = SHARED.get(lang, SHARED[words.DEFAULT])["verify"]
    say = Words(lang, terms)

    def line(one: Said) -> str:
        params = dict(one.params)
        if one.code == "step_refused" and params.get("refusal") in refusals:  # the rules' refusal in the language
            params["message"] = say.format(refusals[params["refusal"]], say.seats_said(params.get("details") or {}))
        return say.format(said[one.code], params)

    if report.game:
        head = {"game": report.game, "viewpoint": report.viewpoint, "seat": report.seat, "fair": report.fair}
        print(say.format(said["head"], head))
    else:
        print(say.format(said["head_file"], {"file": args.file, "fair": report.fair}))
    for marker, lines in (("ok  ", report.passed), ("FAIL", report.failed), ("note", report.noted)):
        for one in lines:
            print(f"  {marker}  {line(one)}")
    return 0 if report.fair else 1


def audit(args: argparse.Namespace) -> int:
    """Run the twin-game audit against a deployment (server/audit.py): 0 when nothing leaked, 1 when
    something did, 2 without the admin token."""
    token = os.environ.get("LUDOTECA_ADMIN_TOKEN", "")
    if not token:
        print("ludoteca audit needs the deployment's admin token in LUDOTECA_ADMIN_TOKEN", file=sys.stderr)
        return 2
    from server.audit import audit as run_audit

    games = args.games.split(",") if args.games else None
    report = asyncio.run(run_audit(args.url, token, games, args.pairs, args.steps, args.seed or ""))
    print("\n".join(report.lines()))
    return 1 if report.leaks else 0


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="ludoteca", description="A server for turn-based tabletop games.")
    verbs = top.add_subparsers(dest="verb", required=True)
    run = verbs.add_parser("serve", help="run the server (an embedded Redis unless REDIS_URL is set)")
    run.add_argument("--host", help="address to listen on (LUDOTECA_HOST, default 127.0.0.1)")
    run.add_argument("--port", type=int, help="port (LUDOTECA_PORT, default 8000)")
    run.add_argument("--data-dir", help="the embedded Redis's directory (LUDOTECA_DATA_DIR, default ./ludoteca-data)")
    run.add_argument("--redis-url", help="use this Redis instead of the embedded one (REDIS_URL)")
    run.add_argument("--log-level", choices=["debug", "info", "warning", "error"], help="LUDOTECA_LOG_LEVEL")
    run.add_argument(
        "--log-format",
        choices=["text", "json"],
        help="log lines for people or JSON lines (LUDOTECA_LOG_FORMAT; default: text on a terminal, else json)",
    )
    run.set_defaults(func=serve)
    measure = verbs.add_parser("bench", help="measure Ludoteca against the ceiling of each path (docs/performance.md)")
    measure.add_argument("--quick", action="store_true", help="a short run (under a minute), for CI")
    measure.add_argument("--json", type=Path, metavar="FILE", help="also write every figure to FILE as JSON")
    measure.add_argument(
        "--peer", action="store_true", help="also boardgame.io beside Ludoteca (needs Node; docs/performance.md)"
    )
    parts = "only these parts, comma separated: ceilings,dormant,peer,capacity"
    measure.add_argument("--only", metavar="PARTS", help=parts)
    soak = "a soak: hold N dormant games for real (a million: about two hours; docs/performance.md)"
    measure.add_argument("--dormant-games", type=int, metavar="N", help=soak)
    measure.set_defaults(func=bench)
    manage = verbs.add_parser("admin", help="housekeeping on the servers' Redis (REDIS_URL)")
    actions = manage.add_subparsers(dest="action", required=True)
    archive = actions.add_parser("archive", help="archive finished games past their retention, then delete them")
    archive.add_argument("--dir", help="the archive directory (LUDOTECA_ARCHIVE_DIR)")
    archive.add_argument(
        "--older-than", type=float, metavar="SECONDS", help="finished this long ago (LUDOTECA_RETENTION)"
    )
    rerate = actions.add_parser("ratings", help="every rating again from the logs of the rated games")
    rerate.add_argument("--dir", help="where archived games are (LUDOTECA_ARCHIVE_DIR)")
    expire = actions.add_parser("expire", help="delete open games that never filled")
    expire.add_argument("--older-than", type=float, metavar="SECONDS", help="created this long ago (LUDOTECA_OPEN_TTL)")
    save = actions.add_parser("backup", help="a consistent snapshot of the Redis, to a directory or S3")
    save.add_argument("dest", metavar="DEST", help="a directory, or s3://bucket/prefix")
    s3_help = "an S3-compatible store's URL (credentials: AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_REGION)"
    save.add_argument("--s3-endpoint", default=os.environ.get("LUDOTECA_S3_ENDPOINT"), help=s3_help)
    back = actions.add_parser("restore", help="a backup into an empty Redis (--data-dir or REDIS_URL)")
    back.add_argument("src", metavar="SRC", help="a backup's .rdb, or a directory or s3://bucket/prefix (the newest)")
    back.add_argument("--data-dir", help="restore into a new embedded Redis here (then: ludoteca serve --data-dir)")
    back.add_argument("--s3-endpoint", default=os.environ.get("LUDOTECA_S3_ENDPOINT"), help=s3_help)
    manage.set_defaults(func=admin)
    add_duel_verb(verbs)
    check = verbs.add_parser(
        "verify", help="check an export's deals, draws, commitments and outcome (docs/fair-play.md)"
    )
    check.add_argument("file", help="the export (ludoteca export GAME), or - for standard input")
    check.add_argument("--json", action="store_true", help="the report as JSON")
    check.set_defaults(func=verify)
    twins = verbs.add_parser(
        "audit", help="the twin-game leak audit against a running deployment (LUDOTECA_ADMIN_TOKEN; docs/fair-play.md)"
    )
    twins.add_argument("url", help="the deployment, e.g. https://ludoteca.example.org")
    twins.add_argument("--games", metavar="IDS", help="only these games, comma separated")
    twins.add_argument("--pairs", type=int, default=4, help="twin pairs a game (default 4)")
    twins.add_argument("--steps", type=int, default=6, help="commands played in lockstep a pair (default 6)")
    twins.add_argument("--seed", help="the audit's seed, to run the same audit again (default: a new one)")
    twins.set_defaults(func=audit)
    add_client_verbs(verbs)  # games, new, join, watch, replay, export, import, bots, play ...
    add_schema_verb(verbs)
    return top


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    result: int = args.func(args)
    return result


if __name__ == "__main__":
    sys.exit(main())
