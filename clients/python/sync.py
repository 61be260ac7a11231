"""The blocking client: the same calls as :class:`AsyncClient`, for scripts and notebooks."""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Generator, Iterable, Iterator, Mapping
from contextlib import ExitStack
from types import TracebackType
from typing import Any, TypeVar

import httpx
import msgspec
from websockets.exceptions import ConnectionClosed, InvalidHandshake
from websockets.sync.client import ClientConnection, connect

from clients.python import calls
from clients.python.aio import DEFAULT_URL, LIMITS, ws_url
from clients.python.calls import Call, Wanted
from clients.python.errors import RATE_RETRIES, ApiError, TooMany, error_from
from clients.python.fair import new_entropy
from clients.python.models import (
    AdminTable,
    AdminTables,
    Catalog,
    CheckAnswer,
    CommandAnswer,
    Erased,
    EventPage,
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
    ServerMessage,
    SignedIn,
    SignedOut,
    SignInCode,
    SignInMethods,
    Status,
    StepMessage,
    TableClock,
    TableView,
    Unsubscribed,
    Update,
    VersionedEvent,
    Webhook,
    WebhookDropped,
    Words,
)
from clients.python.moves import Move, Start, starting
from clients.python.progress import Progress, chunks
from clients.python.stream import ENDED, Request, Resumer
from clients.python.words import user_language

T = TypeVar("T")


