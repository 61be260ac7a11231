"""Rules that change without breaking old games: every kept log of every earlier rules
version and event schema (tests/domain/old_logs/, written by its make.py) still folds,
through the game's upcasters, to the outcome it had when it was written."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path
from typing import Any

import msgspec
import pytest

from domain.catalog import GAMES
from domain.engine import AnyGame, Ctx
from domain.i_love_portugal.events import CardBought
from domain.table import Table, event_union, evolve, fold, open_table, status

LOGS = sorted((Path(__file__).parent / "old_logs").glob("*/*.jsonl"))


class Line(msgspec.Struct):
    version: int
    schema: int
    event: dict[str, Any]


def replay(game: AnyGame, path: Path) -> Table:
    union = event_union(game)
    lines = msgspec.json.Decoder(Line).decode_lines(path.read_bytes())
    assert [line.version for line in lines] == list(range(1, len(lines) + 1))
    events = [msgspec.convert(game.upcast(line.event, line.schema), union) for line in lines]
    table = fold(game, None, events)
    assert table is not None
    return table


def test_every_game_has_kept_logs() -> None:
    assert {path.parent.name for path in LOGS} == set(GAMES)


@pytest.mark.parametrize("path", LOGS, ids=[path.stem for path in LOGS])
def test_a_kept_log_replays_to_its_outcome(path: Path) -> None:
    game = GAMES[path.parent.name]
    table = replay(game, path)
    assert status(game, table) == "finished"
    expected = path.with_name(path.stem + ".outcome.json").read_bytes().strip()
    assert msgspec.json.encode(game.outcome(table.state)) == expected


def test_upcasters_lift_a_stored_event_one_schema_at_a_time() -> None:
    def rename(raw: dict[str, Any]) -> dict[str, Any]:  # schema 1 -> 2: "name" became "title"
        return {("title" if k == "name" else k): v for k, v in raw.items()}

    def tag(raw: dict[str, Any]) -> dict[str, Any]:  # schema 2 -> 3: a new field with a value for old events
        return {**raw, "edition": raw.get("edition", 1)}

    game = dataclasses.replace(GAMES["vilar-de-mouros"], upcasters=(rename, tag))
    assert game.event_schema == 3
    assert game.upcast({"type": "X", "name": "a"}, 1) == {"type": "X", "title": "a", "edition": 1}
    assert game.upcast({"type": "X", "title": "a"}, 2) == {"type": "X", "title": "a", "edition": 1}
    assert game.upcast({"type": "X", "title": "a", "edition": 2}, 3) == {"type": "X", "title": "a", "edition": 2}


def test_a_table_records_the_rules_version_it_opened_with() -> None:
    game = dataclasses.replace(GAMES["vilar-de-mouros"], rules_version=3)
    opened = open_table(game, 2, {})
    assert opened.rules == 3
    assert evolve(game, None, opened).rules == 3
    # a log from before tables recorded it opened under the first rules
    old = msgspec.convert({"type": "TableOpened", "game": game.id, "players": 2}, event_union(game))
    assert evolve(game, None, old).rules == 1


PORTUGAL_LOGS = [path for path in LOGS if path.parent.name == "i-love-portugal"]


@pytest.mark.parametrize("path", PORTUGAL_LOGS, ids=[path.stem for path in PORTUGAL_LOGS])
def test_a_game_under_way_buys_at_the_prices_of_the_rules_it_began_with(path: Path) -> None:
    """Rules 1 priced a Selfie at 5 EUR and an Album at 3; rules 2 turned them round. A game keeps
    the rules its table opened with: every card a kept log bought is bought again, on the table
    as it stood, at the price the log paid, and the shop shows those prices."""
    game = GAMES["i-love-portugal"]
    union = event_union(game)
    lines = msgspec.json.Decoder(Line).decode_lines(path.read_bytes())
    table: Table | None = None
    bought = 0
    for line in lines:
        event = msgspec.convert(game.upcast(line.event, line.schema), union)
        if isinstance(event, CardBought):
            assert table is not None
            buy = msgspec.convert({"type": "BuyCard", "pile": event.pile}, game.command_type)
            again = game.decide(table.state, buy, event.seat, Ctx(rng=random.Random(0)))
            assert again == [event], (line.version, again, event)
            shop = {pile.pile: pile.price for pile in game.view(table.state, event.seat).piles}
            assert shop[event.pile] == event.price
            bought += 1
        table = evolve(game, table, event)
    assert table is not None and bought > 0
    assert table.state.rules == table.rules == int(path.stem.split(".")[1].removeprefix("rules-"))
