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
    AdminTable,
    AdminTables,
    Catalog,
    CheckAnswer,
    CommandAnswer,
    Erased,
    EventPage,
    ExportHeader,
    GameComponents,
    GameList,
    Health,
    Imported,
    Invite,
    Joined,
    Leaderboard,
    LegalCommands,
    LobbyEntry,
    LogLine,
    MoveStep,
    MyTables,
    NewGame,
    NotificationSettings,
    OutboxFigures,
    Passkey,
    PasskeyDeleted,
    PasskeyList,
    PasskeyOptions,
    Pick,
    Player,
    PlayerPage,
    QuickPlayed,
    QuotaFigures,
    Rematch,
    SignedIn,
    SignedOut,
    SignInCode,
    SignInMethods,
    Status,
    TableClock,
    TableView,
    Unsubscribed,
    Webhook,
    WebhookDropped,
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
    ("POST", "/api/v1/games/quick-play"): "quick_play",
    ("POST", "/api/v1/games/import"): "import_log",
    ("POST", "/api/v1/games/{game_id}/seats"): "join",
    ("POST", "/api/v1/games/{game_id}/invites"): "invite",
    ("GET", "/api/v1/games/{game_id}"): "table",
    ("GET", "/api/v1/games/{game_id}/legal-commands"): "legal",
    ("POST", "/api/v1/games/{game_id}/moves"): "moves",
    ("POST", "/api/v1/games/{game_id}/commands"): "send",
    ("POST", "/api/v1/games/{game_id}/check"): "check",
    ("GET", "/api/v1/games/{game_id}/events"): "events",
    ("POST", "/api/v1/games/{game_id}/spectators/chat"): "spectator_say",
    ("POST", "/api/v1/games/{game_id}/chat/hidden"): "hide_as_operator",
    ("GET", "/api/v1/admin/games"): "admin_games",
    ("POST", "/api/v1/admin/games/{game_id}/cancel"): "admin_cancel",
    ("POST", "/api/v1/admin/games/{game_id}/seats/{seat}/remove"): "admin_remove",
    ("GET", "/api/v1/admin/outbox"): "admin_outbox",
    ("GET", "/api/v1/admin/quotas"): "admin_quotas",
    ("GET", "/api/v1/games/{game_id}/replay"): "replay",
    ("GET", "/api/v1/games/{game_id}/export"): "export",
    ("GET", "/api/v1/games/{game_id}/ws"): "watch",
    ("GET", "/healthz"): "health",
    ("GET", "/readyz"): "ready",
    ("GET", "/openapi.json"): "openapi",
    ("GET", "/metrics"): "metrics",
    ("POST", "/api/v1/players"): "make_player",
    ("POST", "/api/v1/players/sign-in"): "sign_in",
    ("GET", "/api/v1/players/me"): "player",
    ("PATCH", "/api/v1/players/me"): "change_player",
    ("DELETE", "/api/v1/players/me"): "erase_player",
    ("GET", "/api/v1/players/me/tables"): "my_tables",
    ("POST", "/api/v1/players/me/codes"): "sign_in_code",
    ("POST", "/api/v1/players/me/sign-out"): "sign_out",
    ("POST", "/api/v1/players/me/sign-out-everywhere"): "sign_out_everywhere",
    ("GET", "/api/v1/players/me/webhook"): "webhook",
    ("PUT", "/api/v1/players/me/webhook"): "set_webhook",
    ("DELETE", "/api/v1/players/me/webhook"): "drop_webhook",
    ("GET", "/api/v1/players/me/notifications"): "notifications",
    ("PATCH", "/api/v1/players/me/notifications"): "change_notifications",
    ("POST", "/api/v1/unsubscribe"): "unsubscribe",
    ("GET", "/api/v1/unsubscribe"): "unsubscribe_page",
    ("GET", "/api/v1/players/{player_id}"): "player_page",
    ("GET", "/api/v1/leaderboards/{game}"): "leaderboard",
    ("GET", "/api/v1/players/sign-in"): "sign_in_methods",
    ("POST", "/api/v1/players/me/passkeys/options"): "passkey_options",
    ("POST", "/api/v1/players/me/passkeys"): "register_passkey",
    ("GET", "/api/v1/players/me/passkeys"): "passkeys",
    ("DELETE", "/api/v1/players/me/passkeys/{passkey_id}"): "delete_passkey",
    ("POST", "/api/v1/players/passkeys/options"): "passkey_sign_in_options",
    ("POST", "/api/v1/players/passkeys/sign-in"): "sign_in_with_passkey",
    ("GET", "/api/v1/players/oidc/start"): "oidc_start",
    ("GET", "/api/v1/players/oidc/callback"): "oidc_callback",
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
    location: bool = False  # the answer is a redirect: read its Location header, not its body

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
    game: str,
    players: int,
    options: Mapping[str, Any] | None = None,
    clock: TableClock | str | None = None,
    rated: bool = False,
    lang: str | None = None,
) -> Call[NewGame]:
    fields: dict[str, Any] = {"game": game, "players": players, "options": dict(options or {})}
    if rated:
        fields["rated"] = True
    if lang is not None:
        fields["lang"] = lang
    if clock is not None:
        fields["clock"] = clock
    return Call("POST", f"{API}/games", decoder(NewGame), json_body(fields))