class Client:
    """One caller of one server, blocking: a spectator without ``token``, else the seat (or admin) it names.

    ``with Client(url, token) as client: ...`` releases its connections at the end.
    """

    def __init__(
        self,
        base_url: str = DEFAULT_URL,
        token: str | None = None,
        timeout: float = 10.0,
        max_reconnects: int = 8,
        *,
        transport: httpx.BaseTransport | None = None,
        lang: str | None = None,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.token = token
        # The language of the server's error messages (and of ``words()``): the user's locale (LANG), else English.
        self.lang = lang or user_language()
        self.timeout = timeout
        self.max_reconnects = max_reconnects
        self.resumes = 0
        self._http = httpx.Client(base_url=self.base_url, timeout=timeout, limits=LIMITS, transport=transport)

    def __enter__(self) -> Client:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.close()

    def close(self) -> None:
        self._http.close()

    def as_seat(self, token: str | None) -> Client:
        return Client(self.base_url, token, self.timeout, self.max_reconnects, lang=self.lang)

    def headers(self, call: Call[Any]) -> dict[str, str]:
        headers = {"Authorization": f"Bearer {self.token}"} if self.token else {}
        headers["Accept-Language"] = self.lang
        if call.body is not None:
            headers["Content-Type"] = call.content_type
        return headers

    def run(self, call: Call[T], progress: Progress | None = None) -> T:
        """Send one call; its answer, read; an :class:`ApiError` subclass for a refusal. A refusal for
        the seat's rate (``429 too_many``) is sent again after the pause it asks for, a few times."""
        for _ in range(RATE_RETRIES):
            try:
                return self.run_once(call, progress)
            except TooMany as exc:
                pause = exc.pause()
                if pause is None:
                    raise
                time.sleep(pause)
        return self.run_once(call, progress)

    def run_once(self, call: Call[T], progress: Progress | None = None) -> T:
        headers = self.headers(call)
        if progress is None or call.body is None:
            content: Any = call.body
        else:
            headers["Content-Length"] = str(len(call.body))
            content = _upload(call.body, progress)
        request = self._http.build_request(
            call.method, call.path, content=content, headers=headers, params=call.query()
        )
        response = self._http.send(request, stream=True)
        try:
            if response.status_code >= 400:
                raise error_from(response.status_code, response.read(), response.reason_phrase)
            if call.location:
                return call.read(response.headers.get("location", "").encode())
            if progress is None or call.body is not None:
                return call.read(response.read())
            total = response.headers.get("content-length")
            progress.start(int(total) if total and total.isdigit() else None)
            parts = []
            for part in response.iter_bytes():
                parts.append(part)
                progress.advance(len(part))
            progress.done()
            return call.read(b"".join(parts))
        finally:
            response.close()

    # --- REST: one method per route (calls.ROUTES) --------------------------------------------

    def languages(self) -> dict[str, Any]:
        return self.run(calls.languages())

    def words(self, lang: str | None = None) -> Words:
        return self.run(calls.words(lang or self.lang))

    def catalog(self) -> Catalog:
        return self.run(calls.catalog())

    def components(self, game: str) -> GameComponents:
        return self.run(calls.components(game))

    def create(
        self,
        game: str,
        players: int,
        options: Mapping[str, Any] | None = None,
        clock: TableClock | str | None = None,
        rated: bool = False,
        lang: str | None = None,
    ) -> NewGame:
        """Open a table (with a turn clock, if given); its lobby entry and the creator's token."""
        return self.run(calls.create(game, players, options, clock, rated, lang))

    def call_off(self, game_id: str) -> LobbyEntry:
        """Call off a table that has not started; this client's token must be its creator's."""
        return self.run(calls.call_off(game_id))

    def rematch(self, game_id: str, entropy: str | None = None) -> Rematch:
        """Sit at the finished game's rematch in this client's old seat: its new game, seat and token.
        ``entropy``: this device's own for the new table (drawn here unless given; docs/fair-play.md)."""
        entropy = entropy or new_entropy()
        return msgspec.structs.replace(self.run(calls.rematch(game_id, entropy)), entropy=entropy)

    def quick_play(self, wanted: Wanted, name: str | None = None, entropy: str | None = None) -> QuickPlayed:
        """A seat at the oldest open table that fits ``wanted``, or at one opened for it; keep the token."""
        entropy = entropy or new_entropy()
        answer = self.run(calls.quick_play(wanted, name, entropy))
        return msgspec.structs.replace(answer, entropy=entropy)

    def games(
        self, status: Status = "open", limit: int | None = None, cursor: int | None = None, wanted: Wanted | None = None
    ) -> GameList:
        return self.run(calls.games(status, limit, cursor, wanted))

    def all_games(self, status: Status = "open", page: int = 200) -> Iterator[LobbyEntry]:
        cursor: int | None = None
        while True:
            answer = self.games(status, page, cursor)
            yield from answer.games
            if answer.next_cursor is None:
                return
            cursor = answer.next_cursor

    def join(
        self,
        game_id: str,
        name: str | None = None,
        seat: int | None = None,
        bot: str | None = None,
        invite: str | None = None,
        entropy: str | None = None,
    ) -> Joined:
        """Take a seat (the first free one without ``seat``), or the seat ``invite`` offers; keep the token.
        This client's token is unchanged (a player's token makes the seat the player's). A person's seat
        sends ``entropy`` (drawn here unless given), kept in the answer."""
        entropy = None if bot is not None or invite is not None else entropy or new_entropy()
        answer = self.run(calls.join(game_id, name, seat, bot, invite, entropy))
        return msgspec.structs.replace(answer, entropy=entropy or "")

    def invite(self, game_id: str, seat: int) -> Invite:
        """Offer ``seat``, vacated (a bot plays on for it), to a newcomer: an invitation to hand on."""
        return self.run(calls.invite(game_id, seat))

    def table(self, game_id: str) -> TableView:
        return self.run(calls.table(game_id))

    def legal(self, game_id: str) -> LegalCommands:
        return self.run(calls.legal(game_id))

    def moves(self, game_id: str, picks: Iterable[Pick] = ()) -> MoveStep:
        return self.run(calls.moves(game_id, picks))

    def send(
        self,
        game_id: str,
        command: Mapping[str, Any],
        command_id: str | None = None,
        expected_version: int | None = None,
    ) -> CommandAnswer:
        return self.run(calls.send(game_id, command, command_id, expected_version))

    def check(self, game_id: str, command: Mapping[str, Any]) -> CheckAnswer:
        """Whether ``command`` would land now, without sending it, and if not the rule's refusal it would get."""
        return self.run(calls.check(game_id, command))

    def say(self, game_id: str, text: str, to: int | None = None) -> CommandAnswer:
        """Say ``text`` at the table as this client's seat: to the table, or with ``to`` on a private line that
        only the two seats ever receive."""
        return self.run(calls.say(game_id, text, to))

    def hide_message(self, game_id: str, version: int) -> CommandAnswer:
        """Ask to hide the message said to the table at ``version`` (hidden once most of the others asked)."""
        return self.run(calls.hide_message(game_id, version))

    def mute(self, game_id: str, seat: int, muted: bool = True) -> CommandAnswer:
        """Stop reading ``seat``'s messages, for this client's seat alone (``muted`` false: read them again)."""
        return self.run(calls.mute(game_id, seat, muted))

    def spectator_say(self, game_id: str, text: str) -> CommandAnswer:
        """Say ``text`` on the spectators' channel, as the player this client's token signs in, watching."""
        return self.run(calls.spectator_say(game_id, text))

    def hide_as_operator(self, game_id: str, version: int) -> CommandAnswer:
        """Hide the message said at ``version`` for everyone, on any channel (the admin token)."""
        return self.run(calls.hide_as_operator(game_id, version))

    def admin_games(self, status: str = "active", limit: int | None = None, cursor: int | None = None) -> AdminTables:
        """The tables with ``status`` as the server sees them: seats, who is connected, whose turn, clocks (admin)."""
        return self.run(calls.admin_games(status, limit, cursor))

    def admin_cancel(self, game_id: str, reason: str = "") -> AdminTable:
        """End a table that has not finished, called off by the operator (admin; ``reason``: for the log)."""
        return self.run(calls.admin_cancel(game_id, reason))

    def admin_remove(self, game_id: str, seat: int) -> AdminTable:
        """Remove ``seat``'s player from a game under way: the table's bot plays on (admin)."""
        return self.run(calls.admin_remove(game_id, seat))

    def admin_outbox(self) -> OutboxFigures:
        """The notifications' outbox in counts (admin)."""
        return self.run(calls.admin_outbox())

    def admin_quotas(self) -> QuotaFigures:
        """Requests refused by a quota this hour and the last, and the clients refused most (admin)."""
        return self.run(calls.admin_quotas())

    def events(self, game_id: str, after: int = 0, limit: int | None = None) -> EventPage:
        return self.run(calls.events(game_id, after, limit))

    def all_events(
        self, game_id: str, after: int = 0, upto: int | None = None, page: int = 1000
    ) -> Iterator[VersionedEvent]:
        while True:
            answer = self.events(game_id, after, page)
            end = answer.version if upto is None else min(upto, answer.version)
            yield from (event for event in answer.events if event.version <= end)
            after = min(after + page, answer.version)
            if after >= end:
                return

    def replay(self, game_id: str, version: int, as_: int | str | None = None) -> TableView:
        return self.run(calls.replay(game_id, version, as_))

    def export(self, game_id: str, progress: Progress | None = None, as_: str | None = None) -> bytes:
        """The game as JSON lines, as ``as_`` saw it (docs/API.md, "Exports")."""
        return self.run(calls.export(game_id, as_), progress)

    def export_log(self, game_id: str) -> list[LogLine]:
        return calls.parse_log(self.export(game_id))

    def import_log(self, log: bytes | Iterable[LogLine], progress: Progress | None = None) -> Imported:
        return self.run(calls.import_log(log), progress)

    # --- signing in: passkeys, the identity provider -------------------------------------------------

    def sign_in_methods(self) -> SignInMethods:
        """How a player may sign in on this server (codes, passkeys, its identity provider)."""
        return self.run(calls.sign_in_methods())

    def passkey_options(self) -> PasskeyOptions:
        """Options to register a passkey for this client's player: hand ``options`` to the browser's
        ``navigator.credentials.create`` (``PublicKeyCredential.parseCreationOptionsFromJSON``)."""
        return self.run(calls.passkey_options())

    def register_passkey(self, credential: Mapping[str, Any], name: str | None = None) -> Passkey:
        """Keep the passkey the browser made from those options (its ``toJSON()``)."""
        return self.run(calls.register_passkey(credential, name))

    def passkeys(self) -> PasskeyList:
        """The player's passkeys."""
        return self.run(calls.passkeys())

    def delete_passkey(self, passkey_id: str) -> PasskeyDeleted:
        return self.run(calls.delete_passkey(passkey_id))

    def passkey_sign_in_options(self) -> PasskeyOptions:
        """Options to sign in with a passkey: hand ``options`` to ``navigator.credentials.get``."""
        return self.run(calls.passkey_sign_in_options())

    def sign_in_with_passkey(self, credential: Mapping[str, Any]) -> SignedIn:
        """Sign in with the browser's answer to those options: a new token of the passkey's player."""
        return self.run(calls.sign_in_with_passkey(credential))

    def oidc_start(self, then: str | None = None) -> str:
        """Begin a sign-in through the server's identity provider: the URL to open in a browser (this
        client keeps the state's cookie, for ``oidc_callback``)."""
        return self.run(calls.oidc_start(then))

    def oidc_callback(self, code: str, state: str) -> SignedIn:
        """Finish it with the ``code`` and ``state`` the provider sent back: a token of the person's player."""
        return self.run(calls.oidc_callback(code, state))

    # --- players -----------------------------------------------------------------------------------

    def make_player(self, name: str, lang: str | None = None) -> SignedIn:
        """Make a player (a name, no password); its token is shown once: give it to this client with
        ``use_token`` (or a new client) to act as the player, at every seat it takes."""
        return self.run(calls.make_player(name, lang))

    def sign_in(self, code: str) -> SignedIn:
        """Sign in with a one-time code shown on a signed-in device: a new token of the same player."""
        return self.run(calls.sign_in(code))

    def player(self) -> Player:
        """The player this client's token signs in."""
        return self.run(calls.player())

    def change_player(self, name: str | None = None, lang: str | None = None, public: bool | None = None) -> Player:
        """Rename the player, choose its language, or show its page to anyone (``public``)."""
        return self.run(calls.change_player(name, lang, public))

    def webhook(self) -> Webhook:
        """The player's webhook (404 ``no_webhook`` when none is set)."""
        return self.run(calls.webhook())

    def set_webhook(self, url: str, format: str = "json", new_secret: bool = False) -> Webhook:
        """Where the player's notices are posted (json, discord or slack bodies), signed with its secret."""
        return self.run(calls.set_webhook(url, format, new_secret))

    def drop_webhook(self) -> WebhookDropped:
        return self.run(calls.drop_webhook())

    def notifications(self) -> NotificationSettings:
        return self.run(calls.notifications())

    def change_notifications(self, **changes: Any) -> NotificationSettings:
        """Any of ``events``, ``channels``, ``quiet_hours``, ``away_only``, ``email``."""
        return self.run(calls.change_notifications(**changes))

    def unsubscribe(self, token: str) -> Unsubscribed:
        """One-click unsubscribe, with the token of an email's link (RFC 8058)."""
        return self.run(calls.unsubscribe(token))

    def unsubscribe_page(self, token: str) -> str:
        return self.run(calls.unsubscribe_page(token))

    def player_page(self, player_id: str) -> PlayerPage:
        """A player's public page: its ratings, their history, games played and won."""
        return self.run(calls.player_page(player_id))

    def leaderboard(self, game: str, limit: int | None = None, cursor: int | None = None) -> Leaderboard:
        """A game's best players by rating (past their provisional games)."""
        return self.run(calls.leaderboard(game, limit, cursor))

    def erase_player(self) -> Erased:
        """Erase the player: its name, tokens and list of seats (its games keep only its id)."""
        return self.run(calls.erase_player())

    def my_tables(self, limit: int | None = None, cursor: int | None = None) -> MyTables:
        """The player's tables: those awaiting it first, then in play, open, finished."""
        return self.run(calls.my_tables(limit, cursor))

    def sign_in_code(self) -> SignInCode:
        """A one-time code to sign the same player in on another device (ten minutes)."""
        return self.run(calls.sign_in_code())

    def sign_out(self) -> SignedOut:
        return self.run(calls.sign_out())

    def sign_out_everywhere(self) -> SignedOut:
        return self.run(calls.sign_out_everywhere())

    def health(self) -> Health:
        return self.run(calls.health())

    def ready(self) -> Health:
        return self.run(calls.ready())

    def openapi(self) -> dict[str, Any]:
        return self.run(calls.openapi())

    def metrics(self) -> str:
        return self.run(calls.metrics())

    # --- WebSocket -------------------------------------------------------------------------------

    def ws_url(self, game_id: str) -> str:
        return ws_url(self.base_url, game_id)

    def stream(self, game_id: str, after: int = 0, check: str | None = None) -> Stream:
        """The game's WebSocket, to iterate for its updates (as ``watch``) and to ask for steps on
        (``with client.stream(game_id) as stream: for update in stream: ...``; see :class:`Stream`)."""
        return Stream(self, game_id, after, check)

    def watch(self, game_id: str, after: int = 0, check: str | None = None) -> Generator[Update, None, None]:
        """Every ``update`` after version ``after`` (whose ``check`` is ``check``), in order; resumes by itself
        (see AsyncClient.watch)."""
        with self.stream(game_id, after, check) as stream:
            yield from stream

    # --- building a move -------------------------------------------------------------------------

    def move(self, game_id: str, start: Start | None = None) -> Move:
        """A move to build pick by pick, from ``start`` (``legal()``'s answer, an update, a step answered), or
        from the first step the server answers now (``start`` ``None``)."""
        version, picks, step = starting(self.moves(game_id) if start is None else start)
        return Move(self, game_id, version, step, picks)


class Stream:
    """One game's WebSocket, blocking: its updates in order (iterate it), and ``moves`` requests answered on it
    (the updates that arrive before an answer are kept for the iteration). See :class:`AsyncStream`."""

    def __init__(self, client: Client, game_id: str, after: int = 0, check: str | None = None) -> None:
        self.client = client
        self.game_id = game_id
        self.state = Resumer(client.token, after, check, client.max_reconnects, lang=client.lang)
        self.pending: deque[Update] = deque()
        self.ended = False
        self._ws: ClientConnection | None = None
        self._open = ExitStack()  # the open connection's context (websockets' sync client wants one)

    def __enter__(self) -> Stream:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.close()

    def close(self) -> None:
        self.ended = True
        self._ws = None
        self._open.close()

    def __iter__(self) -> Stream:
        return self

    def __next__(self) -> Update:
        while not self.pending:
            ws = self._connected()
            if ws is None:
                raise StopIteration
            self._receive(ws)
        return self.pending.popleft()

    def moves(self, picks: Iterable[Pick] = ()) -> StepMessage:
        """The next step after ``picks``, asked on the socket; a refusal raises its :class:`ApiError`."""
        request = Request.of(picks)
        while True:
            ws = self._connected()
            if ws is None:
                raise ENDED
            try:
                ws.send(request.message())
            except ConnectionClosed as exc:
                self._lost(exc)
                continue
            while self._ws is ws:
                answer = request.answer(self._receive(ws))
                if answer is not None:
                    return answer

    def move(self, start: Start | None = None) -> Move:
        """A move built on this socket (each pick asked here), from ``start`` or from the step asked now."""
        version, picks, step = starting(self.moves() if start is None else start)
        return Move(self.client, self.game_id, version, step, picks, self)

    def _receive(self, ws: ClientConnection) -> ServerMessage | None:
        try:
            raw = ws.recv()
        except ConnectionClosed as exc:
            self._lost(exc)
            return None
        message = self.state.read(raw)
        if isinstance(message, Update):
            self.pending.append(message)
        return message

    def _connected(self) -> ClientConnection | None:
        while self._ws is None and not self.ended:
            try:
                url = self.client.ws_url(self.game_id)
                ws = self._open.enter_context(connect(url, open_timeout=self.client.timeout, max_size=None))
                ws.send(self.state.hello())
                self._ws = ws
            except ConnectionClosed as exc:
                self._lost(exc)
            except (OSError, TimeoutError, InvalidHandshake):
                self._lost(None)
        return self._ws

    def _lost(self, exc: ConnectionClosed | None) -> None:
        code, reason = (exc.rcvd.code, exc.rcvd.reason) if exc is not None and exc.rcvd is not None else (None, "")
        self._ws = None
        self._open.close()
        try:
            delay = self.state.closed(code, reason)
        except ApiError:
            self.ended = True
            raise
        if delay is None:
            self.ended = True
            return
        time.sleep(delay)
        self.client.resumes += 1


def _upload(body: bytes, progress: Progress) -> Iterator[bytes]:
    progress.start(len(body))
    for part in chunks(body):
        yield part
        progress.advance(len(part))
    progress.done()
