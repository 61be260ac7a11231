"""The OpenAPI document: the routes of server/web/rest.py with the schemas of server/web/schema.py.

Its components are the contract's schemas by the same names (``TableView``, ``Command``,
``itchy-feet.SeatView``...); what the routes need beyond their types (who may call them, the
ranges of their query parameters) is said here, per handler, and a test holds every route to it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from domain import words
from domain.engine import AnyGame
from server.web.rest import ENDPOINTS, Endpoint
from server.web.schema import Contract

REF = "#/components/schemas/{name}"
STATUS_TEXT = {
    400: "Malformed request: the details name the bad field",
    401: "Missing or unknown token",
    403: "The token holds no seat in this game (or no seat at all), or is not the admin's",
    404: "No such game",
    409: "Version conflict, a reused command id, or a table that moved on",
    413: "The body is too large",
    415: "The body's Content-Type is not JSON (application/json; JSON lines for an import)",
    422: "The game's rules refuse this: error is the rule's code",
    429: "Over a quota: details.retry_after (and Retry-After) say when to try again, when it is known",
    503: "The store (Redis) is unreachable",
}
MAX_VERSION = 2**53  # server/web/rest.py's int_param bounds for versions

# Who may call each route (by handler): the security requirements, one of which must be met.
Security = list[dict[str, list[str]]]
NONE: Security = []
SEAT_OPTIONAL: Security = [{}, {"seat": []}]  # without a token, the caller is a spectator
SEAT: Security = [{"seat": []}]  # without one: 403 spectator
SECURITY: dict[str, Security] = {
    "get_languages": NONE,
    "get_words": NONE,
    "get_catalog": NONE,
    "get_components": NONE,
    "create_game": NONE,
    "list_games": NONE,
    "take_seat": NONE,
    "call_off": [{"creator": []}],
    "rematch": SEAT,
    "send_command": SEAT,
    "get_game": SEAT_OPTIONAL,
    "legal_commands": SEAT_OPTIONAL,
    "build_move": SEAT_OPTIONAL,
    "get_events": SEAT_OPTIONAL,
    "get_replay": SEAT_OPTIONAL,
    "export_game": [{}, {"admin": []}],  # anyone once the game is finished; the admin before
    "import_game": [{"admin": []}],
}
SECURITY_SCHEMES = {
    "seat": {
        "type": "http",
        "scheme": "bearer",
        "description": "A seat token, from POST /games/{game_id}/seats or /rematch ('<game_id>.<random>')",
    },
    "creator": {
        "type": "http",
        "scheme": "bearer",
        "description": "The creator_token POST /games answered: it calls the table off before it starts",
    },
    "admin": {
        "type": "http",
        "scheme": "bearer",
        "description": "The operator's LUDOTECA_ADMIN_TOKEN (unset: these routes answer 403 not_admin)",
    },
}
# The query parameters, by handler, as server/web/rest.py reads them (else 400 malformed).
QUERY: dict[tuple[str, str], dict[str, Any]] = {
    ("list_games", "status"): {"type": "string", "enum": ["open", "active", "finished"], "default": "open"},
    ("list_games", "limit"): {"type": "integer", "minimum": 1, "maximum": 200, "default": 50},
    ("list_games", "cursor"): {"type": "integer", "minimum": 0, "description": "next_cursor of the page before"},
    ("get_events", "after"): {"type": "integer", "minimum": 0, "maximum": MAX_VERSION, "default": 0},
    ("get_events", "limit"): {"type": "integer", "minimum": 1, "maximum": 1000, "default": 500},
    ("get_replay", "version"): {"type": "integer", "minimum": 1, "maximum": MAX_VERSION, "default": 1},
    ("get_replay", "as"): {
        "type": "string",
        "pattern": "^([0-9]+|full)$",
        "description": "A seat number, or 'full' (someone else's view: only once the game is finished)",
    },
}
# Any string reaches the route (DELETE /games/catalog is DELETE /games/{game_id}): an id that is not
# 16 lowercase hex characters is one more unknown game, 404 unknown_game.
GAME_ID = {"type": "string", "description": "16 lowercase hex characters; anything else is 404 unknown_game"}
LANG = {"type": "string", "enum": list(words.LANGUAGES), "description": "pt (European Portuguese), gl, es or en"}
# Every answer's error ``message`` is written in the language a request asks for (docs/i18n.md).
ACCEPT_LANGUAGE = {
    "name": "Accept-Language",
    "in": "header",
    "required": False,
    "schema": {"type": "string", "example": "gl-ES, gl;q=0.9, en;q=0.5"},
    "description": "The language of an error's message: the first of pt, gl, es, en it names (default en); "
    "error codes and details do not change",
}
NDJSON = {
    "type": "string",
    "description": "JSON lines, each one a LogLine (#/components/schemas/LogLine)",
}


def document(games: Iterable[AnyGame], version: str) -> dict[str, Any]:
    contract = Contract(games)
    paths: dict[str, dict[str, Any]] = {}
    for endpoint in ENDPOINTS:
        paths.setdefault("/api/v1" + endpoint.path, {})[endpoint.method.lower()] = operation(contract, endpoint)
    paths["/api/v1/games/{game_id}/ws"] = {"get": websocket_operation()}
    for path in ("/healthz", "/readyz"):
        paths[path] = {
            "get": {
                "summary": "Liveness" if path == "/healthz" else "Readiness (Redis answers)",
                "operationId": path[1:],
                "security": NONE,
                "responses": {
                    "200": {"description": "OK", "content": {"application/json": {"schema": schema_ref("Health")}}},
                    "503": error_response(503),
                },
            }
        }
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Ludoteca",
            "version": version,
            "description": (
                "Turn-based tabletop games with hidden information. See docs/API.md; the WebSocket protocol "
                "is docs/asyncapi.yaml, with these schemas."
            ),
        },
        "paths": paths,
        "components": {"schemas": contract.retargeted(REF), "securitySchemes": SECURITY_SCHEMES},
    }


def schema_ref(name: str) -> dict[str, str]:
    return {"$ref": REF.format(name=name)}


def content(contract: Contract, kind: Any) -> dict[str, Any]:
    if kind == "ndjson":
        return {"application/x-ndjson": {"schema": NDJSON}}
    return {"application/json": {"schema": schema_ref(contract.names[kind])}}


def error_response(status: int) -> dict[str, Any]:
    response: dict[str, Any] = {
        "description": STATUS_TEXT[status],
        "content": {"application/json": {"schema": schema_ref("ErrorBody")}},
    }
    if status == 429:
        response["headers"] = {
            "Retry-After": {"description": "Seconds to wait, when known", "schema": {"type": "integer"}}
        }
    return response


def path_parameter(name: str, contract: Contract) -> dict[str, Any]:
    schema = GAME_ID if name == "game_id" else LANG if name == "lang" else schema_ref("GameId")
    return {"name": name, "in": "path", "required": True, "schema": schema}


def operation(contract: Contract, endpoint: Endpoint) -> dict[str, Any]:
    name = endpoint.handler.__name__
    op: dict[str, Any] = {
        "summary": endpoint.summary,
        "operationId": name,
        "security": SECURITY[name],
        "responses": {str(endpoint.status): {"description": "OK", "content": content(contract, endpoint.answer)}}
        | {str(s): error_response(s) for s in sorted(set(endpoint.errors))},
    }
    parameters = [path_parameter(p, contract) for p in re.findall(r"{(\w+)}", endpoint.path)]
    parameters += [{"name": q, "in": "query", "required": False, "schema": QUERY[name, q]} for q in endpoint.query]
    parameters.append(ACCEPT_LANGUAGE)
    if parameters:
        op["parameters"] = parameters
    if endpoint.body is not None:
        op["requestBody"] = {"required": True, "content": content(contract, endpoint.body)}
    return op


def websocket_operation() -> dict[str, Any]:
    return {
        "summary": "WebSocket: live updates and commands (docs/API.md, 'WebSocket'; docs/asyncapi.yaml)",
        "description": 'Upgrade to a WebSocket, then send {"type": "hello", "token", "after", "check"}.',
        "operationId": "game_socket",
        "security": NONE,  # the token travels in the hello, never in the URL
        "parameters": [{"name": "game_id", "in": "path", "required": True, "schema": GAME_ID}],
        "responses": {"101": {"description": "Switching protocols"}},
    }
