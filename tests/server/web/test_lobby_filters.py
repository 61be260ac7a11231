"""Finding a game (docs/API.md, "Finding a table"): the lobby's filters and quick play."""

from __future__ import annotations

from typing import Any

from tests.server.conftest import Running

API = "/api/v1"


async def open_table(server: Running, **body: Any) -> str:
    r = await server.http.post(f"{API}/games", json=body)
    assert r.status_code == 201, r.text
    return str(r.json()["game_id"])


async def listed(server: Running, **query: Any) -> list[str]:
    r = await server.http.get(f"{API}/games", params=query)
    assert r.status_code == 200, r.text
    return [entry["game_id"] for entry in r.json()["games"]]


async def test_the_lobby_lists_open_tables_by_game_size_clock_rated_and_language(quick: Running) -> None:
    vilar3 = await open_table(quick, game="vilar-de-mouros", players=3, rated=True)
    itchy = await open_table(quick, game="itchy-feet", players=2, clock="one-day", lang="gl")
    vilar2 = await open_table(quick, game="vilar-de-mouros", players=2, lang="pt")
    mine = {vilar3, itchy, vilar2}
    assert [g for g in await listed(quick, game="vilar-de-mouros") if g in mine] == [vilar3, vilar2]
    assert [g for g in await listed(quick, lang="gl") if g in mine] == [itchy]
    assert [g for g in await listed(quick, clock="one-day") if g in mine] == [itchy]
    assert [g for g in await listed(quick, clock="none") if g in mine] == [vilar3, vilar2]
    assert [g for g in await listed(quick, rated="true") if g in mine] == [vilar3]
    assert [g for g in await listed(quick, players=3, game="vilar-de-mouros") if g in mine] == [vilar3]
    entry = next(e for e in (await quick.http.get(f"{API}/games")).json()["games"] if e["game_id"] == itchy)
    assert (entry["clock"], entry["lang"], entry.get("rated", False)) == ("one-day", "gl", False)
    # one at a time: the cursor goes on from the last table looked at
    first = (await quick.http.get(f"{API}/games", params={"game": "vilar-de-mouros", "limit": 1})).json()
    after = (
        await quick.http.get(f"{API}/games", params={"game": "vilar-de-mouros", "cursor": first["next_cursor"]})
    ).json()
    assert [e["game_id"] for e in first["games"]] == [vilar3] and vilar2 in [e["game_id"] for e in after["games"]]
    for query, code in (
        ({"clock": "weekly"}, "malformed"),
        ({"lang": "fr"}, "malformed"),
        ({"rated": "yes"}, "malformed"),
        ({"game": "chess"}, "unknown_game_type"),
    ):
        r = await quick.http.get(f"{API}/games", params=query)
        assert r.status_code == 400 and r.json()["error"] == code, (query, r.text)


async def test_quick_play_seats_a_newcomer_at_the_oldest_table_that_fits_or_opens_one(quick: Running) -> None:
    ask = {"game": "itchy-feet", "players": 2, "lang": "gl"}
    r = await quick.http.post(f"{API}/games/quick-play", json={**ask, "name": "Ana"})
    assert r.status_code == 201, r.text
    opened = r.json()
    assert opened["opened"] is True and opened["seat"] == 0 and opened["token"] and opened["creator_token"]
    # a table of another language does not fit
    r = await quick.http.post(f"{API}/games/quick-play", json={**ask, "lang": "pt", "name": "Rui"})
    assert r.status_code == 201 and r.json()["game_id"] != opened["game_id"]
    r = await quick.http.post(f"{API}/games/quick-play", json={**ask, "name": "Bea"})
    assert r.status_code == 200, r.text
    joined = r.json()
    assert (joined["game_id"], joined["seat"], joined["opened"]) == (opened["game_id"], 1, False)
    table = (await quick.http.get(f"{API}/games/{opened['game_id']}")).json()
    assert table["status"] == "active" and [s["name"] for s in table["seats"]] == ["Ana", "Bea"]
    # full now: the next newcomer opens a table of its own
    r = await quick.http.post(f"{API}/games/quick-play", json={**ask, "name": "Eva"})
    assert r.status_code == 201 and r.json()["game_id"] != opened["game_id"]


async def test_a_player_who_quick_plays_again_keeps_the_seat_it_holds(quick: Running) -> None:
    r = await quick.http.post(f"{API}/players", json={"name": "Xoán"})
    player = {"Authorization": f"Bearer {r.json()['token']}"}
    quick.http.cookies.clear()
    first = await quick.http.post(f"{API}/games/quick-play", json={"game": "miss-liz-parks"}, headers=player)
    again = await quick.http.post(f"{API}/games/quick-play", json={"game": "miss-liz-parks"}, headers=player)
    assert first.status_code == 201 and again.status_code == 200, again.text
    assert again.json()["game_id"] == first.json()["game_id"] and again.json()["seat"] == first.json()["seat"]


async def test_quick_play_refuses_what_it_cannot_match(quick: Running) -> None:
    for body, code in (
        ({"game": "chess"}, "unknown_game_type"),
        ({"game": "itchy-feet", "clock": "weekly"}, "malformed"),
        ({"game": "itchy-feet", "players": 9}, "bad_players"),
    ):
        r = await quick.http.post(f"{API}/games/quick-play", json=body)
        assert r.status_code in (400, 422) and r.json()["error"] == code, (body, r.text)
