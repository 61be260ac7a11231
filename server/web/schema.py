"""The machine-readable contract: every JSON Schema of the API, named once, for the OpenAPI document,
docs/asyncapi.yaml and ``ludoteca schema --out DIR``.

Schemas come from the msgspec types the server decodes requests with and encodes answers from, so they
cannot disagree with it; what msgspec cannot know (the inside of an ``Any``, a limit checked in a handler)
is patched in below, each patch with its reason. Names:

- the envelope, the same for every game: ``TableView``, ``SendCommand``, ``Step``, ``Pick``..., and the
  socket's messages ``HelloMessage``, ``UpdateMessage``...;
- the table's own commands and events (``Resign``, ``Undo``, ``TimeUp``, ``TableOpened``...) and
  ``Abandoned``, shared by every game;
- each game's own types under its id: ``itchy-feet.SeatView``, ``vilar-de-mouros.GameEnded``; and per
  game ``<game>.Command`` (its own commands), ``<game>.Event``, ``<game>.View``, ``<game>.Outcome`` (its
  own or ``Abandoned``), ``<game>.Options``, ``<game>.Step``, ``<game>.Option``, ``<game>.CreateGame``;
- the unions over every game: ``GameCommand``, ``TableCommand``, ``Command`` (anything a seat may
  send), ``TableEvent``, ``Event``, ``View``, ``Outcome``, ``GameId``.

``ludoteca schema --out DIR`` writes:

    DIR/index.json                          every game and its files
    DIR/api.schema.json                     every schema of the API under ``$defs``, by the names above
    DIR/<game>/commands.schema.json         what a seat may send to the game: its commands and the table's
    DIR/<game>/events.schema.json           everything in the game's stream: the table's events and its own
    DIR/<game>/view.schema.json             what a viewer gets in ``view``
    DIR/<game>/outcome.schema.json          the final result in ``outcome``
    DIR/<game>/options.schema.json          the table options of ``POST /games``
    DIR/<game>/step.schema.json             a step of building a move (``step`` of legal-commands, of
                                            POST /games/{id}/moves, of the socket's ``step`` and updates)
    DIR/<game>/pick.schema.json             one pick of a move (``picks`` of POST /games/{id}/moves and of
                                            the socket's ``moves``)

Each file is self-contained (its ``$defs`` hold what it refers to) and uses the names above.
``ludoteca schema --asyncapi docs/asyncapi.yaml`` rewrites that document's generated schemas.
"""

from __future__ import annotations

import argparse
import copy
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any, Union

import msgspec

from domain.bots import BOTS
from domain.clock import MOST_SECONDS
from domain.engine import AnyGame
from domain.table import TABLE_COMMANDS, TABLE_EVENTS, Abandoned
from projections.export import ExportHeader, Sent
from projections.updates import Update
from projections.views import Present
from server.service import feeds
from server.service.errors import ErrorBody
from server.service.lobby import NAME_MOST
from server.web import websocket
from server.web.requests import MAX_PICKS
from server.web.rest import ENDPOINTS, Health

DIALECT = "https://json-schema.org/draft/2020-12/schema"
KINDS = ("commands", "events", "view", "outcome", "options", "step", "pick")
DEFS = "#/$defs/"
Schema = dict[str, Any]

