"""The restore drill (docs/operations.md, "Backups"): games of every kind played to various points, a
backup taken to a directory and to S3 while commands keep landing, each backup restored into an empty
Redis, a server started on it, and every game compared with the original at its restored version.

Everything is real: ``ludoteca serve`` on its embedded Redis, ``ludoteca admin backup`` and ``restore``
as an operator runs them, and S3 is moto's server on loopback (a real S3 API over HTTP, no mock of
boto3)."""

from __future__ import annotations

import asyncio
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.reliability.harness import ADMIN, Api, auth, figure, redis_client
from tests.support.processes import ROOT, Serve, free_port
from tests.support.replies import entries_of
from tests.support.s3 import CREDENTIALS, moto_s3

pytestmark = [pytest.mark.redis, pytest.mark.timeout(600)]

# Each kind: its players, and how far its games are played: that many random legal commands, None to
# the end (random play ends these three kinds in about 80 to 800 commands), or that many and then a
# resignation, which ends a game of two (random play almost never ends Itchy Feet).
PLAN: list[tuple[str, int, list[int | tuple[int, str] | None]]] = [
    ("vilar-de-mouros", 3, [None, 25, 0]),
    ("i-love-portugal", 2, [None, 30]),
    ("itchy-feet", 2, [(20, "Resign"), 20]),
    ("miss-liz-parks", 3, [None, 15]),
]
MAX_COMMANDS = 3000
BUCKET = "ludoteca-backups"
NOBODY = b'"presence":{"type":"presence","seats":[],"spectators":0}'
SETTINGS = {
    "LUDOTECA_ADMIN_TOKEN": ADMIN,
    "LUDOTECA_CREATE_PER_HOUR": "0",
    "LUDOTECA_SEATS_PER_HOUR": "0",
    "LUDOTECA_WS_RATE": "10000",
    "LUDOTECA_WS_BURST": "10000",
}


@dataclass
class Game:
    game_id: str
    kind: str
    tokens: list[str]
    commands: int = 0
    before_backup: bool = True  # it existed before the first backup began: it must be restored


@dataclass
class Players:
    """Random legal commands, the first awaited seat's, through the public API."""

    api: Api
    rng: random.Random
    games: list[Game] = field(default_factory=list)

    async def open(self, kind: str, players: int, seated: int) -> Game:
        r = await self.api.at(0).post("/api/v1/games", json={"game": kind, "players": players})
        assert r.status_code == 201, r.text
        game = Game(r.json()["game_id"], kind, [])
        for _ in range(seated):
            r = await self.api.at(0).post(f"/api/v1/games/{game.game_id}/seats", json={})
            assert r.status_code == 201, r.text
            game.tokens.append(r.json()["token"])
        self.games.append(game)
        return game

    async def step(self, game: Game) -> bool:
        """One command of the first awaited seat; False once the game is no longer active."""
        body = await self.api.table(game.game_id, None, 0)
        if body["status"] != "active":
            return False
        for awaited in body["view"]["awaiting"]:
            seat = awaited["seat"]
            r = await self.api.at(0).get(
                f"/api/v1/games/{game.game_id}/legal-commands", headers=auth(game.tokens[seat])
            )
            assert r.status_code == 200, r.text
            commands = r.json()["commands"]
            if commands:
                sent = await self.api.send(game.game_id, game.tokens[seat], self.rng.choice(commands), i=0)
                # 409: another command of the load landed first (the drill plays one game from one task only,
                # but a clock or a bot may); anything else is a bug
                assert sent.status_code in (200, 409), sent.text
                game.commands += 1
                return True
        return True

    async def play(self, game: Game, commands: int | None) -> None:
        for _ in range(MAX_COMMANDS if commands is None else commands):
            if not await self.step(game):
                return
        assert commands is not None, f"{game.kind} {game.game_id} did not end in {MAX_COMMANDS} commands"

    async def resign(self, game: Game, seat: int) -> None:
        r = await self.api.send(game.game_id, game.tokens[seat], {"type": "Resign"}, i=0)
        assert r.status_code == 200, r.text

    async def load(self, stop: asyncio.Event, unfinished: list[Game]) -> None:
        """Commands on the unfinished games and new games opened, until ``stop``."""
        fresh: list[Game] = []
        while not stop.is_set():
            playing = unfinished + fresh
            game = self.rng.choice(playing) if playing else None
            if game is None or not await self.step(game):
                unfinished = [g for g in unfinished if g is not game]
                fresh = [g for g in fresh if g is not game]
                kind, players, _ = self.rng.choice(PLAN)
                opened = await self.open(kind, players, players)
                opened.before_backup = False
                fresh.append(opened)


