"""A request's token, and the admin routes' check of it.

API clients send their token as ``Authorization: Bearer <token>``. The web table signs its
player in with a cookie (``ludoteca_player``: HttpOnly, SameSite=Lax, Secure behind TLS),
which the browser sends by itself: so a request that changes anything and carries only the
cookie must come from an origin the server allows (its own, or ``LUDOTECA_ALLOWED_ORIGINS``),
or it is refused (``403 cross_site``): another site cannot act as the player."""

from __future__ import annotations

import hmac

from starlette.requests import HTTPConnection

from server.service.errors import Forbidden, Unauthorized
from server.web.requests import origin_allowed

COOKIE = "ludoteca_player"
SAFE = ("GET", "HEAD", "OPTIONS")


def bearer(conn: HTTPConnection) -> str | None:
    """The token of a request (its bearer, else the player's cookie), ``None`` when it has none (a spectator)."""
    header = conn.headers.get("authorization")
    if header is None:
        return cookie_token(conn)
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


def cookie_token(conn: HTTPConnection) -> str | None:
    """The player's token from the web table's cookie; a request that changes something with it alone
    must come from an allowed origin (a WebSocket's origin is checked before its hello)."""
    token = conn.cookies.get(COOKIE)
    if not token:
        return None
    method = conn.scope.get("method", "GET")
    if method not in SAFE and (
        conn.headers.get("origin") is None or not origin_allowed(conn, conn.app.state.settings.allowed_origins)
    ):
        raise Forbidden("cross_site", "A signed-in browser's request must come from this server's own pages.")
    return token
