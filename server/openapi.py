"""The OpenAPI document, generated from the endpoints and the msgspec types they carry.

The envelope is shared by every game; what differs per game is only the inside of
``command``, ``event``, ``view`` and ``outcome``, each a tagged object whose schemas
are the games' own unions.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

import msgspec

from domain.engine import AnyGame
from domain.table import TABLE_EVENTS
from server.errors import ErrorBody
from server.http import ENDPOINTS, Endpoint

REF = "#/components/schemas/{name}"
STATUS_TEXT = {
    400: "Malformed request: the details name the bad field",
    401: "Missing or unknown token",
    403: "The token holds no seat in this game, or is not the admin's",
    404: "No such game",
    409: "Version conflict, a reused command id, or a table that moved on",
    413: "The body is too large",
    415: "The body's Content-Type is not JSON (application/json; JSON lines for an import)",
    422: "The game's rules refuse this: error is the rule's code",
    429: "Over a quota: details.retry_after says when to try again, when it is known",
    503: "The store (Redis) is unreachable",
}
# Fields typed ``Any`` in the envelope whose inside belongs to a game.
GAME_FIELDS = {"command": "Command", "event": "Event", "view": "View", "outcome": "Outcome"}
NULLABLE = {"view", "outcome"}  # no view while a table is open, no outcome until the end


def document(games: Iterable[AnyGame], version: str) -> dict[str, Any]:
    games = list(games)
    types: list[Any] = [ErrorBody]
    for endpoint in ENDPOINTS:
        types += [t for t in (endpoint.body, endpoint.answer) if t is not None and not isinstance(t, str)]
    per_game: dict[str, list[Any]] = {name: [] for name in GAME_FIELDS.values()}
    per_game["Event"] += TABLE_EVENTS  # every stream starts with the table's own events
    for game in games:
        per_game["Command"].append(game.command_type)
        per_game["Event"].append(game.event_type)
        per_game["View"].append(game.view_type)
        per_game["Outcome"].append(game.outcome_type)
    refs, schemas = msgspec.json.schema_components(
        types + [t for kinds in per_game.values() for t in kinds], ref_template=REF
    )
    game_refs = iter(refs[len(types) :])
    for name, kinds in per_game.items():
        schemas[name] = {"title": name, "anyOf": [next(game_refs) for _ in kinds]}
    for schema in schemas.values():
        properties = schema.get("properties", {})
        for field, prop in properties.items():
            if field in GAME_FIELDS and (untyped(prop) or prop == {"anyOf": [{}, {"type": "null"}]}):
                target = {"$ref": REF.format(name=GAME_FIELDS[field])}
                # ``Any = None`` (a step's command) and ``Any | None`` may be null; ``Any`` may not
                nullable = prop != {} or field in NULLABLE
                properties[field] = {"anyOf": [target, {"type": "null"}]} if nullable else target
                if "default" in prop:
                    properties[field]["default"] = prop["default"]
        for field, name in (("commands", "Command"), ("events", "Event")):
            listed = properties.get(field, {})
            if listed.get("type") == "array" and untyped(listed.get("items", {})):
                listed["items"] = {"$ref": REF.format(name=name)}
    paths: dict[str, dict[str, Any]] = {}
    for endpoint in ENDPOINTS:
        paths.setdefault("/api/v1" + endpoint.path, {})[endpoint.method.lower()] = operation(endpoint)
    paths["/api/v1/games/{game_id}/ws"] = {"get": websocket_operation()}
    for path in ("/healthz", "/readyz"):
        paths[path] = {
            "get": {
                "summary": "Liveness" if path == "/healthz" else "Readiness (Redis answers)",
                "responses": {"200": {"description": "OK"}, "503": error_response(503)},
            }
        }
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Ludoteca",
            "version": version,
            "description": "Turn-based tabletop games with hidden information. See docs/API.md.",
        },
        "paths": paths,
        "components": {
            "schemas": schemas,
            "securitySchemes": {
                "seat": {
                    "type": "http",
                    "scheme": "bearer",
                    "description": "A seat token (from POST /games/{id}/seats) or the admin token",
                }
            },
        },
    }


def untyped(prop: Any) -> bool:
    """A property msgspec could only describe as anything (``Any``, perhaps with a default)."""
    return isinstance(prop, dict) and not prop.keys() & {"type", "$ref", "anyOf", "oneOf", "allOf", "enum", "const"}


def content(schema: Any) -> dict[str, Any]:
    if schema == "ndjson":
        return {"application/x-ndjson": {"schema": {"type": "string"}}}
    ref = msgspec.json.schema_components([schema], ref_template=REF)[0][0]
    return {"application/json": {"schema": ref}}


def error_response(status: int) -> dict[str, Any]:
    return {
        "description": STATUS_TEXT[status],
        "content": {"application/json": {"schema": {"$ref": REF.format(name="ErrorBody")}}},
    }


def operation(endpoint: Endpoint) -> dict[str, Any]:
    op: dict[str, Any] = {
        "summary": endpoint.summary,
        "operationId": endpoint.handler.__name__,
        "responses": {str(endpoint.status): {"description": "OK", "content": content(endpoint.answer)}}
        | {str(s): error_response(s) for s in sorted(set(endpoint.errors))},
    }
    parameters = [
        {"name": name, "in": "path", "required": True, "schema": {"type": "string"}}
        for name in re.findall(r"{(\w+)}", endpoint.path)
    ]
    parameters += [{"name": q, "in": "query", "required": False, "schema": {"type": "string"}} for q in endpoint.query]
    if parameters:
        op["parameters"] = parameters
    if endpoint.body is not None:
        op["requestBody"] = {"required": True, "content": content(endpoint.body)}
    if endpoint.seat:
        op["security"] = [{}, {"seat": []}]  # optional: no token is a spectator
    elif endpoint.admin:
        op["security"] = [{"seat": []}]
    return op


def websocket_operation() -> dict[str, Any]:
    return {
        "summary": "WebSocket: live updates and commands (see docs/API.md, 'WebSocket')",
        "description": 'Upgrade to a WebSocket, then send {"type": "hello", "token", "after", "check"}.',
        "parameters": [{"name": "game_id", "in": "path", "required": True, "schema": {"type": "string"}}],
        "responses": {"101": {"description": "Switching protocols"}},
    }
