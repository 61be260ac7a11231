"""The SDK (clients.python) against a real server: every route from both clients, errors as exceptions with
their codes, a watch that resumes after its socket is cut, and an export -> import round trip."""

from __future__ import annotations

import asyncio
import contextlib
import subprocess
import sys
import threading
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import msgspec
import pytest

from clients import sdk
from clients.bots import play_random, run_bots, take_free_seats
from clients.python import (
    ROUTES,
    ApiError,
    AsyncClient,
    BadRequest,
    Catalog,
    Client,
    Conflict,
    Forbidden,
    LegalCommands,
    LobbyEntry,
    MessageHidden,
    MessageSaid,
    NotFound,
    Pick,
    Reset,
    RuleViolation,
    SeatMuted,
    StepMessage,
    TableView,
    Unauthorized,
    Unreachable,
    Update,
    VersionedEvent,
    Wanted,
    chat,
    chat_fact,
    models,
    parse_log,
)
from clients.python.aio import LIMITS
from clients.python.words import Phrasebook
from domain.catalog import GAMES
from server.serve import server_config
from server.service.feeds import SLOW
from server.settings import Settings
from tests.clients.conftest import Running
from tests.server.conftest import ADMIN

ROOT = Path(__file__).resolve().parents[2]


class Proxy:
    """A TCP proxy to the server whose connections a test can cut at once (no close frame: a dropped line)."""

    def __init__(self, port: int) -> None:
        self.target = port
        self.writers: list[asyncio.StreamWriter] = []
        self.server: asyncio.Server | None = None
        self.connections = 0

    async def start(self) -> str:
        self.server = await asyncio.start_server(self.accept, "127.0.0.1", 0)
        port = self.server.sockets[0].getsockname()[1]
        return f"http://127.0.0.1:{port}"

    async def accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target)
        self.writers += [writer, up_writer]

        async def pipe(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
            with contextlib.suppress(OSError, ConnectionError):
                while data := await src.read(65536):
                    dst.write(data)
                    await dst.drain()
            dst.close()

        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))

    def cut(self) -> None:
        for writer in self.writers:
            writer.transport.abort()
        self.writers.clear()

    async def stop(self) -> None:
        self.cut()
        if self.server is not None:
            self.server.close()


@contextlib.asynccontextmanager
async def proxied(server: Running) -> AsyncIterator[tuple[Proxy, str]]:
    port = int(server.url.rsplit(":", 1)[1])
    proxy = Proxy(port)
    url = await proxy.start()
    try:
        yield proxy, url
    finally:
        await proxy.stop()


async def finished_game(server: Running, players: int = 2, seed: int = 7) -> str:
    async with AsyncClient(server.url) as lobby:
        game_id = (await lobby.create("vilar-de-mouros", players)).game_id
    _, table = await asyncio.wait_for(run_bots(server.url, game_id, seed), 90)
    assert table.finished
    return game_id


async def move(client: AsyncClient, players: dict[int, AsyncClient], game_id: str) -> int:
    """One legal command from whichever seat the game awaits; the new version."""
    table = await client.table(game_id)
    player = players[table.awaiting[0].seat]
    legal = await player.legal(game_id)
    return (await player.send(game_id, legal.commands[0], expected_version=legal.version)).version


# --- every route -------------------------------------------------------------------------------------


def test_the_clients_drop_an_idle_connection_before_the_server_closes_it() -> None:
    # Else a request now and then goes out on a connection the server is closing, and fails unread.
    served = server_config(None, Settings())
    assert LIMITS.keepalive_expiry is not None and LIMITS.keepalive_expiry < served.timeout_keep_alive
    pools: list[Any] = [AsyncClient()._http._transport, Client()._http._transport]
    assert [pool._pool._keepalive_expiry for pool in pools] == [LIMITS.keepalive_expiry] * 2


async def test_every_route_of_the_openapi_document_has_a_method_on_both_clients(server: Running) -> None:
    async with AsyncClient(server.url) as client:
        document = await client.openapi()
    routes = {(method.upper(), path) for path, item in document["paths"].items() for method in item}
    assert routes <= set(ROUTES), f"routes without an SDK method: {sorted(routes - set(ROUTES))}"
    for name in ROUTES.values():
        assert callable(getattr(AsyncClient, name)) and callable(getattr(Client, name)), name


async def test_both_clients_quick_play_and_filter_the_lobby(server: Running) -> None:
    wanted = Wanted(game="itchy-feet", players=2, lang="es")
    async with AsyncClient(server.url) as ana:
        first = await ana.quick_play(wanted, name="Ana")
    assert first.opened and first.seat == 0 and first.token and len(first.entropy) == 64

    def second_one() -> tuple[Any, list[str]]:
        with Client(server.url) as bo:
            seat = bo.quick_play(wanted, name="Bo")
            return seat, [g.game_id for g in bo.games("active", wanted=Wanted(game="itchy-feet", lang="es")).games]

    second, listed = await asyncio.to_thread(second_one)
    assert (second.game_id, second.seat, second.opened) == (first.game_id, 1, False)
    assert first.game_id in listed


async def test_the_sdk_models_carry_every_field_of_the_envelopes_the_server_answers(server: Running) -> None:
    async with AsyncClient(server.url) as client:
        schemas = (await client.openapi())["components"]["schemas"]
    shared = {
        name: kind
        for name, kind in vars(models).items()
        if isinstance(kind, type) and issubclass(kind, msgspec.Struct) and name in schemas
    }
    assert {"TableView", "LobbyEntry", "CatalogEntry", "Joined", "ErrorBody", "EventPage"} <= set(shared)
    for name, kind in shared.items():
        fields = {f.encode_name for f in msgspec.structs.fields(kind)} | {kind.__struct_config__.tag_field}
        assert set(schemas[name].get("properties", {})) <= fields, f"{name} lacks fields the server sends"