# The socket's messages, named for what they are on the wire (their structs' names clash with REST's).
SOCKET_NAMES = {
    "Hello": "HelloMessage",
    "SendCommand": "CommandMessage",
    "BuildMove": "MovesMessage",
    "MoveStep": "StepMessage",
    "Ack": "AckMessage",
    "ErrorMessage": "ErrorMessage",
    "Update": "UpdateMessage",
    "Reset": "ResetMessage",
}
SOCKET_MESSAGES: tuple[type[msgspec.Struct], ...] = (
    websocket.Hello,
    websocket.SendCommand,
    websocket.BuildMove,
    websocket.MoveStep,
    websocket.Ack,
)
SOCKET_MESSAGES += (websocket.ErrorMessage, Update, feeds.Reset, Present)
RENAMED = {"Present": "Presence"}  # the table's ``presence`` and the socket's message are one thing
COMMAND_ID = {"minLength": 1, "maxLength": 100}  # checked by POST /commands (docs/API.md: 1 to 100 characters)
CLOCK_SECONDS = {"minimum": 1, "maximum": MOST_SECONDS}  # domain.clock.check: 1 second to 30 days
CLOCK_BANK = {"minimum": 0, "maximum": MOST_SECONDS}
# What the socket's and the REST bodies' fields mean (their structs carry no descriptions).
DESCRIPTIONS = {
    ("HelloMessage", None): "The first message of every socket; the server then catches the client up.",
    ("HelloMessage", "token"): "A seat token; null or left out for a spectator.",
    ("HelloMessage", "after"): "The last version the client already holds; the server sends what comes after it.",
    ("HelloMessage", "presence"): "Also send a `presence` message whenever someone arrives at or leaves the game.",
    ("HelloMessage", "lang"): (
        "The language of this socket's `error` messages: pt (European Portuguese), gl, es or en. Left out, or one "
        "the server has no catalog for: the upgrade request's Accept-Language, else English. Codes never change."
    ),
    ("HelloMessage", "check"): (
        "The `check` of the update that brought version `after`. If the game's history holds other events at "
        "that version now (writes lost and written past), the server sends `reset` and closes with 4009. "
        "Null, empty or left out: no check."
    ),
    ("CommandMessage", None): "A seat's command, with the meaning (and the idempotency) of POST /games/{id}/commands.",
    ("CommandMessage", "command_id"): "Chosen by the client, unique per command in the game (1 to 100 characters).",
    ("CommandMessage", "expected_version"): "The version the command was decided on; else 409 version_conflict.",
    ("SendCommand", "command_id"): "Chosen by the client, unique per command in the game (1 to 100 characters).",
    ("SendCommand", "expected_version"): "The version the command was decided on; else 409 version_conflict.",
    ("MovesMessage", "picks"): "The picks made so far, the command's type first (none: the first step); at most 64.",
    ("MovesMessage", "request_id"): "Echoed in the answer (step or error), to match it to this request.",
    ("StepMessage", "version"): "The version the step was computed at.",
    ("AckMessage", "version"): "The game's version after the command.",
    ("UpdateMessage", "version"): "The last version this message covers.",
    ("UpdateMessage", "view"): (
        "The game's view for this viewer (not the table envelope); null on catch-up chunks but the last, "
        "and while the table is open."
    ),
    ("UpdateMessage", "check"): (
        "A keyed hash of the game's history up to `version` (it tells nothing about hidden cards); send it "
        "back as the hello's `check` with after = `version`. Empty when the server does not know it."
    ),
    ("UpdateMessage", "status"): "With the view, the table's status; null on the other chunks.",
    ("UpdateMessage", "outcome"): "With the view, once the table is finished, its outcome; null before.",
    ("UpdateMessage", "step"): "With the view, to a seat the game awaits, the first step of its move; else null.",
    ("ErrorMessage", "error"): "A stable code (docs/API.md, 'Every code'); for a refused command, the rule's code.",
    ("ErrorMessage", "message"): (
        "Text for people, in the hello's `lang` (else the upgrade's Accept-Language, else English); it may change. "
        "Programs read `error` and `details` (docs/i18n.md renders them in any language)."
    ),
    ("ErrorMessage", "details"): (
        "The code's parameters: every value its message names (field names a bad field, version the current version "
        "on a conflict, case which of a code's situations it is)."
    ),
    ("ErrorMessage", "command_id"): "The refused command's id; null when the message could not be read as a command.",
    ("ErrorMessage", "request_id"): "The refused moves request's id (also when refused before it was read).",
    ("ResetMessage", "version"): "The game's current version; reconnect with after = 0.",
    ("Presence", "spectators"): "How many sockets without a seat watch the game.",
    ("ErrorBody", "error"): "A stable code (docs/API.md, 'Every code'); for a rule's refusal, the rule's code.",
    ("ErrorBody", "message"): (
        "Text for people in the language the request's Accept-Language asks for (pt, gl, es; else English); it may "
        "change. Programs read `error` and `details` (docs/i18n.md renders them in any language)."
    ),
}
LOG_LINE: Schema = {
    "title": "LogLine",
    "description": "One line of an exported log (GET /games/{game_id}/export, POST /games/import).",
    "type": "object",
    "properties": {
        "version": {"type": "integer", "minimum": 1},
        "schema": {"type": "integer", "minimum": 1, "default": 1, "description": "The stored event's schema."},
        "event": {"$ref": DEFS + "Event"},
        "sent": {
            "$ref": DEFS + "Sent",
            "description": "On the first fact of a command's step, the command (in exports of every fact, a seat's)",
        },
    },
    "required": ["version", "event"],
}


