"""The bot worker: the server plays the seats bots hold, through the same command path as any client.

Who is a bot is in the stream (``SeatTaken.bot``, and ``SeatResigned.bot`` for a seat a bot
plays on), so every replica knows it. The work queue lives in Redis, not in a replica's
memory (server/storage/botqueue.py): game ids scored by when (on the shared clock, Redis TIME, in
ms) the game should be looked at again. A game enters it when a bot sits down
(``Lobby.join``) and leaves it when it is finished or gone.

- After every append on this replica that leaves a bot awaited, the bots' alarm (a
  listener of ``Games``) brings the game's score forward to now + the think delay, and
  wakes this replica's worker at once; other replicas find it by polling the queue.
- Every replica polls the queue for games that are due. It takes a short lease on the
  game (server/storage/leases.py) so that two replicas do not both think, catches the game up, and
  plays one command for one awaited bot seat with ``Games.handle``, as the sender
  ``Bot(seat)``: command id ``bot:<seat>:<version>`` and ``expected_version`` the version it
  thought at, so a retry (on this replica or another) lands once. The id is the bot's own
  (command ids are scoped to their sender): nobody else can take it first.
- The bot's randomness is the operating system's (``random.SystemRandom``), never a seed a
  client could rebuild from the game id, version and seat (docs/bots.md, "Unpredictable").
- Thinking happens off the event loop: ``random`` and ``greedy`` (milliseconds) in a thread,
  ``strong`` in a bounded pool of processes (``THINKERS``) on a budget of ``THINK_SECONDS`` of
  CPU per move; a busy pool queues moves, it never grows.
- Every answer is paced (server/workers/pace.py): it lands at a time drawn from one distribution
  whatever the bot holds, so its time tells the table nothing (docs/fair-play.md, "Time").
- A game that waits for a person stays in the queue with a later score (``RECHECK_MS``):
  a wake-up lost to a crash between an append and the score costs at most that long.
  A replica that stops while it holds a lease leaves the game to the others once the
  lease runs out; nothing is lost.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import hashlib
import logging
import multiprocessing
import random
import time
import uuid
from collections.abc import Callable
from typing import Any, Final

from domain.bots import bot_for, parse_bot
from domain.catalog import GAMES
from domain.engine import AnyGame
from domain.table import Table, status
from server.runtime.metrics import Metrics
from server.runtime.tasks import Trouble, cancelled
from server.service.codec import encode
from server.service.errors import AppError, CommandIdReused, Refused, UnknownGame, VersionConflict
from server.service.games import Change, Games
from server.service.senders import Bot
from server.storage.botqueue import BotQueue
from server.storage.leases import Leases, bot_lease
from server.storage.store import EventStore
from server.workers.pace import AT_ONCE, Pace

log = logging.getLogger("ludoteca.bots")

RECHECK_MS: Final = 5_000  # a game with bots waiting for a person is looked at again this often
LEASE_MS: Final = 5_000  # how long one replica may think about one game before another may
BATCH: Final = 50  # games taken from the queue per poll
THINKERS: Final = 2  # processes the strong bot thinks in, at most, per replica
THINK_SECONDS: Final = 0.5  # CPU a strong bot may spend on one move (its level's plays run out first, or this)


def bot_seats(table: Table) -> dict[int, str]:
    """The seats bots hold, and which bot each is."""
    return {s.seat: s.bot for s in table.seats if s is not None and s.bot is not None}


def command_id(seat: int, version: int) -> str:
    """The same for every replica that plays this seat at this version: the move lands once."""
    return f"bot:{seat}:{version}"


def think(game: AnyGame, state: Any, seat: int, spec: str, seconds: float = THINK_SECONDS) -> Any:
    """A bot's command for ``seat``, with the operating system's randomness (in a thread or a process)."""
    bot, level = parse_bot(spec)
    rng = random.SystemRandom()
    searching = bot.searches(level)
    if searching is not None:  # the strong bot, or a named level above casual: on the think budget too
        return bot.thinks(game, state, seat, rng, searching, time.process_time, seconds)
    return bot_for(spec)(game, state, seat, rng)


def think_in_process(game_id: str, state: Any, seat: int, spec: str, seconds: float) -> Any:
    """``think`` in a worker process, which finds the game by its id (a game is not pickled)."""
    return think(GAMES[game_id], state, seat, spec, seconds)


def think_budget(pace: Pace) -> float:
    """CPU seconds the strong bot may think: ``THINK_SECONDS``, and at most 70% of a paced
    decision's least time (the rest is the process pool's slack), so that its answer lands at the
    drawn time (server/workers/pace.py)."""
    return min(THINK_SECONDS, pace.least * 0.7) if pace.paced else THINK_SECONDS


def known_bot(spec: str) -> str:
    """The stored bot, or ``random`` for one this server does not know (an older or newer replica's)."""
    try:
        parse_bot(spec)
    except ValueError:
        return "random"
    return spec


class Thinker:
    """Where bots think, and when their answers land: the quick bots in a thread, the strong bot
    in a bounded pool of processes; every answer paced (server/workers/pace.py)."""

    def __init__(self, pace: Pace = AT_ONCE, thinkers: int = THINKERS, seconds: float | None = None) -> None:
        self.pace = pace
        self.thinkers = thinkers
        self.seconds = think_budget(pace) if seconds is None else seconds
        self.pool: concurrent.futures.ProcessPoolExecutor | None = None  # started at the first strong move

    async def answer(self, game: AnyGame, state: Any, seat: int, spec: str, overran: Callable[[], None]) -> Any:
        """The bot's command, handed back at a time drawn from the pace, whatever the state."""
        return await self.pace.answer(lambda: self.choose(game, state, seat, spec), overran)

    async def choose(self, game: AnyGame, state: Any, seat: int, spec: str) -> Any:
        """The bot's command, thought off the event loop: a process of the pool for the strong
        bot (a game of the catalog), a thread for the quick ones."""
        bot, level = parse_bot(spec)
        if bot.searches(level) is None or GAMES.get(game.id) is not game:
            return await asyncio.to_thread(think, game, state, seat, spec, self.seconds)
        if self.pool is None:  # spawned, not forked: a fork would copy this process's sockets and loop
            self.pool = concurrent.futures.ProcessPoolExecutor(self.thinkers, multiprocessing.get_context("spawn"))
        return await asyncio.get_running_loop().run_in_executor(
            self.pool, think_in_process, game.id, state, seat, spec, self.seconds
        )

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=False, cancel_futures=True)
            self.pool = None