async def test_the_async_client_calls_every_route(server: Running) -> None:
    async with AsyncClient(server.url) as lobby, AsyncClient(server.url, ADMIN) as admin:
        assert (await lobby.health()).status == "ok"
        assert (await lobby.ready()).status == "ready"
        assert "ludoteca" in (await admin.metrics())  # the operator's token
        assert "/api/v1/games" in (await lobby.openapi())["paths"]
        catalog = await lobby.catalog()
        assert isinstance(catalog, Catalog)
        assert {"vilar-de-mouros", "miss-liz-parks"} <= {g.game for g in catalog.games}
        components = await lobby.components("vilar-de-mouros")
        assert components.game == "vilar-de-mouros" and components.components
        entry = await lobby.create("vilar-de-mouros", 2)
        assert isinstance(entry, LobbyEntry) and (entry.status, entry.seats_taken) == ("open", 0)
        game_id = entry.game_id
        assert game_id in {g.game_id for g in (await lobby.games("open", limit=200)).games}
        assert game_id in [g.game_id async for g in lobby.all_games("open", page=1)]
        ana = await lobby.join(game_id, name="Ana")
        bruno = await lobby.join(game_id, name="Bruno", seat=1)
        assert (ana.seat, bruno.seat) == (0, 1)
        table = await lobby.table(game_id)
        assert isinstance(table, TableView) and table.status == "active" and table.seat is None
        assert [s.name for s in table.seats if s] == ["Ana", "Bruno"]
        players = {0: lobby.as_seat(ana.token), 1: lobby.as_seat(bruno.token)}
        try:
            seat = table.awaiting[0].seat
            mine = await players[seat].table(game_id)
            assert mine.seat == seat and mine.awaits(seat)
            legal = await players[seat].legal(game_id)
            assert legal.version == table.version and legal.commands
            checked = await players[seat].check(game_id, legal.commands[0])
            assert (checked.version, checked.lands, checked.refusal) == (legal.version, True, None)
            other = await players[1 - seat].check(game_id, legal.commands[0])
            assert not other.lands and other.refusal is not None and other.refusal.error == "not_your_turn"
            sent = await players[seat].send(game_id, legal.commands[0], "first", legal.version)
            assert sent.version > legal.version and sent.events[0].version == legal.version + 1
            assert await players[seat].send(game_id, legal.commands[0], "first", legal.version) == sent
            page = await lobby.events(game_id, after=0, limit=3)
            assert [e.version for e in page.events] == [1, 2, 3] and page.version == sent.version
            assert page.events[0].event["type"] == "TableOpened"
            feed = [e.version async for e in lobby.all_events(game_id, page=4)]
            assert feed == list(range(1, sent.version + 1))
            early = await players[0].replay(game_id, 2)
            assert (early.version, early.seat, early.status) == (2, 0, "open")
            with pytest.raises(ApiError) as unfinished:
                await lobby.export(game_id)
            assert unfinished.value.code == "missing_token"
            assert (await admin.export(game_id)).count(b"\n") == 1 + sent.version  # the admin may export it now
            finals = await asyncio.wait_for(
                asyncio.gather(*(play_random(players[s], game_id, seed=s) for s in (0, 1))), 90
            )
            assert [f.seat for f in finals] == [0, 1] and all(f.finished for f in finals)
        finally:
            for player in players.values():
                await player.aclose()
        table = await lobby.table(game_id)
        assert table.finished and table.outcome is not None and table.outcome["winners"]
        assert game_id in {g.game_id async for g in lobby.all_games("finished")}
        full = await lobby.replay(game_id, table.version, as_="full")
        assert full.seat is None and full.view is not None and full.view["viewer"] == -1
        seat_view = await lobby.replay(game_id, 10, as_=1)
        assert (seat_view.seat, seat_view.version) == (1, 10)
        log = await lobby.export_log(game_id)
        assert [line.version for line in log] == list(range(1, table.version + 1))
        imported = await admin.import_log(log)
        assert imported.game_id != game_id
        assert (await lobby.table(imported.game_id)).outcome == table.outcome


def sync_session(url: str) -> dict[str, Any]:
    """Every route from the blocking client (run in a thread: the server shares the test's event loop)."""
    seen: dict[str, Any] = {}
    with Client(url) as lobby, Client(url, ADMIN) as admin:
        seen["health"] = lobby.health().status
        seen["ready"] = lobby.ready().status
        seen["metrics"] = "ludoteca" in admin.metrics()
        seen["openapi"] = "/api/v1/games" in lobby.openapi()["paths"]
        seen["catalog"] = sorted(g.game for g in lobby.catalog().games)
        seen["components"] = lobby.components("i-love-portugal").game
        game_id = lobby.create("vilar-de-mouros", 2).game_id
        seen["games"] = game_id in {g.game_id for g in lobby.games().games}
        seen["all_games"] = game_id in {g.game_id for g in lobby.all_games(page=1)}
        tokens = [lobby.join(game_id, name="Ana").token, lobby.join(game_id, seat=1).token]
        table = lobby.table(game_id)
        seen["table"] = (table.status, table.players)
        seat = table.awaiting[0].seat
        with Client(url, tokens[seat]) as player:
            legal = player.legal(game_id)
            seen["check"] = player.check(game_id, legal.commands[0]).lands
            sent = player.send(game_id, legal.commands[0], expected_version=legal.version)
            seen["send"] = sent.version == legal.version + len(sent.events)
            try:
                player.send(game_id, legal.commands[0], expected_version=legal.version)
            except ApiError as exc:
                seen["conflict"] = (type(exc).__name__, exc.code, exc.details.get("version"))
            seen["replay"] = player.replay(game_id, 5).seat
        seen["events"] = [e.version for e in lobby.events(game_id, after=2, limit=2).events]
        seen["all_events"] = [e.version for e in lobby.all_events(game_id, upto=6, page=2)]
        watched = []
        for update in lobby.watch(game_id, after=sent.version - 1):
            watched.append(update.version)
            break
        seen["watch"] = watched
        seen["export"] = admin.export(game_id).count(b"\n") - 1  # its header, then the facts
        seen["version"] = sent.version
        try:
            admin.import_log(admin.export_log(game_id))
        except ApiError as exc:
            seen["import"] = (type(exc).__name__, exc.code)
    return seen


