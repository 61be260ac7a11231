"""The application: ``create_app(settings)`` with its routes as a list and a lifespan."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
from collections.abc import AsyncIterator, Coroutine, Mapping
from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as package_version
from pathlib import Path
from typing import Any

from redis.exceptions import RedisError
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Match, Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import Receive, Scope, Send
from starlette.websockets import WebSocket

from domain.catalog import GAMES
from domain.engine import AnyGame
from server.runtime.collector import Collector
from server.runtime.logs import enter_request, leave_request
from server.runtime.metrics import Metrics, scrape
from server.service.errors import STORE_DOWN, AppError, ErrorBody
from server.service.feeds import Feeds
from server.service.games import Games
from server.service.lobby import Lobby
from server.service.rates import SeatRates
from server.service.sockets import Sockets
from server.service.tables import Tables
from server.settings import Settings
from server.storage.botqueue import BotQueue
from server.storage.checks import Checks
from server.storage.connection import check_server, connect, initialize
from server.storage.embedded import EmbeddedRedis, supervise
from server.storage.index import LobbyIndex
from server.storage.leases import Leases
from server.storage.presence import Presence, keep_dropping
from server.storage.quotas import Quotas
from server.storage.schedule import Schedule
from server.storage.store import EventStore, Notifications
from server.web.answers import http_answer
from server.web.auth import token_problems
from server.web.edge import Edge
from server.web.openapi import document
from server.web.rest import ENDPOINTS, STORE_TROUBLE, Handler, answer, healthz, readyz
from server.web.websocket import game_socket
from server.workers import deadlines, housekeeping
from server.workers.bots import BotAlarm, BotWorker

log = logging.getLogger("ludoteca")
STATIC = Path(__file__).parent / "web" / "static"
WEB = Path(__file__).parent.parent / "clients" / "web"  # the web table: static files, only the public API


def version() -> str:
    try:
        return package_version("ludoteca")
    except PackageNotFoundError:
        return "0"


async def app_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, AppError)
    return http_answer(exc)


async def store_down(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, RedisError)
    STORE_TROUBLE.failed(exc)  # every request still answers 503; the log says it once an outage
    return http_answer(STORE_DOWN)


async def internal_error(request: Request, exc: Exception) -> Response:
    log.exception("unexpected error on %s %s", request.method, request.url.path, exc_info=exc)
    return answer(ErrorBody("internal", "Something went wrong on the server; it has been logged."), 500)


async def http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
    response = answer(ErrorBody(code, str(exc.detail)), exc.status_code)
    response.headers.update(exc.headers or {})  # a 405 says which methods are allowed (Allow)
    return response


async def openapi(request: Request) -> Response:
    return JSONResponse(request.app.state.openapi)


async def docs(request: Request) -> Response:
    return FileResponse(STATIC / "docs.html")


async def web_table(request: Request) -> Response:
    return FileResponse(WEB / "index.html")


def by_path() -> list[tuple[str, Handler, list[str]]]:
    """One route per path, so that a wrong method is answered 405 with every allowed one."""
    handlers: dict[str, dict[str, Handler]] = {}
    for endpoint in ENDPOINTS:
        handlers.setdefault(endpoint.path, {})[endpoint.method] = endpoint.handler
    found = []
    for path, methods in handlers.items():
        if len(methods) == 1:
            [(method, handler)] = methods.items()
            found.append((path, handler, [method]))
        else:
            found.append((path, dispatcher(methods), sorted(methods)))
    return found


def dispatcher(handlers: dict[str, Handler]) -> Handler:
    async def dispatch(request: Request) -> Response:
        method = "GET" if request.method == "HEAD" else request.method
        return await handlers[method](request)

    dispatch.__name__ = "_or_".join(h.__name__ for h in handlers.values())
    return dispatch


def routes() -> list[BaseRoute]:
    api: list[BaseRoute] = [Route("/api/v1" + path, endpoint, methods=methods) for path, endpoint, methods in by_path()]
    # /games/catalog and /games/import must win over /games/{game_id}: ENDPOINTS lists them first.
    return [
        *api,
        WebSocketRoute("/api/v1/games/{game_id}/ws", game_socket),
        Route("/healthz", healthz),
        Route("/readyz", readyz),
        Route("/metrics", scrape),
        Route("/openapi.json", openapi),
        Route("/docs", docs),
        Route("/", web_table),
        Mount("/web", StaticFiles(directory=WEB, check_dir=False), name="web"),
    ]


class Ludoteca(Starlette):
    """Starlette, with its WebSocket routes served first. A game's socket lives for hours, and each
    layer between uvicorn and its handler (the HTTP middleware, the router, Starlette's session
    wrappers) would stay suspended as long: 13 coroutines and their closures a socket, kept in
    memory and traversed by every full garbage collection (docs/performance.md measures it). None
    of them does anything for a WebSocket (the handler checks the origin and answers its own
    errors), so a socket's route is matched here and its handler called in the request's context."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        route = self.socket_route(scope) if scope["type"] == "websocket" else None
        if route is None:
            await super().__call__(scope, receive, send)
            return
        scope["app"] = self
        tokens = enter_request(scope)
        try:
            await route.endpoint(WebSocket(scope, receive, send))
        finally:
            leave_request(tokens)

    def socket_route(self, scope: Scope) -> WebSocketRoute | None:
        """The WebSocket route that matches ``scope``, its path parameters put in ``scope``."""
        for route in self.routes:
            if isinstance(route, WebSocketRoute):
                match, child = route.matches(scope)
                if match is Match.FULL:
                    scope.update(child)
                    return route
        return None


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


