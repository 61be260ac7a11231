"""The bot worker: the server plays the seats bots hold, through the same command path as any client.

Who is a bot is in the stream (``SeatTaken.bot``), so every replica knows it. The work
queue lives in Redis, not in a replica's memory: ``lt:{bots}:due`` is a sorted set of
game ids scored by when (on the shared clock, Redis TIME, in ms) the game should be
looked at again. A game enters it when a bot sits down (``server.lobby.join``) and
leaves it when it is finished or gone.

- After every append on this replica that leaves a bot awaited, the game's score is
  brought forward to now + the think delay (``ZADD LT``), and this replica's worker is
  woken at once; other replicas find it by polling the set.
- Every replica polls the set for games that are due. It takes a short lease on the
  game (``lt:{bots}:lease:<game_id>``, ``SET NX PX``) so that two replicas do not both
  think, catches the game up, and plays one command for one awaited bot seat with
  ``Games.command``: command id ``bot:<seat>:<version>`` and ``expected_version`` the
  version it thought at, so a retry (on this replica or another) lands once (a retry that
  chose otherwise is answered ``command_id_reused``, and the first choice stands).
- The bot's randomness is the operating system's (``random.SystemRandom``), never a seed a
  client could rebuild from the game id, version and seat (docs/bots.md, "Unpredictable").
- Thinking happens off the event loop: ``random`` and ``greedy`` (milliseconds) in a thread,
  ``strong`` in a bounded pool of processes (``THINKERS``) on a budget of ``THINK_SECONDS`` of
  CPU per move; a busy pool queues moves, it never grows.
- A game that waits for a person stays in the set with a later score (``RECHECK_MS``):
  a wake-up lost to a crash between an append and the ``ZADD`` costs at most that long.
  A replica that stops while it holds a lease leaves the game to the others once the
  lease runs out; nothing is lost.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import multiprocessing
import random
import time
import uuid
from typing import Any, Final

from prometheus_client import Counter

from domain.bots import bot_for, parse_bot
from domain.bots.search import strong
from domain.catalog import GAMES
from domain.engine import AnyGame
from domain.table import Table, status
from server.codec import encode
from server.errors import ApiError
from server.games import Games, Seated
from server.tasks import Trouble, cancelled

log = logging.getLogger("ludoteca.bots")

DUE_KEY: Final = "lt:{bots}:due"  # game ids scored by when to look at them again (ms, Redis TIME)
LEASE_PREFIX: Final = "lt:{bots}:lease:"
RECHECK_MS: Final = 5_000  # a game with bots waiting for a person is looked at again this often
LEASE_MS: Final = 5_000  # how long one replica may think about one game before another may
BATCH: Final = 50  # games taken from the set per poll
THINKERS: Final = 2  # processes the strong bot thinks in, at most, per replica
THINK_SECONDS: Final = 0.5  # CPU a strong bot may spend on one move (its level's plays run out first, or this)

RELEASE_LUA = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
"""


def bot_seats(table: Table) -> dict[int, str]:
    """The seats bots hold, and which bot each is."""
    return {s.seat: s.bot for s in table.seats if s is not None and s.bot is not None}


def command_id(seat: int, version: int) -> str:
    """The same for every replica that plays this seat at this version: the move lands once."""
    return f"bot:{seat}:{version}"


async def enlist(games: Games, game_id: str) -> None:
    """Put a game in the bots' queue (a bot sits at it); the worker drops it once it is over."""
    now = await games.store.now_ms()
    await games.store.redis.zadd(DUE_KEY, {game_id: now}, nx=True)


def think(game: AnyGame, state: Any, seat: int, spec: str) -> Any:
    """A bot's command for ``seat``, with the operating system's randomness (in a thread or a process)."""
    bot, level = parse_bot(spec)
    rng = random.SystemRandom()
    if bot.name == "strong":
        return strong(game, state, seat, rng, level or bot.level or 1, time.process_time, THINK_SECONDS)
    return bot_for(spec)(game, state, seat, rng)


def think_in_process(game_id: str, state: Any, seat: int, spec: str) -> Any:
    """``think`` in a worker process, which finds the game by its id (a game is not pickled)."""
    return think(GAMES[game_id], state, seat, spec)