async def test_the_sync_client_calls_every_route(server: Running) -> None:
    seen = await asyncio.wait_for(asyncio.to_thread(sync_session, server.url), 60)
    version = seen.pop("version")
    assert seen == {
        "health": "ok",
        "ready": "ready",
        "metrics": True,
        "openapi": True,
        "catalog": ["i-love-portugal", "itchy-feet", "miss-liz-parks", "vilar-de-mouros"],
        "components": "i-love-portugal",
        "games": True,
        "all_games": True,
        "table": ("active", 2),
        "check": True,
        "send": True,
        "conflict": ("Conflict", "version_conflict", version),
        "replay": seen["replay"],
        "events": [3, 4],
        "all_events": [1, 2, 3, 4, 5, 6],
        "watch": [version],
        "export": version,
        "import": ("BadRequest", "unfinished_log"),
    }
    assert seen["replay"] in (0, 1)


# --- errors ------------------------------------------------------------------------------------------


async def test_refusals_raise_the_exception_of_their_status_with_the_rules_code(server: Running) -> None:
    async with AsyncClient(server.url) as lobby:
        game_id = (await lobby.create("vilar-de-mouros", 2)).game_id
        seats = [await lobby.join(game_id), await lobby.join(game_id)]
        table = await lobby.table(game_id)
        idle = next(s for s in seats if not table.awaits(s.seat))
        async with lobby.as_seat(idle.token) as player:
            assert (await player.legal(game_id)).commands == []
            with pytest.raises(RuleViolation) as refused:
                await player.send(game_id, {"type": "DrawFromDeck"})
            with pytest.raises(BadRequest) as malformed:
                await player.send(game_id, {"type": "DrawFromCentre"})
            with pytest.raises(Conflict) as stale:
                await player.send(game_id, {"type": "DrawFromDeck"}, expected_version=1)
        assert (refused.value.status, refused.value.code) == (422, "not_your_turn")
        assert refused.value.details["turn"] != idle.seat and refused.value.message
        assert (malformed.value.status, malformed.value.code) == (400, "malformed")
        assert malformed.value.details["field"] == "command.card"
        assert (stale.value.code, stale.value.details["version"]) == ("version_conflict", table.version)
        with pytest.raises(Forbidden) as spectator:
            await lobby.send(game_id, {"type": "DrawFromDeck"})
        assert (spectator.value.status, spectator.value.code) == (403, "spectator")
        with pytest.raises(NotFound) as unknown:
            await lobby.table("0" * 16)
        assert (unknown.value.status, unknown.value.code) == (404, "unknown_game")
        with pytest.raises(RuleViolation) as bad:
            await lobby.create("vilar-de-mouros", 9)
        assert bad.value.code == "bad_players"
        with pytest.raises(Conflict) as started:
            await lobby.join(game_id)
        assert started.value.code == "game_started"
        with pytest.raises(BadRequest) as kind:
            await lobby.create("chess", 2)
        assert kind.value.to_json() == {
            "status": 400,
            "error": "unknown_game_type",
            "message": kind.value.message,
            "details": {"field": "game", "game": "chess"},
        }
    async with AsyncClient(server.url, "nope") as stranger:
        with pytest.raises(Unauthorized) as token:
            await stranger.table(game_id)
        assert token.value.code == "unknown_token"
        with pytest.raises(Forbidden) as not_admin:
            await stranger.import_log(b'{"version":1,"event":{}}\n')
        assert not_admin.value.code == "not_admin"
    assert issubclass(RuleViolation, ApiError) and sdk.ApiError is ApiError


# --- the WebSocket subscription ------------------------------------------------------------------------


async def test_watch_resumes_after_its_connection_is_cut(server: Running) -> None:
    game_id, tokens = await server.started(2)
    async with (
        proxied(server) as (proxy, url),
        AsyncClient(url) as spectator,
        AsyncClient(server.url, tokens[0]) as p0,
        AsyncClient(server.url, tokens[1]) as p1,
    ):
        players = {0: p0, 1: p1}
        updates = spectator.watch(game_id)
        first = await anext(updates)
        seen = [e.version for e in first.events]
        versions = [first.version]
        for _ in range(2):  # cut the line, then the game moves on while the watch reconnects
            proxy.cut()
            for _ in range(3):
                target = await move(p0, players, game_id)
            while versions[-1] < target:
                update = await asyncio.wait_for(anext(updates), 10)
                versions.append(update.version)
                seen += [e.version for e in update.events]
        await updates.aclose()
    assert seen == list(range(1, target + 1))  # in order, no gap, no repeat across the cuts
    assert versions == sorted(set(versions))
    assert spectator.resumes == 2 and proxy.connections >= 3


