"""Seat and admin tokens: 256 random bits, kept in Redis only as SHA-256 hashes."""

from __future__ import annotations

import hashlib
import hmac
import secrets

from starlette.requests import HTTPConnection

from server.service.errors import Forbidden, Unauthorized


def new_token() -> str:
    return secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


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
        raise Unauthorized("missing_token", "This needs the admin token.")
    if admin_token is None or not hmac.compare_digest(token, admin_token):
        raise Forbidden("not_admin", "Only the server's admin may do this.")


ADMIN_TOKEN_LEAST = 16  # characters: `openssl rand -base64 32` makes 44
# Known placeholders, as letters and digits only (so "change-me" and "CHANGE_ME" are caught too).
PLACEHOLDERS = frozenset({"changeme", "replaceme", "password", "secret", "admin", "admintoken", "token", "default"})


def token_problems(admin_token: str | None, metrics_token: str | None) -> list[str]:
    """Why the operator's tokens must not be used (a known placeholder, too short); empty if fine.

    The admin token exports every unfinished game with every hand and deck order: a
    server with a guessable one would hand them to anyone who tries."""
    found = [token_problem("LUDOTECA_ADMIN_TOKEN", admin_token), token_problem("LUDOTECA_METRICS_TOKEN", metrics_token)]
    return [problem for problem in found if problem is not None]


def token_problem(variable: str, token: str | None) -> str | None:
    if token is None:
        return None
    plain = "".join(c for c in token.lower() if c.isalnum())
    placeholder = plain in PLACEHOLDERS or "changeme" in plain or "replaceme" in plain
    if placeholder or len(token) < ADMIN_TOKEN_LEAST:
        return (
            f"{variable} is a placeholder or shorter than {ADMIN_TOKEN_LEAST} characters; "
            f"make one with `openssl rand -base64 32`, or leave it unset (what it opens then answers 403)."
        )
    return None
