"""docs/API.md keeps up with the code: every error code, route and close code is documented.

Fast and without Redis: the codes are collected from the source text, the routes from
``server.web.rest.ENDPOINTS`` and ``server.web.application.routes()``.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from starlette.routing import BaseRoute, Route, WebSocketRoute

from server.service import errors
from server.service.errors import BAD_REQUEST_CODES, CONFLICT_CODES
from server.web.application import routes
from server.web.errors import STATUS
from server.web.rest import ENDPOINTS

ROOT = Path(__file__).resolve().parents[1]
API_MD = ROOT / "docs" / "API.md"


def status_of(kind: type[errors.AppError]) -> int:
    """The HTTP status server/web/errors.py gives an application error of this kind (its nearest listed kind)."""
    return next(STATUS[k] for k in kind.__mro__ if k in STATUS)


# The application's error kinds (server/service/errors.py), each with the status it is answered with.
KINDS = {
    name: status_of(kind)
    for name, kind in vars(errors).items()
    if isinstance(kind, type) and issubclass(kind, errors.AppError) and kind is not errors.AppError
}
APP_ERROR = re.compile(r"\b(" + "|".join(KINDS) + r')\(\s*"([a-z0-9_]+)"')
REJECTED = re.compile(r'Rejected\(\s*"([a-z0-9_]+)"')
ERROR_BODY = re.compile(r'ErrorBody\(\s*"([a-z0-9_]+)"')
TABLE_ROW = re.compile(r"^\|\s*`([a-z0-9_]+)`\s*\|\s*(\d{3}|other)\s*\|", re.MULTILINE)
CLOSE_CONSTANT = re.compile(r"^CLOSE_\w+\s*=\s*(\d{4})", re.MULTILINE)
CLOSE_CALL = re.compile(r"\.close\(\s*(\d{4})")


def api_md() -> str:
    return API_MD.read_text(encoding="utf-8")


def sources() -> list[Path]:
    return sorted([*(ROOT / "server").rglob("*.py"), *(ROOT / "domain").rglob("*.py")])


def answered_codes() -> dict[str, set[int]]:
    """Every error code in server/ and domain/, with the HTTP statuses it is answered with."""
    codes: dict[str, set[int]] = {}
    for path in sources():
        text = path.read_text(encoding="utf-8")
        for kind, code in APP_ERROR.findall(text):
            codes.setdefault(code, set()).add(KINDS[kind])
        for code in REJECTED.findall(text):
            codes.setdefault(code, set()).add(
                409 if code in CONFLICT_CODES else 400 if code in BAD_REQUEST_CODES else 422
            )
        for code in ERROR_BODY.findall(text):
            codes.setdefault(code, set())
    return codes


def documented_codes() -> dict[str, set[str]]:
    """The error tables of docs/API.md: code -> the statuses its rows give."""
    table: dict[str, set[str]] = {}
    for code, status in TABLE_ROW.findall(api_md()):
        table.setdefault(code, set()).add(status)
    return table


def test_the_code_scan_finds_error_codes_of_every_kind() -> None:
    codes = answered_codes()
    # guards the regexes themselves: one code of each form, the multi-line ones included
    assert {
        "malformed",
        "version_conflict",
        "no_such_version",
        "not_your_turn",
        "seat_taken",
        "store_unavailable",
    } <= set(codes)


@pytest.mark.parametrize("code", sorted(answered_codes()))
def test_every_error_code_the_server_answers_is_in_api_md(code: str) -> None:
    assert f"`{code}`" in api_md(), f"error code {code!r} is not documented in docs/API.md"


@pytest.mark.parametrize("code", sorted(answered_codes()))
def test_every_error_code_has_a_row_with_its_status_in_the_errors_table(code: str) -> None:
    table = documented_codes()
    assert code in table, f"{code!r} has no row in the error tables of docs/API.md"
    answered = {str(s) for s in answered_codes()[code]}
    assert answered <= table[code], f"{code!r} is answered with {sorted(answered)}, documented as {sorted(table[code])}"


def test_the_router_fallback_codes_are_documented() -> None:
    app_source = (ROOT / "server" / "web" / "application.py").read_text(encoding="utf-8")
    fallback = re.search(r"code = \{(.*?)\}\.get\(exc\.status_code, \"([a-z_]+)\"\)", app_source)
    assert fallback is not None, "server/web/application.py's http_error changed shape: update this test"
    codes = re.findall(r'(\d{3}):\s*"([a-z_]+)"', fallback.group(1))
    table = documented_codes()
    for status, code in codes:
        assert status in table.get(code, set()), f"{code!r} ({status}) is not in the errors table"
    assert fallback.group(2) in table


@pytest.mark.parametrize("endpoint", ENDPOINTS, ids=lambda e: f"{e.method} {e.path}")
def test_every_rest_route_is_in_api_md(endpoint) -> None:  # type: ignore[no-untyped-def]
    text = api_md()
    assert endpoint.path in text
    assert f"{endpoint.method} {endpoint.path}" in text, f"'{endpoint.method} {endpoint.path}' is not in docs/API.md"


def route_paths(all_routes: list[BaseRoute]) -> list[str]:
    return [r.path for r in all_routes if isinstance(r, Route | WebSocketRoute)]


@pytest.mark.parametrize("path", route_paths(routes()))
def test_every_route_the_app_serves_is_in_api_md(path: str) -> None:
    short = path.removeprefix("/api/v1")
    assert short in api_md(), f"route {path} is not documented in docs/API.md"


def test_every_websocket_close_code_is_in_api_md() -> None:
    ws_source = (ROOT / "server" / "web" / "websocket.py").read_text(encoding="utf-8")
    codes = set(CLOSE_CONSTANT.findall(ws_source)) | set(CLOSE_CALL.findall(ws_source))
    assert {"1008", "4003", "4008", "4009", "1011"} <= codes
    text = api_md()
    for code in sorted(codes):
        assert re.search(rf"^\|\s*{code}\s*\|", text, re.MULTILINE), f"close code {code} has no row in docs/API.md"


def test_api_md_names_the_base_url_and_the_error_shape() -> None:
    text = api_md()
    assert "`/api/v1`" in text
    assert '{"error": code, "message": text, "details": {...}}' in text
    assert "## Stability" in text