# -- references -------------------------------------------------------------------------------------------


def nodes(node: Any) -> Iterator[dict[str, Any]]:
    """Every object inside ``node``, ``node`` first."""
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from nodes(value)
    elif isinstance(node, list):
        for value in node:
            yield from nodes(value)


def ref(name: str) -> Schema:
    return {"$ref": DEFS + name}


def retarget(node: Any, rename: Callable[[str], str]) -> Any:
    """A copy of ``node`` whose references (``$ref`` and discriminator mappings) name ``rename(name)``."""
    node = copy.deepcopy(node)
    for obj in nodes(node):
        if isinstance(obj.get("$ref"), str) and obj["$ref"].startswith(DEFS):
            obj["$ref"] = DEFS + rename(obj["$ref"][len(DEFS) :])
        mapping = obj.get("discriminator", {}).get("mapping") if isinstance(obj.get("discriminator"), dict) else None
        if isinstance(mapping, dict):
            for tag, target in mapping.items():
                mapping[tag] = DEFS + rename(target[len(DEFS) :])
    return node


def referenced(defs: Mapping[str, Schema], roots: Iterable[Any]) -> list[str]:
    """The names of every schema ``roots`` refer to, directly or not, in the order met."""
    found: dict[str, None] = {}
    todo = list(roots)
    while todo:
        for obj in nodes(todo.pop()):
            target = obj.get("$ref")
            if isinstance(target, str) and target.startswith(DEFS):
                name = target[len(DEFS) :]
                if name not in found:
                    found[name] = None
                    todo.append(defs[name])
    return list(found)


def components(types: list[Any]) -> tuple[list[Schema], dict[str, Schema]]:
    found, defs = msgspec.json.schema_components(types, ref_template=DEFS + "{name}")
    refs = list(found)
    clashing = [name for name in defs if "." in name]
    assert not clashing, f"two types share a name in one group: {clashing}"
    return refs, defs


# -- the contract ---------------------------------------------------------------------------------------


