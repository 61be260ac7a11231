"""The one ASGI middleware every HTTP request passes on its way in and its answer on its way out.

It sets the request's log context (server/runtime/logs.py), times the request by its route's path
template (server/runtime/metrics.py), and adds to the answer its request id, the security headers
(server/web/headers.py) and, for a request that carries an ``Origin``, what CORS says (Starlette's
own ``CORSMiddleware``, entered only then; an answer to a request with no Origin says
``Vary: Origin``, as that middleware would). One wrapper rather than four: each layer cost
every request a coroutine and a hop of each message it sends (docs/performance.md, "Levers").
WebSockets do not come here: their route is matched before it (server/web/application.py).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from starlette.middleware.cors import CORSMiddleware
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from server.runtime.logs import enter_request, leave_request, request_id
from server.runtime.metrics import Metrics
from server.web.headers import security_headers

VARY_ORIGIN = (b"vary", b"Origin")


class HttpMiddleware:
    def __init__(
        self,
        app: ASGIApp,
        metrics: Metrics,
        paths: dict[Any, str],
        docs_page: Path,
        allowed_origins: Sequence[str],
    ) -> None:
        self.app = app
        self.cors = CORSMiddleware(
            app,
            allow_origins=list(allowed_origins),
            allow_methods=["GET", "POST", "PUT", "PATCH", "DELETE"],
            allow_headers=["Authorization", "Content-Type"],
        )
        self.paths = paths  # endpoint -> its route's path template
        self.timings = metrics.requests
        self.headers = security_headers(None)
        self.docs_headers = security_headers(docs_page)  # the API docs page admits its inline blocks

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start = time.perf_counter()
        tokens = enter_request(scope)
        origin = any(name == b"origin" for name, _ in scope["headers"])
        extra = [
            (b"x-request-id", (request_id.get() or "").encode()),
            *(self.docs_headers if scope["path"] == "/docs" else self.headers),
        ]
        if not origin:
            extra.append(VARY_ORIGIN)
        status = 500
        timed = False

        def observe() -> None:
            nonlocal timed
            timed = True
            path = self.paths.get(scope.get("endpoint"), "unmatched")
            self.timings.labels(path, scope["method"], str(status)).observe(time.perf_counter() - start)

        async def send_at_edge(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                message["headers"] = [*message.get("headers", ()), *extra]
            elif message["type"] == "http.response.body" and not message.get("more_body", False):
                # Counted before the last byte leaves: a client that has read a whole response
                # finds it in the next scrape.
                observe()
            await send(message)

        try:
            await (self.cors if origin else self.app)(scope, receive, send_at_edge)
        finally:
            if not timed:
                observe()
            leave_request(tokens)