def call_off(game_id: str) -> Call[LobbyEntry]:
    """Needs the creator's token (``NewGame.creator_token``) as the client's token."""
    return Call("DELETE", game_path(game_id), decoder(LobbyEntry))


def rematch(game_id: str, entropy: str | None = None) -> Call[Rematch]:
    body = json_body({"entropy": entropy}) if entropy else None
    return Call("POST", game_path(game_id, "/rematch"), decoder(Rematch), body)


def games(
    status: Status = "open", limit: int | None = None, cursor: int | None = None, wanted: Wanted | None = None
) -> Call[GameList]:
    params = {"status": status, "limit": limit, "cursor": cursor, **(wanted.params() if wanted else {})}
    return Call("GET", f"{API}/games", decoder(GameList), params=params)


@dataclass(frozen=True)
class Wanted:
    """The lobby's filters and quick play's wishes (docs/API.md): each None for any."""

    game: str | None = None
    players: int | None = None
    clock: str | None = None  # "live", "one-day", "three-days", "custom" or "none"
    rated: bool | None = None
    lang: str | None = None  # "pt", "gl", "es" or "en"

    def params(self) -> dict[str, Any]:
        found = {"game": self.game, "players": self.players, "clock": self.clock, "lang": self.lang}
        if self.rated is not None:
            found["rated"] = "true" if self.rated else "false"
        return {k: v for k, v in found.items() if v is not None}


def quick_play(wanted: Wanted, name: str | None, entropy: str) -> Call[QuickPlayed]:
    body: dict[str, Any] = {k: v for k, v in vars(wanted).items() if v is not None}
    if name is not None:
        body["name"] = name
    body["entropy"] = entropy
    return Call("POST", f"{API}/games/quick-play", decoder(QuickPlayed), json_body(body))


def join(
    game_id: str,
    name: str | None = None,
    seat: int | None = None,
    bot: str | None = None,
    invite: str | None = None,
    entropy: str | None = None,
) -> Call[Joined]:
    body: dict[str, Any] = {} if invite is None else {"invite": invite}
    if name is not None:
        body["name"] = name
    if seat is not None:
        body["seat"] = seat
    if bot is not None:
        body["bot"] = bot
    if entropy:
        body["entropy"] = entropy
    return Call("POST", game_path(game_id, "/seats"), decoder(Joined), json_body(body))


def invite(game_id: str, seat: int) -> Call[Invite]:
    return Call("POST", game_path(game_id, "/invites"), decoder(Invite), json_body({"seat": seat}))


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


def check(game_id: str, command: Mapping[str, Any]) -> Call[CheckAnswer]:
    """Whether ``command`` would land now, without sending it, and if not the rule's refusal it would get."""
    return Call("POST", game_path(game_id, "/check"), decoder(CheckAnswer), json_body({"command": dict(command)}))


# --- the table's chat: commands of the seat, sent like any other -------------------------------------


def say(game_id: str, text: str, to: int | None = None) -> Call[CommandAnswer]:
    """``Say``: ``text`` to the table, or with ``to`` on a private line to that seat alone."""
    command: dict[str, Any] = {"type": "Say", "text": text}
    if to is not None:
        command["to"] = to
    return send(game_id, command)


def hide_message(game_id: str, version: int) -> Call[CommandAnswer]:
    """``HideMessage``: ask to hide the message said at ``version`` for everyone."""
    return send(game_id, {"type": "HideMessage", "version": version})


def mute(game_id: str, seat: int, muted: bool = True) -> Call[CommandAnswer]:
    """``Mute``: stop reading ``seat``'s messages (``muted`` false: read them again)."""
    return send(game_id, {"type": "Mute", "seat": seat, "muted": muted})


def spectator_say(game_id: str, text: str) -> Call[CommandAnswer]:
    """A player watching the table (its token) says ``text`` on the spectators' channel."""
    body = json_body({"text": text})
    return Call("POST", game_path(game_id, "/spectators/chat"), decoder(CommandAnswer), body)


