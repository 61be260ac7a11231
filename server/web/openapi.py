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
from server.service.players import MY_TABLES_MOST
from server.web.requests import Endpoint
from server.web.rest import ENDPOINTS
from server.web.schema import Contract

REF = "#/components/schemas/{name}"
STATUS_TEXT = {
    400: "Malformed request: the details name the bad field",
    401: "Missing or unknown token, or a sign-in that does not check out (the code says why)",
    403: "The token holds no seat in this game (or no seat at all), or is not the admin's; cross_site: the "
    "player's cookie alone, on a request that changes something, from an origin the server does not allow",
    404: "No such game (or passkey); oidc_off: no identity provider is configured",
    409: "Version conflict, a reused command id, or a table that moved on",
    413: "The body is too large",
    415: "The body's Content-Type is not JSON (application/json; JSON lines for an import)",
    422: "The game's rules refuse this: error is the rule's code",
    429: "Over a quota: details.retry_after (and Retry-After) say when to try again, when it is known",
    503: "The store (Redis) is unreachable",
}
PLAYER_ID = {"type": "string", "pattern": "^p[0-9a-f]{16}$"}
MAX_VERSION = 2**53  # server/web/play.py's int_param bounds for versions

# Who may call each route (by handler): the security requirements, one of which must be met.
Security = list[dict[str, list[str]]]
NONE: Security = []
SEAT_OPTIONAL: Security = [{}, {"seat": []}]  # without a token, the caller is a spectator
SEAT: Security = [{"seat": []}]  # without one: 403 spectator
PLAYER: Security = [{"player": []}, {"player_cookie": []}]
SECURITY: dict[str, Security] = {
    "get_languages": NONE,
    "get_words": NONE,
    "get_catalog": NONE,
    "get_components": NONE,
    "create_game": NONE,
    "list_games": NONE,
    "take_seat": [{}, {"player": []}, {"player_cookie": []}],  # a player's seat belongs to the player
    "quick_play": [{}, {"player": []}, {"player_cookie": []}],  # as take_seat
    "call_off": [{"creator": []}],
    "rematch": SEAT,
    "invite": SEAT,
    "send_command": SEAT,
    "check_command": SEAT,
    "get_game": SEAT_OPTIONAL,
    "legal_commands": SEAT_OPTIONAL,
    "build_move": SEAT_OPTIONAL,
    "get_events": SEAT_OPTIONAL,
    "get_replay": SEAT_OPTIONAL,
    # as a spectator, or everyone once the game is over: anyone; as a seat: its token; the server's: the admin
    "export_game": [{}, {"seat": []}, {"admin": []}],
    "spectator_say": [{"player": []}, {"player_cookie": []}],
    "hide_message": [{"admin": []}],
    "import_game": [{"admin": []}],
    "admin_games": [{"admin": []}],
    "admin_cancel": [{"admin": []}],
    "admin_remove": [{"admin": []}],
    "admin_outbox": [{"admin": []}],
    "admin_quotas": [{"admin": []}],
    "create_player": NONE,
    "sign_in_with_code": NONE,
    "get_me": PLAYER,
    "change_me": PLAYER,
    "erase_me": PLAYER,
    "my_tables": PLAYER,
    "new_code": PLAYER,
    "sign_out": PLAYER,
    "sign_out_everywhere": PLAYER,
    "player_page": NONE,
    "leaderboard": NONE,
    "get_webhook": PLAYER,
    "set_webhook": PLAYER,
    "drop_webhook": PLAYER,
    "get_notifications": PLAYER,
    "change_notifications": PLAYER,
    "unsubscribe_page": NONE,  # the link's signed token is the authority
    "unsubscribe": NONE,
    "sign_in_methods": NONE,
    "passkey_registration_options": PLAYER,
    "register_passkey": PLAYER,
    "list_passkeys": PLAYER,
    "delete_passkey": PLAYER,
    "passkey_sign_in_options": NONE,
    "sign_in_with_passkey": NONE,
    "oidc_start": NONE,
    "oidc_callback": NONE,  # the state it names must be the one this browser's cookie holds
}
SECURITY_SCHEMES = {
    "seat": {
        "type": "http",
        "scheme": "bearer",
        "description": "A seat token, from POST /games/{game_id}/seats or /rematch ('<game_id>.<random>'), or a "
        "player's token ('player.<random>'), which acts at the seat its player holds",
    },
    "player": {
        "type": "http",
        "scheme": "bearer",
        "description": "A player's token, from POST /players or /players/sign-in ('player.<random>')",
    },
    "player_cookie": {
        "type": "apiKey",
        "in": "cookie",
        "name": "ludoteca_player",
        "description": "The web table's session: the player's token in an HttpOnly cookie (a request that "
        "changes anything must also come from an allowed origin)",
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
# The query parameters, by handler, as the endpoints read them (else 400 malformed).
QUERY: dict[tuple[str, str], dict[str, Any]] = {
    ("list_games", "status"): {"type": "string", "enum": ["open", "active", "finished"], "default": "open"},
    ("list_games", "limit"): {"type": "integer", "minimum": 1, "maximum": 200, "default": 50},
    ("list_games", "cursor"): {"type": "integer", "minimum": 0, "description": "next_cursor of the page before"},
    ("list_games", "game"): {"type": "string", "description": "only tables of this game (a catalog id)"},
    ("list_games", "players"): {
        "type": "integer",
        "minimum": 1,
        "maximum": 99,
        "description": "only tables of this size",
    },
    ("list_games", "clock"): {
        "type": "string",
        "enum": ["live", "one-day", "three-days", "custom", "none"],
        "description": "only tables with this turn clock (a preset's name, custom, or none)",
    },
    ("list_games", "rated"): {
        "type": "string",
        "enum": ["true", "false"],
        "description": "only rated, or unrated, tables",
    },
    ("list_games", "lang"): {
        "type": "string",
        "enum": ["pt", "gl", "es", "en"],
        "description": "only tables whose people speak this language",
    },
    ("admin_games", "status"): {"type": "string", "enum": ["open", "active", "finished"], "default": "active"},
    ("admin_games", "limit"): {"type": "integer", "minimum": 1, "maximum": 100, "default": 20},
    ("admin_games", "cursor"): {"type": "integer", "minimum": 0, "description": "next_cursor of the page before"},
    ("get_events", "after"): {"type": "integer", "minimum": 0, "maximum": MAX_VERSION, "default": 0},
    ("get_events", "limit"): {"type": "integer", "minimum": 1, "maximum": 1000, "default": 500},
    ("get_replay", "version"): {"type": "integer", "minimum": 1, "maximum": MAX_VERSION, "default": 1},
    ("leaderboard", "limit"): {"type": "integer", "minimum": 1, "maximum": 200, "default": 50},
    ("leaderboard", "cursor"): {"type": "integer", "minimum": 0, "maximum": 100_000, "default": 0},
    ("my_tables", "limit"): {"type": "integer", "minimum": 1, "maximum": 200, "default": 50},
    ("my_tables", "cursor"): {
        "type": "integer",
        "minimum": 0,
        "maximum": MY_TABLES_MOST,
        "description": "next_cursor of the page before",
    },
    ("export_game", "as"): {
        "type": "string",
        "enum": ["seat", "spectator", "everyone", "server"],
        "description": "Whose export (docs/API.md, 'Exports'): the caller's seat (any time), a spectator's, "
        "everyone's (once the game is over) or the server's (admin token). Default: everyone's once the game "
        "is over, the server's before",
    },
    ("import_game", "play"): {
        "type": "string",
        "enum": ["true", "false"],
        "default": "false",
        "description": "true: an unfinished game too, to play on; the answer holds a new token for each person's seat",
    },
    ("unsubscribe", "token"): {"type": "string", "description": "The signed token of an email's unsubscribe link"},
    ("unsubscribe_page", "token"): {"type": "string", "description": "The signed token of an email's unsubscribe link"},
    ("oidc_start", "then"): {
        "type": "string",
        "pattern": "^/([^/\\\\]|$)",
        "description": "A path on this server to send the browser to once signed in (the callback then answers "
        "303 there, with the cookie); none: the callback answers the token as JSON",
    },
    ("oidc_callback", "code"): {"type": "string", "description": "The provider's authorization code"},
    ("oidc_callback", "state"): {"type": "string", "description": "The state the start gave this browser"},
    ("oidc_callback", "error"): {"type": "string", "description": "The provider's refusal (access_denied...)"},
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
    "description": "JSON lines: an ExportHeader (#/components/schemas/ExportHeader), then one LogLine "
    "(#/components/schemas/LogLine) a fact; logs of the first format have no header",
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
    if kind == "html":
        return {"text/html": {"schema": {"type": "string"}}}
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


# Redirects, by handler: the status and where the Location header sends the browser.
REDIRECTS = {
    "oidc_start": (302, "The identity provider's authorization URL (PKCE S256, state, nonce)"),
    "oidc_callback": (303, "The 'then' path the start was given, the player's cookie set"),
}
SEAT_NUMBER = {"type": "integer", "minimum": 0, "maximum": 999, "description": "A seat's number, from 0"}
PASSKEY_ID = {"type": "string", "description": "A passkey's id (base64url), as GET /players/me/passkeys lists it"}


def path_parameter(name: str, contract: Contract) -> dict[str, Any]:
    if name == "player_id":
        return {"name": name, "in": "path", "required": True, "schema": PLAYER_ID}
    if name == "seat":
        return {"name": name, "in": "path", "required": True, "schema": SEAT_NUMBER}
    schema = {"game_id": GAME_ID, "lang": LANG, "passkey_id": PASSKEY_ID}.get(name) or schema_ref("GameId")
    return {"name": name, "in": "path", "required": True, "schema": schema}


def operation(contract: Contract, endpoint: Endpoint) -> dict[str, Any]:
    name = endpoint.handler.__name__
    responses: dict[str, Any] = {}
    if endpoint.answer != "redirect":
        responses[str(endpoint.status)] = {"description": "OK", "content": content(contract, endpoint.answer)}
    if name in REDIRECTS:
        status, where = REDIRECTS[name]
        location = {"Location": {"description": where, "schema": {"type": "string"}}}
        responses[str(status)] = {"description": "See Location", "headers": location}
    errors = set(endpoint.errors)
    if {"player_cookie": []} in SECURITY[name] and endpoint.method != "GET":
        errors.add(403)  # the cookie alone, from another site's page: cross_site (server/web/auth.py)
    op: dict[str, Any] = {
        "summary": endpoint.summary,
        "operationId": name,
        "security": SECURITY[name],
        "responses": responses | {str(s): error_response(s) for s in sorted(errors)},
    }
    parameters = [path_parameter(p, contract) for p in re.findall(r"{(\w+)}", endpoint.path)]
    parameters += [{"name": q, "in": "query", "required": False, "schema": QUERY[name, q]} for q in endpoint.query]
    parameters.append(ACCEPT_LANGUAGE)
    if parameters:
        op["parameters"] = parameters
    if endpoint.body is not None:
        op["requestBody"] = {"required": endpoint.body_required, "content": content(contract, endpoint.body)}
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
