"""The machine-readable contracts: ``ludoteca schema --out DIR`` (every game's JSON Schemas, which real
commands, events, views, outcomes, steps and picks validate against) and docs/asyncapi.yaml (the WebSocket
protocol, held to server/ws.py: every message type, its fields, every close code, and what a real socket
sends while a move is built)."""

from __future__ import annotations

import gzip
import inspect
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import msgspec
import pytest
import yaml
from websockets.asyncio.client import connect

from clients.bots import run_bots
from clients.python import AsyncClient
from clients.python.models import ServerMessage
from domain.catalog import GAMES
from projections.views import Present
from server import feeds, ws
from server.cli import main
from server.schema import KINDS
from tests.server.conftest import Running

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
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
    assert set(index["games"]) == set(GAMES)
    for game_id, entry in index["games"].items():
        assert entry["title"] == GAMES[game_id].title
        for kind in KINDS:
            path = schemas / entry[kind]
            assert path == schemas / game_id / f"{kind}.schema.json" and path.is_file()
            schema = load(path)
            jsonschema.Draft202012Validator.check_schema(schema)
            assert schema["$schema"].endswith("2020-12/schema") and game_id in path.parts[-2]
    commands = load(schemas / "vilar-de-mouros" / "commands.schema.json")
    tags = {d["properties"]["type"]["enum"][0] for d in commands["$defs"].values() if "type" in d.get("properties", {})}
    assert {"DrawFromDeck", "DrawFromCentre", "PlaceCards", "TakeBonus"} <= tags
    events = load(schemas / "vilar-de-mouros" / "events.schema.json")
    assert {"TableOpened", "SeatTaken", "CardDrawn"} <= set(events["$defs"])


def test_schema_refuses_a_missing_out(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["schema"])
    assert "--out" in capsys.readouterr().err


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_real_commands_events_and_views_validate_against_the_schemas(
    server: Running, schemas: Path, game: str
) -> None:
    players = GAMES[game].min_players
    async with AsyncClient(server.url) as lobby:
        game_id = (await lobby.create(game, players)).game_id
        tokens = [(await lobby.join(game_id)).token for _ in range(players)]
        for _ in range(6):  # a few moves in, validating what each seat sees and may send
            for token in tokens:
                async with lobby.as_seat(token) as seat:
                    table = await seat.table(game_id)
                    validator(schemas, game, "view").validate(table.view)
                    await validate_steps(server, schemas, game, game_id, token)
                    legal = await seat.legal(game_id)
                    for command in legal.commands:
                        validator(schemas, game, "commands").validate(command)
                    if legal.commands:
                        await seat.send(game_id, legal.commands[-1], expected_version=legal.version)
        async for item in lobby.all_events(game_id):
            validator(schemas, game, "events").validate(item.event)
        validator(schemas, game, "view").validate((await lobby.table(game_id)).view)


async def validate_steps(server: Running, schemas: Path, game: str, game_id: str, token: str) -> None:
    """The seat's first step (legal-commands) and the steps down one path of picks (POST /moves), as
    the server sends them, validate against <game>/step.schema.json, and their picks against pick."""
    step_schema, pick_schema = validator(schemas, game, "step"), validator(schemas, game, "pick")
    headers = {"Authorization": f"Bearer {token}"}
    step = (await server.get(f"/api/v1/games/{game_id}/legal-commands", token)).json()["step"]
    picks: list[Any] = []
    while True:
        step_schema.validate(step)
        open_options = [o for o in step.get("options", []) if "command" not in o]
        if not open_options or len(picks) > 8:
            return
        picks.append({"field": open_options[-1]["field"], "value": open_options[-1]["value"]})
        for one in picks:
            pick_schema.validate(one)
        r = await server.http.post(f"/api/v1/games/{game_id}/moves", json={"picks": picks}, headers=headers)
        assert r.status_code == 200, r.text
        step = r.json()["step"]


def test_the_pick_schema_refuses_what_the_server_refuses(schemas: Path) -> None:
    pick = validator(schemas, "vilar-de-mouros", "pick")
    for good in (
        {"field": "type", "value": "PlaceCards"},
        {"field": "count", "value": 2},
        {"field": "cell", "value": [1, 2]},
    ):
        pick.validate(good)
    for bad in (
        {"field": "type"},
        {"field": "type", "value": True},
        {"field": "cell", "value": [1, "x"]},
        {"field": "t", "value": 1, "kind": "move"},
    ):
        assert not pick.is_valid(bad), bad


async def test_a_finished_games_outcome_and_revealed_log_validate(server: Running, schemas: Path) -> None:
    async with AsyncClient(server.url) as lobby:
        game_id = (await lobby.create("vilar-de-mouros", 2)).game_id
        _, table = await run_bots(server.url, game_id, seed=11)
        validator(schemas, "vilar-de-mouros", "outcome").validate(table.outcome)
        validator(schemas, "vilar-de-mouros", "view").validate(table.view)
        events = validator(schemas, "vilar-de-mouros", "events")
        for line in await lobby.export_log(game_id):
            events.validate(line.event)


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
    """Every message type the server's WebSocket code defines (tagged structs in server/ws.py and feeds.py)."""
    found: dict[str, type[msgspec.Struct]] = {}
    for module in (ws, feeds):
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
        assert payload["properties"]["type"] == {"const": tag}
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
                assert type(ws.CLIENT_MESSAGE.decode(raw)).__struct_config__.tag == name
            else:
                assert type(server_message.decode(raw)).__struct_config__.tag == name


def test_every_close_code_of_server_ws_is_in_the_asyncapi_document() -> None:
    source = (ROOT / "server" / "ws.py").read_text(encoding="utf-8")
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
        sent = [
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