def hide_as_operator(game_id: str, version: int) -> Call[CommandAnswer]:
    """The admin hides the message said at ``version`` for everyone (any channel)."""
    body = json_body({"version": version})
    return Call("POST", game_path(game_id, "/chat/hidden"), decoder(CommandAnswer), body)


def admin_games(status: str = "active", limit: int | None = None, cursor: int | None = None) -> Call[AdminTables]:
    """The admin's list of tables with ``status``, each with its seats, whose turn and clocks."""
    params = {"status": status, "limit": limit, "cursor": cursor}
    return Call("GET", f"{API}/admin/games", decoder(AdminTables), params=params)


def admin_cancel(game_id: str, reason: str = "") -> Call[AdminTable]:
    """The admin ends a table that has not finished (``reason``: for the server's log)."""
    body = json_body({"reason": reason})
    return Call("POST", f"{API}/admin/games/{quote(game_id, safe='')}/cancel", decoder(AdminTable), body)


def admin_remove(game_id: str, seat: int) -> Call[AdminTable]:
    """The admin removes ``seat``'s player from a game under way: the table's bot plays on."""
    return Call("POST", f"{API}/admin/games/{quote(game_id, safe='')}/seats/{seat}/remove", decoder(AdminTable))


def admin_outbox() -> Call[OutboxFigures]:
    """The notifications' outbox in counts."""
    return Call("GET", f"{API}/admin/outbox", decoder(OutboxFigures))


def admin_quotas() -> Call[QuotaFigures]:
    """Requests refused by a quota an hour, and the clients refused most."""
    return Call("GET", f"{API}/admin/quotas", decoder(QuotaFigures))


def events(game_id: str, after: int = 0, limit: int | None = None) -> Call[EventPage]:
    return Call("GET", game_path(game_id, "/events"), decoder(EventPage), params={"after": after, "limit": limit})


def replay(game_id: str, version: int, as_: int | str | None = None) -> Call[TableView]:
    params = {"version": version, "as": as_}
    return Call("GET", game_path(game_id, "/replay"), decoder(TableView), params=params)


def export(game_id: str, as_: str | None = None) -> Call[bytes]:
    """``as_``: ``seat``, ``spectator``, ``everyone`` or ``server`` (docs/API.md, "Exports")."""
    return Call("GET", game_path(game_id, "/export"), raw, params={"as": as_})


def import_log(log: bytes | Iterable[LogLine]) -> Call[Imported]:
    body = log if isinstance(log, bytes) else encode_log(log)
    return Call("POST", f"{API}/games/import", decoder(Imported), body, content_type="application/x-ndjson")


def encode_log(lines: Iterable[LogLine]) -> bytes:
    """An export's JSON lines, from :class:`LogLine` values."""
    return b"".join(ENCODER.encode(line) + b"\n" for line in lines)


LOG_LINE = msgspec.json.Decoder(LogLine)
HEADER = msgspec.json.Decoder(ExportHeader)


def read_export(content: bytes) -> tuple[ExportHeader | None, list[LogLine]]:
    """An export's header (``None`` for a log of the first format) and its lines (``msgspec.ValidationError``
    on a bad line)."""
    rows = [line for line in content.splitlines() if line.strip()]
    header = HEADER.decode(rows.pop(0)) if rows and rows[0].startswith(b'{"format"') else None
    return header, [LOG_LINE.decode(line) for line in rows]


def parse_log(content: bytes) -> list[LogLine]:
    """An export's facts as :class:`LogLine` values, its header left out."""
    return read_export(content)[1]


def health() -> Call[Health]:
    return Call("GET", "/healthz", decoder(Health))


def ready() -> Call[Health]:
    return Call("GET", "/readyz", decoder(Health))


def openapi() -> Call[dict[str, Any]]:
    return Call("GET", "/openapi.json", json_object)


def metrics() -> Call[str]:
    return Call("GET", "/metrics", text)


# --- players ---------------------------------------------------------------------------------------


def make_player(name: str, lang: str | None = None) -> Call[SignedIn]:
    body: dict[str, Any] = {"name": name} | ({"lang": lang} if lang is not None else {})
    return Call("POST", f"{API}/players", decoder(SignedIn), json_body(body))


def sign_in(code: str) -> Call[SignedIn]:
    return Call("POST", f"{API}/players/sign-in", decoder(SignedIn), json_body({"code": code}))


def player() -> Call[Player]:
    return Call("GET", f"{API}/players/me", decoder(Player))


