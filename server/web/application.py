"""The web application: routes as data, the error handlers, and Starlette with its WebSocket routes
served first. The parts it serves are made by the composition root (server/app.py) and found on
``app.state``."""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Match, Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import Receive, Scope, Send
from starlette.websockets import WebSocket

from server.runtime.logs import enter_request, leave_request
from server.runtime.metrics import Metrics
from server.service.errors import STORE_DOWN, AppError, ErrorBody, StoreError
from server.web.errors import http_answer, reader
from server.web.metrics import scrape
from server.web.middleware import HttpMiddleware
from server.web.requests import Handler, answer
from server.web.rest import ENDPOINTS, STORE_TROUBLE, healthz, readyz
from server.web.websocket import game_socket

log = logging.getLogger("ludoteca")
STATIC = Path(__file__).parent / "static"
WEB = Path(__file__).parents[2] / "clients" / "web"  # the web table: static files, only the public API


async def app_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, AppError)
    return http_answer(exc, reader(request))


async def store_down(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, StoreError)
    STORE_TROUBLE.failed(exc)  # every request still answers 503; the log says it once an outage
    return http_answer(STORE_DOWN, reader(request))


async def internal_error(request: Request, exc: Exception) -> Response:
    log.exception("unexpected error on %s %s", request.method, request.url.path, exc_info=exc)
    internal = AppError("internal", "Something went wrong on the server; it has been logged.")
    return answer(ErrorBody(internal.code, reader(request).message(internal)), 500)


async def http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
    error = AppError(code, str(exc.detail))
    response = answer(ErrorBody(code, reader(request).message(error)), exc.status_code)
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
    wrappers) would stay suspended as long: coroutines and their closures kept in memory a socket, and
    traversed by every full garbage collection (docs/performance.md, "Levers"). None
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


def application(metrics: Metrics, allowed_origins: tuple[str, ...], lifespan: Callable[[Starlette], Any]) -> Starlette:
    """The application over ``routes()``, its parts made by ``lifespan`` (the composition root)."""
    table = routes()
    paths: dict[Any, str] = {route.endpoint: route.path for route in table if isinstance(route, Route | WebSocketRoute)}
    # The web table's files: one label for the mount (a label per file would grow without bound).
    paths |= {route.app: route.path + "/{path}" for route in table if isinstance(route, Mount)}
    return Ludoteca(
        routes=table,
        middleware=[
            Middleware(
                HttpMiddleware,
                metrics=metrics,
                paths=paths,
                docs_page=STATIC / "docs.html",
                allowed_origins=allowed_origins,
            )
        ],
        exception_handlers={
            AppError: app_error,
            StoreError: store_down,
            HTTPException: http_error,
            Exception: internal_error,
        },
        lifespan=lifespan,
    )
