"""Players over the API: made with a name, signed in on another device with a one-time code, seated by
their token, listing their tables awaiting them first, signed out, and erased without a trace of
their name while every game they sat at still folds."""

from __future__ import annotations

import json
from typing import Any

import httpx
import redis.asyncio as aioredis
from websockets.asyncio.client import connect

from server.settings import Settings
from tests.server.conftest import ADMIN, NO_QUOTAS, Running, running
from tests.server.web.test_rest import play_to_the_end
from tests.support.replies import as_bytes, entries_of, fields_of, key_names

API = "/api/v1"


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def new_player(server: Running, name: str = "Ana") -> tuple[str, str]:
    """A player made over the API: its id and token."""
    r = await server.http.post(f"{API}/players", json={"name": name})
    assert r.status_code == 201, r.text
    server.http.cookies.clear()  # an API client: its bearer token, not the browser's cookie
    return r.json()["player"]["player_id"], r.json()["token"]


async def sit(server: Running, game_id: str, token: str, **body: Any) -> httpx.Response:
    return await server.http.post(f"{API}/games/{game_id}/seats", json=body, headers=auth(token))


async def test_a_player_is_made_with_a_name_and_reads_and_renames_itself(server: Running) -> None:
    r = await server.http.post(f"{API}/players", json={"name": "  Ana\u202e  Sousa ", "lang": "pt"})
    assert r.status_code == 201
    made = r.json()
    assert made["player"]["name"] == "Ana Sousa" and made["player"]["lang"] == "pt"  # the bidi override is gone
    assert made["token"].startswith("player.")
    me = await server.get(f"{API}/players/me", made["token"])
    assert me.status_code == 200 and me.json() == made["player"]
    renamed = await server.http.patch(f"{API}/players/me", json={"name": "Aninhas"}, headers=auth(made["token"]))
    assert renamed.status_code == 200 and renamed.json()["name"] == "Aninhas"
    assert (await server.http.post(f"{API}/players", json={"name": " "})).json()["error"] == "malformed"
    bad = await server.http.patch(f"{API}/players/me", json={"lang": "fr"}, headers=auth(made["token"]))
    assert bad.status_code == 400 and bad.json()["details"]["field"] == "lang"
    server.http.cookies.clear()
    assert (await server.get(f"{API}/players/me")).status_code == 401
    assert (await server.get(f"{API}/players/me", "player.nope")).json()["error"] == "unknown_token"


async def test_a_players_token_takes_a_seat_that_belongs_to_it_and_acts_there(server: Running) -> None:
    _, ana = await new_player(server, "Ana")
    game_id = await server.create(2)
    seat = await sit(server, game_id, ana)
    assert seat.status_code == 201 and seat.json()["seat"] == 0
    again = await sit(server, game_id, ana)
    assert again.status_code == 409 and again.json()["error"] == "seat_held" and again.json()["details"]["seat"] == 0
    other = (await server.http.post(f"{API}/games/{game_id}/seats", json={"name": "Rui"})).json()["token"]
    table = (await server.get(f"{API}/games/{game_id}", ana)).json()
    assert table["seat"] == 0 and table["status"] == "active"
    assert table["seats"][0]["name"] == "Ana" and table["seats"][0]["player"] is not None
    assert table["seats"][1]["name"] == "Rui" and table["seats"][1]["player"] is None
    # The stream keeps the player's id, never its name.
    events = (await server.get(f"{API}/games/{game_id}/events", ana)).json()["events"]
    sat = [e["event"] for e in events if e["event"]["type"] == "SeatTaken"]
    assert sat[0]["name"] == "" and sat[0]["player"] == table["seats"][0]["player"]
    # Its token acts at its seat, as the seat's own token would.
    await play_to_the_end(server, game_id, [ana, other])
    assert (await server.get(f"{API}/games/{game_id}", ana)).json()["status"] == "finished"


async def test_a_player_with_no_seat_at_a_table_watches_it(server: Running) -> None:
    _, eva = await new_player(server, "Eva")
    game_id, _ = await server.started(2)
    seen = await server.get(f"{API}/games/{game_id}", eva)
    assert seen.status_code == 200 and seen.json()["seat"] is None
    refused = await server.send(game_id, eva, {"type": "DrawFromDeck"})
    assert refused.status_code == 403 and refused.json()["error"] == "spectator"


