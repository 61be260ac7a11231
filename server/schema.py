"""``ludoteca schema --out DIR``: the JSON Schema of every game's commands, events, views, outcomes and moves.

The contracts for frontends written in other languages, from the games' own msgspec types (the same types the
server decodes commands with and encodes events and views from), so they cannot disagree with the server:

    DIR/index.json                          every game and its files
    DIR/<game>/commands.schema.json         the tagged union of the game's commands ({"type": ...})
    DIR/<game>/events.schema.json           everything in the game's stream: the table's events and its own
    DIR/<game>/view.schema.json             what a viewer gets in ``view``
    DIR/<game>/outcome.schema.json          the final result in ``outcome``
    DIR/<game>/step.schema.json             a step of building a move (``step`` of legal-commands, of
                                            POST /games/{id}/moves, of the socket's ``step`` and updates),
                                            its options' and its own ``command`` the game's commands
    DIR/<game>/pick.schema.json             one pick of a move (``picks`` of POST /games/{id}/moves and of
                                            the socket's ``moves``)

The envelope around them is in the OpenAPI document (``GET /openapi.json``) and, for the WebSocket, in
docs/asyncapi.yaml.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import msgspec

from domain.engine import AnyGame, Pick, Step
from domain.table import event_union

DIALECT = "https://json-schema.org/draft/2020-12/schema"
KINDS = ("commands", "events", "view", "outcome", "step", "pick")


def game_schemas(game: AnyGame) -> dict[str, dict[str, Any]]:
    """One game's schemas, by kind."""
    types = {
        "commands": game.command_type,
        "events": event_union(game),
        "view": game.view_type,
        "outcome": game.outcome_type,
    }
    titles = {
        "commands": f"{game.title}: a command (POST /games/{{id}}/commands, 'command')",
        "events": f"{game.title}: an event of the game's stream ('event' in feeds, updates and exports)",
        "view": f"{game.title}: a viewer's view ('view' of the table and of WebSocket updates)",
        "outcome": f"{game.title}: the final result ('outcome' of a finished table)",
        "step": f"{game.title}: a step of building a move ('step' of legal-commands, moves and updates)",
        "pick": f"{game.title}: one pick of a move ('picks' of POST /games/{{id}}/moves and of the socket's 'moves')",
    }
    schemas = {}
    for kind, kind_type in types.items():
        schema = msgspec.json.schema(kind_type)
        schemas[kind] = {"$schema": DIALECT, "title": titles[kind], **schema}
    schemas["step"] = {"$schema": DIALECT, "title": titles["step"], **step_schema(game)}
    schemas["pick"] = {"$schema": DIALECT, "title": titles["pick"], **msgspec.json.schema(Pick)}
    return schemas


def step_schema(game: AnyGame) -> dict[str, Any]:
    """``Step``, whose ``command`` (and each option's) is one of the game's commands or null:
    the engine types it ``Any``, since one ``Step`` serves every game."""
    refs, defs = msgspec.json.schema_components([Step, game.command_type], ref_template="#/$defs/{name}")
    defs["Command"] = refs[1]
    for name in ("Step", "Option"):
        defs[name]["properties"]["command"] = {
            "anyOf": [{"$ref": "#/$defs/Command"}, {"type": "null"}],
            "default": None,
            "description": "The command to send: the one the picks so far make (Step), or this pick ends (Option).",
        }
    return {**refs[0], "$defs": defs}


def write_schemas(out: Path, games: Iterable[AnyGame]) -> list[Path]:
    """Write every game's schemas under ``out``; the files written, ``index.json`` last."""
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    index: dict[str, Any] = {"games": {}}
    for game in games:
        folder = out / game.id
        folder.mkdir(exist_ok=True)
        files: dict[str, str] = {}
        for kind, schema in game_schemas(game).items():
            path = folder / f"{kind}.schema.json"
            path.write_bytes(msgspec.json.format(msgspec.json.encode(schema), indent=2) + b"\n")
            files[kind] = f"{game.id}/{path.name}"
            written.append(path)
        index["games"][game.id] = {"title": game.title, "rules_version": game.rules_version, **files}
    path = out / "index.json"
    path.write_bytes(msgspec.json.format(msgspec.json.encode(index), indent=2) + b"\n")
    written.append(path)
    return written


def schema_verb(args: argparse.Namespace) -> int:
    from domain.catalog import GAMES

    games: Mapping[str, AnyGame] = GAMES
    written = write_schemas(Path(args.out), games.values())
    print(f"wrote {len(written)} files for {len(games)} games to {args.out}")
    return 0


def add_schema_verb(verbs: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = verbs.add_parser(
        "schema",
        help="write the JSON Schema of every game's commands, events, views, outcomes, steps and picks",
        description="Write DIR/<game>/{commands,events,view,outcome,step,pick}.schema.json and DIR/index.json.",
    )
    p.add_argument("--out", required=True, metavar="DIR", help="the directory to write into (created if missing)")
    p.set_defaults(func=schema_verb)