def sync_watch(url: str, game_id: str, cut: threading.Event, target: list[int]) -> tuple[list[int], int]:
    seen: list[int] = []
    with Client(url) as spectator:
        for update in spectator.watch(game_id):
            seen += [e.version for e in update.events]
            if not cut.is_set():
                cut.set()  # the test cuts the line and moves the game on
            if target[0] and update.version >= target[0]:
                return seen, spectator.resumes
    return seen, spectator.resumes


async def test_the_sync_watch_resumes_after_its_connection_is_cut(server: Running) -> None:
    game_id, tokens = await server.started(2)
    async with (
        proxied(server) as (proxy, url),
        AsyncClient(server.url, tokens[0]) as p0,
        AsyncClient(server.url, tokens[1]) as p1,
    ):
        cut = threading.Event()
        target = [0]
        watcher = asyncio.create_task(asyncio.to_thread(sync_watch, url, game_id, cut, target))
        while not cut.is_set():
            await asyncio.sleep(0.01)
        proxy.cut()
        for _ in range(3):
            version = await move(p0, {0: p0, 1: p1}, game_id)
        target[0] = version
        seen, resumes = await asyncio.wait_for(watcher, 20)
    assert seen == list(range(1, version + 1)) and resumes == 1


async def test_watch_gives_up_after_max_reconnects_failed_tries_in_a_row(server: Running) -> None:
    game_id, _ = await server.started(2)
    async with proxied(server) as (proxy, url), AsyncClient(url, max_reconnects=2) as spectator:
        updates = spectator.watch(game_id)
        await anext(updates)
        await proxy.stop()  # the line is cut and nobody answers any more
        with pytest.raises(Unreachable) as gone:
            await asyncio.wait_for(anext(updates), 10)
    assert (gone.value.status, gone.value.code) == (503, "unreachable") and spectator.resumes == 2


async def test_watch_resumes_after_the_server_closes_with_4008(server: Running) -> None:
    game_id, tokens = await server.started(2)
    feeds = server.app.state.feeds
    async with (
        AsyncClient(server.url) as spectator,
        AsyncClient(server.url, tokens[0]) as p0,
        AsyncClient(server.url, tokens[1]) as p1,
    ):
        updates = spectator.watch(game_id)
        first = await anext(updates)
        assert isinstance(first, Update)
        subscribers = set(feeds.feeds[game_id].subscribers)
        for sub in subscribers:
            sub.stop(SLOW)  # what the server does to a socket that fell behind: close it with 4008
        for _ in range(3):
            target = await move(spectator, {0: p0, 1: p1}, game_id)
        seen = [e.version for e in first.events]
        version = first.version
        while version < target:
            update = await asyncio.wait_for(anext(updates), 10)
            version = update.version
            seen += [e.version for e in update.events]
        resumed = set(feeds.feeds[game_id].subscribers)
        await updates.aclose()
    assert seen == list(range(1, target + 1))
    assert len(resumed) == 1 and resumed.isdisjoint(subscribers)
    assert spectator.resumes == 1


async def test_watch_raises_on_a_refused_hello_and_on_reset(server: Running) -> None:
    game_id, _ = await server.started(2)
    async with AsyncClient(server.url, "nope") as stranger:
        with pytest.raises(Unauthorized) as denied:
            await anext(stranger.watch(game_id))
        assert denied.value.code == "unknown_token"
    async with AsyncClient(server.url) as spectator:
        with pytest.raises(Reset) as reset:
            await anext(spectator.watch(game_id, after=10_000))
        assert reset.value.code == "reset" and reset.value.details["version"] < 10_000
        with pytest.raises(NotFound):
            await anext(spectator.watch("0" * 16))


async def test_watch_resumes_with_the_check_it_was_given_and_resets_on_a_check_of_other_events(
    server: Running,
) -> None:
    game_id, _ = await server.started(2)
    async with AsyncClient(server.url) as spectator:
        updates = spectator.watch(game_id)
        first = await anext(updates)
        await updates.aclose()
        assert len(first.check) == 32
        resumed = await anext(spectator.watch(game_id, after=first.version, check=first.check))
        assert (resumed.version, resumed.events, resumed.check) == (first.version, [], first.check)
        with pytest.raises(Reset) as reset:
            await anext(spectator.watch(game_id, after=first.version, check="0" * 32))
        assert reset.value.details["version"] == first.version


# --- building a move -----------------------------------------------------------------------------------


async def to_the_place_phase(game_id: str, players: dict[int, AsyncClient]) -> tuple[AsyncClient, LegalCommands]:
    """Draw from the deck for whichever seat the game awaits until that seat must place its cards; that
    seat's client and its legal answer then."""
    for _ in range(6):
        table = await players[0].table(game_id)
        me = players[table.awaiting[0].seat]
        legal = await me.legal(game_id)
        if legal.commands_of("PlaceCards"):
            return me, legal
        drawn = await (await me.move(game_id, legal)).pick("type", "DrawFromDeck")
        assert drawn.command == {"type": "DrawFromDeck"} and not drawn.options
        await drawn.send()
    raise AssertionError("no seat came to place its cards")