def change_player(name: str | None = None, lang: str | None = None, public: bool | None = None) -> Call[Player]:
    body = {k: v for k, v in (("name", name), ("lang", lang), ("public", public)) if v is not None}
    return Call("PATCH", f"{API}/players/me", decoder(Player), json_body(body))


def webhook() -> Call[Webhook]:
    return Call("GET", f"{API}/players/me/webhook", decoder(Webhook))


def set_webhook(url: str, format: str = "json", new_secret: bool = False) -> Call[Webhook]:
    body = {"url": url, "format": format, "new_secret": new_secret}
    return Call("PUT", f"{API}/players/me/webhook", decoder(Webhook), json_body(body))


def drop_webhook() -> Call[WebhookDropped]:
    return Call("DELETE", f"{API}/players/me/webhook", decoder(WebhookDropped))


def notifications() -> Call[NotificationSettings]:
    return Call("GET", f"{API}/players/me/notifications", decoder(NotificationSettings))


def change_notifications(**changes: Any) -> Call[NotificationSettings]:
    """Any of ``events``, ``channels``, ``quiet_hours``, ``away_only``, ``email`` (``None`` removes the last two)."""
    return Call("PATCH", f"{API}/players/me/notifications", decoder(NotificationSettings), json_body(changes))


def unsubscribe(token: str) -> Call[Unsubscribed]:
    return Call("POST", f"{API}/unsubscribe", decoder(Unsubscribed), params={"token": token})


def unsubscribe_page(token: str) -> Call[str]:
    return Call("GET", f"{API}/unsubscribe", text, params={"token": token})


def player_page(player_id: str) -> Call[PlayerPage]:
    return Call("GET", f"{API}/players/{quote(player_id, safe='')}", decoder(PlayerPage))


def leaderboard(game: str, limit: int | None = None, cursor: int | None = None) -> Call[Leaderboard]:
    path = f"{API}/leaderboards/{quote(game, safe='')}"
    return Call("GET", path, decoder(Leaderboard), params={"limit": limit, "cursor": cursor})


def erase_player() -> Call[Erased]:
    return Call("DELETE", f"{API}/players/me", decoder(Erased))


def my_tables(limit: int | None = None, cursor: int | None = None) -> Call[MyTables]:
    return Call("GET", f"{API}/players/me/tables", decoder(MyTables), params={"limit": limit, "cursor": cursor})


def sign_in_code() -> Call[SignInCode]:
    return Call("POST", f"{API}/players/me/codes", decoder(SignInCode))


def sign_out() -> Call[SignedOut]:
    return Call("POST", f"{API}/players/me/sign-out", decoder(SignedOut))


def sign_out_everywhere() -> Call[SignedOut]:
    return Call("POST", f"{API}/players/me/sign-out-everywhere", decoder(SignedOut))


# --- signing in: passkeys, the identity provider ---------------------------------------------------------


def sign_in_methods() -> Call[SignInMethods]:
    return Call("GET", f"{API}/players/sign-in", decoder(SignInMethods))


def passkey_options() -> Call[PasskeyOptions]:
    return Call("POST", f"{API}/players/me/passkeys/options", decoder(PasskeyOptions))


def register_passkey(credential: Mapping[str, Any], name: str | None = None) -> Call[Passkey]:
    body: dict[str, Any] = {"credential": dict(credential)} | ({"name": name} if name is not None else {})
    return Call("POST", f"{API}/players/me/passkeys", decoder(Passkey), json_body(body))


def passkeys() -> Call[PasskeyList]:
    return Call("GET", f"{API}/players/me/passkeys", decoder(PasskeyList))


def delete_passkey(passkey_id: str) -> Call[PasskeyDeleted]:
    return Call("DELETE", f"{API}/players/me/passkeys/{quote(passkey_id, safe='')}", decoder(PasskeyDeleted))


def passkey_sign_in_options() -> Call[PasskeyOptions]:
    return Call("POST", f"{API}/players/passkeys/options", decoder(PasskeyOptions))


def sign_in_with_passkey(credential: Mapping[str, Any]) -> Call[SignedIn]:
    body = json_body({"credential": dict(credential)})
    return Call("POST", f"{API}/players/passkeys/sign-in", decoder(SignedIn), body)


def oidc_start(then: str | None = None) -> Call[str]:
    return Call("GET", f"{API}/players/oidc/start", text, params={"then": then}, location=True)


def oidc_callback(code: str, state: str) -> Call[SignedIn]:
    return Call("GET", f"{API}/players/oidc/callback", decoder(SignedIn), params={"code": code, "state": state})
