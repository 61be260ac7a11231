"""Ratings over the API: rated tables seat players only (one from each address), the rater rates each
finished one once, the leaderboard lists players past their provisional games, a player's page
shows its ratings when it chose so, and a rebuild from the logs gives the same numbers."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
import redis.asyncio as aioredis

from server.service.ratings import PROVISIONAL_GAMES, Rating, Ratings, ordinal
from server.settings import Settings
from tests.server.conftest import ADMIN, AT_ONCE, NO_QUOTAS, Running, running
from tests.server.web.test_rest import play_to_the_end

API = "/api/v1"


@pytest.fixture
async def api(redis: aioredis.Redis, redis_url: str) -> AsyncIterator[Running]:
    """A server that believes the loopback proxy's X-Forwarded-For, so that each test player has an
    address of its own, and rates finished tables at once."""
    settings = Settings(
        redis_url=redis_url,
        admin_token=ADMIN,
        trusted_proxies=("127.0.0.1",),
        rating_interval=0.05,
        **NO_QUOTAS,
        **AT_ONCE,
    )
    async with running(settings) as server:
        yield server


class Person:
    """A player and the address it comes from."""

    def __init__(self, api: Running, name: str, address: str) -> None:
        self.api, self.name, self.address = api, name, address
        self.token = ""
        self.player_id = ""

    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}", "X-Forwarded-For": self.address}

    async def make(self) -> Person:
        r = await self.api.http.post(
            f"{API}/players", json={"name": self.name}, headers={"X-Forwarded-For": self.address}
        )
        assert r.status_code == 201, r.text
        self.api.http.cookies.clear()
        self.token, self.player_id = r.json()["token"], r.json()["player"]["player_id"]
        return self

    async def sit(self, game_id: str) -> httpx.Response:
        return await self.api.http.post(f"{API}/games/{game_id}/seats", json={}, headers=self.headers())


async def rated_table(api: Running, players: int = 2) -> str:
    r = await api.http.post(f"{API}/games", json={"game": "vilar-de-mouros", "players": players, "rated": True})
    assert r.status_code == 201, r.text
    game_id: str = r.json()["game_id"]
    return game_id


async def play_rated(api: Running, people: list[Person]) -> str:
    game_id = await rated_table(api, len(people))
    for person in people:
        assert (await person.sit(game_id)).status_code == 201
    await play_to_the_end(api, game_id, [p.token for p in people])
    return game_id


async def rated_count(api: Running, game_id: str, wanted: int) -> dict[str, Any]:
    """The player pages' sum of games once the rater has caught up with ``wanted`` games."""
    async with asyncio.timeout(30):  # a loaded machine's rater is slow, never stuck
        while True:
            board = (await api.http.get(f"{API}/leaderboards/vilar-de-mouros", params={"limit": 200})).json()
            if sum(p["games"] for p in board["players"]) >= wanted:
                return board  # type: ignore[no-any-return]
            await asyncio.sleep(0.05)


async def test_a_rated_table_seats_players_only_and_one_from_each_address(api: Running) -> None:
    game_id = await rated_table(api, 3)
    anonymous = await api.http.post(f"{API}/games/{game_id}/seats", json={"name": "Rui"})
    assert anonymous.status_code == 422 and anonymous.json()["error"] == "rated_needs_players"
    bot = await api.http.post(f"{API}/games/{game_id}/seats", json={"bot": "greedy"})
    assert bot.status_code == 422 and bot.json()["error"] == "rated_needs_players"
    ana = await Person(api, "Ana", "10.0.0.1").make()
    twin = await Person(api, "Ana's other player", "10.0.0.1").make()
    assert (await ana.sit(game_id)).status_code == 201
    second = await twin.sit(game_id)
    assert second.status_code == 409 and second.json()["error"] == "rated_one_per_address"


async def test_ratings_after_a_series_of_games_equal_a_rebuild_from_the_logs(api: Running) -> None:
    people = [await Person(api, name, f"10.0.1.{n}").make() for n, name in enumerate(["Ana", "Rui", "Eva"])]
    pairs = [(0, 1), (1, 2), (0, 2), (0, 1), (1, 2), (0, 2), (2, 0), (1, 0), (2, 1), (0, 1)]
    for a, b in pairs:
        await play_rated(api, [people[a], people[b]])
    board = await rated_count(api, "", 2 * len(pairs))
    listed = {p["name"]: p for p in board["players"]}
    assert set(listed) == {"Ana", "Rui", "Eva"}  # each played PROVISIONAL_GAMES or more
    assert all(p["games"] >= PROVISIONAL_GAMES and not p["provisional"] for p in listed.values())
    assert [p["rating"] for p in board["players"]] == sorted((p["rating"] for p in board["players"]), reverse=True)
    ratings = api.app.state.ratings
    assert await ratings.rebuild(["vilar-de-mouros"]) == len(pairs)
    again = (await api.http.get(f"{API}/leaderboards/vilar-de-mouros", params={"limit": 200})).json()
    assert again == board
    # Rating a game twice changes nothing: the rater's next pass leaves them.
    assert await ratings.catch_up(await api.app.state.games.store.now_ms(), grace_ms=0) == 0


