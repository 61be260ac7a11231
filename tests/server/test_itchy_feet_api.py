"""Itchy Feet played through the real server only (HTTP and WebSocket), as its players would.

The server deals with its own unseeded randomness, so no deal can be chosen: every scenario below
plays towards its situation with commands the rules accept (moves built from the options the
server offers, or offers the test builds from hands read through each seat's own token) and gives
up after a bounded number of commands. Card kinds are read from the data file
(``domain.itchy_feet.cards``); the game is never driven by calling the domain.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx
import pytest
import redis.asyncio as aioredis
from websockets.asyncio.client import ClientConnection, connect

from domain.itchy_feet.cards import CARDS
from server.settings import Settings
from tests.server.conftest import ADMIN, AT_ONCE, Running, start_server, stop_server
from tests.server.itchy_bot import ItchyBot, legal, play, table

GAME = "itchy-feet"
ALL_FIVE = {"events": True, "special_objects": True, "forbidden_objects": True, "postcards": True, "characters": True}


def kind(card: str) -> str:
    return CARDS[card].kind


def is_type(card: str, card_type: str) -> bool:
    return CARDS[card].type == card_type


async def new_game(server: Running, players: int, **options: Any) -> tuple[str, list[str]]:
    game_id = await server.create(players, GAME, **options)
    return game_id, await server.seat_all(game_id, players)


async def hand(server: Running, game_id: str, tokens: list[str], seat: int) -> list[str]:
    """A seat's own hand, read with its own token."""
    cards: list[str] = (await table(server, game_id, tokens[seat]))["view"]["seats"][seat]["hand"]
    return cards


async def events_after(server: Running, game_id: str, version: int, token: str | None = None) -> list[dict[str, Any]]:
    r = await server.get(f"/api/v1/games/{game_id}/events", token, after=version)
    assert r.status_code == 200, r.text
    return [e["event"] for e in r.json()["events"]]


async def send_ok(server: Running, game_id: str, token: str, command: dict[str, Any]) -> list[dict[str, Any]]:
    r = await server.send(game_id, token, command)
    assert r.status_code == 200, r.text
    return [e["event"] for e in r.json()["events"]]


async def acting(server: Running, game_id: str) -> int:
    awaiting = (await table(server, game_id))["awaiting"]
    assert [a["reason"] for a in awaiting] == ["action"], awaiting
    seat: int = awaiting[0]["seat"]
    return seat


# -- 1. three seats connected at once --------------------------------------------------------