async def test_a_move_of_two_picks_is_built_and_sent(server: Running) -> None:
    game_id, tokens = await server.started(2)
    players = {seat: AsyncClient(server.url, token) for seat, token in enumerate(tokens)}
    try:
        me, legal = await to_the_place_phase(game_id, players)
        start = await me.move(game_id, legal)  # from legal()'s first step: no request
        assert [(o.field, o.value, o.kind, o.command) for o in start.options] == [("type", "PlaceCards", "move", None)]
        assert (start.version, start.picks, start.command) == (legal.version, (), None)
        placing = await start.pick(start.options[0])
        hand = [o.value for o in placing.options]
        assert {o.field for o in placing.options} == {"centre"} and {o.kind for o in placing.options} == {"card"}
        assert placing.picks == (Pick("type", "PlaceCards"),) and placing.command is None
        centre = await placing.pick("centre", hand[0])
        assert [o.value for o in centre.options] == hand[1:]  # the personal card: any other of the hand
        assert all(o.command == {"type": "PlaceCards", "centre": hand[0], "personal": o.value} for o in centre.options)
        assert start.options[0].value == "PlaceCards" and not start.complete  # the moves picked on are unchanged
        placed = await centre.pick(centre.options[-1])
        command = {"type": "PlaceCards", "centre": hand[0], "personal": hand[-1]}
        assert (placed.command, placed.options, placed.complete) == (command, [], True)
        assert [p.field for p in placed.picks] == ["type", "centre", "personal"]
        # every complete command of the step, walked through the server: what legal() lists
        listed = await placing.commands()
        assert listed is not None and len(listed) == len(hand) * (len(hand) - 1)
        assert sorted(map(repr, listed)) == sorted(map(repr, legal.commands_of("PlaceCards") or []))
        assert await start.commands(limit=len(listed)) == listed and await start.commands(limit=3) is None
        sent = await placed.send()
        assert sent.events[0].event["type"] == "CardsPlaced"
        assert sent.events[0].event["centre"] == hand[0] and sent.events[0].event["personal"] == hand[-1]
        with pytest.raises(Conflict) as stale:  # the table moved on: the move was built at an older version
            await placed.send()
        assert stale.value.details["version"] == sent.version
    finally:
        for player in players.values():
            await player.aclose()


async def test_a_pick_that_was_not_offered_is_refused_with_not_offered(server: Running) -> None:
    game_id, tokens = await server.started(2)
    players = {seat: AsyncClient(server.url, token) for seat, token in enumerate(tokens)}
    try:
        me, legal = await to_the_place_phase(game_id, players)
        start = await me.move(game_id)  # the first step, asked now
        assert start.version == legal.version and start.options == legal.step.options
        with pytest.raises(RuleViolation) as not_now:
            await start.pick("type", "DrawFromDeck")  # offered earlier in the turn, not now
        assert (not_now.value.status, not_now.value.code) == (422, "not_offered")
        assert not_now.value.details["field"] == "picks[0]" and not_now.value.message
        placing = await start.pick("type", "PlaceCards")
        with pytest.raises(RuleViolation) as not_held:
            await placing.pick("centre", "no-such-card")
        assert (not_held.value.code, not_held.value.details["field"]) == ("not_offered", "picks[1]")
        with pytest.raises(ValueError, match="pick centre next"):
            await placing.send()
        seat = (await me.table(game_id)).seat
        assert seat is not None
        other = players[1 - seat]
        idle = await other.move(game_id)
        assert idle.empty and idle.options == [] and await idle.commands() == []
        with pytest.raises(RuleViolation) as idle_pick:
            await idle.pick("type", "PlaceCards")
        assert idle_pick.value.code == "not_offered"
    finally:
        for player in players.values():
            await player.aclose()


async def test_the_stream_carries_each_awaited_seats_step_and_answers_moves_on_the_socket(server: Running) -> None:
    game_id, tokens = await server.started(2)
    players = {seat: AsyncClient(server.url, token) for seat, token in enumerate(tokens)}
    try:
        me, legal = await to_the_place_phase(game_id, players)
        async with me.stream(game_id) as stream:
            update = await anext(stream)
            assert update.version == legal.version and update.step == legal.step
            move = await stream.move(update)  # each pick asked on the socket
            placing = await move.pick("type", "PlaceCards")
            assert placing.stream is stream and {o.field for o in placing.options} == {"centre"}
            asked = await stream.moves(placing.picks)
            assert isinstance(asked, StepMessage) and asked.step == placing.step and len(asked.request_id or "") == 32
            with pytest.raises(RuleViolation) as refused:
                await stream.moves([Pick("type", "PlaceCards"), Pick("centre", "no-such-card")])
            assert (refused.value.code, refused.value.details["field"]) == ("not_offered", "picks[1]")
            centre = await placing.pick(placing.options[0])
            placed = await centre.pick(centre.options[0])
            sent = await placed.send()
            # the update of that send may come while the socket answers a request: it is kept, then yielded
            after = await stream.moves()
            assert after.version == sent.version and after.step.options == []  # the other seat's turn now
            update = await asyncio.wait_for(anext(stream), 10)
            assert update.version == sent.version and update.step is None
            assert [e.version for e in update.events] == list(range(legal.version + 1, sent.version + 1))
        async with players[0].as_seat(None) as spectator, spectator.stream(game_id) as watching:
            seen = await anext(watching)
            assert seen.step is None and (await watching.moves()).step.options == []  # a spectator has no move
    finally:
        for player in players.values():
            await player.aclose()


