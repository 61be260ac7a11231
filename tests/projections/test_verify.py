"""The verifier (projections/verify.py) against exports of games dealt and played as the server plays
them: each verifies, and a one-byte change to any shuffle, draw or commitment is caught; ``ludoteca verify``
says its report in the reader's language, its JSON in English."""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path
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
from projections.verify import Said, verify
from server import cli

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
    assert report.notes == ["seat 0 added no entropy of its own"]
    assert report.noted == [Said("no_entropy", {"seats": [0]})]


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


def said_by_the_cli(path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                    as_json: bool = False, **env: str) -> list[str]:  # fmt: skip
    """What ``ludoteca verify PATH`` prints, with only the locale variables ``env`` set."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert cli.verify(argparse.Namespace(file=str(path), json=as_json)) == 0
    return capsys.readouterr().out.splitlines()


def test_ludoteca_verify_speaks_the_readers_language_and_its_json_stays_english(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A Galician reader's report of a real export has no English sentence, line for line beside the English
    one, its markers kept; ``--json`` gives the English sentences whatever the locale, and each line's code."""
    game = GAMES["vilar-de-mouros"]
    facts, sent, table = played(game, 3, 7)
    whole, own = tmp_path / "game.jsonl", tmp_path / "mine.jsonl"
    whole.write_bytes(exported(game, facts, sent, table))
    own.write_bytes(exported(game, facts, sent, table, "seat", 1))
    for path, head, cabeceira in (
        (whole, "Vilar de Mouros, everyone's export: verified", "Vilar de Mouros, exportación de todos: verificada"),
        (own, "Vilar de Mouros, seat 1's export: verified", "Vilar de Mouros, exportación do posto 1: verificada"),
    ):
        report = verify(read(path.read_bytes()), GAMES)
        english = said_by_the_cli(path, monkeypatch, capsys)
        assert english == [head, *(f"  ok    {s}" for s in report.checked), *(f"  note  {s}" for s in report.notes)]
        galician = said_by_the_cli(path, monkeypatch, capsys, LANG="gl_ES.UTF-8")
        assert galician[0] == cabeceira and len(galician) == len(english) > 2
        for mine, theirs in zip(galician, english, strict=True):
            assert mine != theirs and mine[:8] == theirs[:8], (mine, theirs)  # the same marker, other words
        assert not set(galician) & set(english) and not {line[8:] for line in galician} & set(report.checked)
        assert said_by_the_cli(path, monkeypatch, capsys, LANG="gl_ES.UTF-8", LC_ALL="C") == english
        assert said_by_the_cli(path, monkeypatch, capsys, LC_MESSAGES="pt_PT.UTF-8")[1:] != english[1:]
        answer = json.loads("\n".join(said_by_the_cli(path, monkeypatch, capsys, True, LANG="gl_ES.UTF-8")))
        assert answer["fair"] is True and answer["problems"] == []
        assert (answer["checked"], answer["notes"]) == (report.checked, report.notes)
        assert answer["codes"]["checked"] == [msgspec.to_builtins(s) for s in report.passed]
        assert [c["code"] for c in answer["codes"]["notes"]] == [s.code for s in report.noted]
    assert verify(read(whole.read_bytes()), GAMES).notes == ["seat 0 added no entropy of its own"]  # a note said too


def test_a_failure_is_said_in_the_readers_language_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A Spanish reader's report of a forged seat's export says its failure in Spanish; a step the rules refuse
    is said with the rules' refusal in Spanish too, from its code and details."""
    game = GAMES["vilar-de-mouros"]
    during, during_sent, under_way = played(game, 3, 3, steps=6)
    forged = tmp_path / "forged.jsonl"
    forged.write_bytes(exported(game, during, during_sent, under_way, "seat", 1).replace(b'"salt":"', b'"salt":"0', 1))
    report = verify(read(forged.read_bytes()), GAMES)
    assert not report.fair and report.failed[0].code == "own_opening_fails"
    for name in ("LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "es_ES.UTF-8")
    assert cli.verify(argparse.Namespace(file=str(forged), json=False)) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "Vilar de Mouros, exportación del puesto 1: NO verificada"
    failure = next(line for line in lines if line.startswith("  FAIL  "))
    assert failure.startswith("  FAIL  versión ") and "no abre su compromiso" in failure
    assert failure[8:] != report.problems[0] and report.problems[0].endswith("does not open its commitment")
    facts, sent, table = played(game, 2, 5)  # a step sent by the seat not awaited: the rules' refusal, in Spanish
    first = min(sent)
    awaited = sent[first].seat
    sent[first] = msgspec.structs.replace(sent[first], seat=1 - awaited)
    refused = tmp_path / "refused.jsonl"
    refused.write_bytes(exported(game, facts, sent, table))
    assert verify(read(refused.read_bytes()), GAMES).failed[0].code == "step_refused"
    assert cli.verify(argparse.Namespace(file=str(refused), json=False)) == 1
    failure = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("  FAIL  "))
    refusal = f"No es tu turno: la partida espera a Jugador {awaited + 1}."  # a default name in Spanish too
    assert failure == f"  FAIL  versión {first}: las reglas rechazan el paso que hay allí (not_your_turn: {refusal})"
