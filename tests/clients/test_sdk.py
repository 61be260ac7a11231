"""The SDK against a real server: create, join, play to the end, errors, and a watch that resumes."""

from __future__ import annotations

import asyncio

import pytest

from clients.bots import play_random
from clients.sdk import ApiError, Client, Reset
from server.feeds import SLOW
from tests.clients.conftest import Running


async def test_two_random_bots_play_vilar_de_mouros_to_the_end(server: Running) -> None:
    async with Client(server.url) as lobby:
        catalog = await lobby.catalog()
        assert "vilar-de-mouros" in {g["game"] for g in catalog}
        entry = await lobby.create("vilar-de-mouros", 2)
        assert entry["status"] == "open"
        game_id = entry["game_id"]
        assert game_id in {g["game_id"] for g in (await lobby.games("open"))["games"]}
        ana = await lobby.join(game_id, name="Ana")
        bruno = await lobby.join(game_id, name="Bruno", seat=1)
        assert (ana.seat, bruno.seat) == (0, 1)
        bots = [lobby.as_seat(ana.token), lobby.as_seat(bruno.token)]
        try:
            finals = await asyncio.wait_for(
                asyncio.gather(*(play_random(bot, game_id, seed=i) for i, bot in enumerate(bots))), 90
            )
        finally:
            for bot in bots:
                await bot.aclose()
        table = await lobby.table(game_id)
        assert table["status"] == "finished"
        assert [final["seat"] for final in finals] == [0, 1]
        assert all(final["status"] == "finished" for final in finals)
        assert len(table["outcome"]["scores"]) == 2
        assert table["outcome"]["winners"]
        # the revealed log and a full replay of the finished game
        feed = await lobby.events(game_id, after=0, limit=5)
        assert [e["version"] for e in feed["events"]] == [1, 2, 3, 4, 5]
        assert feed["events"][0]["event"]["type"] == "TableOpened"
        full = await lobby.replay(game_id, table["version"], as_="full")
        assert full["seat"] is None and full["view"]["viewer"] == -1
        seat_view = await lobby.replay(game_id, 10, as_=1)
        assert seat_view["seat"] == 1 and seat_view["version"] == 10


async def test_a_refused_command_raises_api_error_with_its_code(server: Running) -> None:
    async with Client(server.url) as lobby:
        game_id = (await lobby.create("vilar-de-mouros", 2))["game_id"]
        seats = [await lobby.join(game_id), await lobby.join(game_id)]
        table = await lobby.table(game_id)
        idle = next(s for s in seats if s.seat not in {a["seat"] for a in table["awaiting"]})
        async with lobby.as_seat(idle.token) as player:
            assert (await player.legal(game_id))["commands"] == []
            with pytest.raises(ApiError) as refused:
                await player.send(game_id, {"type": "DrawFromDeck"})
        assert (refused.value.status, refused.value.code) == (422, "not_your_turn")
        assert refused.value.details["turn"] != idle.seat
        with pytest.raises(ApiError) as spectator:
            await lobby.send(game_id, {"type": "DrawFromDeck"})
        assert spectator.value.code == "spectator"
        with pytest.raises(ApiError) as unknown:
            await lobby.table("0" * 16)
        assert (unknown.value.status, unknown.value.code) == (404, "unknown_game")
        with pytest.raises(ApiError) as bad:
            await lobby.create("vilar-de-mouros", 9)
        assert bad.value.code == "bad_players"


async def test_send_is_idempotent_under_one_command_id(server: Running) -> None:
    async with Client(server.url) as lobby:
        game_id = (await lobby.create("vilar-de-mouros", 2))["game_id"]
        seats = [await lobby.join(game_id), await lobby.join(game_id)]
        table = await lobby.table(game_id)
        seat = seats[table["awaiting"][0]["seat"]]
        async with lobby.as_seat(seat.token) as player:
            legal = await player.legal(game_id)
            command = legal["commands"][0]
            first = await player.send(game_id, command, "the-one", legal["version"])
            again = await player.send(game_id, command, "the-one", legal["version"])
            assert first == again and first["version"] > legal["version"]
            with pytest.raises(ApiError) as stale:
                await player.send(game_id, command, expected_version=legal["version"])
            assert stale.value.code in {"version_conflict", "not_your_turn"} or stale.value.status == 422


async def test_watch_resumes_after_the_server_closes_with_4008(server: Running) -> None:
    game_id, tokens = await server.started(2)
    feeds = server.app.state.feeds
    async with (
        Client(server.url) as spectator,
        Client(server.url, tokens[0]) as p0,
        Client(server.url, tokens[1]) as p1,
    ):
        players = [p0, p1]
        updates = spectator.watch(game_id)
        first = await anext(updates)
        versions = [first["version"]]
        subscribers = set(feeds.feeds[game_id].subscribers)
        assert len(subscribers) == 1
        for sub in subscribers:
            sub.stop(SLOW)  # what the server does to a socket that fell behind: close it with 4008
        for _ in range(3):  # the game moves on while the socket is being closed and resumed
            table = await spectator.table(game_id)
            seat = table["awaiting"][0]["seat"]
            legal = await players[seat].legal(game_id)
            await players[seat].send(game_id, legal["commands"][0])
        target = (await spectator.table(game_id))["version"]
        seen = [e["version"] for e in first["events"]]
        while versions[-1] < target:
            update = await asyncio.wait_for(anext(updates), 10)
            versions.append(update["version"])
            seen += [e["version"] for e in update["events"]]
        resumed = set(feeds.feeds[game_id].subscribers)
        await updates.aclose()
        assert seen == list(range(1, target + 1))  # in order, no gap, no repeat across the resume
        assert len(resumed) == 1 and resumed.isdisjoint(subscribers)  # on a new socket
        assert spectator.resumes == 1


async def test_watch_raises_on_a_refused_hello_and_on_reset(server: Running) -> None:
    game_id, _ = await server.started(2)
    async with Client(server.url, "nope") as stranger:
        with pytest.raises(ApiError) as denied:
            await anext(stranger.watch(game_id))
        assert denied.value.code == "unknown_token"
    async with Client(server.url) as spectator:
        with pytest.raises(Reset) as reset:
            await anext(spectator.watch(game_id, after=10_000))
        assert reset.value.code == "reset" and reset.value.details["version"] < 10_000
