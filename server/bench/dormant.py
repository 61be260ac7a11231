"""Dormant games: what a game that waits days for a move costs, and how long its first move takes.

``games`` tables mid-play (every game in turn, each at its seat counts in turn, opened with a seed
as the server opens every table, 10 to 120 random commands into a game) are stored through the
event store. Redis's memory (``INFO`` ``used_memory``) is read once they are all in, and again
once all but ``sampled`` of them have gone to the cold tier as the dormancy pass sends them
(``EventStore.freeze``): the differences are what a game holds in Redis hot and dormant. The cold
tier's bytes over ``games`` are what it holds on disk (the files' sizes, and the blocks they take).

Then ``ludoteca serve`` with that cold tier (its own dormancy pass off) takes one command on each
of ``sampled`` dormant games, one at a time, and the same on as many hot games it has not cached
either: the first move's p50 and p99 each way. The most dormant games this machine holds is its
available memory over what a dormant game keeps in Redis, or its free disk over what it keeps on
disk, whichever is fewer.

A soak (``ludoteca bench --only dormant --dormant-games N``) holds N dormant games for real: past
the ``played`` games played as above, each further game is one of theirs stored again under a new
id and new seat tokens, sent to the cold tier as soon as it is stored (so that Redis never holds
more than a batch of them hot). Its bytes and first commands are then those of a Redis and a cold
tier that hold N games; the timed games are drawn from all of them.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import random
import shutil
import statistics
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from domain.catalog import GAMES
from domain.engine import AnyGame
from domain.table import Table, fold
from server.bench import play, procs
from server.bench.client import Http, percentile
from server.bench.load import API
from server.bench.report import Row, say
from server.service.codec import encode
from server.storage.cold import ColdDirectory
from server.storage.connection import connect
from server.storage.index import LobbyIndex
from server.storage.store import EventStore
from server.workers import dormancy

KIB = 1024


@dataclass(frozen=True)
class DormantPlan:
    games: int  # stored, then sent to the cold tier
    sampled: int  # first commands timed, dormant and hot each
    played: int | None = None  # games played; the rest are copies of theirs (None: every game is played)


FULL_DORMANT = DormantPlan(4_000, 300)
QUICK_DORMANT = DormantPlan(120, 30)
COPIES_AT_ONCE = 64  # a soak's copies stored and frozen at once (each freeze waits on two fsyncs)


def soak(games: int) -> DormantPlan:
    """A soak of ``games`` dormant games, past the full run's games played."""
    return DormantPlan(games, FULL_DORMANT.sampled, min(games, FULL_DORMANT.games))


@dataclass(frozen=True)
class Stored:
    game_id: str
    token: str  # the seat that moves next
    command: Any
    events: int


@dataclass(frozen=True)
class Played:
    """A game played for the run, to be stored (again, in a soak) under a new id."""

    game: AnyGame
    players: int
    events: list[Any]
    table: Table
    seat: int  # the seat that moves next, and its command
    command: Any

    async def store(self, store: EventStore, index: LobbyIndex) -> Stored:
        game_id, tokens = await play.store_game(store, index, self.game, self.events, self.players, self.table)
        return Stored(game_id, tokens[self.seat], self.command, len(self.events))


async def copies(store: EventStore, index: LobbyIndex, played: list[Played], count: int) -> list[Stored]:
    """``count`` copies of the games ``played``, in turn, each sent to the cold tier once stored."""
    made: list[Stored] = []

    async def worker(first: int) -> None:
        for n in range(first, count, COPIES_AT_ONCE):
            stored = await played[n % len(played)].store(store, index)
            assert await store.freeze(stored.game_id)
            made.append(stored)
            if len(made) % 50_000 == 0:
                say(f"dormant soak: {len(made)} of {count} copies stored and sent to the cold tier")

    # Each freeze writes its file in a thread and waits on two fsyncs: as many threads as copies at once.
    asyncio.get_running_loop().set_default_executor(concurrent.futures.ThreadPoolExecutor(COPIES_AT_ONCE))
    await asyncio.gather(*(worker(first) for first in range(COPIES_AT_ONCE)))
    return made


async def used_memory(redis: Any) -> int:
    info = await redis.info("memory")
    return int(info["used_memory"])


def available_memory() -> int:
    """MemAvailable from /proc/meminfo, in bytes."""
    for line in Path("/proc/meminfo").read_text().splitlines():
        if line.startswith("MemAvailable:"):
            return int(line.split()[1]) * KIB
    return 0


def blocks(directory: Path) -> int:
    """The bytes the cold tier's files take on disk (allocated blocks)."""
    return sum(p.stat().st_blocks * 512 for p in directory.glob("*/*.cold"))


async def first_commands(port: int, games: list[Stored], tag: str) -> list[float]:
    """One command on each game, one at a time: each one's seconds."""
    http = Http(port)
    times = []
    try:
        for n, g in enumerate(games):
            body = encode({"command": g.command, "command_id": f"{tag}{n}"})
            start = time.perf_counter()
            status, answer = await http.request("POST", f"{API}/games/{g.game_id}/commands", body, g.token)
            times.append(time.perf_counter() - start)
            assert status == 200, answer
    finally:
        await http.close()
    return times


