"""The operator's routes (the admin token): tables by status, ending a table, removing a seat's
player, the notifications' outbox in figures and the quotas hit (server/service/admin.py)."""

from __future__ import annotations

import msgspec
from starlette.requests import Request
from starlette.responses import Response

from server.service.admin import Admin, AdminTable, AdminTables, OutboxFigures, QuotaFigures
from server.service.errors import Invalid
from server.web.auth import require_admin
from server.web.requests import Endpoint, answer, int_param, read_json


class CancelBody(msgspec.Struct, forbid_unknown_fields=True):
    reason: str = ""  # the operator's own note, for the log (at most 200 characters; not in the stream)


def admin_of(request: Request) -> Admin:
    require_admin(request, request.app.state.settings.admin_token)
    admin: Admin = request.app.state.admin
    return admin


async def admin_games(request: Request) -> Response:
    admin = admin_of(request)
    status = request.query_params.get("status", "active")
    if status not in ("open", "active", "finished"):
        raise Invalid("malformed", "'status' is open, active or finished.", {"field": "status", "case": "status"})
    limit = int_param(request, "limit", 20, 1, 100)
    cursor = request.query_params.get("cursor")
    if cursor is not None and not (cursor.isascii() and cursor.isdigit()):
        raise Invalid(
            "malformed", "'cursor' is the next_cursor of the previous page.", {"field": "cursor", "case": "cursor"}
        )
    return answer(await admin.tables(status, limit, int(cursor) if cursor else None))


async def admin_cancel(request: Request) -> Response:
    admin = admin_of(request)
    # The body is optional: a bare POST ends the table.
    body = await read_json(request, CancelBody) if "content-type" in request.headers else CancelBody()
    if len(body.reason) > 200:
        raise Invalid("malformed", "'reason' is at most 200 characters.", {"field": "reason", "case": "too_long"})
    return answer(await admin.cancel(request.path_params["game_id"], body.reason))


async def admin_remove(request: Request) -> Response:
    admin = admin_of(request)
    raw = request.path_params["seat"]
    if not (raw.isascii() and raw.isdigit()) or len(raw) > 3:
        raise Invalid("malformed", "'seat' is a seat's number, from 0.", {"field": "seat", "case": "seat"})
    return answer(await admin.remove(request.path_params["game_id"], int(raw)))


async def admin_outbox(request: Request) -> Response:
    return answer(await admin_of(request).outbox_figures())


async def admin_quotas(request: Request) -> Response:
    return answer(await admin_of(request).quota_figures())


ADMIN = (401, 403, 503)
ADMIN_ENDPOINTS: list[Endpoint] = [
    Endpoint(
        "GET",
        "/admin/games",
        admin_games,
        "Tables by status as the server sees them: seats, who is connected, whose turn, clocks (admin)",
        AdminTables,
        200,
        None,
        ("status", "limit", "cursor"),
        (400, *ADMIN),
        admin=True,
    ),
    Endpoint(
        "POST",
        "/admin/games/{game_id}/cancel",
        admin_cancel,
        "End a table that has not finished, called off by the operator (admin)",
        AdminTable,
        200,
        CancelBody,
        (),
        (400, 401, 403, 404, 409, 413, 415, 422, 503),
        admin=True,
        body_required=False,
    ),
    Endpoint(
        "POST",
        "/admin/games/{game_id}/seats/{seat}/remove",
        admin_remove,
        "Remove a seat's player from a game under way: the table's bot plays on (admin)",
        AdminTable,
        200,
        None,
        (),
        (400, 401, 403, 404, 409, 422, 503),
        admin=True,
    ),
    Endpoint(
        "GET",
        "/admin/outbox",
        admin_outbox,
        "The notifications' outbox in figures: waiting, due, tried, and this replica's results (admin)",
        OutboxFigures,
        200,
        None,
        (),
        ADMIN,
        admin=True,
    ),
    Endpoint(
        "GET",
        "/admin/quotas",
        admin_quotas,
        "Requests refused by a quota an hour, every replica's: by quota, and the clients refused most (admin)",
        QuotaFigures,
        200,
        None,
        (),
        ADMIN,
        admin=True,
    ),
]
