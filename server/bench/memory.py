"""Memory ceilings over a running server: a game in its cache, an idle WebSocket."""

from __future__ import annotations

import asyncio
import gc
import random
import statistics
import tracemalloc
from typing import Any

from domain.catalog import GAMES
from domain.table import fold
from server.bench import play, procs
from server.bench.client import Http
from server.bench.load import API, Holder, Seated, hello
from server.bench.report import Row
from server.service.codec import GameCodec, encode
from server.service.tables import Tables
from server.storage.index import LobbyIndex
from server.storage.store import EventStore

KIB = 1024


async def cached_games(
    store: EventStore, index: LobbyIndex, rng: random.Random, server: procs.Server, count: int
) -> Row:
    """What a game cached by ``server`` costs: its RSS over ``count`` games mid-play loaded by GET."""
    stored: list[tuple[str, list[Any]]] = []
    kinds = list(GAMES.items())
    sizes = {kind: play.seat_counts(game) for kind, game in kinds}
    for i in range(count + 10):
        kind, game = kinds[i % len(kinds)]
        players = next(sizes[kind])
        events = play.midplay(game, players, rng, rng.randint(5, 60))
        game_id, _ = await play.store_game(store, index, game, events, players)
        stored.append((game_id, events))
    warm, measured = stored[:10], stored[10:]
    conns = [Http(server.port) for _ in range(20)]

    async def fetch(batch: list[tuple[str, list[Any]]]) -> None:
        async def one(i: int) -> None:
            status, _ = await conns[i % 20].request("GET", f"{API}/games/{batch[i][0]}")
            assert status == 200

        lanes = [list(range(c, len(batch), 20)) for c in range(20)]
        await asyncio.gather(*(asyncio.create_task(_lane(one, lane)) for lane in lanes))

    try:
        await fetch(warm)
        await asyncio.sleep(0.5)
        before = procs.rss(server.pid)
        await fetch(measured)
        await asyncio.sleep(0.5)
        after = procs.rss(server.pid)
    finally:
        for http in conns:
            await http.close()
    # The ceiling: the same tables, decoded from the same bytes and folded here, measured by tracemalloc.
    gc.collect()
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        tables = []
        for _, events in measured:
            game = GAMES[events[0].game]
            decoder = GameCodec(game).events
            tables.append(fold(game, None, [decoder.decode(encode(e)) for e in events]))
        gc.collect()
        held = tracemalloc.get_traced_memory()[0] - base
    finally:
        tracemalloc.stop()
    mean_events = statistics.mean(len(e) for _, e in measured)
    return Row(
        "memory: per cached game",
        "KiB",
        held / len(tables) / KIB,
        (after - before) / len(measured) / KIB,
        64,
        "<=",
        "value",
        note=f"server RSS growth over {len(measured)} games mid-play (mean {mean_events:.0f} events) "
        "loaded by GET; ceiling: the folded tables alone (tracemalloc, in process)",
    )


async def idle_sockets(mirror: Tables, server: procs.Server, bare: procs.Server, pool: list[Seated], n: int) -> Row:
    """What an idle spectator socket costs ``server``, against the bare server's."""
    ours_targets = []
    for i in range(n):
        g = pool[i % len(pool)]
        _, t = await mirror.load(g.game_id)
        ours_targets.append((f"ws://127.0.0.1:{server.port}{API}/games/{g.game_id}/ws", hello(None, t.version)))
    raw_targets = [(f"ws://127.0.0.1:{bare.port}/ws", b'{"type":"hello"}')] * n
    per_socket: list[float] = []
    counts: list[int] = []
    for target, targets in ((server, ours_targets), (bare, raw_targets)):
        holder = Holder(targets)
        try:
            before = procs.rss(target.pid)
            opened = await asyncio.get_running_loop().run_in_executor(None, holder.start, 300.0)
            await asyncio.sleep(1.0)
            after = procs.rss(target.pid)
        finally:
            await asyncio.get_running_loop().run_in_executor(None, holder.stop)
        assert opened, f"{target.name} refused every socket"
        per_socket.append((after - before) / opened / KIB)
        counts.append(opened)
    return Row(
        "memory: per idle WebSocket",
        "KiB",
        per_socket[1],
        per_socket[0],
        20,
        "<=",
        "value",
        note=f"server RSS growth over {counts[0]} of {n} spectator sockets (opened by another process) "
        f"across {min(n, len(pool))} games; ceiling: the bare server's {counts[1]} sockets; the client offers "
        "permessage-deflate, as browsers do; both servers decline it (ludoteca serve's uvicorn settings)",
    )


async def _lane(one: Any, indexes: list[int]) -> None:
    for i in indexes:
        await one(i)
