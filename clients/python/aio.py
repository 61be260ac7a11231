"""The async client: every REST route, and a WebSocket subscription that resumes by itself."""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import AsyncGenerator, AsyncIterator, Iterable, Mapping
from types import TracebackType
from typing import Any, Protocol, TypeVar

import httpx
import msgspec
import websockets
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from clients.python import calls
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
from clients.python.moves import AsyncMove, Start, starting
from clients.python.progress import Progress, chunks
from clients.python.stream import ENDED, Request, Resumer
from clients.python.words import user_language

T = TypeVar("T")
DEFAULT_URL = "http://127.0.0.1:8000"
# The server closes a connection idle for 5 s. A client keeping it as long now and then sends a request on a
# connection the server is closing, and gets a transport error for a request the server never read: idle
# connections are dropped here first.
LIMITS = httpx.Limits(keepalive_expiry=2.0)


class WebSocket(Protocol):
    """What the stream uses of an open websockets connection."""

    async def send(self, message: str) -> None: ...

    async def recv(self) -> str | bytes: ...

    async def close(self) -> None: ...


def ws_url(base_url: str, game_id: str) -> str:
    base = base_url.replace("https://", "wss://", 1).replace("http://", "ws://", 1)
    return base + calls.game_path(game_id, "/ws")