def sync_building(url: str, game_id: str, token: str) -> dict[str, Any]:
    """The blocking client's move, over REST and over the socket (run in a thread)."""
    seen: dict[str, Any] = {}
    with Client(url, token) as me:
        legal = me.legal(game_id)
        move = me.move(game_id, legal).pick("type", "PlaceCards")
        hand = [o.value for o in move.options]
        seen["commands"] = len(move.commands() or ())
        seen["hand"] = len(hand)
        try:
            move.pick("personal", hand[0])
        except RuleViolation as exc:
            seen["refused"] = (exc.code, exc.details["field"])
        with me.stream(game_id) as stream:
            update = next(stream)
            seen["step"] = update.step == legal.step
            placed = stream.move(update).pick("type", "PlaceCards").pick("centre", hand[1]).pick("personal", hand[0])
            seen["command"] = placed.command
            seen["sent"] = placed.send().events[0].event["type"]
            seen["next"] = next(stream).version > update.version
    return seen


async def test_the_sync_client_builds_a_move_over_rest_and_over_the_socket(server: Running) -> None:
    game_id, tokens = await server.started(2)
    players = {seat: AsyncClient(server.url, token) for seat, token in enumerate(tokens)}
    try:
        me, _ = await to_the_place_phase(game_id, players)
        seat = (await me.table(game_id)).seat
        assert seat is not None
        seen = await asyncio.wait_for(asyncio.to_thread(sync_building, server.url, game_id, tokens[seat]), 60)
    finally:
        for player in players.values():
            await player.aclose()
    hand = seen.pop("hand")
    command = seen.pop("command")
    assert command["type"] == "PlaceCards" and command["centre"] != command["personal"]
    assert seen == {
        "commands": hand * (hand - 1),
        "refused": ("not_offered", "picks[1]"),
        "step": True,
        "sent": "CardsPlaced",
        "next": True,
    }


async def test_the_example_of_building_a_move_in_docs_sdk_md_runs(server: Running) -> None:
    section = (ROOT / "docs" / "sdk.md").read_text(encoding="utf-8").split("## Building a move", 1)[1]
    example = section.split("```python\n", 1)[1].split("```", 1)[0]
    assert 'URL = "http://127.0.0.1:8000"' in example
    code = compile(example.replace("http://127.0.0.1:8000", server.url), "docs/sdk.md", "exec")
    printed: list[tuple[Any, ...]] = []
    scope = {"print": lambda *values: printed.append(values)}
    await asyncio.wait_for(asyncio.to_thread(exec, code, scope), 60)
    assert printed[0] == (["TakeBonus", "DrawFromDeck"],)
    assert printed[1][0] > 2 and printed[2][0]["type"] == "PlaceCards"
    refused = ("not_offered", {"field": "picks[0]", "pick": "type", "value": "PlaceCards"})
    assert printed[3:] == [(["CardsPlaced", "TurnStarted"],), refused]


@pytest.mark.parametrize("game", list(GAMES))
async def test_the_random_api_bot_finishes_a_game_of_every_game(quick: Running, game: str) -> None:
    server = quick
    async with AsyncClient(server.url) as lobby:
        assert game in {g.game for g in (await lobby.catalog()).games}
        game_id = (await lobby.create(game, 2)).game_id
        if game == "itchy-feet":  # two random players almost never end one: the server's greedy bot does
            await lobby.join(game_id, seat=1, bot="greedy")
    seats, table = await asyncio.wait_for(run_bots(server.url, game_id, seed=3), 100)
    assert [s.seat for s in seats] == ([0] if game == "itchy-feet" else [0, 1])
    assert table.finished and table.outcome is not None and len(table.outcome["scores"]) == 2


# --- export and import ---------------------------------------------------------------------------------


