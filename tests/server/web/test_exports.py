"""Exports per viewpoint (docs/API.md, "Exports") and a seat's entropy, over a real server: who may export
what, what each viewpoint holds, what imports, and that every export verifies as far as it can."""

from __future__ import annotations

import json
from typing import Any

import pytest

from domain.catalog import GAMES
from projections.export import read
from projections.verify import verify
from tests.server.conftest import ADMIN, Running
from tests.server.web.test_rest import play_to_the_end

ENTROPY = "a1" * 32


async def seated(server: Running, entropies: list[str]) -> tuple[str, list[str]]:
    game_id = await server.create(len(entropies))
    tokens = []
    for i, entropy in enumerate(entropies):
        r = await server.http.post(f"/api/v1/games/{game_id}/seats", json={"name": f"P{i}", "entropy": entropy})
        assert r.status_code == 201, r.text
        tokens.append(r.json()["token"])
    return game_id, tokens


async def export(server: Running, game_id: str, as_: str | None, token: str | None = None) -> Any:
    r = await server.http.get(
        f"/api/v1/games/{game_id}/export",
        params={"as": as_} if as_ else {},
        headers={"Authorization": f"Bearer {token}"} if token else {},
    )
    return r


def facts(body: bytes) -> list[dict[str, Any]]:
    return [json.loads(line) for line in body.splitlines()[1:]]


async def test_a_seats_entropy_is_in_its_seat_taken_and_a_bots_seat_takes_none(server: Running) -> None:
    game_id, tokens = await seated(server, [ENTROPY, "b2" * 8])
    r = await export(server, game_id, "seat", tokens[0])
    header = json.loads(r.content.splitlines()[0])
    assert header["commitments"]["entropies"] == [ENTROPY, "b2" * 8]
    assert len(header["commitments"]["seed_hash"]) == 64 and header["commitments"]["decks"]
    taken = [f["event"] for f in facts(r.content) if f["event"]["type"] == "SeatTaken"]
    assert [t["entropy"] for t in taken] == [ENTROPY, "b2" * 8]
    other = await server.create(2)
    bot = await server.http.post(f"/api/v1/games/{other}/seats", json={"bot": "random", "entropy": ENTROPY})
    assert bot.status_code == 400 and bot.json()["details"]["field"] == "entropy"
    odd = await server.http.post(f"/api/v1/games/{other}/seats", json={"entropy": "not hex!"})
    assert odd.status_code == 400 and odd.json()["error"] == "malformed"
    long = await server.http.post(f"/api/v1/games/{other}/seats", json={"entropy": "a" * 129})
    assert long.status_code == 400 and long.json()["details"]["field"] == "entropy"


async def test_who_may_export_what_before_and_after_the_end(server: Running) -> None:
    game_id, tokens = await seated(server, [ENTROPY, ""])
    assert (await export(server, game_id, None)).status_code == 401  # the server's, by default, before the end
    assert (await export(server, game_id, "server", tokens[0])).json()["error"] == "not_admin"
    assert (await export(server, game_id, "everyone")).json()["error"] == "game_not_finished"
    assert (await export(server, game_id, "seat")).json()["error"] == "spectator"
    assert (await export(server, game_id, "judge")).json()["details"]["field"] == "as"
    mine = await export(server, game_id, "seat", tokens[0])
    theirs = await export(server, game_id, "seat", tokens[1])
    public = await export(server, game_id, "spectator")
    whole = await export(server, game_id, "server", ADMIN)
    assert {r.status_code for r in (mine, theirs, public, whole)} == {200}
    seed = next(f["event"]["seed"] for f in facts(whole.content) if f["event"]["type"] == "TableOpened")
    dealt = {f["version"]: f["event"] for f in facts(whole.content) if f["event"]["type"] == "CardsDealt"}
    for seat, r in enumerate((mine, theirs)):
        assert json.loads(r.content.splitlines()[0])["viewpoint"] == "seat" and seed.encode() not in r.content
        for version, event in dealt.items():
            shown = next(f["event"] for f in facts(r.content) if f["version"] == version)
            assert shown["cards"] == (event["cards"] if event["seat"] == seat else None)
        assert all(o["seat"] == seat for f in facts(r.content) for o in f["event"].get("openings") or [])
        report = verify(read(r.content), GAMES)
        assert report.fair, report.problems
    assert seed.encode() not in public.content and b'"openings":[{' not in public.content
    await play_to_the_end(server, game_id, tokens)
    everyone = await export(server, game_id, None)
    assert json.loads(everyone.content.splitlines()[0])["viewpoint"] == "everyone"
    steps = [f["sent"] for f in facts(everyone.content) if "sent" in f]
    assert steps and {s["sender"] for s in steps} <= {"seat:0", "seat:1"}
    mine = await export(server, game_id, "seat", tokens[0])
    assert {f["sent"]["seat"] for f in facts(mine.content) if "sent" in f} == {0}  # a seat's own commands only
    assert not any("sent" in f for f in facts((await export(server, game_id, "spectator")).content))
    for r in (everyone, mine):
        report = verify(read(r.content), GAMES)
        assert report.fair, report.problems


async def test_an_export_of_every_fact_imports_with_its_commands_and_a_seats_does_not(server: Running) -> None:
    game_id, tokens = await seated(server, [ENTROPY, ENTROPY[::-1]])
    await play_to_the_end(server, game_id, tokens)
    admin = {"Authorization": f"Bearer {ADMIN}", "Content-Type": "application/x-ndjson"}
    own = (await export(server, game_id, "seat", tokens[0])).content
    refused = await server.http.post("/api/v1/games/import", content=own, headers=admin)
    assert refused.status_code == 400 and refused.json()["error"] == "partial_log"
    everyone = (await export(server, game_id, None)).content
    copy = (await server.http.post("/api/v1/games/import", content=everyone, headers=admin)).json()["game_id"]
    again = (await export(server, copy, None)).content
    assert again.replace(copy.encode(), game_id.encode(), 1) == everyone
    assert verify(read(again), GAMES).fair


@pytest.mark.parametrize("what", ["the first format", "a rematch"])
async def test_a_log_of_the_first_format_imports_and_a_rematch_takes_the_seats_entropy(
    server: Running, what: str
) -> None:
    game_id, tokens = await seated(server, [ENTROPY, ""])
    await play_to_the_end(server, game_id, tokens)
    if what == "the first format":
        lines = facts((await export(server, game_id, None)).content)
        old = b"".join(json.dumps({k: f[k] for k in ("version", "schema", "event")}).encode() + b"\n" for f in lines)
        headers = {"Authorization": f"Bearer {ADMIN}", "Content-Type": "application/x-ndjson"}
        r = await server.http.post("/api/v1/games/import", content=old, headers=headers)
        assert r.status_code == 201, r.text
        report = verify(read((await export(server, r.json()["game_id"], None)).content), GAMES)
        assert not report.fair and "no command's" in report.problems[0]  # the commands were not in the log
        return
    r = await server.http.post(
        f"/api/v1/games/{game_id}/rematch",
        json={"entropy": "c3" * 32},
        headers={"Authorization": f"Bearer {tokens[0]}"},
    )
    assert r.status_code == 201, r.text
    again = r.json()
    bare = await server.http.post(f"/api/v1/games/{game_id}/rematch", headers={"Authorization": f"Bearer {tokens[1]}"})
    assert bare.status_code == 201, bare.text  # no body, as clients from before fair play send
    mine = (await export(server, again["game_id"], "seat", again["token"])).content
    assert json.loads(mine.splitlines()[0])["commitments"]["entropies"][again["seat"]] == "c3" * 32
