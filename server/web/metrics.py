"""``/metrics``: the registry (server/runtime/metrics.py) for the operator only, the bearer of
``LUDOTECA_METRICS_TOKEN`` (or of the admin token)."""

from __future__ import annotations

import hmac
import time

from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from starlette.requests import Request
from starlette.responses import Response

from server.runtime.metrics import Metrics
from server.service.errors import Forbidden, Unauthorized
from server.web.auth import bearer


async def scrape(request: Request) -> Response:
    settings = request.app.state.settings
    tokens = [t for t in (settings.metrics_token, settings.admin_token) if t]
    if not tokens:
        raise Forbidden(
            "not_admin",
            "Metrics are served only with LUDOTECA_METRICS_TOKEN (or the admin token) set.",
            {"case": "metrics_off"},
        )
    given = bearer(request)
    if given is None:
        raise Unauthorized("missing_token", "Metrics need the metrics token (or the admin token).", {"case": "metrics"})
    if not any(hmac.compare_digest(given, t) for t in tokens):
        raise Forbidden("not_admin", "Only the server's operator may read its metrics.", {"case": "metrics"})
    metrics: Metrics = request.app.state.metrics
    start = time.perf_counter()
    await request.app.state.games.ping()
    metrics.redis_seconds.observe(time.perf_counter() - start)
    for status, count in (await request.app.state.lobby.census()).items():
        metrics.games.labels(status).set(count)
    metrics.redis_memory.set(await request.app.state.games.memory())
    metrics.outbox.set(await request.app.state.notices.waiting())
    return Response(generate_latest(metrics.registry), media_type=CONTENT_TYPE_LATEST)