def known_bot(spec: str) -> str:
    """The stored bot, or ``random`` for one this server does not know (an older or newer replica's)."""
    try:
        parse_bot(spec)
    except ValueError:
        return "random"
    return spec


class BotWorker:
    """Plays the bots of every game, with any other replica's worker beside it."""

    def __init__(
        self,
        games: Games,
        delay_ms: int = 300,
        *,
        poll_interval: float = 0.2,
        lease_ms: int = LEASE_MS,
        recheck_ms: int = RECHECK_MS,
        thinkers: int = THINKERS,
    ) -> None:
        self.games = games
        self.thinkers = thinkers
        self.pool: concurrent.futures.ProcessPoolExecutor | None = None  # started at the first strong move
        self.redis: Any = games.store.redis
        self.delay_ms = delay_ms
        self.poll_interval = poll_interval
        self.lease_ms = lease_ms
        self.recheck_ms = recheck_ms
        self.owner = uuid.uuid4().hex
        self.wake = asyncio.Event()
        self.pending: set[asyncio.Task[None]] = set()
        self._release = self.redis.register_script(RELEASE_LUA)
        self.moves: Counter | None = None
        if games.metrics is not None:
            try:
                self.moves = Counter(
                    "ludoteca_bot_moves",
                    "Commands the server's bots played, by game and bot",
                    ["game", "bot"],
                    registry=games.metrics.registry,
                )
            except ValueError:  # already registered (a second worker on the same metrics)
                self.moves = None
        previous = games.on_append

        def on_append(game_id: str) -> None:
            if previous is not None:
                previous(game_id)
            try:
                self.appended(game_id)
            except Exception:  # never fail the append that called us: the poll's recheck covers it
                log.exception("could not look for bots after an append to %s", game_id)

        games.on_append = on_append

    # -- waking up -------------------------------------------------------------------

    def appended(self, game_id: str) -> None:
        """This replica appended to a game: if a bot is awaited now, bring the game forward."""
        table = self.games.cache.get(game_id)
        if table is None or table.state is None or not (bots := bot_seats(table)):
            return
        game = self.games.games[table.game]
        current = status(game, table)
        if current == "finished":
            work = self._drop(game_id)
        elif current == "active" and any(a.seat in bots for a in game.awaited(table.state)):
            work = self._bring_forward(game_id)
        else:
            return
        task = asyncio.get_running_loop().create_task(work)
        self.pending.add(task)
        task.add_done_callback(self.pending.discard)

    async def _bring_forward(self, game_id: str) -> None:
        try:
            now = await self.games.store.now_ms()
            await self.redis.zadd(DUE_KEY, {game_id: now + self.delay_ms}, lt=True)
        except Exception:  # the poll's recheck covers it
            log.warning("could not wake the bots of %s", game_id, exc_info=True)
            return
        self.wake.set()

    async def _drop(self, game_id: str) -> None:
        try:
            await self.redis.zrem(DUE_KEY, game_id)
        except Exception:  # the poll drops it
            log.debug("could not drop %s from the bots' queue", game_id, exc_info=True)

    # -- the loop ----------------------------------------------------------------------

    async def run(self) -> None:
        """Poll for due games until cancelled; a Redis outage only delays the bots."""
        try:
            await self.poll()
        finally:
            if self.pool is not None:
                self.pool.shutdown(wait=False, cancel_futures=True)
                self.pool = None

    async def poll(self) -> None:
        trouble = Trouble(log, "bots could not be played")
        while True:
            wait = self.poll_interval
            self.wake.clear()  # a wake-up from here on ends the next wait early
            try:
                played = await self.play_due()
                wait = await self.until_next()
                if wait == 0 and not played:  # due, but another replica holds it: do not spin
                    wait = self.poll_interval
                trouble.ok()
            except Exception as exc:
                if cancelled():
                    raise
                trouble.failed(exc)
            if cancelled():  # redis-py may have swallowed the cancellation (server/tasks.py)
                raise asyncio.CancelledError
            if wait > 0:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.wake.wait(), wait)

    async def until_next(self) -> float:
        """Seconds until the next game is due (at most the poll interval)."""
        first: Any = await self.redis.zrange(DUE_KEY, 0, 0, withscores=True)
        if not first:
            return self.poll_interval
        now = await self.games.store.now_ms()
        return max(0.0, min(self.poll_interval, (float(first[0][1]) - now) / 1000))

    async def play_due(self) -> int:
        """Look at every game that is due; how many bot commands landed."""
        now = await self.games.store.now_ms()
        members: Any = await self.redis.zrangebyscore(DUE_KEY, "-inf", now, start=0, num=BATCH)
        ids = [m.decode() if isinstance(m, bytes) else str(m) for m in members]
        played = await asyncio.gather(*(self.play_leased(game_id) for game_id in ids))
        return sum(played)

    async def play_leased(self, game_id: str) -> int:
        lease = LEASE_PREFIX + game_id
        if not await self.redis.set(lease, self.owner, nx=True, px=self.lease_ms):
            return 0  # another replica is thinking about it
        try:
            return await self.play(game_id)
        except ApiError as exc:  # the store refused (e.g. the game was deleted meanwhile): look again later
            log.info("bots of %s not played: %s", game_id, exc.code)
            await self.later(game_id, self.recheck_ms)
            return 0
        except Exception:
            if cancelled():
                raise
            log.exception("the bots of %s failed; looking again in %d ms", game_id, self.recheck_ms)
            await self.later(game_id, self.recheck_ms)
            return 0
        finally:
            try:
                await self._release(keys=[lease], args=[self.owner])
            except Exception:  # it runs out by itself
                log.debug("could not release the bots' lease on %s", game_id, exc_info=True)

    async def play(self, game_id: str) -> int:
        """One command for one awaited bot seat of the game, if any; then file the game again."""
        try:
            game, table = await self.games.load(game_id)
        except ApiError:  # gone (expired, archived)
            await self.redis.zrem(DUE_KEY, game_id)
            return 0
        bots = bot_seats(table)
        current = status(game, table)
        if not bots or current == "finished":
            await self.redis.zrem(DUE_KEY, game_id)
            return 0
        if current == "active":
            for awaited in game.awaited(table.state):
                if awaited.seat in bots and await self.move(game_id, table, awaited.seat, bots[awaited.seat]):
                    await self.later(game_id, self.delay_ms)  # maybe another bot's turn next
                    return 1
        await self.later(game_id, self.recheck_ms, table.version)
        return 0

    async def move(self, game_id: str, table: Table, seat: int, bot: str) -> bool:
        """The bot's command for ``seat`` at the table's version; whether the game moved on."""
        game = self.games.games[table.game]
        command = await self.choose(game, table.state, seat, known_bot(bot))
        if command is None:
            return False
        try:
            at = Seated(game_id, game, table, seat)
            await self.games.command(at, seat, encode(command), command_id(seat, table.version), table.version)
        except ApiError as exc:
            if exc.status == 409:  # someone else moved first (a person, or another replica's bot)
                return True
            log.warning("bot %s at seat %d of %s was refused: %s", bot, seat, game_id, exc.code)
            return False
        if self.moves is not None:
            self.moves.labels(game.id, known_bot(bot).partition(":")[0]).inc()
        return True

    async def choose(self, game: AnyGame, state: Any, seat: int, spec: str) -> Any:
        """The bot's command, thought off the event loop: a process of the pool for the strong
        bot (a game of the catalog), a thread for the quick ones."""
        if parse_bot(spec)[0].name != "strong" or GAMES.get(game.id) is not game:
            return await asyncio.to_thread(think, game, state, seat, spec)
        if self.pool is None:  # spawned, not forked: a fork would copy this process's sockets and loop
            self.pool = concurrent.futures.ProcessPoolExecutor(self.thinkers, multiprocessing.get_context("spawn"))
        return await asyncio.get_running_loop().run_in_executor(self.pool, think_in_process, game.id, state, seat, spec)

    async def later(self, game_id: str, after_ms: int, version: int | None = None) -> None:
        """Look at the game again in ``after_ms``; if it moved on meanwhile (``version``), at once."""
        now = await self.games.store.now_ms()
        await self.redis.zadd(DUE_KEY, {game_id: now + after_ms}, xx=True)
        if version is not None and await self.games.store.version(game_id) != version:
            # An append landed while we looked: its wake-up may have come before our ZADD.
            await self.redis.zadd(DUE_KEY, {game_id: now}, xx=True, lt=True)
