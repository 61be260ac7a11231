"""What REST and the socket both read of a request: the client's address, its origin, a move's picks."""

from __future__ import annotations

from typing import Annotated

import msgspec
from starlette.requests import HTTPConnection

from domain.engine import Pick

# A move is a few picks long (the longest possible, Miss Liz's streets, is one pick a cell of a
# 6 x 7 park, and money allows far fewer); more is no move, and each pick costs a step to check.
MAX_PICKS = 64
Picks = Annotated[list[Pick], msgspec.Meta(max_length=MAX_PICKS)]


def client_address(conn: HTTPConnection) -> str | None:
    """The address quotas count against: the peer, or what a trusted proxy said (LUDOTECA_TRUSTED_PROXIES)."""
    return conn.client.host if conn.client else None


def origin_allowed(conn: HTTPConnection, allowed: tuple[str, ...]) -> bool:
    """Browsers send Origin: allow the listed origins, '*', or the server's own."""
    origin = conn.headers.get("origin")
    if origin is None or "*" in allowed or origin in allowed:
        return True
    return origin.partition("://")[2] == conn.headers.get("host")