class Contract:
    """Every schema of the API by its name (``defs``, references as ``#/$defs/<name>``), and the names
    of the REST bodies and answers by their types (``names``)."""

    def __init__(self, games: Iterable[AnyGame]) -> None:
        self.games = list(games)
        self.defs: dict[str, Schema] = {}
        self.names: dict[Any, str] = {}
        rest = [ErrorBody, Health]
        for endpoint in ENDPOINTS:
            rest += [t for t in (endpoint.body, endpoint.answer) if t is not None and not isinstance(t, str)]
        rest = list(dict.fromkeys(rest))
        refs = self.shared(rest, RENAMED)
        self.names = {kind: r["$ref"][len(DEFS) :] for kind, r in zip(rest, refs, strict=True)}
        self.shared(list(SOCKET_MESSAGES), {**SOCKET_NAMES, **RENAMED})
        self.shared([*TABLE_EVENTS, *TABLE_COMMANDS, Abandoned], {})
        self.defs["TableCommand"] = self.union(TABLE_COMMANDS)
        self.defs["TableEvent"] = self.union(TABLE_EVENTS)
        self.shared([ExportHeader, Sent], {})
        self.defs["LogLine"] = LOG_LINE
        for game in self.games:
            self.add_game(game)
        ids = [game.id for game in self.games]
        self.defs["GameId"] = {"title": "GameId", "description": "A game this server hosts.", "enum": ids}
        self.defs["GameCommand"] = self.over_games("Command", "A command of any game's own (no table command).")
        self.defs["Command"] = {
            "title": "Command",
            "description": "Anything a seat may send: the table's commands or its game's own.",
            "anyOf": [ref("TableCommand"), ref("GameCommand")],
        }
        self.defs["Event"] = {
            "title": "Event",
            "description": "An event of a game's stream, as the viewer may see it: the table's or its game's own.",
            "anyOf": [ref("TableEvent"), *(ref(f"{g}.Event") for g in ids)],
        }
        self.defs["View"] = self.over_games("View", "A viewer's view of the game it plays.")
        self.defs["Outcome"] = self.over_games("Outcome", "How a game ended: its own outcome, or Abandoned.")
        self.defs["CreateGame"] = {
            **self.over_games("CreateGame", "A new table of one of the games (POST /games)."),
            "discriminator": {"propertyName": "game", "mapping": {g: DEFS + f"{g}.CreateGame" for g in ids}},
        }
        self.patch()

    def shared(self, types: list[Any], names: Mapping[str, str]) -> list[Schema]:
        """Add types every game shares under their own names (or ``names``); one name, one schema."""
        refs, defs = components(types)
        for name, schema in defs.items():
            final = names.get(name, name)
            schema = retarget(schema, lambda n: names.get(n, n))
            if final in self.defs:
                assert self.defs[final] == schema, f"two different types are both named {final}"
            self.defs[final] = schema
        return [retarget(r, lambda n: names.get(n, n)) for r in refs]

    def add_game(self, game: AnyGame) -> None:
        """One game's types under its id, except those identical to a shared one of the same name."""
        types = [game.command_type, game.event_type, game.view_type, game.outcome_type | Abandoned]
        refs, defs = components([*types, game.options_type])
        own = {name for name in defs if name not in self.defs}
        while True:  # a type is shared only if what it refers to is too
            names = {name: f"{game.id}.{name}" if name in own else name for name in defs}
            mine = {name: retarget(schema, names.__getitem__) for name, schema in defs.items()}
            more = {name for name in defs if name not in own and mine[name] != self.defs[name]}
            if not more:
                break
            own |= more
        for name in [n for n in defs if n in own]:  # in msgspec's order, the same in every run
            self.defs[names[name]] = mine[name]
        command, event, view, outcome, options = (retarget(r, names.__getitem__) for r in refs)
        # open_table refuses an option the game does not have (422 bad_options)
        self.defs[options["$ref"][len(DEFS) :]]["additionalProperties"] = False
        title = game.title
        self.alias(f"{game.id}.Command", command, f"{title}: a command of the game's own.")
        self.alias(f"{game.id}.Event", event, f"{title}: an event of the game's own.")
        self.alias(f"{game.id}.View", view, f"{title}: a viewer's view.")
        self.alias(f"{game.id}.Outcome", outcome, f"{title}: how the game ended (its own outcome, or Abandoned).")
        self.alias(f"{game.id}.Options", options, f"{title}: the table's options (each has a default).")
        option = copy.deepcopy(self.defs["Option"])
        option["properties"]["command"] = {
            **ref(f"{game.id}.Command"),
            "description": "Set when this pick completes the move with nothing left to choose: the command to send.",
        }
        step = copy.deepcopy(self.defs["Step"])
        step["properties"]["options"]["items"] = ref(f"{game.id}.Option")
        step["properties"]["command"] = {
            **ref(f"{game.id}.Command"),
            "description": "The command the picks so far make (send it, or pick on); absent while they make none.",
        }
        self.defs[f"{game.id}.Option"] = {**option, "title": f"{game.id}.Option"}
        self.defs[f"{game.id}.Step"] = {**step, "title": f"{game.id}.Step"}
        create = copy.deepcopy(self.defs["CreateGame"])
        create["properties"]["game"] = {"const": game.id}
        create["properties"]["players"] = {"type": "integer", "minimum": game.min_players, "maximum": game.max_players}
        create["properties"]["options"] = {**ref(f"{game.id}.Options"), "default": {}}
        takeover = [b.name for b in BOTS.values()] + [f"{b.name}:{n}" for b in BOTS.values() for n in b.levels]
        create["properties"]["takeover"] = {
            "anyOf": [{"enum": takeover}, {"type": "null"}],
            "default": None,
            "description": "The bot that plays on a seat whose player leaves, resigns or runs out of time "
            "(a bot's name, its level after a colon); null: greedy. Else 422 no_such_bot.",
        }
        self.defs[f"{game.id}.CreateGame"] = {**create, "title": f"{game.id}.CreateGame"}

    def alias(self, name: str, schema: Schema, description: str) -> None:
        if schema.get("$ref") == DEFS + name:
            return  # the game's type already has the name (a struct called ``Options``)
        assert name not in self.defs, f"{name} is both a type of the game and its alias"
        self.defs[name] = {"title": name, "description": description, **schema}

    def union(self, types: Iterable[Any]) -> Schema:
        [schema], _ = components([Union[(*types,)]])
        return schema

    def over_games(self, kind: str, description: str) -> Schema:
        return {"title": kind, "description": description, "anyOf": [ref(f"{g.id}.{kind}") for g in self.games]}

    def patch(self) -> None:
        """What msgspec cannot see: the inside of each ``Any``, and the limits the handlers check."""
        d = self.defs
        for name in ("SendCommand", "CommandMessage"):
            d[name]["properties"]["command"] = ref("Command")
            d[name]["properties"]["command_id"].update(COMMAND_ID)
        d["VersionedEvent"]["properties"]["event"] = ref("Event")
        for name in ("TableView", "UpdateMessage"):  # null while the table is open / until it is finished
            for field, kind in (("view", "View"), ("outcome", "Outcome")):
                default = {"default": None} if "default" in d[name]["properties"][field] else {}
                d[name]["properties"][field] = {"anyOf": [ref(kind), {"type": "null"}], **default}
        d["LegalCommands"]["properties"]["commands"]["items"] = ref("GameCommand")
        d["Step"]["properties"]["command"] = {**ref("GameCommand"), "description": "The command the picks make."}
        d["Option"]["properties"]["command"] = {**ref("GameCommand"), "description": "The command this pick ends."}
        for name in ("TableView", "LobbyEntry", "NewGame", "CatalogEntry", "GameComponents"):
            d[name]["properties"]["game"] = ref("GameId")
        d["CatalogEntry"]["properties"]["options"] = {"anyOf": [ref(f"{g.id}.Options") for g in self.games]}
        d["GameComponents"]["properties"]["components"]["description"] = (
            "The game's printed parts as its data file holds them (cards, map, tiles), each value with its source."
        )
        opening = d["Opening"]  # stored without them, shown always with them (domain/fair.py)
        opening["properties"]["salt"] = {"type": "string", "description": "The item's salt, in hex."}
        opening["properties"]["path"] = {
            "type": "array",
            "items": {"type": "string"},
            "description": "The sibling hashes from the item's leaf up to the top, in hex.",
        }
        opening["required"] = [*opening["required"], "salt", "path"]
        d["Clock"]["properties"]["seconds"].update(CLOCK_SECONDS)
        d["Clock"]["properties"]["bank"].update(CLOCK_BANK)
        d["Clock"]["properties"]["credit"].update(CLOCK_BANK)
        seat = d["TakeSeat"]["properties"]
        most = max((g.max_players for g in self.games), default=1)
        seat["seat"] = {"anyOf": [{"type": "integer", "minimum": 0, "maximum": most - 1}, {"type": "null"}]}
        seat["seat"]["default"] = None
        seat["bot"] = {"anyOf": [{"enum": sorted(BOTS)}, {"type": "null"}], "default": None}
        levels = sorted({level for bot in BOTS.values() for level in bot.levels})
        seat["level"] = {
            "anyOf": [{"type": "integer", "minimum": levels[0], "maximum": levels[-1]}, {"type": "null"}],
            "default": None,
            "description": "The bot's level, for a bot that has levels ("
            + "; ".join(
                f"{b.name}: {b.levels[0]} to {b.levels[-1]}, default {b.level}" for b in BOTS.values() if b.levels
            )
            + "), else 422 no_such_level. Stored with the bot: the seat's bot reads 'strong:4'.",
        }
        seat["name"]["description"] = (
            f"At most {NAME_MOST} characters once normalised (NFC; control, format and unassigned characters "
            "dropped; each run of spaces one space), else 400 malformed. Empty: 'Player <seat + 1>'."
        )
        for name in ("BuildMove", "MovesMessage"):
            assert d[name]["properties"]["picks"]["maxItems"] == MAX_PICKS
        for (name, part), text in DESCRIPTIONS.items():
            (d[name] if part is None else d[name]["properties"][part])["description"] = text
        for name, schema in d.items():
            schema["title"] = name
        self.defs = msgspec.json.decode(msgspec.json.encode(d))  # plain JSON data (defaults such as () as [])

    def closure(self, roots: Iterable[Any]) -> dict[str, Schema]:
        return {name: self.defs[name] for name in referenced(self.defs, roots)}

    def retargeted(self, template: str) -> dict[str, Schema]:
        """Every schema, its references written with ``template`` (``#/components/schemas/{name}``)."""
        out = {}
        for name, schema in self.defs.items():
            out[name] = retarget(schema, lambda n: n)
            for obj in nodes(out[name]):
                if isinstance(obj.get("$ref"), str) and obj["$ref"].startswith(DEFS):
                    obj["$ref"] = template.format(name=obj["$ref"][len(DEFS) :])
                mapping = (
                    obj.get("discriminator", {}).get("mapping") if isinstance(obj.get("discriminator"), dict) else None
                )
                if isinstance(mapping, dict):
                    for tag, target in mapping.items():
                        mapping[tag] = template.format(name=target[len(DEFS) :])
        return out