async def test_a_one_time_code_signs_the_same_player_in_on_another_device(server: Running) -> None:
    player_id, phone = await new_player(server)
    game_id = await server.create(2)
    assert (await sit(server, game_id, phone)).status_code == 201
    code = await server.http.post(f"{API}/players/me/codes", headers=auth(phone))
    assert code.status_code == 201 and code.json()["expires_in"] == 600
    typed = code.json()["code"].lower().replace("-", " ")  # typed by hand: case and separators do not count
    signed = await server.http.post(f"{API}/players/sign-in", json={"code": typed})
    assert signed.status_code == 200
    laptop = signed.json()["token"]
    assert laptop != phone and signed.json()["player"]["player_id"] == player_id
    mine = (await server.get(f"{API}/players/me/tables", laptop)).json()["tables"]
    assert [(t["game_id"], t["seat"]) for t in mine] == [(game_id, 0)]
    used = await server.http.post(f"{API}/players/sign-in", json={"code": code.json()["code"]})
    assert used.status_code == 401 and used.json()["error"] == "unknown_code"  # once only
    assert (await server.http.post(f"{API}/players/sign-in", json={"code": "nope"})).status_code == 401


async def play_until_it_awaits(server: Running, game_id: str, tokens: list[str], wanted: int) -> None:
    """Play the awaited seats' moves until the game awaits ``wanted`` alone."""
    for _ in range(50):
        awaiting = [a["seat"] for a in (await server.get(f"{API}/games/{game_id}")).json()["awaiting"]]
        if awaiting == [wanted]:
            return
        token = tokens[awaiting[0]]
        commands = (await server.get(f"{API}/games/{game_id}/legal-commands", token)).json()["commands"]
        assert (await server.send(game_id, token, commands[-1])).status_code == 200
    raise AssertionError(f"{game_id} never awaited seat {wanted} alone")


async def test_my_tables_list_those_awaiting_me_first_and_say_what_for(server: Running) -> None:
    _, ana = await new_player(server)
    waiting_for_me, waiting_for_rui = await server.create(2), await server.create(2)
    opened = await server.create(3)
    for game_id in (waiting_for_me, waiting_for_rui, opened):
        assert (await sit(server, game_id, ana)).status_code == 201
    rui = {}
    for game_id in (waiting_for_me, waiting_for_rui):
        rui[game_id] = (await server.http.post(f"{API}/games/{game_id}/seats", json={"name": "Rui"})).json()["token"]
    # The first table awaits Ana, the second Rui: each is played on until it does.
    await play_until_it_awaits(server, waiting_for_me, [ana, rui[waiting_for_me]], 0)
    await play_until_it_awaits(server, waiting_for_rui, [ana, rui[waiting_for_rui]], 1)
    mine = (await server.get(f"{API}/players/me/tables", ana)).json()
    order = [(t["game_id"], t["status"], t["awaiting"]) for t in mine["tables"]]
    assert order[0][0] == waiting_for_me and order[0][2] is not None  # my move, and what for
    assert order[1] == (waiting_for_rui, "active", None)
    assert order[2] == (opened, "open", None)
    page = (await server.get(f"{API}/players/me/tables", ana, limit=2)).json()
    assert len(page["tables"]) == 2 and page["next_cursor"] == 2
    rest = (await server.get(f"{API}/players/me/tables", ana, limit=2, cursor=2)).json()
    assert [t["game_id"] for t in rest["tables"]] == [opened] and rest["next_cursor"] is None


async def test_signing_out_stops_a_token_and_signing_out_everywhere_stops_them_all(server: Running) -> None:
    _, first = await new_player(server)
    code = (await server.http.post(f"{API}/players/me/codes", headers=auth(first))).json()["code"]
    second = (await server.http.post(f"{API}/players/sign-in", json={"code": code})).json()["token"]
    code = (await server.http.post(f"{API}/players/me/codes", headers=auth(first))).json()["code"]
    third = (await server.http.post(f"{API}/players/sign-in", json={"code": code})).json()["token"]
    out = await server.http.post(f"{API}/players/me/sign-out", headers=auth(first))
    assert out.status_code == 200 and out.json() == {"signed_out": 1}
    assert (await server.get(f"{API}/players/me", first)).status_code == 401
    assert (await server.get(f"{API}/players/me", second)).status_code == 200
    everywhere = await server.http.post(f"{API}/players/me/sign-out-everywhere", headers=auth(second))
    assert everywhere.json() == {"signed_out": 2}
    for token in (second, third):
        assert (await server.get(f"{API}/players/me", token)).json()["error"] == "unknown_token"


