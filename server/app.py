"""The composition root: ``create_app(settings)`` makes every part of a replica and hands each what
it uses (storage over one Redis, the service over storage, the workers and the web adapters over
the service), starts the workers, and stops everything in reverse order."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
from collections.abc import AsyncIterator, Coroutine, Mapping
from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as package_version
from typing import Any

from starlette.applications import Starlette

from domain.catalog import GAMES
from domain.engine import AnyGame
from server.runtime.collector import Collector
from server.runtime.lag import LoopLag
from server.runtime.metrics import Metrics
from server.service.admin import Admin
from server.service.attendance import Attendance
from server.service.chat import TableChat
from server.service.destinations import Allowed
from server.service.feeds import Feeds
from server.service.games import Games
from server.service.lobby import Lobby
from server.service.notices import Announcer, NoticeConfig, Notices
from server.service.oidc import OpenIDConnect, Provider
from server.service.passkeys import Passkeys
from server.service.players import Players
from server.service.quotas import Quotas
from server.service.rates import SeatRates
from server.service.ratings import Ratings
from server.service.session import Sessions
from server.service.sockets import Sockets
from server.service.tables import Tables
from server.settings import Settings, token_problems, wait_problem
from server.storage.botqueue import BotQueue
from server.storage.challenges import Challenges
from server.storage.checks import Checks
from server.storage.cold import cold_tier
from server.storage.connection import check_server, connect, initialize
from server.storage.embedded import EmbeddedRedis, supervise
from server.storage.index import LobbyIndex
from server.storage.leases import Leases
from server.storage.notify import Notifications
from server.storage.outbox import Outbox
from server.storage.passkeys import PasskeyStore
from server.storage.players import PlayerRegistry
from server.storage.presence import Presence
from server.storage.quotas import HourlyCounts
from server.storage.ratings import RatingBook
from server.storage.schedule import Schedule
from server.storage.store import EventStore
from server.web.application import application
from server.web.openapi import document
from server.workers import absent, deadlines, dormancy, housekeeping
from server.workers import ratings as rater
from server.workers.bots import BotAlarm, BotWorker
from server.workers.notices import Courier, Smtp
from server.workers.pace import Pace

log = logging.getLogger("ludoteca")


def version() -> str:
    try:
        return package_version("ludoteca")
    except PackageNotFoundError:
        return "0"


def lose_store(app: Starlette) -> None:
    """The embedded Redis keeps dying: stop serving (uvicorn shuts down on SIGTERM) and say so in the
    exit code (server/serve.py)."""
    app.state.store_lost = True
    os.kill(os.getpid(), signal.SIGTERM)


def background(stack: contextlib.AsyncExitStack, work: Coroutine[Any, Any, None]) -> None:
    """Run ``work`` until the stack closes."""
    task = asyncio.create_task(work)

    async def stop() -> None:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task

    stack.push_async_callback(stop)


def notice_config(settings: Settings, allowed: Allowed) -> NoticeConfig:
    """What notifications need of the settings; links go to ``LUDOTECA_PUBLIC_URL``, else where this
    replica listens."""
    public_url = settings.public_url or f"http://{settings.host}:{settings.port}"
    return NoticeConfig(
        public_url=public_url,
        email_from=settings.smtp_from if settings.smtp_host else None,
        email_every_ms=int(settings.email_every * 60_000),
        allowed=allowed,
        webhook_timeout=settings.webhook_timeout,
        lease_ms=int(settings.outbox_lease * 1000),
        retry_ms=int(settings.outbox_retry * 1000),
        attempts=settings.outbox_attempts,
        webhooks_per_hour=settings.webhooks_per_hour,
        webhooks_per_host_hour=settings.webhooks_per_host_hour,
        emails_per_hour=settings.emails_per_hour,
        emails_per_address_hour=settings.emails_per_address_hour,
    )


def smtp(settings: Settings) -> Smtp | None:
    if settings.smtp_host is None:
        return None
    return Smtp(
        settings.smtp_host,
        settings.smtp_port,
        settings.smtp_tls,
        settings.smtp_user,
        settings.smtp_password,
        timeout=max(settings.webhook_timeout, 10.0),
    )


def oidc_provider(settings: Settings) -> Provider | None:
    """The operator's identity provider, when its issuer and this server's client id there are set."""
    if not (settings.oidc_issuer and settings.oidc_client_id):
        return None
    return Provider(
        settings.oidc_issuer, settings.oidc_client_id, settings.oidc_client_secret, settings.oidc_redirect,
        settings.oidc_scopes,
    )  # fmt: skip


def create_app(settings: Settings | None = None, games: Mapping[str, AnyGame] = GAMES) -> Starlette:
    """The application; ``games`` are the games it hosts (the catalog's, unless a test brings its own)."""
    settings = settings or Settings.from_env()
    weak = next(iter(token_problems(settings.admin_token, settings.metrics_token)), None)
    if weak is not None:
        raise ValueError(weak)
    if (waits := wait_problem(settings)) is not None:
        raise ValueError(waits)
    metrics = Metrics()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        async with contextlib.AsyncExitStack() as stack:
            url = settings.redis_url
            app.state.embedded = None
            if url is None:
                embedded = EmbeddedRedis(settings.data_dir, appendfsync=settings.appendfsync)  # type: ignore[arg-type]
                embedded.start()
                stack.callback(embedded.stop)
                url = embedded.url
                app.state.embedded = embedded  # /healthz says whether it runs
                log.info("embedded Redis in %s", settings.data_dir)
            redis = connect(url)
            stack.push_async_callback(redis.aclose)
            await initialize(redis)
            for warning in await check_server(redis):
                log.warning(warning)
            # The composition root: every part is made here and handed what it uses.
            cold_url = settings.cold_url or (str(settings.data_dir / "cold") if app.state.embedded else None)
            cold = cold_tier(cold_url, settings.s3_endpoint) if cold_url else None  # thaws even with freezing off
            wait = (settings.wait_replicas, settings.wait_timeout_ms) if settings.wait_replicas > 0 else None
            store = EventStore(redis, cold, wait)
            tables = Tables(store, games, settings.cache_size)
            stack.push_async_callback(tables.written)  # snapshots under way land before the client closes
            index, schedule, queue = LobbyIndex(redis), Schedule(redis), BotQueue(redis)
            leases, checks, presence = Leases(redis), Checks(redis), Presence(redis)
            await checks.ready()  # the replicas' shared secret, made before this replica writes anything
            rates = SeatRates(settings.ws_rate, settings.ws_burst)
            attendance = Attendance(presence)
            feeds = Feeds(tables, store, checks, attendance, metrics, settings.sweep_interval)
            stack.push_async_callback(feeds.close)
            alarm = BotAlarm(queue, store, settings.bot_delay_ms)
            registry = PlayerRegistry(redis)
            outbox, counts = Outbox(redis), HourlyCounts(redis)
            announcer = Announcer(registry, outbox, settings.smtp_host is not None, metrics)
            service = Games(
                store, tables, index, schedule, rates, metrics, registry, (feeds, alarm),
                command_retries=settings.command_retries, keepers=(announcer,),
            )  # fmt: skip
            quotas = Quotas(
                counts, settings.create_per_hour, settings.seats_per_hour, settings.players_per_hour,
                settings.codes_per_hour, settings.destinations_per_hour, settings.sign_ins_per_hour,
                settings.passkeys_per_hour, refused=lambda what: metrics.quota_refusals.labels(what).inc(),
            )  # fmt: skip
            lobby = Lobby(service, index, quotas, queue, registry, settings.max_open_games)
            if not await index.built():
                log.info("rebuilt the lobby index from %d streams", await lobby.rebuild_index())
            app.state.settings = settings
            app.state.games = service
            app.state.lobby = lobby
            passkey_store, challenges = PasskeyStore(redis), Challenges(redis)
            players = Players(registry, service, quotas, passkey_store)
            allowed = Allowed.of(settings.webhook_allow)
            notices = Notices(
                registry, players, service, outbox, counts, quotas, attendance, checks, metrics,
                notice_config(settings, allowed),
            )  # fmt: skip
            players.on_erase.append(notices.forget)
            app.state.players = players
            app.state.chat = TableChat(service)
            app.state.admin = Admin(service, lobby, attendance, outbox, quotas, metrics)
            book = RatingBook(redis)
            players.on_erase.append(lambda player_id: book.forget_player(games, player_id))
            app.state.ratings = ratings = Ratings(book, service, index, registry, leases)
            app.state.notices = notices
            app.state.passkeys = Passkeys(passkey_store, challenges, players, settings.passkey_timeout)
            app.state.oidc = OpenIDConnect(oidc_provider(settings), challenges, players)
            stack.push_async_callback(app.state.oidc.close)
            app.state.feeds = feeds
            app.state.attendance = attendance
            app.state.sessions = Sessions(
                service, feeds, checks, attendance, queue_size=settings.ws_queue, catch_up_chunk=settings.catch_up_chunk
            )
            app.state.rates = rates
            app.state.sockets = Sockets(settings.ws_per_address, settings.ws_per_game)
            app.state.metrics = metrics
            app.state.openapi = document(games.values(), version())
            listen = {presence.channel: feeds.presence_changed}
            background(stack, Notifications(redis).run(feeds.notify, feeds.wake_all, listen))
            background(stack, presence.keep())
            if settings.drop_after > 0:
                background(stack, absent.keep_dropping(service, presence, settings.drop_after))
            background(stack, feeds.sweep())
            background(stack, deadlines.run(service, schedule, settings.deadline_interval))
            pace = Pace(settings.bot_pace_ms / 1000, settings.bot_pace_spread_ms / 1000)
            background(stack, BotWorker(service, queue, leases, alarm, metrics, pace=pace).run())  # plays bot seats
            courier = Courier(
                notices, allowed, smtp(settings), senders=settings.outbox_senders, interval=settings.outbox_interval,
                timeout=settings.webhook_timeout,
            )  # fmt: skip
            background(stack, courier.run())  # delivers the outbox's notifications
            policy = housekeeping.Policy(
                settings.open_ttl, settings.archive_dir, settings.retention, settings.housekeeping_interval
            )
            background(stack, housekeeping.run(service, index, leases, policy))
            background(stack, rater.run(ratings, settings.rating_interval))
            if cold is not None and settings.cold_after > 0:
                log.info("games idle for %.0f s move to the cold tier in %s", settings.cold_after, cold.where)
                background(
                    stack,
                    dormancy.run(
                        store, index, leases, settings.cold_after, settings.cold_interval, metrics.dormant.inc
                    ),
                )
            if app.state.embedded is not None:  # restarted when it dies; the server stops if it keeps dying
                background(stack, supervise(app.state.embedded, lambda: lose_store(app), metrics.redis_restarts.inc))

            # What start-up built, and what outlives each full collection, is kept out of the
            # next ones, so that their pauses stay short (server/runtime/collector.py).
            # When each look ended is kept as well as how it went: a look that never comes (its task
            # ended) shows only as a time that stops moving (alert LudotecaGarbageLooksStopped).
            def looked(pause: float, found: int) -> None:
                metrics.gc_look_pause.set(pause)
                metrics.gc_frozen_garbage.set(found)
                metrics.gc_look_last.set_to_current_time()

            def failed() -> None:
                metrics.gc_look_failures.inc()
                metrics.gc_look_last.set_to_current_time()

            metrics.gc_look_interval.set(settings.gc_thaw_interval)
            metrics.gc_look_last.set_to_current_time()

            def timed(generation: int, seconds: float) -> None:
                metrics.gc_pauses.labels(str(generation)).observe(seconds)

            collector = Collector(settings.gc_thaw_interval, settings.gc_thaw_above, looked, failed, timed)
            collector.start()
            stack.callback(collector.stop)
            lag = LoopLag(metrics.loop_lag.observe)  # what held the loop: the collector, or anything else
            lag.start()
            stack.callback(lag.stop)
            background(stack, collector.thaws())
            yield

    return application(metrics, settings.allowed_origins, lifespan)
