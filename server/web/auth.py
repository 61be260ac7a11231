"""A request's bearer token, and the admin routes' check of it."""

from __future__ import annotations

import hmac

from starlette.requests import HTTPConnection

from server.service.errors import Forbidden, Unauthorized


def bearer(conn: HTTPConnection) -> str | None:
    """The bearer token of a request, ``None`` when it has none (a spectator)."""
    header = conn.headers.get("authorization")
    if header is None:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Unauthorized("bad_token", "Send the token as 'Authorization: Bearer <token>'.")
    return token.strip()


def require_admin(conn: HTTPConnection, admin_token: str | None) -> None:
    token = bearer(conn)
    if token is None:
        raise Unauthorized("missing_token", "This needs the admin token.", {"case": "admin"})
    if admin_token is None or not hmac.compare_digest(token, admin_token):
        raise Forbidden("not_admin", "Only the server's admin may do this.", {"case": "admin"})