async def test_export_then_import_of_a_finished_game_replays_the_same(server: Running) -> None:
    game_id = await finished_game(server)
    async with AsyncClient(server.url) as anyone, AsyncClient(server.url, ADMIN) as admin:
        exported = await anyone.export(game_id)  # anyone may export a finished game
        log = parse_log(exported)
        copy = (await admin.import_log(exported)).game_id
        assert parse_log(await anyone.export(copy)) == log
        last = log[-1].version
        for version in sorted({1, 2, 5, last // 3, last // 2, last - 1, last}):
            for as_ in (None, 0, 1, "full"):
                original = msgspec.structs.replace(await anyone.replay(game_id, version, as_), game_id="")
                imported = msgspec.structs.replace(await anyone.replay(copy, version, as_), game_id="")
                assert imported == original, (version, as_)
        events = [e async for e in anyone.all_events(game_id)]
        assert [e async for e in anyone.all_events(copy)] == events


async def test_take_free_seats_leaves_taken_seats_alone(server: Running) -> None:
    async with AsyncClient(server.url) as lobby:
        game_id = (await lobby.create("vilar-de-mouros", 3)).game_id
        await lobby.join(game_id, name="Ana", seat=1)
        seats = await take_free_seats(lobby, game_id)
        assert [s.seat for s in seats] == [0, 2]
        table = await lobby.table(game_id)
        assert [s.name for s in table.seats if s] == ["Random bot 1", "Ana", "Random bot 3"]


async def test_a_phrasebook_names_a_default_named_seat_in_its_language(server: Running) -> None:
    """A seat taken without a name has its default one in English ("Player 1", "Casual bot 3"): the table view's
    ``named`` says so, and the phrasebook says it in its language, in the seats' names and the log's lines."""
    async with AsyncClient(server.url) as lobby:
        game_id = (await lobby.create("vilar-de-mouros", 3)).game_id
        await lobby.join(game_id, seat=0)
        await lobby.join(game_id, name="Ana", seat=1)
        await lobby.join(game_id, seat=2, bot="casual")
        table = await lobby.table(game_id)
        assert [(s.name, s.named) for s in table.seats if s] == [
            ("Player 1", False), ("Ana", True), ("Casual bot 3", False)
        ]  # fmt: skip
        taken = [e.event for e in (await lobby.events(game_id)).events if e.event["type"] == "SeatTaken"]
        for lang, said in [("gl", ["Xogador 1", "Ana", "Bot casual 3"]), ("en", ["Player 1", "Ana", "Casual bot 3"])]:
            book = Phrasebook(await lobby.words(lang), "vilar-de-mouros").with_seats(table.seats)
            assert [book.seat(s) for s in range(3)] == said
            assert book.event(taken[2]).startswith(said[2]) and book.event(taken[0]).startswith(said[0])
        book = Phrasebook(await lobby.words("pt"), "vilar-de-mouros").with_seats(table.seats)
        assert book.event(taken[2]) == "Bot casual 3 (um bot) senta-se à mesa."
        refused = {"awaiting": [2, 0], "turn": None, "names": ["Casual bot 3", "Player 1"]}  # as the server stores them
        assert book.refusal("not_your_turn", refused) == "Não é a sua vez: o jogo espera por Bot casual 3 e Jogador 1."


# --- the table's chat ------------------------------------------------------------------------------------


@contextlib.asynccontextmanager
async def table_of(server: Running, names: tuple[str, ...]) -> AsyncIterator[tuple[str, list[AsyncClient]]]:
    """A started Vilar de Mouros table, one person a seat: its id and each seat's client, seat 0 first."""
    async with AsyncClient(server.url) as lobby:
        game_id = (await lobby.create("vilar-de-mouros", len(names))).game_id
        seats = [lobby.as_seat((await lobby.join(game_id, name=name)).token) for name in names]
    try:
        yield game_id, seats
    finally:
        for seat in seats:
            await seat.aclose()


async def messages(client: AsyncClient, game_id: str) -> dict[int, MessageSaid]:
    """The messages of the client's feed, by the version they were said at."""
    return dict(chat([e async for e in client.all_events(game_id)]))


async def test_a_message_to_the_table_is_read_by_every_seat_and_a_private_line_by_its_two_seats_only(
    server: Running,
) -> None:
    async with table_of(server, ("Ana", "Bruno", "Carla")) as (game_id, [ana, bruno, carla]):
        said = await ana.say(game_id, "Boa sorte!")
        [(version, message)] = chat(said.events)
        assert (version, said.version) == (said.events[0].version, version)
        assert message == MessageSaid(text="Boa sorte!", seat=0) and not message.private
        async with AsyncClient(server.url) as spectator:
            for reader in (ana, bruno, carla, spectator):
                assert (await messages(reader, game_id))[version] == message
            line = await ana.say(game_id, "Bruno tira boas cartas", to=2)
            private = line.events[0].version
            expected = MessageSaid(text="Bruno tira boas cartas", seat=0, to=2)
            assert chat(line.events) == [(private, expected)] and expected.private
            assert (await messages(carla, game_id))[private] == expected
            for outsider in (bruno, spectator):  # not even its place: the fact is left out of their feeds
                assert private not in {e.version async for e in outsider.all_events(game_id)}
                assert list(await messages(outsider, game_id)) == [version]
        with pytest.raises(RuleViolation) as empty:
            await bruno.say(game_id, "   ")
        with pytest.raises(RuleViolation) as long:
            await bruno.say(game_id, "a" * 501)
        with pytest.raises(RuleViolation) as herself:
            await carla.say(game_id, "para min", to=2)
        assert (empty.value.code, long.value.code) == ("empty_message", "message_too_long")
        assert long.value.details["most"] == 500
        assert (herself.value.code, herself.value.details["field"]) == ("no_such_seat", "to")
        assert (await bruno.table(game_id)).version == private  # nothing refused was kept


def sync_mutes(url: str, game_id: str, tokens: list[str]) -> dict[str, Any]:
    """Bruno mutes Ana, then reads her again, with the blocking client (in a thread)."""
    seen: dict[str, Any] = {}

    def texts(client: Client) -> list[str]:
        return [m.text for _, m in chat(client.all_events(game_id))]

    with Client(url, tokens[0]) as ana, Client(url, tokens[1]) as bruno, Client(url, tokens[2]) as carla:
        ana.say(game_id, "Olá")
        muted = bruno.mute(game_id, 0)
        seen["muted"] = [chat_fact(e.event) for e in muted.events]
        ana.say(game_id, "Ouves-me?")
        seen["bruno"], seen["carla"] = "Ouves-me?" in texts(bruno), texts(carla)
        seen["ana sees the mute"] = muted.version in {e.version for e in ana.all_events(game_id)}
        again = bruno.mute(game_id, 0, muted=False)
        seen["again"] = [chat_fact(e.event) for e in again.events]
        ana.say(game_id, "E agora?")
        seen["bruno again"] = texts(bruno)[-1]
        try:
            bruno.mute(game_id, 1)
        except RuleViolation as exc:
            seen["himself"] = (exc.code, exc.details["field"])
    return seen


async def test_a_seat_that_mutes_another_reads_it_no_more_until_it_unmutes(server: Running) -> None:
    async with table_of(server, ("Ana", "Bruno", "Carla")) as (game_id, seats):
        tokens = [str(seat.token) for seat in seats]
        seen = await asyncio.wait_for(asyncio.to_thread(sync_mutes, server.url, game_id, tokens), 60)
    assert seen == {
        "muted": [SeatMuted(seat=1, other=0, muted=True)],
        "bruno": False,  # muted: Ana's message is left out of his feed
        "carla": ["Olá", "Ouves-me?"],
        "ana sees the mute": False,  # a mute is the muting seat's alone
        "again": [SeatMuted(seat=1, other=0, muted=False)],
        "bruno again": "E agora?",
        "himself": ("no_such_seat", "seat"),
    }


async def test_a_message_is_hidden_once_most_of_the_others_at_a_three_seat_table_asked(server: Running) -> None:
    async with table_of(server, ("Ana", "Bruno", "Carla")) as (game_id, [ana, bruno, carla]):
        version = (await ana.say(game_id, "Perdede todos!")).version
        with pytest.raises(RuleViolation) as own:
            await ana.hide_message(game_id, version)
        assert own.value.code == "own_message"
        asked = await bruno.hide_message(game_id, version)
        assert [chat_fact(e.event) for e in asked.events] == [models.HidingAsked(seat=1, version=version)]
        assert (await bruno.hide_message(game_id, version)).events == []  # asked already: nothing new
        assert (await messages(carla, game_id))[version].text == "Perdede todos!"  # one of two: not yet
        before = [e async for e in carla.all_events(game_id)]
        hidden = await carla.hide_message(game_id, version)
        facts = [chat_fact(e.event) for e in hidden.events]
        assert facts == [models.HidingAsked(seat=2, version=version), MessageHidden(version=version, by="players")]
        gone = MessageSaid(text="", seat=0, removed="hidden")
        assert dict(chat([*before, *hidden.events]))[version] == gone  # the feed read live, then the hiding
        async with AsyncClient(server.url) as spectator:
            for reader in (ana, bruno, carla, spectator):
                assert (await messages(reader, game_id))[version] == gone and gone.hidden
        for not_one in (1, version):  # not a message; a message hidden already
            with pytest.raises(RuleViolation) as missing:
                await bruno.hide_message(game_id, not_one)
            assert (missing.value.code, missing.value.details["version"]) == ("no_such_message", not_one)
    assert chat([VersionedEvent(3, {"type": "CardDrawn", "seat": 0})]) == []


async def test_the_table_chat_example_of_docs_sdk_md_says_what_its_comments_say(server: Running) -> None:
    section = (ROOT / "docs" / "sdk.md").read_text(encoding="utf-8").split("## Table chat", 1)[1]
    example = section.split("```python\n", 1)[1].split("```", 1)[0]
    code = compile(example.replace("http://127.0.0.1:8000", server.url), "docs/sdk.md", "exec")
    printed: list[str] = []
    scope = {"print": lambda *values: printed.append(" ".join(map(str, values)))}
    await asyncio.wait_for(asyncio.to_thread(exec, code, scope), 30)
    promised = [line.split("  # ", 1)[1] for line in example.splitlines() if line.strip().startswith("print(")]
    assert printed == promised and len(promised) == 3


async def test_a_watching_player_speaks_on_the_spectators_channel_and_an_operator_hides_any_message(
    server: Running,
) -> None:
    async with table_of(server, ("Ana", "Bruno")) as (game_id, [ana, bruno]):
        async with AsyncClient(server.url) as lobby:
            signed = await lobby.make_player("Rita")
        async with lobby.as_seat(signed.token) as rita, lobby.as_seat(ADMIN) as admin:
            said = await rita.spectator_say(game_id, "Força, Ana!")
            [(version, message)] = chat(said.events)
            assert message == MessageSaid(text="Força, Ana!", seat=None, player=signed.player.player_id)
            assert (await messages(rita, game_id))[version] == message
            assert version not in await messages(ana, game_id)  # the seats read it once the game is over
            private = (await ana.say(game_id, "Só para ti", to=1)).version
            hidden = await admin.hide_as_operator(game_id, private)
            assert [chat_fact(e.event) for e in hidden.events] == [MessageHidden(version=private, by="operator")]
            assert (await messages(bruno, game_id))[private] == MessageSaid(text="", seat=0, to=1, removed="hidden")
            assert (await admin.hide_as_operator(game_id, private)).events == []  # hidden already
            with pytest.raises(Forbidden):
                await rita.hide_as_operator(game_id, version)


# --- on its own ------------------------------------------------------------------------------------------


def test_the_sdk_imports_nothing_of_the_server() -> None:
    code = (
        "import sys\n"
        "class Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0] in {'server', 'projections', 'domain'}:\n"
        "            raise ImportError('the SDK imported ' + name)\n"
        "sys.meta_path.insert(0, Block())\n"
        "import clients.python, clients.sdk, clients.bots, clients.cli\n"
        "from clients.python import Client, AsyncClient\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in {'server', 'projections', 'domain'}))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


def test_the_old_sdk_module_keeps_its_names() -> None:
    assert sdk.Client is AsyncClient and sdk.Seat.__name__ == "Joined" and sdk.Reset is Reset


async def test_the_languages_example_of_docs_sdk_md_says_what_its_comments_say(server: Running) -> None:
    section = (ROOT / "docs" / "sdk.md").read_text(encoding="utf-8").split("## Languages", 1)[1]
    example = section.split("```python\n", 1)[1].split("```", 1)[0]
    code = compile(example.replace("http://127.0.0.1:8000", server.url), "docs/sdk.md", "exec")
    printed: list[str] = []
    await asyncio.wait_for(asyncio.to_thread(exec, code, {"print": printed.append}), 30)
    promised = [line.split("  # ", 1)[1] for line in example.splitlines() if line.strip().startswith("print(")]
    assert printed == promised
