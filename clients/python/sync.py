"""The blocking client: the same calls as :class:`AsyncClient`, for scripts and notebooks."""

from __future__ import annotations

import time
from collections.abc import Generator, Iterable, Iterator, Mapping
from types import TracebackType
from typing import Any, TypeVar

import httpx
from websockets.exceptions import ConnectionClosed, InvalidHandshake
from websockets.sync.client import connect

from clients.python import calls
from clients.python.aio import DEFAULT_URL, ws_url
from clients.python.calls import Call
from clients.python.errors import error_from
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
    Update,
    VersionedEvent,
)
from clients.python.progress import Progress, chunks
from clients.python.stream import Resumer

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
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.token = token
        self.timeout = timeout
        self.max_reconnects = max_reconnects
        self.resumes = 0
        self._http = httpx.Client(base_url=self.base_url, timeout=timeout, transport=transport)

    def __enter__(self) -> Client:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.close()

    def close(self) -> None:
        self._http.close()

    def as_seat(self, token: str | None) -> Client:
        return Client(self.base_url, token, self.timeout, self.max_reconnects)

    def headers(self, call: Call[Any]) -> dict[str, str]:
        headers = {"Authorization": f"Bearer {self.token}"} if self.token else {}
        if call.body is not None:
            headers["Content-Type"] = call.content_type
        return headers

    def run(self, call: Call[T], progress: Progress | None = None) -> T:
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

    def catalog(self) -> Catalog:
        return self.run(calls.catalog())

    def components(self, game: str) -> GameComponents:
        return self.run(calls.components(game))

    def create(
        self, game: str, players: int, options: Mapping[str, Any] | None = None, clock: TableClock | None = None
    ) -> NewGame:
        """Open a table (with a turn clock, if given); its lobby entry and the creator's token."""
        return self.run(calls.create(game, players, options, clock))

    def call_off(self, game_id: str) -> LobbyEntry:
        """Call off a table that has not started; this client's token must be its creator's."""
        return self.run(calls.call_off(game_id))

    def rematch(self, game_id: str) -> Rematch:
        """Sit at the finished game's rematch in this client's old seat: its new game, seat and token."""
        return self.run(calls.rematch(game_id))

    def games(self, status: Status = "open", limit: int | None = None, cursor: int | None = None) -> GameList:
        return self.run(calls.games(status, limit, cursor))

    def all_games(self, status: Status = "open", page: int = 200) -> Iterator[LobbyEntry]:
        cursor: int | None = None
        while True:
            answer = self.games(status, page, cursor)
            yield from answer.games
            if answer.next_cursor is None:
                return
            cursor = answer.next_cursor

    def join(self, game_id: str, name: str | None = None, seat: int | None = None, bot: str | None = None) -> Joined:
        return self.run(calls.join(game_id, name, seat, bot))

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

    def export(self, game_id: str, progress: Progress | None = None) -> bytes:
        return self.run(calls.export(game_id), progress)

    def export_log(self, game_id: str) -> list[LogLine]:
        return calls.parse_log(self.export(game_id))

    def import_log(self, log: bytes | Iterable[LogLine], progress: Progress | None = None) -> Imported:
        return self.run(calls.import_log(log), progress)

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

    def watch(self, game_id: str, after: int = 0, check: str | None = None) -> Generator[Update, None, None]:
        """Every ``update`` after version ``after`` (whose ``check`` is ``check``), in order; resumes by itself
        (see AsyncClient.watch)."""
        state = Resumer(self.token, after, check, self.max_reconnects)
        while True:
            code: int | None = None
            reason = ""
            try:
                with connect(self.ws_url(game_id), open_timeout=self.timeout, max_size=None) as ws:
                    ws.send(state.hello())
                    while True:
                        update = state.read(ws.recv())
                        if update is not None:
                            yield update
            except ConnectionClosed as exc:
                if exc.rcvd is not None:
                    code, reason = exc.rcvd.code, exc.rcvd.reason
            except (OSError, TimeoutError, InvalidHandshake):
                code = None
            delay = state.closed(code, reason)
            if delay is None:
                return
            time.sleep(delay)
            self.resumes += 1


def _upload(body: bytes, progress: Progress) -> Iterator[bytes]:
    progress.start(len(body))
    for part in chunks(body):
        yield part
        progress.advance(len(part))
    progress.done()
