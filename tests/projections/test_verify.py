"""The verifier (projections/verify.py) against exports of games dealt and played as the server plays
them: each verifies, and a one-byte change to any shuffle, draw or commitment is caught."""

from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest

from domain.catalog import GAMES
from domain.engine import AnyGame, Ctx
from domain.fair import CardsOpened, DeckCommitted
from domain.table import (
    SeatTaken,
    Table,
    cancel_by_operator,
    chance,
    decide,
    evolve,
    open_table,
    remove_seat,
    status,
    take_seat,
)
from projections.export import Entry, Sent, Viewpoint, lines, read
from projections.verify import verify

ENCODE = msgspec.json.encode


def played(game: AnyGame, players: int, seed: int, steps: int = 10_000) -> tuple[list[Any], dict[int, Sent], Table]:
    """A game as the server records it: its facts, and each command by the version its step begins at."""
    rng = random.Random(seed)
    facts: list[Any] = [open_table(game, players, {}, seed=rng.randbytes(32).hex())]
    table = evolve(game, None, facts[0])
    sent: dict[int, Sent] = {}
    for seat in range(players):
        entropy = rng.randbytes(8).hex() if seat else ""  # seat 0 draws none: a client from before fair play
        for event in take_seat(game, table, None, "", None, Ctx(rng=chance(table, entropy) or rng), entropy=entropy):
            facts.append(event)
            table = evolve(game, table, event)
    for n in range(steps):
        if status(game, table) != "active":
            break
        seat, command = next(
            (s, c) for s in range(players) if (c := game.random_command(table.state, s, rng)) is not None
        )
        made = decide(game, table, command, seat, Ctx(rng=chance(table) or rng))
        first = table.version + 1
        sent[first] = Sent(f"seat:{seat}", f"c{n}", seat, first + len(made) - 1, msgspec.to_builtins(command))
        for event in made:
            facts.append(event)
            table = evolve(game, table, event)
    return facts, sent, table


def exported(game: AnyGame, facts: list[Any], sent: dict[int, Sent], table: Table, viewpoint: Viewpoint = "everyone",
             seat: int | None = None) -> bytes:  # fmt: skip
    entries = [Entry(v, game.event_schema, ENCODE(f)) for v, f in enumerate(facts, 1)]
    return b"".join(line + b"\n" for line in lines(game, "g", table, entries, sent, viewpoint, seat))


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_finished_games_export_verifies(game_id: str) -> None:
    game = GAMES[game_id]
    facts, sent, table = played(game, game.min_players + 1, 7)
    assert status(game, table) == "finished"
    report = verify(read(exported(game, facts, sent, table)), GAMES)
    assert report.fair, report.problems
    assert any("every step decided again" in line for line in report.checked)
    assert report.notes == ["seat(s) 0 added no entropy of their own"]


def test_an_export_with_the_operators_facts_verifies() -> None:
    """A seat removed and the table then ended by the operator: table facts of no command, made again."""
    game = GAMES["vilar-de-mouros"]
    facts, sent, table = played(game, 3, 5, steps=12)
    for event in remove_seat(game, table, 1):
        facts.append(event)
        table = evolve(game, table, event)
    for event in cancel_by_operator(game, table):
        facts.append(event)
        table = evolve(game, table, event)
    assert status(game, table) == "finished"
    report = verify(read(exported(game, facts, sent, table)), GAMES)
    assert report.fair, report.problems


def lines_where(data: bytes, kind: type[Any], having: bytes = b"") -> list[int]:
    rows = data.split(b"\n")
    return [i for i, row in enumerate(rows) if f'"type":"{kind.__name__}"'.encode() in row and having in row]


def flipped(data: bytes, at: int) -> bytes:
    """One byte changed: a hex digit to another, a letter or digit to another of its kind."""
    old = data[at : at + 1]
    new = {b"0": b"1", b"9": b"8", b"a": b"b", b"f": b"e", b"z": b"y"}.get(old) or bytes([old[0] ^ 1])
    return data[:at] + new + data[at + 1 :]