class BotAlarm:
    """Hears of this replica's appends (a ``Games`` listener): a game that now awaits a bot is
    brought forward in the queue, and this replica's worker woken; a finished one leaves it."""

    def __init__(self, queue: BotQueue, store: EventStore, delay_ms: int = 300) -> None:
        self.queue = queue
        self.store = store
        self.delay_ms = delay_ms
        self.wake = asyncio.Event()
        self.pending: set[asyncio.Task[None]] = set()

    def appending(self, game_id: str, version: int) -> None:
        pass  # only appends that landed bring bots forward

    def not_appended(self, game_id: str, version: int) -> None:
        pass

    def appended(self, change: Change) -> None:
        table = change.after
        if table.state is None or not (bots := bot_seats(table)):
            return
        current = status(change.game, table)
        if current == "finished":
            work = self._drop(change.game_id)
        elif current == "active" and any(a.seat in bots for a in change.game.awaited(table.state)):
            work = self._bring_forward(change.game_id)
        else:
            return
        task = asyncio.get_running_loop().create_task(work)
        self.pending.add(task)
        task.add_done_callback(self.pending.discard)

    async def _bring_forward(self, game_id: str) -> None:
        try:
            await self.queue.due_by(game_id, await self.store.now_ms() + self.delay_ms)
        except Exception:  # the poll's recheck covers it
            log.warning("could not wake the bots of %s", game_id, exc_info=True)
            return
        self.wake.set()

    async def _drop(self, game_id: str) -> None:
        try:
            await self.queue.drop(game_id)
        except Exception:  # the poll drops it
            log.debug("could not drop %s from the bots' queue", game_id, exc_info=True)


