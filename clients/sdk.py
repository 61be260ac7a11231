"""An async Python SDK for Ludoteca's public API (docs/API.md): REST over httpx, live updates over websockets.

It speaks only HTTP and WebSocket, like any third-party frontend. Answers are plain JSON values (dicts and
lists): the views, commands and outcomes differ from game to game. Every refusal raises one :class:`ApiError`
carrying the API's error code.

    async with Client("http://127.0.0.1:8000") as lobby:
        entry = await lobby.create("vilar-de-mouros", 2)
        seat = await lobby.join(entry["game_id"], name="Ana")
    async with Client("http://127.0.0.1:8000", seat.token) as me:
        async for update in me.watch(entry["game_id"]):
            ...
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any

import httpx
import msgspec
import websockets
from websockets.exceptions import ConnectionClosed, InvalidHandshake

__all__ = ["DEFAULT_URL", "ApiError", "Client", "Reset", "Seat"]

DEFAULT_URL = "http://127.0.0.1:8000"
API = "/api/v1"

# WebSocket close codes (docs/API.md, "Closing, and what to do")
CLOSE_DENIED = 4003  # the hello was refused: never retry with the same token
CLOSE_SLOW = 4008  # fell behind: resume from the last version held
CLOSE_RESET = 4009  # the log is shorter than what we hold: start again from 0
CLOSE_RESTART = 1012  # the server is restarting: resume
DENIED_STATUS = {"unknown_game": 404, "bad_token": 401, "unknown_token": 401, "not_seated": 403}
RESUME_CODES = frozenset({CLOSE_SLOW, CLOSE_RESTART, 1001, 1006, 1011, 4029, None})

_decoder = msgspec.json.Decoder()
_encoder = msgspec.json.Encoder()


class ApiError(Exception):
    """The API refused something: ``status`` is the HTTP status, ``code`` the stable error code."""

    def __init__(self, status: int, code: str, message: str, details: Mapping[str, Any] | None = None) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.details: dict[str, Any] = dict(details or {})

    def to_json(self) -> dict[str, Any]:
        return {"status": self.status, "error": self.code, "message": self.message, "details": self.details}


class Reset(ApiError):
    """The socket closed with 4009: the server's log is shorter than what we held; start again from 0."""


@dataclass(frozen=True)
class Seat:
    """A seat taken: its number and its token (shown once by the server: keep it)."""

    seat: int
    token: str


@dataclass
class _Backoff:
    first: float = 0.1
    cap: float = 5.0
    failures: int = 0

    def next(self) -> float:
        delay: float = min(self.cap, self.first * 2.0**self.failures)
        self.failures += 1
        return delay


def decode(raw: bytes | str) -> Any:
    return _decoder.decode(raw)


def encode(value: Any) -> bytes:
    return _encoder.encode(value)


def error_of(response: httpx.Response) -> ApiError:
    """The API's error envelope as an :class:`ApiError` (``http_error`` when the body is not one)."""
    try:
        body = decode(response.content)
    except msgspec.DecodeError:
        body = None
    if isinstance(body, dict) and isinstance(body.get("error"), str):
        details = body.get("details")
        return ApiError(
            response.status_code,
            body["error"],
            str(body.get("message", "")),
            details if isinstance(details, dict) else {},
        )
    return ApiError(response.status_code, "http_error", response.text[:200] or response.reason_phrase)


