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
"""

from __future__ import annotations

import random
import shutil
import statistics
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from domain.catalog import GAMES
from domain.table import fold
from server.bench import play, procs
from server.bench.client import Http, percentile
from server.bench.load import API
from server.bench.report import Row
from server.service.codec import encode
from server.storage.cold import ColdDirectory
from server.storage.connection import connect
from server.storage.index import LobbyIndex
from server.storage.store import EventStore

KIB = 1024


@dataclass(frozen=True)
class DormantPlan:
    games: int  # stored, then sent to the cold tier
    sampled: int  # first commands timed, dormant and hot each


FULL_DORMANT = DormantPlan(4_000, 300)
QUICK_DORMANT = DormantPlan(120, 30)


@dataclass(frozen=True)
class Stored:
    game_id: str
    token: str  # the seat that moves next
    command: Any
    events: int


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
    stored: list[Stored] = []
    try:
        before = await used_memory(redis)
        while len(stored) < plan.games:
            kind, game = kinds[len(stored) % len(kinds)]
            players = next(sizes[kind])
            events = play.midplay(game, players, rng, rng.randint(10, 120))
            table = fold(game, None, events)
            assert table is not None
            chosen = play.choose(game, table, rng)
            if chosen is None:  # the game ended within its commands: another one
                continue
            seat, command, _ = chosen
            game_id, tokens = await play.store_game(store, index, game, events, players)
            stored.append(Stored(game_id, tokens[seat], command, len(events)))
        hot = await used_memory(redis)
        frozen_at = time.perf_counter()
        for g in stored[plan.sampled :]:  # the first ones stay hot: the first command's reference
            assert await store.freeze(g.game_id)
        freezing = time.perf_counter() - frozen_at
        frozen = plan.games - plan.sampled
        asleep = await used_memory(redis)
        files, disk = await cold.size()
        allocated = blocks(cold.directory)
        per_hot = (hot - before) / plan.games
        per_dormant = (asleep - before - per_hot * plan.sampled) / frozen
        server = procs.ludoteca(redis_url, {"LUDOTECA_COLD_URL": str(cold.directory), "LUDOTECA_COLD_AFTER": "0"})
        try:
            server.start()
            woken = await first_commands(server.port, stored[plan.sampled : 2 * plan.sampled], "d")
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
            note=f"INFO used_memory over {plan.games} games mid-play (mean {mean_events:.0f} events; every game, "
            f"every seat count), hot, then {frozen} of them in the cold tier (meta, tokens and newest snapshot "
            f"left); {freezing / frozen * 1000:.2f} ms a game to freeze",
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