class AsyncClient:
    """One caller of one server: a spectator without ``token``, else the seat (or the admin) it names.

    ``async with AsyncClient(url, token) as client: ...`` releases its connections at the end.
    """

    def __init__(
        self,
        base_url: str = DEFAULT_URL,
        token: str | None = None,
        timeout: float = 10.0,
        max_reconnects: int = 8,
        *,
        transport: httpx.AsyncBaseTransport | None = None,
        lang: str | None = None,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.token = token
        # The language of the server's error messages (and of ``words()``): the user's locale (LANG), else English.
        self.lang = lang or user_language()
        self.timeout = timeout
        self.max_reconnects = max_reconnects
        self.resumes = 0  # how many times watch() reconnected and resumed, over every watch
        self._http = httpx.AsyncClient(base_url=self.base_url, timeout=timeout, limits=LIMITS, transport=transport)

    async def __aenter__(self) -> AsyncClient:
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self._http.aclose()

    def as_seat(self, token: str | None) -> AsyncClient:
        """Another client of the same server, for what ``token`` holds (``None``: a spectator)."""
        return AsyncClient(self.base_url, token, self.timeout, self.max_reconnects, lang=self.lang)

    def headers(self, call: Call[Any]) -> dict[str, str]:
        headers = {"Authorization": f"Bearer {self.token}"} if self.token else {}
        headers["Accept-Language"] = self.lang
        if call.body is not None:
            headers["Content-Type"] = call.content_type
        return headers

    async def run(self, call: Call[T], progress: Progress | None = None) -> T:
        """Send one call; its answer, read; an :class:`ApiError` subclass for a refusal. A refusal for
        the seat's rate (``429 too_many``) is sent again after the pause it asks for, a few times."""
        for _ in range(RATE_RETRIES):
            try:
                return await self.run_once(call, progress)
            except TooMany as exc:
                pause = exc.pause()
                if pause is None:
                    raise
                await asyncio.sleep(pause)
        return await self.run_once(call, progress)

    async def run_once(self, call: Call[T], progress: Progress | None = None) -> T:
        headers = self.headers(call)
        if progress is None or call.body is None:
            content: Any = call.body
        else:
            headers["Content-Length"] = str(len(call.body))
            content = _upload(call.body, progress)
        request = self._http.build_request(
            call.method, call.path, content=content, headers=headers, params=call.query()
        )
        response = await self._http.send(request, stream=True)
        try:
            if response.status_code >= 400:
                body = await response.aread()
                raise error_from(response.status_code, body, response.reason_phrase)
            if call.location:
                return call.read(response.headers.get("location", "").encode())
            if progress is None or call.body is not None:
                return call.read(await response.aread())
            total = response.headers.get("content-length")
            progress.start(int(total) if total and total.isdigit() else None)
            parts = []
            async for part in response.aiter_bytes():
                parts.append(part)
                progress.advance(len(part))
            progress.done()
            return call.read(b"".join(parts))
        finally:
            await response.aclose()

    # --- REST: one method per route (calls.ROUTES) --------------------------------------------

    async def languages(self) -> dict[str, Any]:
        """The languages the server's messages are written in, and its default."""
        return await self.run(calls.languages())

    async def words(self, lang: str | None = None) -> Words:
        """Every message catalog in ``lang`` (default: this client's language), to render codes and events."""
        return await self.run(calls.words(lang or self.lang))

    async def catalog(self) -> Catalog:
        """The games this server hosts, each with its options and their defaults."""
        return await self.run(calls.catalog())

    async def components(self, game: str) -> GameComponents:
        """One game's printed parts as data (cards, map, tiles), for drawing them."""
        return await self.run(calls.components(game))

    async def create(
        self,
        game: str,
        players: int,
        options: Mapping[str, Any] | None = None,
        clock: TableClock | str | None = None,
        rated: bool = False,
        lang: str | None = None,
    ) -> NewGame:
        """Open a table (with a turn clock, if given; ``lang``: the language its people speak); its lobby
        entry and the creator's token."""
        return await self.run(calls.create(game, players, options, clock, rated, lang))

    async def call_off(self, game_id: str) -> LobbyEntry:
        """Call off a table that has not started; this client's token must be its creator's."""
        return await self.run(calls.call_off(game_id))

    async def rematch(self, game_id: str, entropy: str | None = None) -> Rematch:
        """Sit at the finished game's rematch in this client's old seat: its new game, seat and token.
        ``entropy``: this device's own for the new table (drawn here unless given; docs/fair-play.md)."""
        entropy = entropy or new_entropy()
        answer = await self.run(calls.rematch(game_id, entropy))
        return msgspec.structs.replace(answer, entropy=entropy)

    async def games(
        self, status: Status = "open", limit: int | None = None, cursor: int | None = None, wanted: Wanted | None = None
    ) -> GameList:
        """One page of the lobby (only the tables ``wanted``)."""
        return await self.run(calls.games(status, limit, cursor, wanted))

    async def quick_play(self, wanted: Wanted, name: str | None = None, entropy: str | None = None) -> QuickPlayed:
        """A seat at the oldest open table that fits ``wanted`` (its ``game`` is needed), or at one opened
        for it; keep the token. ``entropy`` as in :meth:`join`."""
        entropy = entropy or new_entropy()
        answer = await self.run(calls.quick_play(wanted, name, entropy))
        return msgspec.structs.replace(answer, entropy=entropy)

    async def all_games(self, status: Status = "open", page: int = 200) -> AsyncIterator[LobbyEntry]:
        """Every table with ``status``, page after page."""
        cursor: int | None = None
        while True:
            answer = await self.games(status, page, cursor)
            for entry in answer.games:
                yield entry
            if answer.next_cursor is None:
                return
            cursor = answer.next_cursor

    async def join(
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
        sends ``entropy``, this device's own randomness for the table's chance (drawn here unless given; a
        bot's seat sends none), kept in the answer: docs/fair-play.md."""
        entropy = None if bot is not None or invite is not None else entropy or new_entropy()
        answer = await self.run(calls.join(game_id, name, seat, bot, invite, entropy))
        return msgspec.structs.replace(answer, entropy=entropy or "")

    async def invite(self, game_id: str, seat: int) -> Invite:
        """Offer ``seat``, vacated (a bot plays on for it), to a newcomer: an invitation to hand on."""
        return await self.run(calls.invite(game_id, seat))

    async def table(self, game_id: str) -> TableView:
        """The table as this client may see it."""
        return await self.run(calls.table(game_id))

    async def legal(self, game_id: str) -> LegalCommands:
        """Every command this client's seat may send now."""
        return await self.run(calls.legal(game_id))

    async def moves(self, game_id: str, picks: Iterable[Pick] = ()) -> MoveStep:
        """The next step of a move this client's seat is building, after ``picks``."""
        return await self.run(calls.moves(game_id, picks))

    async def send(
        self,
        game_id: str,
        command: Mapping[str, Any],
        command_id: str | None = None,
        expected_version: int | None = None,
    ) -> CommandAnswer:
        """Send one command (under a fresh command id unless given)."""
        return await self.run(calls.send(game_id, command, command_id, expected_version))

    async def check(self, game_id: str, command: Mapping[str, Any]) -> CheckAnswer:
        """Whether ``command`` would land now, without sending it: nothing is written; ``refusal`` is the rule's
        refusal sending it would get (code, sentence, details). A command that cannot be read raises."""
        return await self.run(calls.check(game_id, command))

    async def say(self, game_id: str, text: str, to: int | None = None) -> CommandAnswer:
        """Say ``text`` at the table as this client's seat: to the table, or with ``to`` on a private line that
        only the two seats ever receive. The answer holds the ``MessageSaid`` as the seat receives it."""
        return await self.run(calls.say(game_id, text, to))

    async def hide_message(self, game_id: str, version: int) -> CommandAnswer:
        """Ask to hide the message said to the table at ``version``: hidden for everyone (``MessageHidden``)
        once most of the other people at the table asked."""
        return await self.run(calls.hide_message(game_id, version))

    async def mute(self, game_id: str, seat: int, muted: bool = True) -> CommandAnswer:
        """Stop reading ``seat``'s messages, for this client's seat alone (``muted`` false: read them again)."""
        return await self.run(calls.mute(game_id, seat, muted))

    async def spectator_say(self, game_id: str, text: str) -> CommandAnswer:
        """Say ``text`` on the spectators' channel, as the player this client's token signs in, watching the
        table (the seats read that channel once the game is over)."""
        return await self.run(calls.spectator_say(game_id, text))

    async def hide_as_operator(self, game_id: str, version: int) -> CommandAnswer:
        """Hide the message said at ``version`` for everyone, on any channel (the admin token)."""
        return await self.run(calls.hide_as_operator(game_id, version))

    async def admin_games(
        self, status: str = "active", limit: int | None = None, cursor: int | None = None
    ) -> AdminTables:
        """The tables with ``status`` as the server sees them: seats, who is connected, whose turn, clocks (admin)."""
        return await self.run(calls.admin_games(status, limit, cursor))

    async def admin_cancel(self, game_id: str, reason: str = "") -> AdminTable:
        """End a table that has not finished, called off by the operator (admin; ``reason``: for the log)."""
        return await self.run(calls.admin_cancel(game_id, reason))

    async def admin_remove(self, game_id: str, seat: int) -> AdminTable:
        """Remove ``seat``'s player from a game under way: the table's bot plays on (admin)."""
        return await self.run(calls.admin_remove(game_id, seat))

    async def admin_outbox(self) -> OutboxFigures:
        """The notifications' outbox in counts (admin)."""
        return await self.run(calls.admin_outbox())

    async def admin_quotas(self) -> QuotaFigures:
        """Requests refused by a quota this hour and the last, and the clients refused most (admin)."""
        return await self.run(calls.admin_quotas())

    async def events(self, game_id: str, after: int = 0, limit: int | None = None) -> EventPage:
        """This client's feed after ``after``, one page."""
        return await self.run(calls.events(game_id, after, limit))

    async def all_events(
        self, game_id: str, after: int = 0, upto: int | None = None, page: int = 1000
    ) -> AsyncIterator[VersionedEvent]:
        """This client's feed after ``after`` up to ``upto`` (the current version when ``None``), page by page."""
        while True:
            answer = await self.events(game_id, after, page)
            end = answer.version if upto is None else min(upto, answer.version)
            for event in answer.events:
                if event.version <= end:
                    yield event
            after = min(after + page, answer.version)
            if after >= end:
                return

    async def replay(self, game_id: str, version: int, as_: int | str | None = None) -> TableView:
        """The table at ``version``; ``as_`` a seat number or ``"full"`` (once the game is finished)."""
        return await self.run(calls.replay(game_id, version, as_))

    async def export(self, game_id: str, progress: Progress | None = None, as_: str | None = None) -> bytes:
        """The game as JSON lines (docs/API.md, "Exports"): ``as_`` ``seat`` (this client's own seat, any
        time), ``spectator``, ``everyone`` (once over) or ``server`` (the admin token); by default
        everyone's once the game is over, before that the admin's."""
        return await self.run(calls.export(game_id, as_), progress)

    async def export_log(self, game_id: str) -> list[LogLine]:
        """The whole log, read."""
        return calls.parse_log(await self.export(game_id))

    async def import_log(self, log: bytes | Iterable[LogLine], progress: Progress | None = None) -> Imported:
        """A new game from an export (admin token); its new id."""
        return await self.run(calls.import_log(log), progress)

    # --- signing in: passkeys, the identity provider -------------------------------------------------

    async def sign_in_methods(self) -> SignInMethods:
        """How a player may sign in on this server (codes, passkeys, its identity provider)."""
        return await self.run(calls.sign_in_methods())

    async def passkey_options(self) -> PasskeyOptions:
        """Options to register a passkey for this client's player: hand ``options`` to the browser's
        ``navigator.credentials.create`` (``PublicKeyCredential.parseCreationOptionsFromJSON``)."""
        return await self.run(calls.passkey_options())

    async def register_passkey(self, credential: Mapping[str, Any], name: str | None = None) -> Passkey:
        """Keep the passkey the browser made from those options (its ``toJSON()``)."""
        return await self.run(calls.register_passkey(credential, name))

    async def passkeys(self) -> PasskeyList:
        """The player's passkeys."""
        return await self.run(calls.passkeys())

    async def delete_passkey(self, passkey_id: str) -> PasskeyDeleted:
        return await self.run(calls.delete_passkey(passkey_id))

    async def passkey_sign_in_options(self) -> PasskeyOptions:
        """Options to sign in with a passkey: hand ``options`` to ``navigator.credentials.get``."""
        return await self.run(calls.passkey_sign_in_options())

    async def sign_in_with_passkey(self, credential: Mapping[str, Any]) -> SignedIn:
        """Sign in with the browser's answer to those options: a new token of the passkey's player."""
        return await self.run(calls.sign_in_with_passkey(credential))

    async def oidc_start(self, then: str | None = None) -> str:
        """Begin a sign-in through the server's identity provider: the URL to open in a browser (this
        client keeps the state's cookie, for ``oidc_callback``)."""
        return await self.run(calls.oidc_start(then))

    async def oidc_callback(self, code: str, state: str) -> SignedIn:
        """Finish it with the ``code`` and ``state`` the provider sent back: a token of the person's player."""
        return await self.run(calls.oidc_callback(code, state))

    # --- players -----------------------------------------------------------------------------------

    async def make_player(self, name: str, lang: str | None = None) -> SignedIn:
        """Make a player (a name, no password); its token is shown once: give it to this client with
        ``use_token`` (or a new client) to act as the player, at every seat it takes."""
        return await self.run(calls.make_player(name, lang))

    async def sign_in(self, code: str) -> SignedIn:
        """Sign in with a one-time code shown on a signed-in device: a new token of the same player."""
        return await self.run(calls.sign_in(code))

    async def player(self) -> Player:
        """The player this client's token signs in."""
        return await self.run(calls.player())

    async def change_player(
        self, name: str | None = None, lang: str | None = None, public: bool | None = None
    ) -> Player:
        """Rename the player, choose its language, or show its page to anyone (``public``)."""
        return await self.run(calls.change_player(name, lang, public))

    async def webhook(self) -> Webhook:
        """The player's webhook (404 ``no_webhook`` when none is set)."""
        return await self.run(calls.webhook())

    async def set_webhook(self, url: str, format: str = "json", new_secret: bool = False) -> Webhook:
        """Where the player's notices are posted (json, discord or slack bodies), signed with its secret."""
        return await self.run(calls.set_webhook(url, format, new_secret))

    async def drop_webhook(self) -> WebhookDropped:
        return await self.run(calls.drop_webhook())

    async def notifications(self) -> NotificationSettings:
        return await self.run(calls.notifications())

    async def change_notifications(self, **changes: Any) -> NotificationSettings:
        """Any of ``events``, ``channels``, ``quiet_hours``, ``away_only``, ``email``."""
        return await self.run(calls.change_notifications(**changes))

    async def unsubscribe(self, token: str) -> Unsubscribed:
        """One-click unsubscribe, with the token of an email's link (RFC 8058)."""
        return await self.run(calls.unsubscribe(token))

    async def unsubscribe_page(self, token: str) -> str:
        return await self.run(calls.unsubscribe_page(token))

    async def player_page(self, player_id: str) -> PlayerPage:
        """A player's public page: its ratings, their history, games played and won."""
        return await self.run(calls.player_page(player_id))

    async def leaderboard(self, game: str, limit: int | None = None, cursor: int | None = None) -> Leaderboard:
        """A game's best players by rating (past their provisional games)."""
        return await self.run(calls.leaderboard(game, limit, cursor))

    async def erase_player(self) -> Erased:
        """Erase the player: its name, tokens and list of seats (its games keep only its id)."""
        return await self.run(calls.erase_player())

    async def my_tables(self, limit: int | None = None, cursor: int | None = None) -> MyTables:
        """The player's tables: those awaiting it first, then in play, open, finished."""
        return await self.run(calls.my_tables(limit, cursor))

    async def sign_in_code(self) -> SignInCode:
        """A one-time code to sign the same player in on another device (ten minutes)."""
        return await self.run(calls.sign_in_code())

    async def sign_out(self) -> SignedOut:
        return await self.run(calls.sign_out())

    async def sign_out_everywhere(self) -> SignedOut:
        return await self.run(calls.sign_out_everywhere())

    async def health(self) -> Health:
        return await self.run(calls.health())

    async def ready(self) -> Health:
        return await self.run(calls.ready())

    async def openapi(self) -> dict[str, Any]:
        return await self.run(calls.openapi())

    async def metrics(self) -> str:
        return await self.run(calls.metrics())

    # --- WebSocket -------------------------------------------------------------------------------

    def ws_url(self, game_id: str) -> str:
        return ws_url(self.base_url, game_id)

    def stream(self, game_id: str, after: int = 0, check: str | None = None) -> AsyncStream:
        """The game's WebSocket, to iterate for its updates (as ``watch``) and to ask for steps on.

        ``async with client.stream(game_id) as stream: async for update in stream: ...``; ``await
        stream.moves(picks)`` asks the socket for the next step (see :class:`AsyncStream`).
        """
        return AsyncStream(self, game_id, after, check)

    async def watch(self, game_id: str, after: int = 0, check: str | None = None) -> AsyncGenerator[Update, None]:
        """Every ``update`` of the game after version ``after``, in order, never a version twice.

        ``check`` is the ``check`` of the update at ``after`` (when resuming from an earlier watch): with it, a
        server whose stream no longer holds those events closes with 4009 rather than resuming.

        After a dropped connection or a close that asks for it (1001, 1011, 1012, 4008, 4029), it reconnects by
        itself with backoff and resumes after the last version it yielded (and its check). A close with 4009 raises
        :class:`Reset`; a refused hello (4003) raises the :class:`ApiError` the server sent;
        :class:`Unreachable` after ``max_reconnects`` failed tries in a row.
        """
        async with self.stream(game_id, after, check) as stream:
            async for update in stream:
                yield update

    # --- building a move -------------------------------------------------------------------------

    async def move(self, game_id: str, start: Start | None = None) -> AsyncMove:
        """A move to build pick by pick, from ``start`` (``legal()``'s answer, an update, a step answered), or
        from the first step the server answers now (``start`` ``None``)."""
        if start is None:
            start = await self.moves(game_id)
        version, picks, step = starting(start)
        return AsyncMove(self, game_id, version, step, picks)


class AsyncStream:
    """One game's WebSocket: its updates, in order (iterate it), and ``moves`` requests answered on it.

    It reads the socket only when asked (for the next update, or for a step), so no task runs behind it:
    ``moves`` keeps the updates that arrive before its answer, and the iteration yields them next. Ask from
    the task that iterates (one read at a time). Reconnects and resumes like ``AsyncClient.watch``; a request
    cut by a reconnection is sent again.
    """

    def __init__(self, client: AsyncClient, game_id: str, after: int = 0, check: str | None = None) -> None:
        self.client = client
        self.game_id = game_id
        self.state = Resumer(client.token, after, check, client.max_reconnects, lang=client.lang)
        self.pending: deque[Update] = deque()  # updates read while waiting for a step
        self.ended = False
        self._ws: WebSocket | None = None

    async def __aenter__(self) -> AsyncStream:
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        self.ended = True
        if self._ws is not None:
            ws, self._ws = self._ws, None
            await ws.close()

    def __aiter__(self) -> AsyncStream:
        return self

    async def __anext__(self) -> Update:
        while not self.pending:
            ws = await self._connected()
            if ws is None:
                raise StopAsyncIteration
            await self._receive(ws)
        return self.pending.popleft()

    async def moves(self, picks: Iterable[Pick] = ()) -> StepMessage:
        """The next step after ``picks``, asked on the socket (``{"type": "moves"}``, answered by ``step``); a
        refusal raises its :class:`ApiError` (:class:`RuleViolation` ``not_offered`` for a pick not offered)."""
        request = Request.of(picks)
        while True:
            ws = await self._connected()
            if ws is None:
                raise ENDED
            try:
                await ws.send(request.message())
            except ConnectionClosed as exc:
                await self._lost(exc)
                continue
            while self._ws is ws:
                answer = request.answer(await self._receive(ws))
                if answer is not None:
                    return answer

    async def move(self, start: Start | None = None) -> AsyncMove:
        """A move built on this socket (each pick asked here), from ``start`` or from the step asked now."""
        if start is None:
            start = await self.moves()
        version, picks, step = starting(start)
        return AsyncMove(self.client, self.game_id, version, step, picks, self)

    async def _receive(self, ws: WebSocket) -> ServerMessage | None:
        try:
            raw = await ws.recv()
        except ConnectionClosed as exc:
            await self._lost(exc)
            return None
        message = self.state.read(raw)
        if isinstance(message, Update):
            self.pending.append(message)
        return message

    async def _connected(self) -> WebSocket | None:
        """The open socket, after connecting (and saying hello) if need be; ``None`` once the stream is over."""
        while self._ws is None and not self.ended:
            try:
                url = self.client.ws_url(self.game_id)
                ws = await websockets.connect(url, open_timeout=self.client.timeout, max_size=None)
                await ws.send(self.state.hello())
                self._ws = ws
            except ConnectionClosed as exc:
                await self._lost(exc)
            except (OSError, TimeoutError, InvalidHandshake):
                await self._lost(None)  # could not connect: like a dropped connection
        return self._ws

    async def _lost(self, exc: ConnectionClosed | None) -> None:
        """After the socket closed (or never opened): wait and resume, end the stream, or raise."""
        code, reason = (exc.rcvd.code, exc.rcvd.reason) if exc is not None and exc.rcvd is not None else (None, "")
        ws, self._ws = self._ws, None
        if ws is not None:
            await ws.close()
        try:
            delay = self.state.closed(code, reason)
        except ApiError:
            self.ended = True
            raise
        if delay is None:
            self.ended = True
            return
        await asyncio.sleep(delay)
        self.client.resumes += 1


async def _upload(body: bytes, progress: Progress) -> AsyncIterator[bytes]:
    progress.start(len(body))
    for part in chunks(body):
        yield part
        progress.advance(len(part))
    progress.done()