# -- the files ------------------------------------------------------------------------------------------


def roots(game: AnyGame) -> dict[str, Schema]:
    """Each kind of a game's schemas, as a reference into the contract."""
    return {
        "commands": {"anyOf": [ref("TableCommand"), ref(f"{game.id}.Command")]},
        "events": {"anyOf": [ref("TableEvent"), ref(f"{game.id}.Event")]},
        "view": ref(f"{game.id}.View"),
        "outcome": ref(f"{game.id}.Outcome"),
        "options": ref(f"{game.id}.Options"),
        "step": ref(f"{game.id}.Step"),
        "pick": ref("Pick"),
    }


TITLES = {
    "commands": "a command a seat may send (POST /games/{id}/commands, the socket's 'command'), its own or the table's",
    "events": "an event of the game's stream ('event' in feeds, updates and exports)",
    "view": "a viewer's view ('view' of the table and of WebSocket updates)",
    "outcome": "the final result ('outcome' of a finished table)",
    "options": "the table's options ('options' of POST /games)",
    "step": "a step of building a move ('step' of legal-commands, moves and updates)",
    "pick": "one pick of a move ('picks' of POST /games/{id}/moves and of the socket's 'moves')",
}


def game_schemas(game: AnyGame, contract: Contract | None = None) -> dict[str, Schema]:
    """One game's schemas, by kind, each self-contained."""
    contract = contract or Contract([game])
    out = {}
    for kind, root in roots(game).items():
        title = f"{game.title}: {TITLES[kind]}"
        out[kind] = {"$schema": DIALECT, "title": title, **root, "$defs": contract.closure([root])}
    return out