class BotWorker:
    """Plays the bots of every game, with any other replica's worker beside it."""

    def __init__(
        self,
        games: Games,
        queue: BotQueue,
        leases: Leases,
        alarm: BotAlarm,
        metrics: Metrics,
        *,
        poll_interval: float = 0.2,
        lease_ms: int = LEASE_MS,
        recheck_ms: int = RECHECK_MS,
        thinkers: int = THINKERS,
        pace: Pace = AT_ONCE,
    ) -> None:
        self.games = games
        self.thinker = Thinker(pace, thinkers)
        self.store = games.store
        self.queue = queue
        self.leases = leases
        self.alarm = alarm
        self.metrics = metrics
        self.poll_interval = poll_interval
        self.lease_ms = lease_ms
        self.recheck_ms = recheck_ms
        self.owner = uuid.uuid4().hex

    @property
    def delay_ms(self) -> int:
        return self.alarm.delay_ms

    # -- the loop ----------------------------------------------------------------------

    async def run(self) -> None:
        """Poll for due games until cancelled; a Redis outage only delays the bots."""
        try:
            await self.poll()
        finally:
            self.thinker.close()

    async def poll(self) -> None:
        trouble = Trouble(log, "bots could not be played")
        while True:
            wait = self.poll_interval
            self.alarm.wake.clear()  # a wake-up from here on ends the next wait early
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
            if cancelled():  # redis-py may have swallowed the cancellation (server/runtime/tasks.py)
                raise asyncio.CancelledError
            if wait > 0:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.alarm.wake.wait(), wait)

    async def until_next(self) -> float:
        """Seconds until the next game is due (at most the poll interval)."""
        first = await self.queue.next_due_ms()
        if first is None:
            return self.poll_interval
        now = await self.store.now_ms()
        return max(0.0, min(self.poll_interval, (first - now) / 1000))

    async def play_due(self) -> int:
        """Look at every game that is due; how many bot commands landed."""
        ids = await self.queue.due(await self.store.now_ms(), BATCH)
        played = await asyncio.gather(*(self.play_leased(game_id) for game_id in ids))
        return sum(played)

    async def play_leased(self, game_id: str) -> int:
        lease = bot_lease(game_id)
        if not await self.leases.take(lease, self.owner, self.lease_ms):
            return 0  # another replica is thinking about it
        try:
            return await self.play(game_id)
        except AppError as exc:  # refused on the way (e.g. the game was deleted meanwhile): look again later
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
                await self.leases.release(lease, self.owner)
            except Exception:  # it runs out by itself
                log.debug("could not release the bots' lease on %s", game_id, exc_info=True)

    async def play(self, game_id: str) -> int:
        """One command for one awaited bot seat of the game, if any; then file the game again."""
        try:
            game, table = await self.games.load(game_id)
        except UnknownGame:  # gone (expired, archived)
            await self.queue.drop(game_id)
            return 0
        bots = bot_seats(table)
        current = status(game, table)
        if not bots or current == "finished":
            await self.queue.drop(game_id)
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
        kind = known_bot(bot).partition(":")[0]

        def overran() -> None:
            self.metrics.bot_pace_overruns.labels(game.id, kind).inc()

        command = await self.thinker.answer(game, table.state, seat, known_bot(bot), overran)
        if command is None:
            return False
        body = encode(command)
        sent = command_id(seat, table.version)
        try:
            try:
                await self.games.handle(game_id, Bot(seat), body, sent, table.version)
            except CommandIdReused:
                # The bot's own id, used at this version for another command: only a bot that
                # chose otherwise at the same version can have (its retry: it draws from the
                # operating system, or another replica's code). Say so
                # once, and send under an id of this command's own, which lands once too.
                log.warning(
                    "bot %s at seat %d of %s: command id %s was used for another command", bot, seat, game_id, sent
                )
                again = f"{sent}:{hashlib.sha256(body).hexdigest()[:16]}"
                await self.games.handle(game_id, Bot(seat), body, again, table.version)
        except VersionConflict:  # someone else moved first (a person, or another replica's bot)
            return True
        except (Refused, CommandIdReused) as exc:
            log.warning("bot %s at seat %d of %s was refused: %s", bot, seat, game_id, exc.code)
            return False
        self.metrics.bot_moves.labels(game.id, kind).inc()
        return True

    async def later(self, game_id: str, after_ms: int, version: int | None = None) -> None:
        """Look at the game again in ``after_ms``; if it moved on meanwhile (``version``), at once."""
        now = await self.store.now_ms()
        await self.queue.move_to(game_id, now + after_ms)
        if version is not None and await self.store.version(game_id) != version:
            # An append landed while we looked: its wake-up may have come before our score.
            await self.queue.bring_forward(game_id, now)
