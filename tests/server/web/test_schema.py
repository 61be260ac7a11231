"""The machine-readable contracts, complete and exact: /openapi.json, docs/asyncapi.yaml and
``ludoteca schema --out DIR`` (one set of schemas under one set of names, every game's under its id);
every command a seat may send, the limits and the security the server holds, docs/API.md's examples,
and every answer and message of whole games of every game, validated against them."""

from __future__ import annotations

import asyncio
import collections
import contextlib
import gzip
import inspect
import json
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import jsonschema
import jsonschema_rs
import msgspec
import pytest
import websockets
import yaml
from websockets.asyncio.client import connect

from clients.python.models import ServerMessage
from domain.catalog import GAMES
from domain.engine import AnyGame
from domain.table import TABLE_COMMANDS, open_table
from projections import updates
from projections.views import Present
from server.cli import main
from server.service import feeds
from server.web import errors as answers
from server.web import websocket
from server.web.openapi import SECURITY, document
from server.web.rest import ENDPOINTS
from server.web.schema import KINDS, MARKER, Contract, asyncapi_tail, referenced
from tests.server.conftest import ADMIN, Running
from tests.support.games import ending_bot

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
ASYNCAPI = ROOT / "docs" / "asyncapi.yaml"


@pytest.fixture(scope="module")
def schemas(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("schemas")
    assert main(["schema", "--out", str(out)]) == 0
    return out


def load(path: Path) -> Any:
    return msgspec.json.decode(path.read_bytes())


def validator(schemas: Path, game: str, kind: str) -> jsonschema.protocols.Validator:
    schema = load(schemas / game / f"{kind}.schema.json")
    return jsonschema.Draft202012Validator(schema)


def test_schema_writes_every_kind_of_every_game_as_valid_json_schema(schemas: Path) -> None:
    index = load(schemas / "index.json")
    assert set(index["games"]) == set(GAMES) and index["api"] == "api.schema.json"
    jsonschema.Draft202012Validator.check_schema(load(schemas / "api.schema.json"))
    for game_id, entry in index["games"].items():
        assert entry["title"] == GAMES[game_id].title
        for kind in KINDS:
            path = schemas / entry[kind]
            assert path == schemas / game_id / f"{kind}.schema.json" and path.is_file()
            schema = load(path)
            jsonschema.Draft202012Validator.check_schema(schema)
            assert schema["$schema"].endswith("2020-12/schema") and game_id in path.parts[-2]
            assert set(referenced(schema["$defs"], [schema])) == set(schema["$defs"]), "self-contained, no extras"
    commands = load(schemas / "vilar-de-mouros" / "commands.schema.json")
    tags = {d["properties"]["type"]["enum"][0] for d in commands["$defs"].values() if "type" in d.get("properties", {})}
    assert {"DrawFromDeck", "DrawFromCentre", "PlaceCards", "TakeBonus", "Resign", "Undo", "TimeUp"} <= tags
    events = load(schemas / "vilar-de-mouros" / "events.schema.json")
    assert {"TableOpened", "SeatTaken", "vilar-de-mouros.CardDrawn"} <= set(events["$defs"])


def test_the_openapi_document_is_valid_openapi_3_1() -> None:
    """Against the OpenAPI 3.1 schema that schemathesis carries (its validator of documents)."""
    from schemathesis.specs.openapi import definitions

    checker = definitions.OPENAPI_31_VALIDATOR
    doc = json.loads(json.dumps(document(GAMES.values(), "1")))
    assert checker.is_valid(doc)
    assert not checker.is_valid({**doc, "info": {}}), "the schema does check"
    for schema in doc["components"]["schemas"].values():
        jsonschema.Draft202012Validator.check_schema(schema)


def test_schema_names_are_per_game_without_module_paths(schemas: Path) -> None:
    """Shared types keep their names, each game's own are under its id (``itchy-feet.SeatView``), and the
    names are the same in /openapi.json, docs/asyncapi.yaml and every file ``ludoteca schema`` writes."""
    contract = Contract(GAMES.values())
    for name, schema in contract.defs.items():
        assert schema["title"] == name
        owner, dot, rest = name.partition(".")
        assert not dot or (owner in GAMES and "." not in rest), f"{name}: a module path, or no game's"
    for game in ("itchy-feet", "vilar-de-mouros"):
        assert f"{game}.SeatView" in contract.defs
    for name in ("Draw", "GameEnded", "EndTurn", "SeatView", "Options"):
        assert name not in contract.defs, f"{name} belongs to a game"
    assert {"itchy-feet.Draw", "vilar-de-mouros.GameEnded", "miss-liz-parks.EndTurn"} <= set(contract.defs)
    openapi = document(GAMES.values(), "1")["components"]["schemas"]
    assert set(openapi) == set(contract.defs)
    assert set(asyncapi()["components"]["schemas"]) <= set(contract.defs)
    api = load(schemas / "api.schema.json")["$defs"]
    assert api == contract.defs
    for game in GAMES:
        for kind in KINDS:
            for name, schema in load(schemas / game / f"{kind}.schema.json")["$defs"].items():
                assert schema == contract.defs[name], (game, kind, name)


def test_every_command_a_seat_may_send_is_in_the_contract(schemas: Path) -> None:
    """The table's own commands (domain/table/facts.py TABLE_COMMANDS) beside each game's, in the OpenAPI body of
    POST /commands and the socket's command, and in each game's commands file."""
    doc = document(GAMES.values(), "1")
    send = openapi_validator(doc, "SendCommand")
    socket = openapi_validator(doc, "CommandMessage")
    table_commands = [{"type": "Resign"}, {"type": "Undo"}, {"type": "Undo", "version": 12}]
    table_commands.append({"type": "TimeUp", "window": "clock:0:1764460800000", "move": None})
    table_commands += [{"type": "KeepWaiting", "seat": 1}, {"type": "LetBotPlayOn", "seat": 1}]
    table_commands += [{"type": "Say", "text": "Olá", "to": 1}, {"type": "HideMessage", "version": 9}]
    table_commands += [{"type": "Mute", "seat": 1, "muted": False}]
    for game_id, game in GAMES.items():
        commands = validator(schemas, game_id, "commands")
        for command in [*table_commands, *every_first_command(game)]:
            commands.validate(command)
            send.validate({"command": command, "command_id": "c-1"})
            socket.validate({"type": "command", "command": command, "command_id": "c-1"})
        assert not commands.is_valid({"type": "Pass"})
    tags = {kind.__struct_config__.tag for kind in TABLE_COMMANDS}
    assert tags == {"Resign", "Undo", "TimeUp", "KeepWaiting", "LetBotPlayOn", "Say", "HideMessage", "Mute"}


def every_first_command(game: AnyGame) -> list[Any]:
    """A complete command of every move a seat makes in the first turns of a game (played at random)."""
    from domain.engine import Ctx
    from domain.table import decide, fold, take_seat

    rng = random.Random(3)
    table = fold(game, None, [open_table(game, game.min_players, {})])
    assert table is not None
    ctx = Ctx(rng=rng)
    for _ in range(game.min_players):
        table = fold(game, table, take_seat(game, table, None, "", None, ctx))
        assert table is not None
    found: list[Any] = []
    for _ in range(30):
        assert table is not None and table.state is not None
        awaited = [a.seat for a in game.awaited(table.state)]
        if not awaited:
            break
        command = game.random_command(table.state, awaited[0], rng)
        found.append(msgspec.json.decode(msgspec.json.encode(command)))
        table = fold(game, table, decide(game, table, command, awaited[0], ctx))
    return found


def test_schema_refuses_a_missing_out(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["schema"])
    assert "--out" in capsys.readouterr().err


def test_the_pick_schema_refuses_what_the_server_refuses(schemas: Path) -> None:
    pick = validator(schemas, "vilar-de-mouros", "pick")
    goods: list[dict[str, Any]] = [
        {"field": "type", "value": "PlaceCards"},
        {"field": "count", "value": 2},
        {"field": "cell", "value": [1, 2]},
    ]
    for good in goods:
        pick.validate(good)
    bads: list[dict[str, Any]] = [
        {"field": "type"},
        {"field": "type", "value": True},
        {"field": "cell", "value": [1, "x"]},
        {"field": "t", "value": 1, "kind": "move"},
    ]
    for bad in bads:
        assert not pick.is_valid(bad), bad


# --- limits and security, held to the server ----------------------------------------------------------


def openapi_validator(doc: dict[str, Any], name: str) -> jsonschema.protocols.Validator:
    return jsonschema.Draft202012Validator({"$ref": f"#/components/schemas/{name}", "components": doc["components"]})


async def test_the_documents_limits_are_the_servers(server: Running) -> None:
    """Each limit the document states, just inside and just outside it, sent to the server: what the
    document refuses the server refuses (400 or 422), what it allows the server does not call malformed."""
    doc = (await server.http.get("/openapi.json")).json()
    sent: dict[str, Any]  # each request's JSON body, checked by the document and sent to the server
    body = openapi_validator(doc, "SendCommand")
    game_id, tokens = await server.started(2)
    headers = {"Authorization": f"Bearer {tokens[0]}"}
    for command_id, valid in (("", False), ("x", True), ("x" * 100, True), ("x" * 101, False)):
        sent = {"command": {"type": "Undo"}, "command_id": command_id}
        assert body.is_valid(sent) is valid, command_id
        r = await server.http.post(f"/api/v1/games/{game_id}/commands", json=sent, headers=headers)
        assert (r.status_code == 400) is not valid, (command_id, r.text)  # valid: 422 nothing_to_undo
    moves = openapi_validator(doc, "BuildMove")
    for count in (64, 65):
        sent = {"picks": [{"field": "type", "value": "DrawFromDeck"}] * count}
        assert moves.is_valid(sent) is (count == 64)
        r = await server.http.post(f"/api/v1/games/{game_id}/moves", json=sent, headers=headers)
        assert (r.status_code == 400) is (count == 65), r.text
    seat = openapi_validator(doc, "TakeSeat")
    create = openapi_validator(doc, "CreateGame")
    for game_id_, game in GAMES.items():
        for players in (game.min_players - 1, game.min_players, game.max_players, game.max_players + 1):
            sent = {"game": game_id_, "players": players}
            valid = game.min_players <= players <= game.max_players
            assert create.is_valid(sent) is valid
            r = await server.http.post("/api/v1/games", json=sent)
            assert r.status_code == (201 if valid else 422), r.text
        r = await server.http.post("/api/v1/games", json={"game": game_id_, "players": 2, "options": {"nope": 1}})
        assert r.status_code == 422 and not create.is_valid({"game": game_id_, "players": 2, "options": {"nope": 1}})
    for seconds, valid in ((0, False), (1, True), (30 * 24 * 3600, True), (30 * 24 * 3600 + 1, False)):
        sent = {"game": "vilar-de-mouros", "players": 2, "clock": {"seconds": seconds}}
        assert create.is_valid(sent) is valid
        r = await server.http.post("/api/v1/games", json=sent)
        assert r.status_code == (201 if valid else 422), r.text
    open_id = await server.create(2)
    for sent, status in (({"bot": "clever"}, 422), ({"seat": -1}, 422), ({"seat": 6}, 422), ({"name": "n" * 41}, 400)):
        r = await server.http.post(f"/api/v1/games/{open_id}/seats", json=sent)
        assert r.status_code == status, (sent, r.text)
        if "name" not in sent:
            assert not seat.is_valid(sent), sent
    # A name's limit is counted after normalising: 41 characters with a doubled space are 40.
    assert seat.is_valid({"name": "n" * 20 + "  " + "n" * 19, "bot": "random", "seat": 1})
    r = await server.http.post(f"/api/v1/games/{open_id}/seats", json={"name": "n" * 20 + "  " + "n" * 19})
    assert r.status_code == 201, r.text


async def test_the_query_parameters_ranges_are_the_servers(server: Running) -> None:
    """Each integer query parameter at its bounds is read, one past them is 400 malformed, as documented."""
    doc = (await server.http.get("/openapi.json")).json()
    game_id, _ = await server.started(2)
    player = (await server.http.post("/api/v1/players", json={"name": "Ana"})).json()["token"]
    server.http.cookies.clear()
    checked = 0
    for path, item in doc["paths"].items():
        for op in item.values():
            for parameter in op.get("parameters", []):
                schema = parameter["schema"]
                if parameter["in"] != "query" or schema.get("type") != "integer":
                    continue
                url = path.replace("{game_id}", game_id).replace("{game}", "vilar-de-mouros")
                low, high = schema["minimum"], schema.get("maximum")
                cases = [(low - 1, False), (low, True)]
                cases += [(high, True), (high + 1, False)] if high is not None else []
                for value, ok in cases:
                    signed = {"Authorization": f"Bearer {player}"} if "/players/" in url else {}
                    if "/admin/" in url:
                        signed = {"Authorization": f"Bearer {ADMIN}"}
                    r = await server.http.get(url, params={parameter["name"]: value}, headers=signed)
                    # a version past the game's is no_such_version: read, and refused for what it says
                    assert (r.status_code == 200 or r.json()["error"] == "no_such_version") is ok, (url, value, r.text)
                    checked += 1
    assert checked >= 18


async def test_each_routes_security_is_what_the_server_asks(server: Running) -> None:
    """A route that needs a token refuses a request without one (401 or 403); one that takes a seat token
    optionally answers a spectator; the admin's routes refuse everyone else."""
    doc = (await server.http.get("/openapi.json")).json()
    assert set(SECURITY) == {endpoint.handler.__name__ for endpoint in ENDPOINTS}
    game_id, tokens = await server.started(2)
    for endpoint in ENDPOINTS:
        op = doc["paths"]["/api/v1" + endpoint.path][endpoint.method.lower()]
        security = op["security"]
        assert security == SECURITY[endpoint.handler.__name__]
        if endpoint.admin:
            assert {"admin": []} in security
        if endpoint.seat:
            assert {"seat": []} in security
        path = "/api/v1" + endpoint.path.replace("{game_id}", game_id).replace("{game}", "vilar-de-mouros")
        path = path.replace("{lang}", "gl")
        body: dict[str, Any] | None = {"picks": []} if endpoint.handler.__name__ == "build_move" else None
        if endpoint.handler.__name__ == "send_command":
            body = {"command": {"type": "Resign"}, "command_id": "no-token"}
        if endpoint.handler.__name__ in (
            "create_game", "take_seat", "quick_play", "import_game", "export_game", "create_player",
            "sign_in_with_code",
            "player_page",  # a public page: 404 but for a player that made it so (tests/server/web/test_ratings.py)
            "unsubscribe",  # its authority is its link's signed token (tests/server/web/test_notices.py)
            "sign_in_with_passkey", "oidc_start", "oidc_callback",
        ):  # fmt: skip
            continue  # no token needed, or a body checked first (tested above, in test_api, test_passkeys and
            # test_oidc), or below
        r = await server.http.request(endpoint.method, path, json=body)
        if {} in security or not security:
            assert r.status_code < 400, (endpoint.path, r.text)
        else:
            assert r.status_code in (401, 403), (endpoint.path, r.text)
            assert str(r.status_code) in op["responses"], endpoint.path
    r = await server.http.get(f"/api/v1/games/{game_id}/export")
    assert r.status_code == 401, "an active game's export is the admin's"
    resigned = await server.send(game_id, tokens[0], {"type": "Resign"})
    assert resigned.status_code == 200 and (await server.get(f"/api/v1/games/{game_id}")).json()["status"] == "finished"
    assert (await server.http.get(f"/api/v1/games/{game_id}/export")).status_code == 200, "a finished one anyone's"
    r = await server.http.post("/api/v1/games/import", content=b"{}\n")
    assert r.status_code == 401 and doc["paths"]["/api/v1/games/import"]["post"]["security"] == [{"admin": []}]


# --- docs/API.md's examples --------------------------------------------------------------------------

API_MD = ROOT / "docs" / "API.md"
ROUTE_HEADING = re.compile(r"^#+ `(GET|POST|DELETE) (/games[^`]*)`")
SECTION_ROUTES = {"## Commands: command_id and expected_version": ("POST", "/games/{game_id}/commands")}
SOCKET_TAGS = {"hello", "command", "moves", "update", "ack", "error", "reset", "step", "presence"}


@dataclass
class Example:
    line: int
    what: str  # "request", "answer" or "socket"
    body: Any
    route: tuple[str, str] | None = None
    status: int = 200


def template(path: str) -> str | None:
    """The route template of a path as the docs write it (``$API/games/$GAME/seats`` -> ``/games/{game_id}/seats``)."""
    path = path.split("?")[0].rstrip('"')
    for endpoint in ENDPOINTS:
        pattern = re.sub(r"\\{(\w+)\\}", r"[^/]+", re.escape(endpoint.path)) + "$"
        if re.match(pattern, path) and not (
            endpoint.path.endswith("}") and path.rsplit("/", 1)[-1] in ("catalog", "import")
        ):
            return endpoint.path
    return None


def shell_commands(block: list[tuple[int, str]]) -> Iterator[tuple[int, str, list[str]]]:
    """A shell block's commands (continuation lines joined), each with the comment lines after it."""
    current: tuple[int, str] | None = None
    comments: list[str] = []
    pending = ""
    for number, line in block:
        if line.lstrip().startswith("#"):
            comments.append(line.lstrip()[1:])
            continue
        if current is not None and not pending:
            yield current[0], current[1], comments
            current, comments = None, []
        text = pending + line.strip()
        if text.endswith("\\"):
            pending = text[:-1] + " "
            if current is None:
                current = (number, "")
            continue
        pending = ""
        current = (current[0] if current else number, text)
    if current is not None:
        yield current[0], current[1], comments


def outputs(comments: list[str]) -> Iterator[tuple[int | None, str]]:
    """The answers a command's comments show: (a status, when written, and the JSON text)."""
    found: list[list[str]] = []
    for text in comments:
        if re.match(r"^ ?(\d{3} )?[{\[]", text):
            found.append([text.strip()])
        elif found and text.startswith("  "):
            found[-1].append(text.strip())
    for lines in found:
        joined = " ".join(lines)
        status = re.match(r"^(\d{3}) ", joined)
        trailing = re.search(r"\} (\d{3})$", joined)
        body = joined[4:] if status else joined[:-4] if trailing else joined
        code = status or trailing
        yield (int(code.group(1)) if code else None), body


def examples() -> Iterator[Example]:
    lines = API_MD.read_text(encoding="utf-8").splitlines()
    section: tuple[str, str] | None = None
    last_route: tuple[str, str] | None = None
    i = 0
    while i < len(lines):
        line = lines[i]
        heading = ROUTE_HEADING.match(line)
        if heading:
            section = (heading.group(1), heading.group(2))
        elif line.startswith("#"):
            section = SECTION_ROUTES.get(line, section if line.startswith("###") else None)
        if not line.startswith("```"):
            i += 1
            continue
        kind = line[3:].strip()
        start = i + 1
        i += 1
        while not lines[i].startswith("```"):
            i += 1
        block = list(enumerate(lines[start:i], start + 1))
        i += 1
        if kind == "sh":
            for number, command, comments in shell_commands(block):
                url = re.search(r"\$API(/[^\s\"']*)", command)
                path = template(url.group(1)) if url else None
                method = re.search(r"-X (\w+)", command)
                posts = re.search(r"--json|-d |--data-binary", command)
                verb = method.group(1) if method else "POST" if posts else "GET"
                route = (verb, path) if path else section if command.startswith("...") else None
                if route is None:
                    continue
                last_route = route
                sent = re.search(r"(?:--json|-d) '([^']*)'", command)
                if sent:
                    shown = [status or 0 for status, _ in outputs(comments)]
                    yield Example(number, "request", sent.group(1), route, shown[0] if shown else 0)
                jq = re.search(r"\| jq (-c )?'?([^')]*)'?", command)
                projected = jq is not None and jq.group(2).strip() not in (".", "") and "$(" not in command
                for status, text in outputs(comments):
                    if not text.startswith("{") or (projected and (status or 200) < 400):
                        continue  # a projection jq made (a list, or some fields), not an answer
                    yield Example(number, "answer", text, route, status or 0)
        elif kind == "json":
            text = " ".join(line for _, line in block)
            body = text
            value = json.loads(text) if "..." not in text else None
            if isinstance(value, dict) and value.get("type") in SOCKET_TAGS and "error" not in value.get("type", ""):
                yield Example(start, "socket", body)
            elif isinstance(value, dict) and {"error", "message"} <= set(value):
                yield Example(start, "error", body)  # the error shape of every route
            else:
                yield Example(start, "answer", body, last_route, 0)
        elif kind == "":
            for number, text in block:
                if text.startswith(("> {", "< {")):
                    yield Example(number, "socket", text[2:])


LOG_LINE_REF = {"$ref": "#/components/schemas/LogLine"}
EXPORT_HEADER_REF = {"$ref": "#/components/schemas/ExportHeader"}


def success_status(route: tuple[str, str]) -> int:
    return next(e.status for e in ENDPOINTS if (e.method, e.path) == route)


def test_every_example_body_in_api_md_is_valid_by_the_documents() -> None:
    """The request bodies and answers docs/API.md shows (in its shell, JSON and socket examples), each
    against its route's schema in the OpenAPI document, or its message's in docs/asyncapi.yaml. An
    example trimmed with '...' is not a body and is left out (and counted)."""
    doc = document(GAMES.values(), "1")
    socket = asyncapi()
    checked, trimmed = [], []
    for example in examples():
        if "..." in example.body or "$" in example.body:
            trimmed.append(example.line)
            continue
        body = json.loads(example.body)
        if example.what == "socket":
            schema = {**socket, "$ref": socket["components"]["messages"][body["type"]]["payload"]["$ref"]}
            where = f"socket {body['type']}"
        elif example.what == "error":
            schema, where = {"$ref": "#/components/schemas/ErrorBody", "components": doc["components"]}, "error"
        else:
            assert example.route is not None, example
            method, path = example.route
            op = doc["paths"]["/api/v1" + path][method.lower()]
            if example.what == "request":
                target = op["requestBody"]["content"]["application/json"]["schema"]
            else:
                status = str(example.status or success_status(example.route))
                assert status in op["responses"], f"docs/API.md:{example.line}: {method} {path} never answers {status}"
                answers = op["responses"][status]["content"]
                # JSON lines (the export): its header, then a LogLine a line
                header = '"format"' in example.body
                lines = EXPORT_HEADER_REF if header else LOG_LINE_REF
                target = answers["application/json"]["schema"] if "application/json" in answers else lines
            schema = {**target, "components": doc["components"]}
            where = f"{example.what} of {method} {path}"
        errors = [e.message[:300] for e in jsonschema.Draft202012Validator(schema).iter_errors(body)]
        if example.what == "request" and errors:
            # a body the document refuses is one the server refuses: the example shows its error
            assert example.status in (400, 422), f"docs/API.md:{example.line}, {where}: {errors}"
            continue
        assert not errors, f"docs/API.md:{example.line}, {where}: {errors}"
        checked.append((example.line, where))
    whats = {where.split(" ")[0] for _, where in checked}
    assert len(checked) >= 40 and whats == {"request", "answer", "socket", "error"}, checked
    assert len(trimmed) < len(checked)


# --- whole games, every answer and message held to the documents ----------------------------------------


class Contracts:
    """Validators for the OpenAPI document's answers and docs/asyncapi.yaml's messages, built once each
    (jsonschema_rs, schemathesis's own validator: a whole game validates thousands of views)."""

    def __init__(self, openapi: dict[str, Any]) -> None:
        self.openapi = openapi
        self.socket = asyncapi()
        self.cache: dict[str, Any] = {}
        self.seen: collections.Counter[str] = collections.Counter()

    def answer(self, method: str, path: str, response: httpx.Response) -> Any:
        op = self.openapi["paths"][path][method.lower()]
        status = str(response.status_code)
        assert status in op["responses"], f"{method} {path} answered {status}, not in the document: {response.text}"
        key = f"{method} {path} {status}"
        if key not in self.cache:
            target = op["responses"][status]["content"]["application/json"]["schema"]
            self.cache[key] = jsonschema_rs.Draft202012Validator({**target, "components": self.openapi["components"]})
        body = response.json()
        self.check(self.cache[key], body, key)
        return body

    def message(self, message: dict[str, Any]) -> None:
        key = f"socket {message['type']}"
        if key not in self.cache:
            payload = self.socket["components"]["messages"][message["type"]]["payload"]
            self.cache[key] = jsonschema_rs.Draft202012Validator({**self.socket, "$ref": payload["$ref"]})
        self.check(self.cache[key], message, key)

    def component(self, name: str, value: Any) -> None:
        key = f"component {name}"
        if key not in self.cache:
            schema = {"$ref": f"#/components/schemas/{name}", "components": self.openapi["components"]}
            self.cache[key] = jsonschema_rs.Draft202012Validator(schema)
        self.check(self.cache[key], value, key)

    def check(self, validator: Any, value: Any, key: str) -> None:
        errors = [f"{list(e.instance_path)}: {e.message[:300]}" for e in validator.iter_errors(value)]
        assert not errors, f"{key}: {errors}"
        self.seen[key] += 1


async def reader(socket: Any, contracts: Contracts, inbox: asyncio.Queue[dict[str, Any]] | None) -> None:
    """Validate every message of ``socket`` until it closes, handing each to ``inbox``."""
    with contextlib.suppress(websockets.ConnectionClosed):
        async for raw in socket:
            message = json.loads(raw)
            contracts.message(message)
            if inbox is not None:
                await inbox.put(message)


async def play_through_the_api(
    server: Running, contracts: Contracts, game: str, seed: int, resign_at: int | None = None
) -> dict[str, Any]:
    """A game of ``game``: one seat played here at random (moves built over REST and the socket, commands
    sent both ways, an undo when one is offered), the others by the server's bots, a spectator watching;
    every answer and message validated. The final table."""
    rng = random.Random(seed)
    api = "/api/v1"
    G = f"{api}/games/{{game_id}}"
    created = contracts.answer(
        "POST",
        f"{api}/games",
        await server.http.post(f"{api}/games", json={"game": game, "players": GAMES[game].min_players}),
    )
    game_id = created["game_id"]
    joined = await server.http.post(f"{api}/games/{game_id}/seats", json={"name": "Ana"})
    token = contracts.answer("POST", f"{G}/seats", joined)["token"]
    auth = {"Authorization": f"Bearer {token}"}
    inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    url = f"{server.ws_url}{api}/games/{game_id}/ws"
    async with connect(url) as mine, connect(url) as watching:
        await mine.send(json.dumps({"type": "hello", "token": token, "after": 0}))
        await watching.send(json.dumps({"type": "hello", "presence": True}))
        tasks = [
            asyncio.create_task(reader(mine, contracts, inbox)),
            asyncio.create_task(reader(watching, contracts, None)),
        ]
        opponent = ending_bot(game)
        for _ in range(GAMES[game].min_players - 1):
            bot = await server.http.post(f"{api}/games/{game_id}/seats", json={"bot": opponent})
            contracts.answer("POST", f"{G}/seats", bot)
        sent = undone = 0
        while True:
            message = await asyncio.wait_for(inbox.get(), 30)
            if message["type"] == "update" and message["status"] == "finished":
                break
            refused = message["type"] == "error" and message.get("command_id") is not None  # moved on: look again
            if not refused and (message["type"] != "update" or message.get("step") is None):
                continue
            while True:  # until a command is sent that may land, or the seat has nothing to do
                r = await server.http.get(f"{api}/games/{game_id}/legal-commands", headers=auth)
                legal = contracts.answer("GET", f"{G}/legal-commands", r)
                if not legal["step"]:
                    break
                if sent == resign_at:
                    command: Any = {"type": "Resign"}
                elif legal["undo"] and not undone:
                    command, undone = {"type": "Undo"}, 1
                else:
                    command = await random_move(server, contracts, game_id, auth, legal["step"], rng, mine, inbox)
                    if command is None:
                        command = rng.choice(legal["commands"]) if legal["commands"] else None
                if command is None:
                    continue
                sent += 1
                if sent % 2 == 0:  # over the socket: its ack or error comes through the inbox
                    await mine.send(json.dumps({"type": "command", "command": command, "command_id": f"c{sent}"}))
                    break
                body = {"command": command, "command_id": f"c{sent}"}
                r = await server.http.post(f"{api}/games/{game_id}/commands", json=body, headers=auth)
                contracts.answer("POST", f"{G}/commands", r)
                if r.status_code == 200:
                    break
            if sent % 5 == 0:
                contracts.answer("GET", G, await server.http.get(f"{api}/games/{game_id}", headers=auth))
                after = {"after": max(0, message.get("version", 0) - 20)}
                contracts.answer(
                    "GET", f"{G}/events", await server.http.get(f"{api}/games/{game_id}/events", params=after)
                )
        for task in tasks:
            task.cancel()
    table: dict[str, Any] = contracts.answer("GET", G, await server.http.get(f"{api}/games/{game_id}"))
    page = contracts.answer(
        "GET", f"{G}/events", await server.http.get(f"{api}/games/{game_id}/events", params={"limit": 1000})
    )
    for version in (1, page["version"] // 2, page["version"]):
        for seat in ("0", "full"):
            r = await server.http.get(f"{api}/games/{game_id}/replay", params={"version": version, "as": seat})
            contracts.answer("GET", f"{G}/replay", r)
    for viewpoint in ("everyone", "spectator"):
        export = await server.http.get(f"{api}/games/{game_id}/export", params={"as": viewpoint})
        assert export.status_code == 200
        header, *lines = export.text.splitlines()
        contracts.component("ExportHeader", json.loads(header))
        for line in lines:
            contracts.component("LogLine", json.loads(line))
    contracts.answer(
        "GET", f"{api}/games", await server.http.get(f"{api}/games", params={"status": "finished", "limit": 5})
    )
    return table


async def random_move(
    server: Running,
    contracts: Contracts,
    game_id: str,
    auth: dict[str, str],
    step: dict[str, Any],
    rng: random.Random,
    socket: Any,
    inbox: asyncio.Queue[dict[str, Any]],
) -> Any:
    """A complete command picked at random from ``step``, each next step asked over REST or the socket."""
    picks: list[dict[str, Any]] = []
    while True:
        options = step.get("options", [])
        count = len(options) + ("command" in step)
        if count == 0:
            return None
        choice = rng.randrange(count)
        if choice == len(options):
            return step["command"]
        option = options[choice]
        if "command" in option:
            return option["command"]
        picks.append({"field": option["field"], "value": option["value"]})
        if rng.random() < 0.5:
            r = await server.http.post(f"/api/v1/games/{game_id}/moves", json={"picks": picks}, headers=auth)
            answer = contracts.answer("POST", "/api/v1/games/{game_id}/moves", r)
            if r.status_code != 200:  # a whole tuple no pick can carry (domain.moves.from_list), or moved on
                return None
            step = answer["step"]
        else:
            request_id = f"r{rng.randrange(10**9)}"
            await socket.send(json.dumps({"type": "moves", "picks": picks, "request_id": request_id}))
            held = []  # what came before the answer, handed back to the game's loop after it
            while True:
                answer = await asyncio.wait_for(inbox.get(), 30)
                if answer.get("request_id") == request_id:
                    break
                held.append(answer)
            for message in held:
                inbox.put_nowait(message)
            if answer["type"] == "error":
                return None  # the table moved on between two picks
            step = answer["step"]


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_a_whole_game_of_each_game_is_as_the_documents_say(quick: Running, game: str) -> None:
    """Every REST answer and every socket message of a game played to its end (docs/API.md's routes, the
    socket's messages), validated against /openapi.json and docs/asyncapi.yaml; and a game one seat
    resigns from, whose outcome is Abandoned."""
    contracts = Contracts((await quick.http.get("/openapi.json")).json())
    table = await play_through_the_api(quick, contracts, game, seed=len(game))
    assert table["status"] == "finished" and table["outcome"]["type"] == game
    left = await play_through_the_api(quick, contracts, game, seed=2, resign_at=2)
    assert left["outcome"]["type"] == "abandoned"
    for key in (
        "socket update",
        "socket ack",
        "socket step",
        "socket presence",
        "POST /api/v1/games/{game_id}/commands 200",
    ):
        assert contracts.seen[key] > 0, (key, contracts.seen)
    assert contracts.seen["socket update"] > 20
    assert contracts.seen["POST /api/v1/games/{game_id}/commands 200"] + contracts.seen["socket ack"] > 10
    with pytest.raises(AssertionError, match="is not of type"):  # the validators do refuse
        contracts.message({"type": "update", "version": "16", "events": [], "view": None})


# --- docs/asyncapi.yaml --------------------------------------------------------------------------------


def asyncapi() -> dict[str, Any]:
    document = yaml.safe_load(ASYNCAPI.read_text(encoding="utf-8"))
    assert isinstance(document, dict)
    return document


def walk(node: Any) -> Iterator[Any]:
    yield node
    if isinstance(node, dict):
        for value in node.values():
            yield from walk(value)
    elif isinstance(node, list):
        for value in node:
            yield from walk(value)


def resolve(document: dict[str, Any], ref: str) -> Any:
    assert ref.startswith("#/"), ref
    node: Any = document
    for part in ref[2:].split("/"):
        node = node[part.replace("~1", "/").replace("~0", "~")]
    return node


def wire_messages() -> dict[str, type[msgspec.Struct]]:
    """Every message type the server's WebSocket code defines (tagged structs in server/web/websocket.py, feeds.py
    and answers.py, and the update projections/updates.py builds)."""
    found: dict[str, type[msgspec.Struct]] = {}
    for module in (websocket, feeds, answers, updates):
        for _, kind in inspect.getmembers(module, inspect.isclass):
            if issubclass(kind, msgspec.Struct) and kind.__module__ == module.__name__:
                config = kind.__struct_config__
                if config.tag_field == "type" and isinstance(config.tag, str):
                    found[config.tag] = kind
    found["presence"] = Present  # the projection feeds.py pushes as it is
    return found


def test_the_asyncapi_document_is_well_formed() -> None:
    document = asyncapi()
    assert str(document["asyncapi"]).startswith("3.")
    assert document["info"]["title"] and document["info"]["version"]
    for node in walk(document):
        if isinstance(node, dict) and "$ref" in node:
            assert resolve(document, node["$ref"]) is not None
    channel = document["channels"]["game"]
    assert channel["address"] == "/api/v1/games/{game_id}/ws"
    assert set(re.findall(r"{(\w+)}", channel["address"])) == set(channel["parameters"])
    for name, operation in document["operations"].items():
        assert operation["action"] in ("send", "receive"), name
        assert operation["channel"] == {"$ref": "#/channels/game"}
        for message in operation["messages"] + operation.get("reply", {}).get("messages", []):
            assert message["$ref"].startswith("#/channels/game/messages/"), name
    for name, message in document["components"]["messages"].items():
        assert message["name"] == name
        jsonschema.Draft202012Validator.check_schema(resolve(document, message["payload"]["$ref"]))
        for example in message.get("examples", []):
            payload_schema = {**document, "$ref": message["payload"]["$ref"]}
            jsonschema.Draft202012Validator(payload_schema).validate(example["payload"])


def test_the_asyncapi_document_validates_against_the_asyncapi_3_schema() -> None:
    """The official JSON Schema of AsyncAPI 3.0.0 documents, vendored (tests/server/asyncapi/NOTICE)."""
    schema = msgspec.json.decode(gzip.decompress((HERE / "asyncapi" / "3.0.0.schema.json.gz").read_bytes()))
    checker = jsonschema.Draft7Validator(schema)
    errors = [f"{list(e.absolute_path)}: {e.message[:200]}" for e in checker.iter_errors(asyncapi())]
    assert errors == []
    broken = {**asyncapi(), "operations": {"shout": {"action": "shout", "channel": {"$ref": "#/channels/game"}}}}
    assert not checker.is_valid(broken)  # the schema does check


def test_every_message_of_server_ws_is_in_the_asyncapi_document_with_its_fields() -> None:
    document = asyncapi()
    messages = document["components"]["messages"]
    server_messages = wire_messages()
    assert {"hello", "command", "update", "ack", "error", "reset"} <= set(server_messages)
    operations = document["operations"].values()
    used = {m["$ref"] for op in operations for m in op["messages"] + op.get("reply", {}).get("messages", [])}
    for tag, kind in server_messages.items():
        assert tag in messages and tag in document["channels"]["game"]["messages"], tag
        payload = resolve(document, messages[tag]["payload"]["$ref"])
        assert payload["properties"]["type"] == {"enum": [tag]}
        fields = {f.encode_name for f in msgspec.structs.fields(kind)}
        assert fields <= set(payload["properties"]), (tag, fields - set(payload["properties"]))
        assert f"#/channels/game/messages/{tag}" in used, f"no operation sends or receives {tag}"
    assert set(messages) <= set(server_messages)


def test_the_asyncapi_examples_are_what_server_and_sdk_read() -> None:
    document = asyncapi()
    client_to_server = {"hello", "command", "moves"}
    server_message = msgspec.json.Decoder(ServerMessage)
    for name, message in document["components"]["messages"].items():
        for example in message.get("examples", []):
            raw = msgspec.json.encode(example["payload"])
            if name in client_to_server:
                assert type(websocket.CLIENT_MESSAGE.decode(raw)).__struct_config__.tag == name
            else:
                assert type(server_message.decode(raw)).__struct_config__.tag == name


def test_the_asyncapi_documents_schemas_are_what_the_code_generates() -> None:
    """Its components.schemas are generated (``ludoteca schema --asyncapi docs/asyncapi.yaml`` rewrites
    them): they are the contract's, by the same names, with every game's types."""
    text = ASYNCAPI.read_text(encoding="utf-8")
    assert text.count(MARKER) == 1
    assert text.partition(MARKER)[1] + text.partition(MARKER)[2] == asyncapi_tail(Contract(GAMES.values())), (
        "docs/asyncapi.yaml is out of date: run `ludoteca schema --asyncapi docs/asyncapi.yaml`"
    )
    schemas = asyncapi()["components"]["schemas"]
    assert {"HelloMessage", "UpdateMessage", "vilar-de-mouros.View", "itchy-feet.SeatView", "Command"} <= set(schemas)


async def test_the_socket_refuses_a_command_id_outside_1_to_100_characters(server: Running) -> None:
    game_id, tokens = await server.started(2)
    async with connect(f"{server.ws_url}/api/v1/games/{game_id}/ws") as socket:
        await socket.send(json.dumps({"type": "hello", "token": tokens[0], "after": 0}))
        json.loads(await socket.recv())
        await socket.send(json.dumps({"type": "command", "command": {"type": "Undo"}, "command_id": "x" * 101}))
        answer = json.loads(await socket.recv())
    assert answer["type"] == "error" and answer["error"] == "malformed", answer


def test_every_close_code_of_server_ws_is_in_the_asyncapi_document() -> None:
    source = (ROOT / "server" / "web" / "websocket.py").read_text(encoding="utf-8")
    codes = {int(c) for c in re.findall(r"^CLOSE_\w+\s*=\s*(\d{4})", source, re.MULTILINE)}
    codes |= {int(c) for c in re.findall(r"\.close\(\s*(\d{4})", source)}
    assert {1008, 4003, 4008, 4009, 1011} <= codes
    documented = {entry["code"] for entry in asyncapi()["channels"]["game"]["x-close-codes"]}
    assert codes | {1012} <= documented


async def test_what_the_socket_sends_while_a_move_is_built_is_as_the_asyncapi_document_says(server: Running) -> None:
    document = asyncapi()

    def check(name: str, payload: dict[str, Any], valid: bool = True) -> None:
        schema = {**document, "$ref": document["components"]["messages"][name]["payload"]["$ref"]}
        if valid:
            jsonschema.Draft202012Validator(schema).validate(payload)
        else:
            assert not jsonschema.Draft202012Validator(schema).is_valid(payload), payload

    game_id = await server.create(2)
    tokens = await server.seat_all(game_id, 2)
    awaiting = (await server.get(f"/api/v1/games/{game_id}")).json()["awaiting"]
    seat = awaiting[0]["seat"]
    async with (
        connect(f"{server.ws_url}/api/v1/games/{game_id}/ws") as mine,
        connect(f"{server.ws_url}/api/v1/games/{game_id}/ws") as theirs,
    ):
        for ws, token in ((mine, tokens[seat]), (theirs, tokens[1 - seat])):
            await ws.send(json.dumps({"type": "hello", "token": token, "after": 0}))
        first, other = json.loads(await mine.recv()), json.loads(await theirs.recv())
        assert first["step"]["options"] and other["step"] is None
        sent: list[dict[str, Any]] = [
            {"type": "moves", "picks": [], "request_id": "a"},
            {"type": "moves", "picks": [{"field": "type", "value": "PlaceCards"}], "request_id": "b"},
            {"type": "moves", "picks": [{"field": "type", "value": 1.5}], "request_id": "c"},
            {"type": "command", "command": {"type": "DrawFromDeck"}, "command_id": "d"},
        ]
        for message in sent:
            check(message["type"], message, valid=message.get("request_id") != "c")  # c: the server refuses it too
            await mine.send(json.dumps(message))
        got = [json.loads(await mine.recv()) for _ in range(5)]  # step, error, error, then ack and update
    assert [m["type"] for m in got[:3]] == ["step", "error", "error"], got
    assert [m.get("request_id") for m in got[:3]] == ["a", "b", "c"]
    assert sorted(m["type"] for m in got[3:]) == ["ack", "update"], got
    update = next(m for m in got if m["type"] == "update")
    assert update["step"]["options"], "the seat still draws: its update carries its next step"
    for message in [first, other, *got]:
        check(message["type"], message)