class Socket:
    """A seat's WebSocket, read in the background: every message lands in ``messages``."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.messages: list[dict[str, Any]] = []
        self.arrived = asyncio.Event()
        self.task = asyncio.create_task(self._read())

    async def _read(self) -> None:
        async for raw in self.ws:
            self.messages.append(json.loads(raw))
            self.arrived.set()

    async def wait_for(self, check: Any, seconds: float = 10) -> dict[str, Any]:
        async with asyncio.timeout(seconds):
            while True:
                found = next((m for m in self.messages if check(m)), None)
                if found is not None:
                    return found
                self.arrived.clear()
                await self.arrived.wait()

    def versions(self) -> list[int]:
        return [e["version"] for m in self.messages if m["type"] == "update" for e in m["events"]]

    async def command(self, command: dict[str, Any], command_id: str) -> int:
        """Send a command on the socket and wait for its ack (pausing on ``too_many``)."""
        for _ in range(50):
            await self.ws.send(json.dumps({"type": "command", "command": command, "command_id": command_id}))
            answer = await self.wait_for(lambda m: m.get("command_id") == command_id)
            if answer["type"] == "ack":
                version: int = answer["version"]
                return version
            assert answer["error"] == "too_many", answer
            self.messages.remove(answer)
            await asyncio.sleep(0.1)
        raise AssertionError("the socket kept refusing commands as too many")


@pytest.mark.timeout(60)
async def test_three_seats_connected_at_once_each_see_every_version_of_a_whole_game_in_order(server: Running) -> None:
    """A 3-seat game (no expansion) played to its winner while all three seats hold a WebSocket:
    every third round's command goes over the acting seat's socket (acked with its id), the rest
    over HTTP; each socket receives every version from 1 to the last exactly once, in order, sees
    the cards it draws and never another seat's, and ends on a finished view."""
    server.deal_from("three-sockets")
    game_id, tokens = await new_game(server, 3)
    sockets = []
    for token in tokens:
        ws = await connect(f"{server.ws_url}/api/v1/games/{game_id}/ws")
        await ws.send(json.dumps({"type": "hello", "token": token, "after": 0}))
        sockets.append(Socket(ws))
    try:
        bot = ItchyBot("three-sockets")
        over_ws = 0
        for n in range(3000):
            awaiting = (await table(server, game_id))["awaiting"]
            if not awaiting:
                break
            seat = bot.rng.choice(sorted({a["seat"] for a in awaiting}))
            command = await bot.move(server, game_id, tokens[seat], seat)
            assert command is not None, f"seat {seat} is awaited with no move"
            if n % 3 == 0:
                await sockets[seat].command(command, f"ws-{n}")
                over_ws += 1
            else:
                assert (await server.send(game_id, tokens[seat], command, command_id=f"http-{n}")).status_code == 200
        final = await table(server, game_id)
        assert final["status"] == "finished" and final["outcome"]["winner"] is not None
        last = final["version"]
        assert over_ws > 10
        for seat, sock in enumerate(sockets):
            update = await sock.wait_for(lambda m: m["type"] == "update" and m["version"] == last)
            assert sock.versions() == list(range(1, last + 1)), f"seat {seat} missed or repeated a version"
            assert update["view"]["finished"] is True and update["view"]["viewer"] == seat
            drawn = [
                e["event"]
                for m in sock.messages
                if m["type"] == "update"
                for e in m["events"]
                if e["event"]["type"] == "ItchyCardDrawn"
            ]
            assert drawn and all((d["card"] is not None) == (d["seat"] == seat) for d in drawn)
    finally:
        for sock in sockets:
            await sock.ws.close()
            await sock.task


# -- 2. all five expansions, every player count ----------------------------------------------

MAX_COMMANDS = 15_000


@pytest.mark.timeout(90)
@pytest.mark.parametrize("players", range(2, 7))
async def test_a_game_with_all_five_expansions_runs_to_a_winner_over_the_api(server: Running, players: int) -> None:
    """events, special objects, forbidden objects, postcards and characters together: the seeded
    bot (tests/server/itchy_bot.py) plays awaited seats to a winner, each move built pick by pick
    among the options the server offers."""
    server.deal_from(f"all-five/{players}")
    game_id, tokens = await new_game(server, players, **ALL_FIVE)
    sent = await play(server, game_id, tokens, ItchyBot(f"all-five/{players}", postcards=True), MAX_COMMANDS)
    final = await table(server, game_id)
    assert final["status"] == "finished", f"{players} players: no winner after {sent} commands"
    outcome = final["outcome"]
    assert outcome["winners"] == [outcome["winner"]] and outcome["places"][outcome["winner"]] == 1
    assert outcome["won_by"] in ("centre", "postcards") and len(outcome["scores"]) == players


# -- 3. trades -------------------------------------------------------------------------------