@pytest.fixture
def s3() -> Iterator[str]:
    with moto_s3() as url:
        yield url


def s3_env(endpoint: str) -> dict[str, str]:
    return {**CREDENTIALS, "LUDOTECA_S3_ENDPOINT": endpoint}


async def admin(*args: str, **env: str) -> tuple[str, float]:
    """``ludoteca admin ...`` as a process: what it printed, and how long it took (it must succeed)."""
    environ = {k: v for k, v in os.environ.items() if k != "REDIS_URL"} | env
    started = time.monotonic()
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "server.cli", "admin", *args, cwd=ROOT, env=environ,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    out, err = await process.communicate()
    assert process.returncode == 0, (args, out.decode(), err.decode())
    return out.decode(), time.monotonic() - started


async def restored_matches(original: Api, restored: Api, games: list[Game], source: str, target: str) -> int:
    """Every game the backup holds answers at the restored server as the original answered at that
    version, byte for byte; the games' streams are the same entries; the lobby files each under its
    status. The events the restored games hold."""
    old, new = redis_client(source), redis_client(target)
    events = feeds = 0
    statuses: dict[str, str] = {}
    try:
        for game in games:
            r = await restored.at(0).get(f"/api/v1/games/{game.game_id}")
            if r.status_code == 404:
                assert not game.before_backup, f"{game.game_id} was there before the backup began"
                continue
            assert r.status_code == 200, r.text
            version = r.json()["version"]
            statuses[game.game_id] = r.json()["status"]
            events += version
            # The same history: entry ids, events, schema versions and chain links, up to that version.
            key = f"lt:{{{game.game_id}}}:events"
            mine = entries_of(await new.xrange(key))
            assert len(mine) == version
            assert mine == entries_of(await old.xrange(key, count=version)), game.game_id
            current = (await original.table(game.game_id, None, 0))["version"]
            assert current >= version
            seats = r.json()["seats"]
            for seat, token in [(None, None), *enumerate(game.tokens)]:
                headers = auth(token)
                path = f"/api/v1/games/{game.game_id}"
                if seat is not None and seats[seat] is None:
                    # taken after the moment the backup holds: the restored server never issued this token
                    gone = await restored.at(0).get(path, headers=headers)
                    assert (gone.status_code, gone.json()["error"]) == (401, "unknown_token"), gone.text
                    continue
                # The table now, at the restored server, is the original's table at that version.
                now = (await restored.at(0).get(path, headers=headers)).content
                then = await original.at(0).get(f"{path}/replay", params={"version": version}, headers=headers)
                assert then.status_code == 200, then.text
                # (a replay carries no presence: nobody is connected to either server here, so the live
                # table's is this one)
                assert now.replace(NOBODY, b'"presence":null') == then.content, (game.kind, game.game_id, token)
                replayed = await restored.at(0).get(f"{path}/replay", params={"version": version}, headers=headers)
                assert replayed.content == then.content
                if current == version:  # the original did not move on: its own answers, byte for byte
                    assert now == (await original.at(0).get(path, headers=headers)).content
                if statuses[game.game_id] == "finished":  # every seat's view and everything, replayed
                    for view in [*(str(seat) for seat in range(r.json()["players"])), "full"]:
                        asked = {"version": version, "as": view}
                        was = (await original.at(0).get(f"{path}/replay", params=asked)).content
                        assert (await restored.at(0).get(f"{path}/replay", params=asked)).content == was
                # The viewer's events feed, page by page, byte for byte but for the head version it names;
                # only while the original is as finished as the restored game (a feed reveals the seed and
                # the decks' orders once a game is over).
                if (await original.table(game.game_id, None, 0))["status"] != statuses[game.game_id]:
                    continue
                after = 0
                while after < version:
                    page = {"after": after, "limit": min(500, version - after)}
                    fed = (await restored.at(0).get(f"{path}/events", params=page, headers=headers)).content
                    was = (await original.at(0).get(f"{path}/events", params=page, headers=headers)).content
                    head = f'{{"version":{current},'.encode()
                    assert was.startswith(head)
                    assert fed == f'{{"version":{version},'.encode() + was.removeprefix(head), (game.game_id, token)
                    feeds += 1
                    after += page["limit"]
        # The lobby, rebuilt from the streams at the restore, files every game under its status.
        for status in ("open", "active", "finished"):
            listed: list[str] = []
            cursor = None
            while True:
                params: dict[str, Any] = {"status": status, "limit": 100} | ({"cursor": cursor} if cursor else {})
                page = (await restored.at(0).get("/api/v1/games", params=params)).json()
                listed += [g["game_id"] for g in page["games"]]
                cursor = page["next_cursor"]
                if cursor is None:
                    break
            assert sorted(listed) == sorted(g for g, s in statuses.items() if s == status), status
        assert feeds >= len(statuses)  # most games compared their feeds (each has a page for each viewer)
        return events
    finally:
        await old.aclose()
        await new.aclose()


