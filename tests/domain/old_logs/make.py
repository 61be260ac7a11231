"""Write the kept logs: ``python -m tests.domain.old_logs.make``.

Run it once per rules version, before a change to a game's events or rules lands, so
that the logs of that version stay in tests/ for good (tests/domain/test_old_logs.py
replays every one of them). Each log is in the export format (``ludoteca export``): one
``{"version", "schema", "event"}`` line per event, and ``<name>.outcome.json`` beside it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec

from domain.catalog import GAMES
from tests.support.games import play_to_end

HERE = Path(__file__).parent

# (game, players, options) for each kept log: the smallest and largest tables, and every variant.
TABLES: list[tuple[str, int, dict[str, Any]]] = [
    ("vilar-de-mouros", 2, {}),
    ("vilar-de-mouros", 6, {}),
    ("i-love-portugal", 2, {}),
    ("i-love-portugal", 5, {}),
    ("itchy-feet", 2, {}),
    (
        "itchy-feet",
        4,
        {"events": True, "special_objects": True, "forbidden_objects": True, "postcards": True, "characters": True},
    ),
    ("miss-liz-parks", 2, {}),
    ("miss-liz-parks", 4, {}),  # rules 1's ends with unstaffed tiles of a park's own theme (rules 2 scores them 0)
    ("miss-liz-parks", 5, {"investment": True, "side_b": True}),
]


def main() -> None:
    for kind, players, options in TABLES:
        game = GAMES[kind]
        log, table = play_to_end(game, players, options, seed=players, ending=True)
        name = f"{kind}.rules-{game.rules_version}.schema-{game.event_schema}.{players}p"
        folder = HERE / kind
        folder.mkdir(exist_ok=True)
        lines = [
            msgspec.json.encode({"version": v, "schema": game.event_schema, "event": e}) for v, e in enumerate(log, 1)
        ]
        (folder / f"{name}.jsonl").write_bytes(b"\n".join(lines) + b"\n")
        (folder / f"{name}.outcome.json").write_bytes(msgspec.json.encode(game.outcome(table.state)) + b"\n")
        print(f"{name}: {len(log)} events")


if __name__ == "__main__":
    main()
