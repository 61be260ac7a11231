"""The bench run: start Redis and the servers, measure every ceiling and Ludoteca on it, stop everything."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import shutil
import signal
import statistics
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from domain.catalog import GAMES
from domain.table import SeatTaken
from server.bench import capacity, dormant, inprocess, load, memory, node, play, procs, versus
from server.bench.client import Arrivals, Http, Watcher, arrival, percentile, quiet_gc, scrape
from server.bench.load import API, Holder, Seated, hello
from server.bench.report import Row, say, table, write_json
from server.service.codec import GameCodec, encode
from server.service.tables import Tables
from server.storage.connection import connect
from server.storage.embedded import EmbeddedRedis
from server.storage.index import LobbyIndex
from server.storage.store import EventStore, events_key


@dataclass(frozen=True)
class Plan:
    quick: bool
    clients: int  # concurrent HTTP clients (and Lua append callers)
    seconds: float  # each timed load
    pool: int  # games played at once by the bots
    fanout_sockets: int
    fanout_rounds: int
    replay_events: int
    growth_version: int
    growth_commands: int
    idle_sockets: int
    cached_games: int
    rules_seconds: float
    repeats: int


FULL = Plan(False, 50, 10.0, 300, 1000, 40, 10_000, 5_000, 40, 10_000, 1_000, 3.0, 5)
QUICK = Plan(True, 20, 1.0, 30, 50, 5, 1_000, 500, 8, 100, 60, 0.25, 1)


class Bench:
    """One run: the Redis, the servers, the bench's own replica of every game, and the figures."""

    def __init__(self, plan: Plan, url: str) -> None:
        self.plan = plan
        self.url = url
        self.redis = connect(url)
        self.store = EventStore(self.redis)
        self.index = LobbyIndex(self.redis)
        self.mirror = Tables(self.store, GAMES, 1_000_000)  # the bots' replica of each game
        self.rng = random.Random(20240601)
        self.rows: list[Row] = []

    def ws_url(self, port: int, path: str) -> str:
        return f"ws://127.0.0.1:{port}{path}"

    async def pool(self, port: int, count: int) -> list[Seated]:
        games = await load.new_games(port, count, self.plan.clients)
        for g in games:
            await self.mirror.load(g.game_id)
        return games

    # -- commands over HTTP, and command to push -------------------------------------------

    async def commands(self, bare_server: procs.Server, server: procs.Server) -> float:
        plan = self.plan
        append = await load.lua_append(self.url, plan.clients, plan.seconds / 2)
        with quiet_gc():
            bare = await load.on_server(
                bare_server.pid, load.bare_commands(bare_server.port, plan.clients, plan.seconds)
            )
        pool = await self.pool(server.port, plan.pool)
        with quiet_gc():
            ours = await load.on_server(
                server.pid, load.bots(server.port, self.mirror, pool, plan.clients, plan.seconds)
            )
        self.rows += [
            Row(
                "append: Lua script vs HTTP commands",
                "per s",
                append.rate,
                ours.rate,
                note=f"the append alone, {plan.clients} callers: p50 {append.ms(50):.2f} ms, "
                f"p99 {append.ms(99):.2f} ms",
            ),
            Row(
                "http: commands",
                "per s",
                bare.rate,
                ours.rate,
                None,  # reported, not a target: the bare endpoint runs no rules and delivers nothing
                note=f"{plan.clients} clients; bare p50 {bare.ms(50):.2f} / p99 {bare.ms(99):.2f} ms, "
                f"Ludoteca p50 {ours.ms(50):.2f} / p99 {ours.ms(99):.2f} ms; "
                f"{ours.count} commands in {len(pool)} games, {ours.errors + bare.errors} errors; server CPU per "
                f"request: bare {bare.cpu_us:.0f} us, Ludoteca {ours.cpu_us:.0f} us",
            ),
            Row("http: command p99 at max load", "ms", bare.ms(99), ours.ms(99), note="info: latency under full load"),
            Row(
                "http: server CPU per command",
                "us",
                bare.cpu_us,
                ours.cpu_us,
                note="info: the server process's CPU time (user + system) per request under full load; the figure "
                "that moves least on a shared machine",
            ),
        ]
        return ours.rate

    async def push(self, bare_port: int, server: procs.Server, socketless: float) -> None:
        """Command to every seat's socket at half the most commands a second the server carries
        with those sockets open (the first, saturating load, on games of its own): at half its
        capacity, as "half the maximum" means. Half the maximum measured without sockets (the
        HTTP phase's) would run it near a full core, since every command then also updates
        three or four sockets, and time a queue."""
        plan = self.plan
        port = server.port
        saturating, pool = await self.pool(port, plan.pool), await self.pool(port, plan.pool)
        targets: list[tuple[str, bytes]] = []
        seats: dict[str, range] = {}  # game id -> its seats' places in ``targets``
        for g in saturating + pool:
            _, t = await self.mirror.load(g.game_id)
            url = self.ws_url(port, f"{API}/games/{g.game_id}/ws")
            seats[g.game_id] = range(len(targets), len(targets) + len(g.tokens))
            targets += [(url, hello(tok, t.version)) for tok in g.tokens]
        answers: list[tuple[str, int, float]] = []
        # The seats' sockets are read by another process, as a player's browser would be: the
        # bots' process then does the same work as when it timed the bare endpoint.
        holder = Holder(targets)
        loop = asyncio.get_running_loop()
        received: list[Arrivals | None] = []
        try:
            opened = await loop.run_in_executor(None, holder.start, 300.0)
            with quiet_gc():
                most = await load.bots(port, self.mirror, saturating, plan.clients, plan.seconds / 2)
            rate = most.rate / 2
            waited = await node.settle()  # the saturating load's backlog is not this one's
            counted = await counters(port)
            with quiet_gc():
                ours = await load.on_server(
                    server.pid,
                    load.bots(
                        port,
                        self.mirror,
                        pool,
                        plan.clients,
                        plan.seconds,
                        rate,
                        lambda g, version, at: answers.append((g.game_id, version, at)),
                    ),
                )
            await asyncio.sleep(1.0)  # the last pushes land
            reads, accepted = (after - before for after, before in zip(await counters(port), counted, strict=True))
        finally:
            received = await loop.run_in_executor(None, holder.stop)
        delays, missing = [], 0
        for game_id, version, at in answers:
            for i in seats[game_id]:
                socket = received[i] if i < len(received) else None
                arrived = arrival(socket, version) if socket is not None else None
                if arrived is None:
                    missing += socket is not None  # a socket refused at the start is counted there
                else:
                    delays.append(max(0.0, arrived - at))
        with quiet_gc():
            bare = await load.bare_commands(bare_port, plan.clients, plan.seconds, rate)
        self.rows.append(
            Row(
                "push: command to every seat's socket, p99",
                "ms",
                bare.ms(99),
                1000 * percentile(delays, 99),
                None,  # reported, not a target: the bare endpoint decides and delivers nothing
                "<=",
                note=f"at {rate:.0f} commands/s (half the {most.rate:.0f} a second measured with these sockets "
                f"open, then {waited:.1f} s for the machine to settle; the HTTP phase's maximum without sockets: "
                f"{socketless:.0f}), {opened} seat sockets held by "
                f"another process ({len(targets) - opened} refused); push p50 "
                f"{1000 * percentile(delays, 50):.2f} ms, {missing} not delivered; ceiling: the bare endpoint's "
                f"request p99 at the same rate (p50 {bare.ms(50):.2f} ms); Ludoteca commands p99 {ours.ms(99):.2f} ms, "
                f"server CPU {ours.cpu_us:.0f} us per command; "
                f"the feeds read the stream {1000 * reads / max(accepted, 1):.1f} times per 1,000 commands "
                f"({reads:.0f} reads, {accepted:.0f} commands)",
            )
        )

    # -- fan-out --------------------------------------------------------------------------

    async def fanout(self, bare_port: int, port: int) -> None:
        plan = self.plan
        kind, game = next(iter(GAMES.items()))
        [seated] = await load.new_games(port, 1, 1, players=game.max_players)
        _, t = await self.mirror.load(seated.game_id)
        path = f"{API}/games/{seated.game_id}/ws"
        ours_ws = [
            Watcher(self.ws_url(port, path), hello(None, t.version), keep=i == 0) for i in range(plan.fanout_sockets)
        ]
        http = Http(port)
        version = t.version

        async def command() -> None:
            nonlocal version
            g, table = await self.mirror.load(seated.game_id)
            chosen = play.choose(g, table, self.rng)
            assert chosen is not None, "the fan-out game ended early"
            seat, cmd, _ = chosen
            body = encode({"command": cmd, "command_id": f"f{version}"})
            status, answer = await http.request("POST", f"{path[:-3]}/commands", body, seated.tokens[seat])
            assert status == 200, answer
            version = load.ANSWERED.decode(answer).version

        try:
            ours_ws = await load.open_all(ours_ws)
            assert ours_ws and ours_ws[0].keep, "the fan-out sockets were refused"
            with quiet_gc():
                ours = load.Rounds()
                for _ in range(plan.fanout_rounds):
                    step = await load.rounds(ours_ws, [(version + 1, command)])
                    ours.rounds += 1
                    ours.seconds += step.seconds
                    ours.delays += step.delays
                    ours.missed += step.missed
            # What the first socket received after its catch-up: the same messages go through the raw broadcast.
            messages = list(zip(ours_ws[0].versions, ours_ws[0].messages, strict=True))[1:]
        finally:
            await load.close_all(ours_ws)
            await http.close()
        raw_ws = [Watcher(self.ws_url(bare_port, "/ws"), b'{"type":"hello"}') for _ in range(plan.fanout_sockets)]
        bare_http = Http(bare_port)

        def broadcast(message: str) -> Any:
            return lambda: bare_http.request("POST", "/broadcast", message.encode())

        try:
            raw_ws = await load.open_all(raw_ws)
            with quiet_gc():
                raw = await load.rounds(raw_ws, [(v, broadcast(m)) for v, m in messages])
        finally:
            await load.close_all(raw_ws)
            await bare_http.close()
        size = statistics.mean(len(m) for _, m in messages) if messages else 0
        self.rows += [
            Row(
                "fanout: deliveries to spectators",
                "per s",
                raw.rate,
                ours.rate,
                0.7,
                note=f"one {kind} game, {len(ours_ws)} spectator sockets, {ours.rounds} commands, "
                f"{ours.missed} missed; raw: the same {len(messages)} messages (mean {size:.0f} B) broadcast by "
                f"the bare server to {len(raw_ws)} sockets, {raw.missed} missed",
            ),
            Row(
                "fanout: delay p99",
                "ms",
                1000 * percentile(raw.delays, 99),
                1000 * percentile(ours.delays, 99),
                note="info: from the command (or broadcast) request sent to the socket's arrival",
            ),
        ]

    # -- replay -----------------------------------------------------------------------------

    async def replay(self) -> None:
        for kind, game in GAMES.items():
            events = play.stream(game, game.max_players, self.rng, self.plan.replay_events, None)
            game_id, _ = await play.store_game(self.store, self.index, game, events, game.max_players)
            codec = GameCodec(game)
            raw_times, load_times = [], []
            for _ in range(self.plan.repeats):
                with quiet_gc():
                    start = time.perf_counter()
                    entries: Any = await self.redis.xrange(events_key(game_id))
                    decoded = [codec.events.decode(fields[b"e"]) for _, fields in entries]
                    raw_times.append(time.perf_counter() - start)
                    assert len(decoded) == len(events)
                    games = Tables(self.store, GAMES, 1000)
                    start = time.perf_counter()
                    _, loaded = await games.load(game_id)
                    load_times.append(time.perf_counter() - start)
                    assert loaded.version == len(events)
            self.rows.append(
                Row(
                    f"replay[{kind}]",
                    "events/s",
                    len(events) / statistics.median(raw_times),
                    len(events) / statistics.median(load_times),
                    0.5,
                    note=f"Tables.load of a {len(events)}-event stream ({game.max_players} seats, games played back "
                    "to back) vs XRANGE + msgspec decode of the same stream; median of "
                    f"{self.plan.repeats}",
                )
            )

    # -- growth: latency, cached games, idle sockets ----------------------------------------------

    async def growth(self, port: int) -> None:
        plan = self.plan
        for kind, game in GAMES.items():
            players = game.min_players
            events = play.stream(game, players, self.rng, plan.growth_version, 0)
            long_id, tokens = await play.store_game(self.store, self.index, game, events, players)
            long = Seated(long_id, tokens, kind)
            # The new game is the long log's last game at the start of a log: the table's opening,
            # then the same last seat and setup. Both start from the same state and each gets its
            # own generator, seeded alike: they get the same commands for as long as the
            # server's own draws (shuffles) leave them alike, so the log's length is what differs.
            last_seat = max(i for i, e in enumerate(events) if isinstance(e, SeatTaken))
            short_id, short_tokens = await play.store_game(
                self.store, self.index, game, events[:players] + events[last_seat:], players
            )
            short = Seated(short_id, short_tokens, kind)
            seed = self.rng.random()
            rngs = {short.game_id: random.Random(seed), long.game_id: random.Random(seed)}
            http = Http(port)
            timings: dict[str, list[float]] = {short.game_id: [], long.game_id: []}
            versions: dict[str, list[int]] = {short.game_id: [], long.game_id: []}
            sent: dict[str, list[bytes]] = {short.game_id: [], long.game_id: []}
            try:
                for g in (short, long):
                    await http.request("GET", f"{API}/games/{g.game_id}", token=g.tokens[0])  # as a client would
                with quiet_gc():
                    for i in range(2 * plan.growth_commands):
                        g = (short, long)[i % 2]
                        state_game, t = await self.mirror.load(g.game_id)
                        chosen = play.choose(state_game, t, rngs[g.game_id])
                        if chosen is None:
                            break
                        seat, cmd, _ = chosen
                        body = encode({"command": cmd, "command_id": f"g{i}"})
                        start = time.perf_counter()
                        status, _ = await http.request(
                            "POST", f"{API}/games/{g.game_id}/commands", body, g.tokens[seat]
                        )
                        timings[g.game_id].append(time.perf_counter() - start)
                        versions[g.game_id].append(t.version)
                        sent[g.game_id].append(encode((seat, cmd)))
                        assert status == 200
            finally:
                await http.close()
            a, b = timings[short.game_id], timings[long.game_id]
            same = sum(x == y for x, y in zip(sent[short.game_id], sent[long.game_id], strict=False))
            self.rows.append(
                Row(
                    f"growth[{kind}]: command p50, long log vs new game",
                    "ms",
                    1000 * statistics.median(a),
                    1000 * statistics.median(b),
                    1.2,
                    "<=",
                    note=f"{len(a)} + {len(b)} commands one at a time, alternating: a new game from version "
                    f"{versions[short.game_id][0]}, and one from version {versions[long.game_id][0]} "
                    "(games played back to back in one log, its last game set up as the new one), the same "
                    f"random choices on both; {same} of {len(a)} commands alike",
                )
            )

    # -- garbage collection -----------------------------------------------------------------

    async def gc(self, scratch: Path) -> None:
        plan = self.plan
        results: dict[str, tuple[load.Load, list[tuple[int, float]]]] = {}
        for mode in ("default", "off", "freeze"):
            stats = scratch / f"gc-{mode}.json"
            server = procs.ludoteca_gc(self.url, mode, stats).start()
            try:
                pool = await self.pool(server.port, plan.pool)
                await self._gc_stats(server, stats)  # forget start-up
                with quiet_gc():
                    ours = await load.on_server(
                        server.pid, load.bots(server.port, self.mirror, pool, plan.clients, plan.seconds)
                    )
                results[mode] = (ours, await self._gc_stats(server, stats))
            finally:
                server.stop()
        off = results["off"][0]
        for mode, label in (("default", "as is"), ("freeze", "gc.freeze() after start-up")):
            ours, pauses = results[mode]
            full = [p for g, p in pauses if g == 2]
            longest = 1000 * max((p for _, p in pauses), default=0.0)
            self.rows.append(
                Row(
                    f"gc: command p99, {label} vs gc off",
                    "ms",
                    off.ms(99),
                    ours.ms(99),
                    note=f"{len(pauses)} collections in {ours.seconds:.1f} s ({len(full)} full), pauses: total "
                    f"{1000 * sum(p for _, p in pauses):.1f} ms, max {longest:.2f} ms; "
                    f"{ours.rate:.0f} commands/s, server CPU {ours.cpu_us:.0f} us per command (gc off: "
                    f"{off.rate:.0f}/s, {off.cpu_us:.0f} us); p50 {ours.ms(50):.2f} ms (gc off {off.ms(50):.2f})",
                )
            )

    async def _gc_stats(self, server: procs.Server, stats: Path) -> list[tuple[int, float]]:
        stats.unlink(missing_ok=True)
        server.signal(signal.SIGUSR1)
        for _ in range(500):
            if stats.exists():
                return [(int(g), float(p)) for g, p in json.loads(stats.read_text())["pauses"]]
            await asyncio.sleep(0.01)
        raise RuntimeError(f"{server.name} wrote no GC statistics")

    # -- the whole run ----------------------------------------------------------------------

    async def run(self, scratch: Path) -> list[Row]:
        with contextlib.ExitStack() as stack:
            bare = stack.enter_context(_running(procs.bare(self.url)))
            server = stack.enter_context(_running(procs.ludoteca(self.url)))
            plan = self.plan
            say("memory per cached game")
            self.rows.append(await memory.cached_games(self.store, self.index, self.rng, server, plan.cached_games))
            say(f"memory per idle WebSocket ({plan.idle_sockets} sockets)")
            pool = await self.pool(server.port, 50)
            self.rows.append(await memory.idle_sockets(self.mirror, server, bare, pool, plan.idle_sockets))
            say("rules alone")
            self.rows += inprocess.rules(self.rng, plan.rules_seconds)
            say("move building")
            self.rows += inprocess.move_building(self.rng, plan.rules_seconds)
            say("sealing a step for fair play")
            self.rows += inprocess.sealing(self.rng, plan.rules_seconds)
            say("Lua append, bare endpoint, HTTP commands")
            rate = await self.commands(bare, server)
            say("command to push, at half the maximum with every seat's socket open")
            await self.push(bare.port, server, rate)
            say("fan-out")
            await self.fanout(bare.port, server.port)
            say("replay")
            await self.replay()
            say("growth")
            await self.growth(server.port)
        say("garbage collection")
        await self.gc(scratch)
        await self.redis.aclose()
        return self.rows