@pytest.mark.timeout(30)
async def test_an_accepted_trade_swaps_the_cards_face_up_and_the_offerer_draws_a_bonus_card(server: Running) -> None:
    """First turn of a 3-seat game: the acting seat offers its first card for the kind of the next
    seat's first card (read with that seat's token), so the target can accept."""
    game_id, tokens = await new_game(server, 3)
    offerer = await acting(server, game_id)
    target = (offerer + 1) % 3
    mine, theirs = await hand(server, game_id, tokens, offerer), await hand(server, game_id, tokens, target)
    give, wanted = mine[0], theirs[0]
    offer = {"type": "OfferTrade", "target": target, "give": [give], "ask": [kind(wanted)]}
    offered = await send_ok(server, game_id, tokens[offerer], offer)
    assert [e["type"] for e in offered] == ["TradeOffered"]
    assert (await table(server, game_id))["awaiting"] == [{"seat": target, "reason": "trade_answer"}]
    assert {"type": "AcceptTrade"} in await legal(server, game_id, tokens[target])

    before = (await table(server, game_id))["version"]
    await send_ok(server, game_id, tokens[target], {"type": "AcceptTrade"})
    seen = await events_after(server, game_id, before, tokens[offerer])
    types = [e["type"] for e in seen]
    assert types[:4] == ["TradeAccepted", "TradeCompleted", "ItchyCardDrawn", "TurnEnded"], types
    completed, bonus = seen[1], seen[2]
    assert completed == {
        "type": "TradeCompleted",
        "offerer": offerer,
        "target": target,
        "given": [give],
        "received": [wanted],
    }
    assert bonus["seat"] == offerer and bonus["reason"] == "bonus" and bonus["card"] is not None
    assert sorted(await hand(server, game_id, tokens, offerer)) == sorted([*mine[1:], wanted, bonus["card"]])
    assert sorted(await hand(server, game_id, tokens, target)) == sorted([*theirs[1:], give])
    # the others see the exchange face up, but not the bonus card
    third = (offerer + 2) % 3
    for viewer in (tokens[third], tokens[target], None):
        other = await events_after(server, game_id, before, viewer)
        assert other[1] == completed and other[2]["card"] is None


@pytest.mark.timeout(30)
async def test_a_rejected_trade_looks_the_same_to_the_others_whether_or_not_the_target_held_the_cards(
    server: Running,
) -> None:
    """First turn of a 3-seat game: an offer asking a kind the target holds (AcceptTrade listed)
    and one asking an object kind it lacks (AcceptTrade not listed, refused ``lacks_cards``), both
    rejected. Every seat and a spectator see the same events for both, but for the window id; the
    offerer picks an action again each time."""
    game_id, tokens = await new_game(server, 3)
    offerer = await acting(server, game_id)
    target, third = (offerer + 1) % 3, (offerer + 2) % 3
    mine, theirs = await hand(server, game_id, tokens, offerer), await hand(server, game_id, tokens, target)
    lacking = next(c for c in sorted(CARDS) if is_type(c, "object") and kind(c) not in {kind(t) for t in theirs})
    seen: dict[str, list[list[dict[str, Any]]]] = {"offerer": [], "target": [], "third": [], "spectator": []}
    viewers = {"offerer": tokens[offerer], "target": tokens[target], "third": tokens[third], "spectator": None}
    for ask, could in ((kind(theirs[0]), True), (kind(lacking), False)):
        await send_ok(
            server, game_id, tokens[offerer], {"type": "OfferTrade", "target": target, "give": [mine[0]], "ask": [ask]}
        )
        answers = await legal(server, game_id, tokens[target])
        assert ({"type": "AcceptTrade"} in answers) is could and {"type": "RejectTrade"} in answers
        before = (await table(server, game_id))["version"]
        if not could:
            refused = await server.send(game_id, tokens[target], {"type": "AcceptTrade"})
            assert refused.status_code == 422 and refused.json()["error"] == "lacks_cards"
            assert (await table(server, game_id))["version"] == before  # nothing logged
        await send_ok(server, game_id, tokens[target], {"type": "RejectTrade"})
        for who, token in viewers.items():
            events = await events_after(server, game_id, before, token)
            seen[who].append([{**e, "window": "w"} for e in events])
        assert (await table(server, game_id))["awaiting"] == [{"seat": offerer, "reason": "action"}]
    for who, (held, lacked) in seen.items():
        assert held == lacked == [{"type": "TradeRejected", "window": "w", "timed_out": False}], who
    assert await hand(server, game_id, tokens, target) == theirs  # nothing moved
    assert (await table(server, game_id))["view"]["rejected_offers"] == 2


@asynccontextmanager
async def clocked_server(redis_url: str) -> AsyncIterator[Running]:
    """A server whose deadline worker looks for due windows every 50 ms."""
    settings = Settings(redis_url=redis_url, admin_token=ADMIN, deadline_interval=0.05, **AT_ONCE)
    srv, task, app, port = await start_server(settings)
    url = f"http://127.0.0.1:{port}"
    try:
        async with httpx.AsyncClient(base_url=url, timeout=10) as http:
            yield Running(url, app, http)
    finally:
        await stop_server(srv, task)