async def test_a_players_page_is_shown_once_it_is_public_and_an_erased_player_leaves_the_board(api: Running) -> None:
    ana, rui = [await Person(api, name, f"10.0.2.{n}").make() for n, name in enumerate(["Ana", "Rui"])]
    for _ in range(PROVISIONAL_GAMES):
        await play_rated(api, [ana, rui])
    await rated_count(api, "", 2 * PROVISIONAL_GAMES)
    hidden = await api.http.get(f"{API}/players/{ana.player_id}")
    assert hidden.status_code == 200 and hidden.json() == {
        "player_id": ana.player_id, "name": "Ana", "public": False, "ratings": [], "history": [], "games": 0, "wins": 0
    }  # fmt: skip
    made_public = await api.http.patch(f"{API}/players/me", json={"public": True}, headers=ana.headers())
    assert made_public.status_code == 200 and made_public.json()["public"] is True
    page = (await api.http.get(f"{API}/players/{ana.player_id}")).json()
    assert page["name"] == "Ana" and page["games"] == PROVISIONAL_GAMES
    assert [r["game"] for r in page["ratings"]] == ["vilar-de-mouros"] and len(page["history"]) == PROVISIONAL_GAMES
    assert all(point["place"] in (1, 2) for point in page["history"])
    assert (await api.http.delete(f"{API}/players/me", headers=rui.headers())).status_code == 200
    board = (await api.http.get(f"{API}/leaderboards/vilar-de-mouros")).json()
    assert [p["name"] for p in board["players"]] == ["Ana"]
    assert (await api.http.get(f"{API}/leaderboards/chess")).status_code == 404
    gone = await api.http.get(f"{API}/players/{rui.player_id}")
    assert gone.status_code == 404 and gone.json()["error"] == "no_such_player"


async def test_an_unrated_table_and_a_resignation_count_as_they_should(api: Running) -> None:
    ana, rui, eva = [await Person(api, name, f"10.0.3.{n}").make() for n, name in enumerate(["Ana", "Rui", "Eva"])]
    unrated = await api.create(2)
    for person in (ana, rui):
        await person.sit(unrated)
    await play_to_the_end(api, unrated, [ana.token, rui.token])
    game_id = await rated_table(api, 3)
    for person in (ana, rui, eva):
        assert (await person.sit(game_id)).status_code == 201
    resigned = await api.send(game_id, rui.token, {"type": "Resign"})
    assert resigned.status_code == 200
    async with asyncio.timeout(60):  # the people move; the table's bot plays on for Rui (slow on a loaded machine)
        while True:
            await play_to_the_end(api, game_id, [ana.token, rui.token, eva.token])
            if (await api.get(f"{API}/games/{game_id}")).json()["status"] == "finished":
                break
            await asyncio.sleep(0.1)
    book = api.app.state.ratings.book
    async with asyncio.timeout(30):  # the rater's worker rates a finished table soon after, not at once
        while not (history := await book.history(rui.player_id)):
            await asyncio.sleep(0.05)
    assert len(history) == 1 and b'"place":3' in history[0]  # the one who left placed last, the bot's play aside
    for person in (ana, eva):  # the unrated table counted for none
        assert len(await book.history(person.player_id)) == 1


async def test_a_page_read_while_a_game_is_rated_still_lists_its_players_best_first(
    api: Running, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The board is read in two steps (the order, then the ratings): a game rated between them must
    not list the page out of order."""
    ratings: Ratings = api.app.state.ratings
    book, kind = ratings.book, "vilar-de-mouros"
    first = {"ana": Rating(30.0, 2.0, 6, 4), "rui": Rating(25.0, 2.0, 6, 2)}
    await book.record(kind, "g1", 1, first, {}, {pid: ordinal(r) for pid, r in first.items()})
    read = book.ratings

    async def rated_meanwhile(game: str, players: Any) -> dict[str, Rating]:
        monkeypatch.setattr(book, "ratings", read)
        after = {"ana": Rating(20.0, 2.0, 7, 4), "rui": Rating(28.0, 2.0, 7, 3)}
        await book.record(kind, "g2", 2, after, {}, {pid: ordinal(r) for pid, r in after.items()})
        return await read(game, players)

    monkeypatch.setattr(book, "ratings", rated_meanwhile)
    board = await ratings.leaderboard(kind, 10, 0)
    assert [p.player_id for p in board.players] == ["rui", "ana"]
    assert [p.rating for p in board.players] == [28.0 - 6.0, 20.0 - 6.0]
