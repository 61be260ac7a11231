"""Logs: one JSON object a line (for machines: not on a terminal, or ``--log-format json``),
or a readable line for people at a terminal, with the request id and game id of the request
that caused it. Nothing secret is logged: tokens travel only in headers and hello
messages, which are never logged, and events and views are never logged at all.
"""

from __future__ import annotations

import itertools
import json
import logging
import re
import secrets
import sys
import time
from contextvars import ContextVar, Token

from starlette.types import Scope

request_id: ContextVar[str | None] = ContextVar("request_id", default=None)
game_id: ContextVar[str | None] = ContextVar("game_id", default=None)

GAME_IN_PATH = re.compile(r"^/api/v1/games/([0-9a-f]{16})(?:/|$)")
CLIENT_REQUEST_ID = re.compile(r"^[A-Za-z0-9._-]{1,64}$")
# New request ids: this process's random prefix and a counter, unique across replicas
# and much cheaper than a uuid4 (a system call) per request.
_PROCESS = secrets.token_hex(6)
_REQUESTS = itertools.count(1)


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        line = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created)) + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
            "request_id": request_id.get(),
            "game_id": game_id.get(),
        }
        if record.exc_info:
            line["error"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False)


# Query parameters the API reads; any other one's value is masked in the access log (a client
# may put a token there, though tokens are read from headers only), and anything shaped like a
# token is masked wherever it appears.
QUERY_KEPT = frozenset({"after", "limit", "version", "as", "status", "cursor"})
TOKEN_SHAPE = re.compile(r"[0-9a-f]{16}\.[A-Za-z0-9_-]{40,}|[A-Za-z0-9_-]{43,}")
QUERY_PAIR = re.compile(r"([?&])([^=&#\s]*)=([^&#\s\"]*)")


def without_secrets(text: str) -> str:
    """``text`` with every query value but the API's own masked, and token-shaped strings too."""

    def pair(match: re.Match[str]) -> str:
        key, value = match.group(2), match.group(3)
        return match.group(0) if key in QUERY_KEPT and len(value) < 40 else f"{match.group(1)}{key}=***"

    return TOKEN_SHAPE.sub("***", QUERY_PAIR.sub(pair, text))


class NoSecrets(logging.Filter):
    """Masks what may be a secret in every line before it is written (tests/server/runtime/test_logs.py)."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        cleaned = without_secrets(message)
        if cleaned != message:
            record.msg, record.args = cleaned, ()
        return True


class TextFormatter(logging.Formatter):
    """``07:28:24 info  ludoteca.feeds  message  (game 7707041af9fd1d6f)``, local time, for people."""

    def format(self, record: logging.LogRecord) -> str:
        when = time.strftime("%H:%M:%S", time.localtime(record.created))
        line = f"{when} {record.levelname.lower():<7} {record.name:<16} {record.getMessage()}"
        game = game_id.get()
        if game is not None:
            line += f"  (game {game})"
        if record.exc_info:
            line += "\n" + self.formatException(record.exc_info)
        return line


def configure(level: str, form: str = "json") -> None:
    """Every logger (uvicorn's too) writes to standard error: JSON lines, or ``form="text"`` lines for people."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(TextFormatter() if form == "text" else JsonFormatter())
    handler.addFilter(NoSecrets())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        logging.getLogger(name).handlers[:] = []
        logging.getLogger(name).propagate = True


def without_password(url: str) -> str:
    """A Redis URL fit to print: its password (if any) replaced by ``***``."""
    url = re.sub(r"([?&]sentinel_password=)[^&#]*", r"\1***", url)  # redis+sentinel:// (the Sentinels')
    scheme, sep, rest = url.partition("://")
    userinfo, at, host = rest.rpartition("@")
    if not sep or not at or ":" not in userinfo:
        return url
    return f"{scheme}://{userinfo.split(':', 1)[0]}:***@{host}"


Tokens = tuple[Token[str | None], Token[str | None]]


def enter_request(scope: Scope) -> Tokens:
    """Set the request id (the client's ``X-Request-Id`` when sane, else a new one) and the game id
    of the path for every log line the request causes; :func:`leave_request` resets them."""
    asked = dict(scope["headers"]).get(b"x-request-id", b"").decode("latin-1")
    rid = asked if CLIENT_REQUEST_ID.match(asked) else f"{_PROCESS}-{next(_REQUESTS):x}"
    match = GAME_IN_PATH.match(scope["path"])
    return request_id.set(rid), game_id.set(match.group(1) if match else None)


def leave_request(tokens: Tokens) -> None:
    request_id.reset(tokens[0])
    game_id.reset(tokens[1])
