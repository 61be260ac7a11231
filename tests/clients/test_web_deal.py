"""The web table's "deal verified" checks (clients/web/js/deal.js) against the server's real deals,
in real Chromium: a seat's feed of a finished game checks, card by card and at the end; a feed
with one byte of an opening, a commitment or the seed changed is caught, and says so."""

from __future__ import annotations

import json
import random
import secrets
from typing import Any

import pytest

from tests.clients.test_web_table import API, Chromium, Table, feed_of
from tests.server.conftest import Running

# The tracker fed a feed in the page, as table.js feeds it: its verdict once every check is done.
CHECK = """async (feed) => {
  const { DealTracker } = await import('/web/js/deal.js');
  const deal = new DealTracker();
  feed.forEach((ev, i) => deal.see(i + 1, ev, 0, () => {}));
  await deal.pending;
  return { verified: [...deal.verified], failed: deal.failed, ended: deal.ended, opened: deal.openings.length };
}"""


async def finished_feed(server: Running) -> list[dict[str, Any]]:
    """Seat 0's feed of a two-seat Vilar de Mouros game played to its end, each seat with its entropy."""
    r = await server.http.post(f"{API}/games", json={"game": "vilar-de-mouros", "players": 2})
    assert r.status_code == 201, r.text
    game_id = r.json()["game_id"]
    tokens = {}
    for seat in range(2):
        body = {"name": f"P{seat}", "seat": seat, "entropy": secrets.token_hex(32)}
        r = await server.http.post(f"{API}/games/{game_id}/seats", json=body)
        assert r.status_code == 201, r.text
        tokens[seat] = r.json()["token"]
    table = Table(server, "vilar-de-mouros", game_id, tokens=tokens)
    for _ in range(2000):
        if (await table.step())["status"] == "finished":
            break
    assert (await table.table())["status"] == "finished"
    return await feed_of(server, game_id, tokens[0])


def flip(text: str) -> str:
    """One hex digit of ``text`` changed."""
    return text[:-1] + ("0" if text[-1] != "0" else "1")


@pytest.mark.timeout(120)
async def test_a_seats_page_verifies_its_deal_and_catches_a_changed_byte(quick: Running, browser: Chromium) -> None:
    feed = await finished_feed(quick)
    context = await browser.new_context()
    page = await context.new_page()
    await page.goto(quick.url + "/")
    checked = await page.evaluate(CHECK, feed)
    # (once the table is over, its feed shows every seat's openings: the page checks its own)
    opened = [o["item"] for e in feed if e["type"] == "CardsOpened" for o in e["openings"] if o["seat"] == 0]
    assert checked["opened"] == len(opened) > 0 and not checked["failed"]
    assert sorted(checked["verified"]) == sorted(set(opened))
    assert checked["ended"] == {"seed": True, "salts": True}

    rng = random.Random(7)
    openings = [
        (i, j)
        for i, e in enumerate(feed)
        if e["type"] == "CardsOpened"
        for j, o in enumerate(e["openings"])
        if o["seat"] == 0 and o["path"]
    ]
    commitments = [i for i, e in enumerate(feed) if e["type"] == "DeckCommitted"]
    at, which = rng.choice(openings)
    for field in ("salt", "item", "path"):  # one opening's salt, its card, a hash of its path
        tampered = json.loads(json.dumps(feed))
        opening = tampered[at]["openings"][which]
        if field == "path":
            opening["path"][0] = flip(opening["path"][0])
        else:
            opening[field] = flip(opening[field]) if field == "salt" else "not-the-card"
        assert len((await page.evaluate(CHECK, tampered))["failed"]) >= 1, field
    tampered = json.loads(json.dumps(feed))
    committed = next(i for i in commitments if any(o["commitment"] == i + 1 for o in tampered[at]["openings"]))
    tampered[committed]["root"] = flip(tampered[committed]["root"])
    assert (await page.evaluate(CHECK, tampered))["failed"], "a changed commitment"
    tampered = json.loads(json.dumps(feed))
    revealed = next(i for i, e in enumerate(tampered) if e["type"] == "SeedRevealed")
    tampered[revealed]["seed"] = flip(tampered[revealed]["seed"])
    assert (await page.evaluate(CHECK, tampered))["ended"]["seed"] is False, "a changed seed"
    tampered = json.loads(json.dumps(feed))
    seated = next(i for i, e in enumerate(tampered) if e["type"] == "SeatTaken" and e["seat"] == 1)
    tampered[seated]["entropy"] = flip(tampered[seated]["entropy"])
    assert (await page.evaluate(CHECK, tampered))["ended"]["salts"] is False, "another seat's entropy left out"
    await context.close()