@pytest.mark.timeout(30)
async def test_an_unanswered_trade_offer_is_closed_as_rejected_by_the_servers_deadline_worker(
    redis: aioredis.Redis, redis_url: str
) -> None:
    """``trade_answer_ms`` 300 and a deadline worker every 50 ms: the target never answers, the
    server's clock closes the offer (``TradeRejected`` timed out, once) and the offerer acts again."""
    async with clocked_server(redis_url) as server:
        game_id, tokens = await new_game(server, 2, trade_answer_ms=300)
        offerer = await acting(server, game_id)
        target = 1 - offerer
        give = (await hand(server, game_id, tokens, offerer))[0]
        offered = await send_ok(
            server,
            game_id,
            tokens[offerer],
            {"type": "OfferTrade", "target": target, "give": [give], "ask": ["passport"]},
        )
        window, opened = offered[0]["window"], offered[0]["opened_at_ms"]
        assert (await table(server, game_id))["view"]["trade"]["due_ms"] == opened + 300
        async with asyncio.timeout(5):
            while (await table(server, game_id))["view"]["trade"] is not None:
                await asyncio.sleep(0.02)
        await asyncio.sleep(0.3)  # time for the worker to fire again, if it were to
        events = await events_after(server, game_id, 0)
        closed = [e for e in events if e["type"] == "TradeRejected"]
        assert closed == [{"type": "TradeRejected", "window": window, "timed_out": True}]
        assert (await table(server, game_id))["awaiting"] == [{"seat": offerer, "reason": "action"}]
        late = await server.send(game_id, tokens[target], {"type": "AcceptTrade"})
        assert late.status_code == 422 and late.json()["error"] == "not_your_turn"
        forged = await server.send(game_id, tokens[target], {"type": "CloseWindow", "window": window})
        assert forged.status_code == 422


# -- 4. out-of-turn moments ------------------------------------------------------------------


@pytest.mark.timeout(60)
async def test_a_mousetrap_interrupts_another_players_action_which_costs_nothing_and_ends_that_turn(
    server: Running,
) -> None:
    """3 seats, special objects. Every action opens a reaction window; seats take Draw (pulling
    cards out of the deck) and keep Mousetraps when discarding down to the limit, and waiting
    seats pass until one of them is listed a ``PlayMousetrap``: it springs it. The action never
    happens (the actor's hand and the deck are as before), the actor's turn ends, the next starts."""
    game_id, tokens = await new_game(server, 3, special_objects=True)
    for _ in range(2000):
        tbl = await table(server, game_id)
        reasons = {a["reason"] for a in tbl["awaiting"]}
        assert tbl["status"] == "active"
        if reasons == {"react"}:
            waiting = [a["seat"] for a in tbl["awaiting"]]
            options = {seat: await legal(server, game_id, tokens[seat]) for seat in waiting}
            trap = next(((s, c) for s, cs in options.items() for c in cs if c["type"] == "PlayMousetrap"), None)
            if trap is not None:
                break
            for seat in waiting:
                await send_ok(server, game_id, tokens[seat], {"type": "PassReaction"})
        elif reasons == {"discard"}:
            for a in tbl["awaiting"]:
                listed = await legal(server, game_id, tokens[a["seat"]])
                keep = [c for c in listed if CARDS[c["card"]].effect != "mousetrap"] or listed
                await send_ok(server, game_id, tokens[a["seat"]], keep[0])
        else:
            seat = tbl["awaiting"][0]["seat"]
            listed = await legal(server, game_id, tokens[seat])
            await send_ok(server, game_id, tokens[seat], next((c for c in listed if c["type"] == "Draw"), listed[0]))
    else:
        pytest.fail("no seat held a Mousetrap in a reaction window within 2000 rounds")
    reactor, command = trap
    window = tbl["view"]["window"]
    actor = window["seat"]
    actor_hand = await hand(server, game_id, tokens, actor)
    reactor_hand = await hand(server, game_id, tokens, reactor)
    deck_count = tbl["view"]["deck_count"]
    before = tbl["version"]

    await send_ok(server, game_id, tokens[reactor], command)
    events = await events_after(server, game_id, before)
    assert events[:3] == [
        {
            "type": "MousetrapSprung",
            "window": window["window"],
            "seat": reactor,
            "card": command["card"],
            "interrupted": actor,
        },
        {"type": "TurnEnded", "seat": actor},
        {"type": "TravelTurnBegan", "seat": (actor + 1) % 3},
    ], events
    after = await table(server, game_id)
    assert after["view"]["window"] is None and after["view"]["turn"] == (actor + 1) % 3
    assert await hand(server, game_id, tokens, actor) == actor_hand  # the action's cost was not paid
    assert after["view"]["deck_count"] == deck_count  # nothing was drawn
    assert sorted(await hand(server, game_id, tokens, reactor)) == sorted(
        c for c in reactor_hand if c != command["card"]
    )
    assert after["view"]["discard"][-1] == command["card"]