def values_in(data: bytes, row: int, field: bytes) -> list[int]:
    """The offsets of the letters and digits of ``field``'s value on line ``row``."""
    rows = data.split(b"\n")
    start = sum(len(r) + 1 for r in rows[:row])
    line = rows[row]
    at = line.index(b'"' + field + b'":') + len(field) + 3
    end = at
    depth = 0
    while end < len(line) and not (depth == 0 and line[end : end + 1] in b",}"):
        depth += line[end : end + 1] in b"[{"
        depth -= line[end : end + 1] in b"]}"
        end += 1
    return [start + i for i in range(at, end) if chr(line[i]).isalnum()]


@pytest.mark.parametrize(("game_id", "steps"), [("vilar-de-mouros", 10_000), ("itchy-feet", 300)])
def test_a_one_byte_change_to_any_shuffle_draw_or_commitment_is_caught(game_id: str, steps: int) -> None:
    """A finished game's export for everyone; a game under way's, the operator's (its seed in TableOpened)."""
    game = GAMES[game_id]
    facts, sent, table = played(game, 3, 11, steps)
    data = exported(game, facts, sent, table, "everyone" if status(game, table) == "finished" else "server")
    assert verify(read(data), GAMES).fair
    shuffles = [i for i, f in enumerate(facts, 1) if type(f).__name__.endswith("Shuffled")]
    draws = [i for i, f in enumerate(facts, 1) if type(f).__name__ in ("CardDrawn", "ItchyCardDrawn", "CardsDealt")]
    places: list[int] = []
    rng = random.Random(0)
    for version in rng.sample(shuffles, min(2, len(shuffles))):
        places += rng.sample(values_in(data, version, b"order"), 6)
    for version in rng.sample(draws, 4):
        field = b"cards" if type(facts[version - 1]).__name__ == "CardsDealt" else b"card"
        places += rng.sample(values_in(data, version, field), 2)
    for version in rng.sample(lines_where(data, DeckCommitted), 2):
        places += rng.sample(values_in(data, version, b"root"), 4) + rng.sample(values_in(data, version, b"items"), 4)
    for version in rng.sample(lines_where(data, CardsOpened, b'"salt"'), 3):
        places += rng.sample(values_in(data, version, b"salt") + values_in(data, version, b"path"), 4)
    head = data.split(b"\n")[1]  # TableOpened: the seed's commitment, and the seed itself
    start = len(data.split(b"\n")[0]) + 1
    places += [start + head.index(b'"seed_hash":"') + 14, start + head.index(b'"seed":"') + 9]
    for at in places:
        report = verify(read(flipped(data, at)), GAMES)
        assert not report.fair, f"a change at byte {at} ({data[at - 20 : at + 20]!r}) was not caught"
    assert len(places) >= 40


def test_a_seats_own_export_checks_its_openings_and_after_the_end_their_salts() -> None:
    game = GAMES["vilar-de-mouros"]
    facts, sent, table = played(game, 3, 3)
    for seat in range(3):
        report = verify(read(exported(game, facts, sent, table, "seat", seat)), GAMES)
        assert report.fair, report.problems
        assert any("cards opened" in line for line in report.checked)
        assert any("derives every salt" in line for line in report.checked)
    during, during_sent, under_way = played(game, 3, 3, steps=6)
    report = verify(read(exported(game, during, during_sent, under_way, "seat", 1)), GAMES)
    assert report.fair and report.notes[0].startswith("the table is not over")
    forged = exported(game, during, during_sent, under_way, "seat", 1).replace(b'"salt":"', b'"salt":"0', 1)
    assert not verify(read(forged), GAMES).fair


def test_a_fact_no_step_accounts_for_is_caught() -> None:
    game = GAMES["vilar-de-mouros"]
    facts, sent, table = played(game, 2, 5)
    last = max(sent)
    del sent[last]  # the last command's record lost: its facts come from nowhere
    report = verify(read(exported(game, facts, sent, table)), GAMES)
    assert not report.fair and "no command's" in report.problems[0]
    seat = next(i for i, f in enumerate(facts) if isinstance(f, SeatTaken))
    facts[seat] = msgspec.structs.replace(facts[seat], entropy="not-what-was-sent")
    assert not verify(read(exported(game, facts, played(game, 2, 5)[1], table)), GAMES).fair
