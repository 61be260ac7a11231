"""What every REST endpoint and the socket read of a request and how they answer: routes as data
(``Endpoint``), bodies read within their limits, query parameters, the client's address, its
origin, a move's picks."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Annotated, Any, Literal, TypeVar

import msgspec
from starlette.requests import HTTPConnection, Request
from starlette.responses import Response

from domain.engine import Pick
from server.service.codec import encode
from server.service.errors import BAD_JSON, Invalid, TooLarge, UnsupportedMedia, malformed

T = TypeVar("T")
Handler = Callable[[Request], Awaitable[Response]]

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


def answer(value: Any, status: int = 200) -> Response:
    return Response(encode(value), status, media_type="application/json")


JSON = ("application/json",)
JSON_LINES = ("application/x-ndjson", "application/jsonl")


async def read_body(request: Request, limit: int | None = None, media: tuple[str, ...] = JSON) -> bytes:
    """The body, refused with 413 past the configured limit (64 KiB by default), and with 415 unless
    its Content-Type is one of ``media``: a browser's cross-origin "simple" request (text/plain, a
    form, an untyped blob) is sent without asking first, so it must not be read as a command."""
    limit = limit or request.app.state.settings.max_body
    too_large = TooLarge("too_large", f"A request body may hold at most {limit} bytes.", {"limit": limit})
    length = request.headers.get("content-length")
    if length is not None and length.isascii() and length.isdigit() and int(length) > limit:
        raise too_large
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise too_large
    given = request.headers.get("content-type", "").partition(";")[0].strip().lower()
    if given not in media:
        raise UnsupportedMedia(
            "unsupported_media_type",
            f"Send the body with Content-Type: {media[0]}.",
            {"field": "Content-Type", "media": media[0]},
        )
    return body


async def read_json(request: Request, kind: type[T]) -> T:
    try:
        return msgspec.json.decode(await read_body(request), type=kind)
    except BAD_JSON as exc:
        raise malformed(exc) from None


def int_param(request: Request, name: str, default: int, low: int, high: int) -> int:
    raw = request.query_params.get(name)
    if raw is None:
        return default
    # ASCII digits only: str.isdigit() also takes "²" and "٣", which int() then reads or refuses.
    if not (raw.isascii() and raw.isdigit() and low <= int(raw) <= high):
        raise Invalid(
            "malformed",
            f"'{name}' is a whole number from {low} to {high}.",
            {"field": name, "case": "range", "minimum": low, "maximum": high},
        )
    return int(raw)


def flag_param(request: Request, name: str) -> bool:
    """A yes-or-no query parameter: ``true`` or ``false`` (absent: false)."""
    raw = request.query_params.get(name, "false")
    if raw not in ("true", "false"):
        allowed = ["true", "false"]
        raise Invalid(
            "malformed",
            f"'{name}' is one of {', '.join(allowed)}.",
            {"field": name, "case": "one_of", "allowed": allowed},
        )
    return raw == "true"


@dataclass(frozen=True)
class Endpoint:
    method: Literal["GET", "POST", "PUT", "PATCH", "DELETE"]
    path: str
    handler: Handler
    summary: str
    answer: Any = None
    status: int = 200
    body: Any = None
    query: tuple[str, ...] = ()
    errors: tuple[int, ...] = ()
    seat: bool = False  # takes a seat token (optional: without one, the caller is a spectator)
    admin: bool = False
    body_required: bool = True  # False: the body may be left out (then with no Content-Type either)