@pytest.mark.timeout(60)
async def test_a_fourth_postcard_received_in_a_trade_wins_out_of_turn_at_once(server: Running) -> None:
    """2 seats, postcards. Seats draw and discard down to the limit keeping their postcards; a seat
    holding 3 steals from the other (who then has none) instead of drawing, so nobody reaches 4 in
    its own turn. Once both together hold 4, the acting seat offers the other as many postcards as
    it lacks for one of its other cards; the other accepts and wins there, in the offerer's turn,
    before any bonus card."""
    game_id, tokens = await new_game(server, 2, postcards=True)

    def postcards(cards: list[str]) -> list[str]:
        return [c for c in cards if is_type(c, "postcard")]

    for _ in range(1500):
        tbl = await table(server, game_id)
        assert tbl["status"] == "active", "the game ended another way"
        awaited = tbl["awaiting"][0]
        seat, other = awaited["seat"], 1 - awaited["seat"]
        mine, theirs = await hand(server, game_id, tokens, seat), await hand(server, game_id, tokens, other)
        if awaited["reason"] == "discard":
            await send_ok(
                server,
                game_id,
                tokens[seat],
                {"type": "DiscardDownToSeven", "card": next(c for c in mine if not is_type(c, "postcard"))},
            )
            continue
        assert awaited["reason"] == "action"
        kept = [c for c in theirs if not is_type(c, "postcard")]
        lacking = 4 - len(postcards(theirs))
        if len(postcards(mine)) >= lacking and kept:
            break
        payable = [c for c in mine if not is_type(c, "postcard")]
        if len(postcards(mine)) == 3 and theirs and payable:  # the other holds none: safe to steal
            await send_ok(server, game_id, tokens[seat], {"type": "Steal", "target": other, "pay": payable[0]})
        else:
            await send_ok(server, game_id, tokens[seat], {"type": "Draw"})
    else:
        pytest.fail("the two seats never held 4 postcards together within 1500 commands")
    give = postcards(mine)[:lacking]
    offer = {"type": "OfferTrade", "target": other, "give": give, "ask": [kind(kept[0])]}
    await send_ok(server, game_id, tokens[seat], offer)
    before = (await table(server, game_id))["version"]
    await send_ok(server, game_id, tokens[other], {"type": "AcceptTrade"})
    events = await events_after(server, game_id, before)
    # the game is over at once: the server's seed is revealed (docs/fair-play.md)
    assert [e["type"] for e in events] == ["TradeAccepted", "TradeCompleted", "TripWon", "SeedRevealed"]
    assert events[2] == {"type": "TripWon", "seat": other, "how": "postcards"}
    final = await table(server, game_id)
    assert final["status"] == "finished" and final["view"]["turn"] == seat  # won in the other's turn
    assert final["outcome"]["winner"] == other and final["outcome"]["won_by"] == "postcards"
    assert len(postcards(final["view"]["seats"][other]["hand"])) == 4
    assert final["view"]["seats"][seat]["hand_count"] == len(mine) - lacking + 1  # no bonus card
