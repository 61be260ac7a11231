"""Names are normalised when a seat is taken: NFC, no control, bidi-override or zero-width
characters, whitespace as single spaces, at most 40 characters, so that no name reads as another
player's at the table and none moves a terminal's cursor when the CLI prints it."""

from __future__ import annotations

import pytest

from tests.server.conftest import Running

CASES = [
    ("Ana\u202eanA", "AnaanA"),  # a right-to-left override: "Ana" would read as "Ana" reversed
    ("Bruno\u2066\u2069", "Bruno"),  # isolates
    ("Eve\x1b[2J\x1b[H", "Eve[2J[H"),  # a terminal's clear-screen sequence loses its ESC
    ("Nul\x00Bel\x07", "NulBel"),
    ("Zero\u200bWidth\ufeff", "ZeroWidth"),
    ("  Two\n\tlines  ", "Two lines"),
    ("Jose\u0301", "José"),  # NFC: one code point
]


@pytest.mark.parametrize(("given", "shown"), CASES)
async def test_a_name_is_normalised_when_a_seat_is_taken(server: Running, given: str, shown: str) -> None:
    game_id = await server.create(2)
    r = await server.http.post(f"/api/v1/games/{game_id}/seats", json={"name": given})
    assert r.status_code == 201, r.text
    table = (await server.get(f"/api/v1/games/{game_id}")).json()
    assert table["seats"][0]["name"] == shown


async def test_a_name_left_empty_by_normalising_gets_the_default(server: Running) -> None:
    game_id = await server.create(2)
    assert (
        await server.http.post(f"/api/v1/games/{game_id}/seats", json={"name": "\u202e\u200b\x1b"})
    ).status_code == 201
    assert (await server.get(f"/api/v1/games/{game_id}")).json()["seats"][0]["name"] == "Player 1"


async def test_a_name_past_40_characters_is_refused_and_nothing_is_written(server: Running) -> None:
    game_id = await server.create(2)
    r = await server.http.post(f"/api/v1/games/{game_id}/seats", json={"name": "x" * 41})
    assert r.status_code == 400 and r.json()["details"]["field"] == "name"
    assert (await server.get(f"/api/v1/games/{game_id}")).json()["seats"] == [None, None]
    # Forty characters after normalising is fine, whatever was stripped to get there.
    ok = await server.http.post(f"/api/v1/games/{game_id}/seats", json={"name": "x" * 40 + "\u200b" * 10})
    assert ok.status_code == 201