@dataclass
class Client:
    """One caller of one server: a spectator without ``token``, else the seat that token holds.

    Use it as an async context manager (or call :meth:`aclose`) to release its HTTP connections.
    """

    base_url: str = DEFAULT_URL
    token: str | None = None
    timeout: float = 10.0
    max_reconnects: int = 8  # consecutive failed reconnects before watch() gives up
    resumes: int = field(default=0, init=False)  # how many times watch() reconnected and resumed
    _http: httpx.AsyncClient = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.base_url = self.base_url.rstrip("/")
        self._http = httpx.AsyncClient(base_url=self.base_url + API, timeout=self.timeout)

    async def __aenter__(self) -> Client:
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self._http.aclose()

    def as_seat(self, token: str | None) -> Client:
        """Another client on the same server, for the seat ``token`` holds (``None``: a spectator)."""
        return Client(self.base_url, token, self.timeout, self.max_reconnects)

    # --- REST ---------------------------------------------------------------------------

    async def _call(self, method: str, path: str, body: Any = None, params: Mapping[str, Any] | None = None) -> Any:
        headers = {"Authorization": f"Bearer {self.token}"} if self.token else {}
        content = None
        if body is not None:
            content = encode(body)
            headers["Content-Type"] = "application/json"
        query = {k: v for k, v in (params or {}).items() if v is not None}
        response = await self._http.request(method, path, content=content, headers=headers, params=query)
        if response.status_code >= 400:
            raise error_of(response)
        return decode(response.content)

    async def catalog(self) -> list[dict[str, Any]]:
        """The games this server hosts, each with its options and their defaults."""
        answer = await self._call("GET", "/games/catalog")
        games: list[dict[str, Any]] = answer["games"]
        return games

    async def components(self, game: str) -> dict[str, Any]:
        """One game's printed parts as data (cards, map, tiles), for drawing them."""
        answer: dict[str, Any] = await self._call("GET", f"/games/catalog/{game}")
        return answer

    async def create(self, game: str, players: int, options: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """Open a table; answers its lobby entry (``game_id``, ``status``, ``players``, ``seats_taken``)."""
        body = {"game": game, "players": players, "options": dict(options or {})}
        answer: dict[str, Any] = await self._call("POST", "/games", body)
        return answer

    async def games(self, status: str = "open", limit: int | None = None, cursor: int | None = None) -> dict[str, Any]:
        """One page of the lobby: ``{"games": [...], "next_cursor": int | None}``."""
        answer: dict[str, Any] = await self._call(
            "GET", "/games", params={"status": status, "limit": limit, "cursor": cursor}
        )
        return answer

    async def join(self, game_id: str, name: str | None = None, seat: int | None = None) -> Seat:
        """Take a seat (the first free one without ``seat``). The client's own token is not changed."""
        body: dict[str, Any] = {}
        if name is not None:
            body["name"] = name
        if seat is not None:
            body["seat"] = seat
        answer = await self._call("POST", f"/games/{game_id}/seats", body)
        return Seat(int(answer["seat"]), str(answer["token"]))

    async def table(self, game_id: str) -> dict[str, Any]:
        """The table as this client may see it (``status``, ``version``, ``seat``, ``awaiting``, ``view``...)."""
        answer: dict[str, Any] = await self._call("GET", f"/games/{game_id}")
        return answer

    async def legal(self, game_id: str) -> dict[str, Any]:
        """``{"version", "commands"}``: every command this client's seat may send now."""
        answer: dict[str, Any] = await self._call("GET", f"/games/{game_id}/legal-commands")
        return answer

    async def send(
        self,
        game_id: str,
        command: Mapping[str, Any],
        command_id: str | None = None,
        expected_version: int | None = None,
    ) -> dict[str, Any]:
        """Send one command (a fresh command id unless given); answers ``{"version", "events"}``."""
        body: dict[str, Any] = {"command": dict(command), "command_id": command_id or uuid.uuid4().hex}
        if expected_version is not None:
            body["expected_version"] = expected_version
        answer: dict[str, Any] = await self._call("POST", f"/games/{game_id}/commands", body)
        return answer

    async def events(self, game_id: str, after: int = 0, limit: int | None = None) -> dict[str, Any]:
        """This client's feed after ``after``: ``{"version", "events": [{"version", "event"}, ...]}``."""
        answer: dict[str, Any] = await self._call(
            "GET", f"/games/{game_id}/events", params={"after": after, "limit": limit}
        )
        return answer

    async def replay(self, game_id: str, version: int, as_: int | str | None = None) -> dict[str, Any]:
        """The table at ``version``; ``as_`` a seat number or ``"full"`` (once the game is finished)."""
        answer: dict[str, Any] = await self._call(
            "GET", f"/games/{game_id}/replay", params={"version": version, "as": as_}
        )
        return answer

    # --- WebSocket ----------------------------------------------------------------------

    def ws_url(self, game_id: str) -> str:
        base = self.base_url.replace("https://", "wss://", 1).replace("http://", "ws://", 1)
        return f"{base}{API}/games/{game_id}/ws"

    async def watch(self, game_id: str, after: int = 0) -> AsyncIterator[dict[str, Any]]:
        """Every ``update`` message of the game after version ``after``, in order, without gaps or repeats.

        After a close with 4008 (too slow), 1012 (server restart), 1011, 4029 or a dropped connection, it
        reconnects by itself (with backoff) and resumes from the last version it yielded. A close with
        4009 raises :class:`Reset`; a refused hello (4003) raises :class:`ApiError` with the server's code.
        """
        version = after
        backoff = _Backoff()
        while True:
            code: int | None = None
            reason = ""
            refusal: dict[str, Any] | None = None
            try:
                async with websockets.connect(self.ws_url(game_id), open_timeout=self.timeout, max_size=None) as socket:
                    await socket.send(encode({"type": "hello", "token": self.token, "after": version}).decode())
                    while True:
                        message = decode(await socket.recv())
                        kind = message.get("type")
                        if kind == "update":
                            backoff.failures = 0
                            version = int(message["version"])
                            yield message
                        elif kind in ("error", "reset"):
                            refusal = message  # the reason for the close that follows
            except ConnectionClosed as exc:
                if exc.rcvd is not None:
                    code, reason = exc.rcvd.code, exc.rcvd.reason
            except (OSError, TimeoutError, InvalidHandshake):
                code = None  # could not connect: retry like a dropped connection
            if code == CLOSE_RESET:
                current = refusal.get("version") if refusal else None
                raise Reset(409, "reset", "The game's log is shorter than what was held.", {"version": current})
            if code == CLOSE_DENIED:
                err = refusal or {}
                denied = str(err.get("error", reason))
                status = DENIED_STATUS.get(denied, 403)
                raise ApiError(status, denied, str(err.get("message", "")), err.get("details"))
            if code == 1000:
                return
            if code not in RESUME_CODES:
                err = refusal or {}
                raise ApiError(400, str(err.get("error", reason or "closed")), f"socket closed with {code}")
            if backoff.failures >= self.max_reconnects:
                raise ApiError(503, "unreachable", f"gave up after {backoff.failures} reconnects", {"close": code})
            await asyncio.sleep(backoff.next())
            self.resumes += 1