async def counters(port: int) -> tuple[float, float]:
    """The server's feed reads and accepted commands so far, from its ``/metrics``."""
    reads = accepted = 0.0
    for name, value in await scrape(port, procs.METRICS_TOKEN):
        if name == "ludoteca_feed_reads_total":
            reads += value
        elif name.startswith("ludoteca_commands_total{") and 'result="accepted"' in name:
            accepted += value
    return reads, accepted


@contextlib.contextmanager
def _running(server: procs.Server) -> Iterator[procs.Server]:
    try:
        yield server.start()
    except BaseException:
        say(f"{server.name} said:\n{server.output()}")
        raise
    finally:
        server.stop()


PARTS = ("ceilings", "dormant", "peer", "capacity")


async def phases(
    plan: Plan, redis: EmbeddedRedis, scratch: Path, parts: set[str], peer: bool, dormant_games: int | None = None
) -> list[Row]:
    """The parts asked for: the ceilings' figures, the peer (boardgame.io beside Ludoteca), capacity
    (boardgame.io's too with ``peer``)."""
    rows: list[Row] = []
    if "ceilings" in parts:
        rows += await Bench(plan, redis.url).run(scratch)
    if "dormant" in parts:
        say("dormant games: bytes hot and in the cold tier, and the first command on one")
        dormant_plan = dormant.QUICK_DORMANT if plan.quick else dormant.FULL_DORMANT
        if dormant_games is not None:
            dormant_plan = dormant.soak(dormant_games)
        rows += await dormant.dormant(redis.url, dormant_plan, scratch, random.Random(20261204))
    if "peer" in parts:
        say("the peer: boardgame.io and Ludoteca, the same game and load, rounds alternating")
        rows += await versus.peer(redis.url, redis.pid, versus.QUICK_PEER if plan.quick else versus.FULL_PEER, scratch)
    if "capacity" in parts:
        peers: list[tuple[str, Any]] = []
        if peer:
            flatfile = scratch / "capacity-flatfile"
            peers = [("in memory", lambda: node.bgio(None)), ("FlatFile", lambda: node.bgio(flatfile))]
        rows += await capacity.capacity(
            redis.url, redis.pid, peers, capacity.QUICK_CAPACITY if plan.quick else capacity.FULL_CAPACITY
        )
    return rows


