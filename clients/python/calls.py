"""Every REST route as a :class:`Call`: what to send and how to read the answer.

The async and the sync clients run the same calls, so the two cannot drift apart. ``ROUTES`` maps each route
of the server's OpenAPI document to the client method that calls it (a test holds it to ``/openapi.json``).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar
from urllib.parse import quote

import msgspec

from clients.python.models import (
    Catalog,
    CommandAnswer,
    EventPage,
    GameComponents,
    GameList,
    Health,
    Imported,
    Joined,
    LegalCommands,
    LobbyEntry,
    LogLine,
    MoveStep,
    NewGame,
    Pick,
    Rematch,
    Status,
    TableClock,
    TableView,
    Words,
)

T = TypeVar("T")

API = "/api/v1"
ENCODER = msgspec.json.Encoder()

# (method, path as /openapi.json writes it) -> the client method that calls it
ROUTES: dict[tuple[str, str], str] = {
    ("GET", "/api/v1/words"): "languages",
    ("GET", "/api/v1/words/{lang}"): "words",
    ("GET", "/api/v1/games/catalog"): "catalog",
    ("GET", "/api/v1/games/catalog/{game}"): "components",
    ("POST", "/api/v1/games"): "create",
    ("DELETE", "/api/v1/games/{game_id}"): "call_off",
    ("POST", "/api/v1/games/{game_id}/rematch"): "rematch",
    ("GET", "/api/v1/games"): "games",
    ("POST", "/api/v1/games/import"): "import_log",
    ("POST", "/api/v1/games/{game_id}/seats"): "join",
    ("GET", "/api/v1/games/{game_id}"): "table",
    ("GET", "/api/v1/games/{game_id}/legal-commands"): "legal",
    ("POST", "/api/v1/games/{game_id}/moves"): "moves",
    ("POST", "/api/v1/games/{game_id}/commands"): "send",
    ("GET", "/api/v1/games/{game_id}/events"): "events",
    ("GET", "/api/v1/games/{game_id}/replay"): "replay",
    ("GET", "/api/v1/games/{game_id}/export"): "export",
    ("GET", "/api/v1/games/{game_id}/ws"): "watch",
    ("GET", "/healthz"): "health",
    ("GET", "/readyz"): "ready",
    ("GET", "/openapi.json"): "openapi",
    ("GET", "/metrics"): "metrics",
}


def decoder(kind: type[T]) -> Callable[[bytes], T]:
    decode = msgspec.json.Decoder(kind).decode
    return decode


def raw(content: bytes) -> bytes:
    return content


def text(content: bytes) -> str:
    return content.decode()


def json_object(content: bytes) -> dict[str, Any]:
    value = msgspec.json.decode(content, type=dict[str, Any])
    return value


@dataclass(frozen=True)
class Call(Generic[T]):
    method: str
    path: str  # from the server's root
    read: Callable[[bytes], T]
    body: bytes | None = None
    params: dict[str, Any] = field(default_factory=dict)
    content_type: str = "application/json"

    def query(self) -> dict[str, Any]:
        return {k: v for k, v in self.params.items() if v is not None}


def game_path(game_id: str, tail: str = "") -> str:
    return f"{API}/games/{quote(game_id, safe='')}{tail}"


def json_body(value: Any) -> bytes:
    return ENCODER.encode(value)


def catalog() -> Call[Catalog]:
    return Call("GET", f"{API}/games/catalog", decoder(Catalog))


def languages() -> Call[dict[str, Any]]:
    return Call("GET", f"{API}/words", decoder(dict[str, Any]))


def words(lang: str) -> Call[Words]:
    return Call("GET", f"{API}/words/{quote(lang, safe='')}", decoder(Words))


def components(game: str) -> Call[GameComponents]:
    return Call("GET", f"{API}/games/catalog/{quote(game, safe='')}", decoder(GameComponents))


def create(
    game: str, players: int, options: Mapping[str, Any] | None = None, clock: TableClock | None = None
) -> Call[NewGame]:
    fields: dict[str, Any] = {"game": game, "players": players, "options": dict(options or {})}
    if clock is not None:
        fields["clock"] = clock
    return Call("POST", f"{API}/games", decoder(NewGame), json_body(fields))


def call_off(game_id: str) -> Call[LobbyEntry]:
    """Needs the creator's token (``NewGame.creator_token``) as the client's token."""
    return Call("DELETE", game_path(game_id), decoder(LobbyEntry))


def rematch(game_id: str) -> Call[Rematch]:
    return Call("POST", game_path(game_id, "/rematch"), decoder(Rematch))


def games(status: Status = "open", limit: int | None = None, cursor: int | None = None) -> Call[GameList]:
    params = {"status": status, "limit": limit, "cursor": cursor}
    return Call("GET", f"{API}/games", decoder(GameList), params=params)


def join(game_id: str, name: str | None = None, seat: int | None = None, bot: str | None = None) -> Call[Joined]:
    body: dict[str, Any] = {}
    if name is not None:
        body["name"] = name
    if seat is not None:
        body["seat"] = seat
    if bot is not None:
        body["bot"] = bot
    return Call("POST", game_path(game_id, "/seats"), decoder(Joined), json_body(body))


def table(game_id: str) -> Call[TableView]:
    return Call("GET", game_path(game_id), decoder(TableView))


def legal(game_id: str) -> Call[LegalCommands]:
    return Call("GET", game_path(game_id, "/legal-commands"), decoder(LegalCommands))


def moves(game_id: str, picks: Iterable[Pick]) -> Call[MoveStep]:
    body = {"picks": [{"field": p.field, "value": p.value} for p in picks]}
    return Call("POST", game_path(game_id, "/moves"), decoder(MoveStep), json_body(body))


def send(
    game_id: str, command: Mapping[str, Any], command_id: str | None = None, expected_version: int | None = None
) -> Call[CommandAnswer]:
    body: dict[str, Any] = {"command": dict(command), "command_id": command_id or uuid.uuid4().hex}
    if expected_version is not None:
        body["expected_version"] = expected_version
    return Call("POST", game_path(game_id, "/commands"), decoder(CommandAnswer), json_body(body))


def events(game_id: str, after: int = 0, limit: int | None = None) -> Call[EventPage]:
    return Call("GET", game_path(game_id, "/events"), decoder(EventPage), params={"after": after, "limit": limit})


def replay(game_id: str, version: int, as_: int | str | None = None) -> Call[TableView]:
    params = {"version": version, "as": as_}
    return Call("GET", game_path(game_id, "/replay"), decoder(TableView), params=params)


def export(game_id: str) -> Call[bytes]:
    return Call("GET", game_path(game_id, "/export"), raw)


def import_log(log: bytes | Iterable[LogLine]) -> Call[Imported]:
    body = log if isinstance(log, bytes) else encode_log(log)
    return Call("POST", f"{API}/games/import", decoder(Imported), body, content_type="application/x-ndjson")


def encode_log(lines: Iterable[LogLine]) -> bytes:
    """An export's JSON lines, from :class:`LogLine` values."""
    return b"".join(ENCODER.encode(line) + b"\n" for line in lines)


LOG_LINE = msgspec.json.Decoder(LogLine)


def parse_log(content: bytes) -> list[LogLine]:
    """An export's JSON lines as :class:`LogLine` values (``msgspec.ValidationError`` on a bad line)."""
    return [LOG_LINE.decode(line) for line in content.splitlines() if line.strip()]


def health() -> Call[Health]:
    return Call("GET", "/healthz", decoder(Health))


def ready() -> Call[Health]:
    return Call("GET", "/readyz", decoder(Health))


def openapi() -> Call[dict[str, Any]]:
    return Call("GET", "/openapi.json", json_object)


def metrics() -> Call[str]:
    return Call("GET", "/metrics", text)