def api_schema(contract: Contract) -> Schema:
    return {
        "$schema": DIALECT,
        "title": "Ludoteca: every schema of the API (REST bodies and answers, WebSocket messages, every game's types)",
        "$defs": contract.defs,
    }


def dump(value: Any) -> bytes:
    return msgspec.json.format(msgspec.json.encode(value), indent=2) + b"\n"


def write_schemas(out: Path, games: Iterable[AnyGame]) -> list[Path]:
    """Write every game's schemas and the whole contract under ``out``; the files written, ``index.json`` last."""
    games = list(games)
    contract = Contract(games)
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    index: dict[str, Any] = {"api": "api.schema.json", "games": {}}
    (out / "api.schema.json").write_bytes(dump(api_schema(contract)))
    written.append(out / "api.schema.json")
    for game in games:
        folder = out / game.id
        folder.mkdir(exist_ok=True)
        files: dict[str, str] = {}
        for kind, schema in game_schemas(game, contract).items():
            path = folder / f"{kind}.schema.json"
            path.write_bytes(dump(schema))
            files[kind] = f"{game.id}/{path.name}"
            written.append(path)
        index["games"][game.id] = {"title": game.title, "rules_version": game.rules_version, **files}
    path = out / "index.json"
    path.write_bytes(dump(index))
    written.append(path)
    return written