def bench(
    quick: bool,
    json_path: Path | None,
    peer: bool = False,
    only: set[str] | None = None,
    dormant_games: int | None = None,
) -> int:
    plan = QUICK if quick else FULL
    # --only capacity --peer: capacity alone, boardgame.io's beside Ludoteca's.
    parts = set(only) if only else {"ceilings", "dormant", "capacity"} | ({"peer"} if peer else set())
    peer = peer or "peer" in parts
    if "peer" in parts or "capacity" in parts:
        why = node.missing()
        if why is not None:
            say(f"{why}: the peer and the capacity phases (their load driver runs on Node) are skipped")
            parts -= {"peer", "capacity"}
        else:
            node.install()
    limit = procs.raise_fd_limit()
    say(f"descriptor limit: {limit} a process (the soft limit raised to the hard one)")
    started = time.perf_counter()
    scratch = Path(tempfile.mkdtemp(prefix="lt-bench-"))
    redis = EmbeddedRedis(scratch / "redis")
    try:
        redis.start()
        rows = asyncio.run(phases(plan, redis, scratch, parts, peer, dormant_games))
    finally:
        redis.stop()
        shutil.rmtree(scratch, ignore_errors=True)
    seconds = time.perf_counter() - started
    print(table(rows))
    print(f"\n{'quick' if quick else 'full'} run ({', '.join(p for p in PARTS if p in parts)}), {seconds:.0f} s")
    if json_path is not None:
        write_json(json_path, rows, quick, seconds)
    return 0