async def test_a_backup_taken_under_load_restores_every_game_as_it_was(s3: str) -> None:
    import boto3

    scratch = Path(tempfile.mkdtemp(prefix="lt-drill-"))
    env = s3_env(s3)
    boto3.client("s3", endpoint_url=s3, region_name="us-east-1", aws_access_key_id="drill",
                 aws_secret_access_key="drill-secret").create_bucket(Bucket=BUCKET)  # fmt: skip
    try:
        with Serve(free_port(), data_dir=scratch / "original", **SETTINGS) as serve:
            source = f"unix://{scratch / 'original' / 'redis.sock'}"
            async with Api([serve.url]) as api:
                players = Players(api, random.Random(20261204))
                unfinished: list[Game] = []
                for kind, size, depths in PLAN:
                    for depth in depths:
                        game = await players.open(kind, size, size)
                        await players.play(game, depth[0] if isinstance(depth, tuple) else depth)
                        if isinstance(depth, tuple):
                            await players.resign(game, 0)
                        elif depth is not None:
                            unfinished.append(game)
                await players.open("vilar-de-mouros", 4, 1)  # one open table, a seat taken
                finished = [g for g in players.games if (await api.table(g.game_id, None, 0))["status"] == "finished"]
                assert len(finished) == len(PLAN)

                # Backups while commands land.
                stop = asyncio.Event()
                load = asyncio.create_task(players.load(stop, unfinished))
                await asyncio.sleep(1.0)
                played = sum(g.commands for g in players.games)
                said, _ = await admin("backup", str(scratch / "backups"), REDIS_URL=source)
                during = sum(g.commands for g in players.games) - played
                await asyncio.sleep(0.5)
                played = sum(g.commands for g in players.games)
                said_s3, _ = await admin("backup", f"s3://{BUCKET}/ludoteca", REDIS_URL=source, **env)
                during_s3 = sum(g.commands for g in players.games) - played
                await asyncio.sleep(0.5)
                stop.set()
                await load
                assert during > 0 and during_s3 > 0  # commands landed while each backup ran
                [manifest] = (scratch / "backups").glob("*.json")
                size = manifest.with_suffix(".rdb").stat().st_size

                # Each backup into an empty Redis of its own; a server on each.
                for name, where, extra in [
                    ("directory", str(scratch / "backups"), {}),
                    ("S3", f"s3://{BUCKET}/ludoteca", env),
                ]:
                    data = scratch / f"restored-{name.lower()}"
                    told, seconds = await admin("restore", where, "--data-dir", str(data), **extra)
                    assert "restored" in told
                    with Serve(free_port(), data_dir=data, **SETTINGS) as again:
                        async with Api([again.url]) as restored:
                            target = f"unix://{data / 'redis.sock'}"
                            events = await restored_matches(api, restored, players.games, source, target)
                    if name == "directory":
                        figure("restore drill: games, events restored", f"{len(players.games)}, {events}")
                        figure("restore drill: backup size (RDB)", f"{size / 1024:.0f} KiB")
                        figure("restore drill: commands during each backup", f"{during}, {during_s3}")
                        figure("restore drill: backup said", said.strip())
                        figure("restore drill: S3 backup said", said_s3.strip())
                    figure(f"restore drill: restore from {name} (process, load, copy, index)", f"{seconds:.2f} s")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