# -- docs/asyncapi.yaml ---------------------------------------------------------------------------------

MARKER = "# -- generated: `ludoteca schema --asyncapi docs/asyncapi.yaml` writes what follows; do not edit it --"
MESSAGES: tuple[str, ...] = ("HelloMessage", "CommandMessage", "MovesMessage", "StepMessage", "AckMessage")
MESSAGES += ("ErrorMessage", "UpdateMessage", "ResetMessage", "Presence")


def asyncapi_schemas(contract: Contract) -> dict[str, Schema]:
    """The socket's messages and everything they refer to, as AsyncAPI's components.schemas."""
    every = contract.retargeted("#/components/schemas/{name}")
    wanted = sorted(set(referenced(contract.defs, [ref(name) for name in MESSAGES])) - set(MESSAGES))
    schemas = {name: every[name] for name in [*MESSAGES, *wanted]}
    for obj in nodes(schemas):  # AsyncAPI's discriminator is the property's name alone
        if isinstance(obj.get("discriminator"), dict):
            obj["discriminator"] = obj["discriminator"]["propertyName"]
    return schemas


def asyncapi_tail(contract: Contract) -> str:
    import yaml  # only this writer needs it

    body = yaml.safe_dump(
        {"schemas": asyncapi_schemas(contract)}, sort_keys=False, allow_unicode=True, width=120, default_flow_style=None
    )
    return MARKER + "\n" + "".join(f"  {line}\n" for line in body.splitlines())


def write_asyncapi(path: Path, games: Iterable[AnyGame]) -> None:
    """Rewrite what follows ``MARKER`` in the AsyncAPI document (it ends the file, under ``components``)."""
    text = path.read_text(encoding="utf-8")
    head, found, _ = text.partition(MARKER)
    assert found, f"{path} has no line {MARKER!r}"
    path.write_text(head + asyncapi_tail(Contract(games)), encoding="utf-8")


# -- the verb -------------------------------------------------------------------------------------------


def schema_verb(args: argparse.Namespace) -> int:
    from domain.catalog import GAMES

    games: Mapping[str, AnyGame] = GAMES
    if args.asyncapi:
        write_asyncapi(Path(args.asyncapi), games.values())
        print(f"rewrote the generated schemas of {args.asyncapi}")
    if args.out:
        written = write_schemas(Path(args.out), games.values())
        print(f"wrote {len(written)} files for {len(games)} games to {args.out}")
    if not args.out and not args.asyncapi:
        args.parser.error("give --out DIR (or --asyncapi FILE)")
    return 0


def add_schema_verb(verbs: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = verbs.add_parser(
        "schema",
        help="write the JSON Schema of the API: every game's commands, events, views, outcomes, options, steps, picks",
        description=f"Write DIR/api.schema.json, DIR/<game>/{{{','.join(KINDS)}}}.schema.json and DIR/index.json.",
    )
    p.add_argument("--out", metavar="DIR", help="the directory to write into (created if missing)")
    p.add_argument("--asyncapi", metavar="FILE", help="rewrite the generated schemas at the end of this AsyncAPI file")
    p.set_defaults(func=schema_verb, parser=p)