def create_app(settings: Settings | None = None, games: Mapping[str, AnyGame] = GAMES) -> Starlette:
    """The application; ``games`` are the games it hosts (the catalog's, unless a test brings its own)."""
    settings = settings or Settings.from_env()
    weak = next(iter(token_problems(settings.admin_token, settings.metrics_token)), None)
    if weak is not None:
        raise ValueError(weak)
    metrics = Metrics()
    table = routes()
    paths: dict[Any, str] = {route.endpoint: route.path for route in table if isinstance(route, Route | WebSocketRoute)}
    # The web table's files: one label for the mount (a label per file would grow without bound).
    paths |= {route.app: route.path + "/{path}" for route in table if isinstance(route, Mount)}

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
            store = EventStore(redis)
            tables = Tables(store, games, settings.cache_size)
            stack.push_async_callback(tables.written)  # snapshots under way land before the client closes
            index, schedule, queue = LobbyIndex(redis), Schedule(redis), BotQueue(redis)
            leases, checks, presence = Leases(redis), Checks(redis), Presence(redis)
            await checks.ready()  # the replicas' shared secret, made before this replica writes anything
            rates = SeatRates(settings.ws_rate, settings.ws_burst)
            feeds = Feeds(tables, store, checks, settings.sweep_interval, presence, metrics=metrics)
            stack.push_async_callback(feeds.close)
            alarm = BotAlarm(queue, store, settings.bot_delay_ms)
            service = Games(
                store,
                tables=tables,
                index=index,
                schedule=schedule,
                listeners=(feeds, alarm),
                rates=rates,
                metrics=metrics,
                command_retries=settings.command_retries,
            )
            quotas = Quotas(redis, settings.create_per_hour, settings.seats_per_hour)
            lobby = Lobby(service, index, quotas, queue, settings.max_open_games)
            if not await index.built():
                log.info("rebuilt the lobby index from %d streams", await lobby.rebuild_index())
            app.state.settings = settings
            app.state.games = service
            app.state.lobby = lobby
            app.state.feeds = feeds
            app.state.presence = presence
            app.state.rates = rates
            app.state.sockets = Sockets(settings.ws_per_address, settings.ws_per_game)
            app.state.metrics = metrics
            app.state.openapi = document(games.values(), version())
            listen = {presence.channel: feeds.presence_changed}
            background(stack, Notifications(redis).run(feeds.notify, feeds.wake_all, listen))
            background(stack, presence.keep())
            if settings.drop_after > 0:
                background(stack, keep_dropping(service, presence, settings.drop_after))
            background(stack, feeds.sweep())
            background(stack, deadlines.run(service, schedule, settings.deadline_interval))
            background(stack, BotWorker(service, queue, leases, alarm, metrics=metrics).run())  # plays bot seats
            background(stack, housekeeping.run(service, index, leases, settings))
            if app.state.embedded is not None:  # restarted when it dies; the server stops if it keeps dying
                background(stack, supervise(app.state.embedded, lambda: lose_store(app)))
            # What start-up built, and what outlives each full collection, is kept out of the
            # next ones, so that their pauses stay short (server/runtime/collector.py).
            collector = Collector(settings.gc_thaw_interval)
            collector.start()
            stack.callback(collector.stop)
            background(stack, collector.thaws())
            yield

    return Ludoteca(
        routes=table,
        middleware=[
            Middleware(
                Edge,
                metrics=metrics,
                paths=paths,
                docs_page=STATIC / "docs.html",
                allowed_origins=settings.allowed_origins,
            )
        ],
        exception_handlers={
            AppError: app_error,
            RedisError: store_down,
            HTTPException: http_error,
            Exception: internal_error,
        },
        lifespan=lifespan,
    )