async def dormant(redis_url: str, plan: DormantPlan, scratch: Path, rng: random.Random) -> list[Row]:
    redis = connect(redis_url)
    cold = ColdDirectory(scratch / "cold")
    store, index = EventStore(redis, cold), LobbyIndex(redis)
    kinds = list(GAMES.items())
    sizes = {kind: play.seat_counts(game) for kind, game in kinds}
    played: list[Played] = []
    stored: list[Stored] = []
    playing = plan.games if plan.played is None else plan.played
    try:
        before = await used_memory(redis)
        while len(stored) < playing:
            kind, game = kinds[len(stored) % len(kinds)]
            players = next(sizes[kind])
            events = play.midplay(game, players, rng, rng.randint(10, 120))
            table = fold(game, None, events)
            assert table is not None
            chosen = play.choose(game, table, rng)
            if chosen is None:  # the game ended within its commands: another one
                continue
            seat, command, _ = chosen
            played.append(Played(game, players, events, table, seat, command))
            stored.append(await played[-1].store(store, index))
        hot = await used_memory(redis)
        frozen_at = time.perf_counter()
        for g in stored[plan.sampled :]:  # the first ones stay hot: the first command's reference
            assert await store.freeze(g.game_id)
        freezing = time.perf_counter() - frozen_at
        if plan.games > playing:
            say(f"dormant soak: {plan.games - playing} copies of the {playing} games played")
            copied_at = time.perf_counter()
            stored += await copies(store, index, played, plan.games - playing)
            say(f"dormant soak: stored and frozen in {time.perf_counter() - copied_at:.0f} s")
        frozen = plan.games - plan.sampled
        asleep = await used_memory(redis)
        looked_at = time.perf_counter()  # what the dormancy pass costs when nothing is idle long enough
        assert await dormancy.freeze_idle(store, index, idle_ms=10**12) == []
        looking = time.perf_counter() - looked_at
        files, disk = await cold.size()
        allocated = blocks(cold.directory)
        per_hot = (hot - before) / playing
        per_dormant = (asleep - before - per_hot * plan.sampled) / frozen
        asleep_ones = stored[plan.sampled :]  # timed: the first ones, or in a soak any of them
        timed = asleep_ones[: plan.sampled] if plan.played is None else rng.sample(asleep_ones, plan.sampled)
        server = procs.ludoteca(redis_url, {"LUDOTECA_COLD_URL": str(cold.directory), "LUDOTECA_COLD_AFTER": "0"})
        try:
            server.start()
            woken = await first_commands(server.port, timed, "d")
            awake = await first_commands(server.port, stored[: plan.sampled], "h")
        except BaseException:
            print(server.output())
            raise
        finally:
            server.stop()
    finally:
        await redis.aclose()
    free_disk, memory = shutil.disk_usage(scratch).free, available_memory()
    holds = min(memory / per_dormant, free_disk / max(allocated / files, 1))
    mean_events = statistics.mean(g.events for g in stored)
    return [
        Row(
            "dormant: bytes in Redis per game",
            "KiB",
            per_hot / KIB,
            per_dormant / KIB,
            0.25,
            "<=",
            note=f"INFO used_memory over {playing} games mid-play (mean {mean_events:.0f} events; every game, "
            f"every seat count), hot, then {frozen} of {plan.games} in the cold tier (meta, tokens and newest "
            f"snapshot left); {freezing / (playing - plan.sampled) * 1000:.2f} ms a game to freeze, one at a time"
            + (f"; {plan.games - playing} of them copies of the games played" if plan.games > playing else ""),
        ),
        Row(
            "dormant: a dormancy pass",
            "s",
            None,
            looking,
            note=f"one pass of the dormancy worker over the lobby's {plan.games} games, every one read (500 a round "
            "trip) and none idle long enough to freeze: the dormant ones skipped, the hot ones kept",
        ),
        Row(
            "dormant: bytes on disk per game",
            "KiB",
            disk / files / KIB,
            allocated / files / KIB,
            note=f"the cold tier's {files} files: their sizes (ceiling column) and the blocks they take (value); "
            "compressed stream and command records",
        ),
        Row(
            "dormant: first command p99",
            "ms",
            1000 * percentile(awake, 99),
            1000 * percentile(woken, 99),
            50,
            "<=",
            "value",
            note=f"{len(woken)} dormant games, one command each, one at a time (p50 "
            f"{1000 * statistics.median(woken):.1f} ms), vs the same on {len(awake)} hot games the server had "
            "not cached (p50 "
            f"{1000 * statistics.median(awake):.1f} ms)",
        ),
        Row(
            "dormant: games this machine holds",
            "games",
            memory / per_hot,
            holds,
            1_000_000,
            ">=",
            "value",
            note=f"available memory {memory / KIB**3:.1f} GiB over the bytes a dormant game keeps in "
            f"Redis, or free disk {free_disk / KIB**3:.0f} GiB over its blocks on disk, whichever is fewer; "
            "ceiling: the same memory over a hot game's bytes (estimates, from the figures above)",
        ),
    ]