async def test_an_erased_player_is_named_nowhere_and_its_games_still_fold_and_replay(
    server: Running, redis: aioredis.Redis
) -> None:
    name = "Zeferina Quaresma"
    player_id, token = await new_player(server, name)
    game_id = await server.create(2)
    assert (await sit(server, game_id, token)).status_code == 201
    other = (await server.http.post(f"{API}/games/{game_id}/seats", json={"name": "Rui"})).json()["token"]
    await play_to_the_end(server, game_id, [token, other])
    assert (await server.get(f"{API}/games/{game_id}")).json()["seats"][0]["name"] == name
    erased = await server.http.delete(f"{API}/players/me", headers=auth(token))
    assert erased.status_code == 200 and erased.json() == {"player_id": player_id, "erased": True}
    assert (await server.get(f"{API}/players/me", token)).status_code == 401
    # Every answer shows its seat as a former player; the game folds and replays as before.
    server.app.state.games.tables.forget(game_id)  # folded again from the stream
    table = (await server.get(f"{API}/games/{game_id}")).json()
    assert table["status"] == "finished" and table["seats"][0]["name"] == "A former player"
    assert table["seats"][0]["named"] is False  # a frontend says it in its reader's language
    replay = (await server.get(f"{API}/games/{game_id}/replay", version=3)).json()
    assert replay["seats"][0]["name"] == "A former player"
    export = (await server.get(f"{API}/games/{game_id}/export")).text
    everything = [table, replay, export, (await server.get(f"{API}/games/{game_id}/events")).json()]
    assert name not in json.dumps(everything)
    # No key holds it, nor anything of the player but its id in the games it sat at.
    for key in key_names(await redis.keys("*")):
        assert name.encode() not in key and b"player:" + player_id.encode() not in key
        assert name.encode() not in await everything_in(redis, key), key


async def everything_in(redis: aioredis.Redis, key: bytes) -> bytes:
    """Every byte a key holds, whatever its type."""
    kind = as_bytes(await redis.type(key))
    if kind == b"string":
        return as_bytes(await redis.get(key))
    if kind == b"hash":
        return b" ".join(k + b" " + v for k, v in fields_of(await redis.hgetall(key)).items())
    if kind == b"stream":
        return b" ".join(v for _, fields in entries_of(await redis.xrange(key)) for v in fields.values())
    if kind == b"set":
        return b" ".join(key_names(list(await redis.smembers(key))))
    if kind == b"zset":
        return b" ".join(key_names(await redis.zrange(key, 0, -1)))
    return b""


async def test_the_web_tables_cookie_signs_a_player_in_and_refuses_other_sites(server: Running) -> None:
    made = await server.http.post(f"{API}/players", json={"name": "Ana"})
    cookie = made.headers["set-cookie"]
    assert "ludoteca_player=player." in cookie and "HttpOnly" in cookie and "samesite=lax" in cookie.lower()
    browser = httpx.AsyncClient(base_url=server.url, cookies={"ludoteca_player": made.json()["token"]})
    async with browser:
        assert (await browser.get(f"{API}/players/me")).json()["name"] == "Ana"
        forged = await browser.patch(
            f"{API}/players/me", json={"name": "x"}, headers={"Origin": "https://evil.example"}
        )
        assert forged.status_code == 403 and forged.json()["error"] == "cross_site"
        bare = await browser.patch(f"{API}/players/me", json={"name": "x"})  # no Origin: not a browser's own page
        assert bare.status_code == 403
        own = server.url
        renamed = await browser.patch(f"{API}/players/me", json={"name": "Ana Sousa"}, headers={"Origin": own})
        assert renamed.status_code == 200 and renamed.json()["name"] == "Ana Sousa"
        out = await browser.post(f"{API}/players/me/sign-out", headers={"Origin": own})
        assert out.status_code == 200 and 'ludoteca_player=""' in out.headers["set-cookie"]


async def test_a_socket_with_a_players_token_is_its_seat(server: Running) -> None:
    _, ana = await new_player(server)
    game_id = await server.create(2)
    await sit(server, game_id, ana)
    await server.http.post(f"{API}/games/{game_id}/seats", json={"name": "Rui"})
    async with connect(f"{server.ws_url}{API}/games/{game_id}/ws") as ws:
        await ws.send(json.dumps({"type": "hello", "token": ana, "after": 0}))
        update = json.loads(await ws.recv())
    assert update["type"] == "update" and update["view"]["viewer"] == 0


async def test_players_made_and_codes_tried_from_one_address_are_bounded_an_hour(
    redis: aioredis.Redis, redis_url: str
) -> None:
    quotas = {**NO_QUOTAS, "players_per_hour": 3, "codes_per_hour": 4}
    async with running(Settings(redis_url=redis_url, admin_token=ADMIN, **quotas)) as api:
        made = [await api.http.post(f"{API}/players", json={"name": f"P{n}"}) for n in range(4)]
        assert [r.status_code for r in made] == [201, 201, 201, 429]
        assert made[-1].json()["error"] == "too_many_players" and made[-1].headers["Retry-After"]
        tries = [await api.http.post(f"{API}/players/sign-in", json={"code": f"AAAA-AAA{n}"}) for n in range(5)]
        assert [r.status_code for r in tries] == [401, 401, 401, 401, 429]
        assert tries[-1].json()["error"] == "too_many_codes"
