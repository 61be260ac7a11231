"""schemathesis against the server's /openapi.json: no server errors, and every
response as the document describes it.

The server is the real one (uvicorn in this process, on the test Redis, on 127.0.0.1);
schemathesis runs as its own process (``python -m schemathesis.cli run``) against it,
with every check on except those narrowed below, each with its reason:

- ``positive_data_acceptance``: the document types every query parameter as a plain
  string (``limit``, ``after``, ``version``, ``cursor``, ``status``, ``as``) and cannot
  say that ``game`` is a catalog id, that ``players`` depends on the game, or that
  ``bot`` must be null; schemathesis then calls "schema-valid" requests that the API
  documents as ``400 malformed`` / ``400 unknown_game_type`` / ``422 bad_players`` /
  ``422 no_such_bot`` and counts them as failures. Those refusals are the documented
  behaviour (docs/API.md, "Every code"), not bugs.
- ``missing_required_header``: a route that needs a seat token (``POST /commands``, ``/rematch``) answers a
  request without one ``403 spectator``, as documented (docs/API.md: no token is a spectator, whom the
  server knows, refused what only a seat may do), where schemathesis expects 401.
- ``response_schema_conformance`` is checked by its own test
  (``test_every_response_matches_the_openapi_document``), so that the server-error run
  stays a guard against 500s and every other check.
- ``GET /games/{game_id}/ws`` is a WebSocket upgrade, documented only by its 101;
  a plain HTTP GET of it is not an operation schemathesis can test.
- ``POST /games/import`` takes ``application/x-ndjson``, for which schemathesis has no
  serializer; the import is covered by tests/server (admin import and its errors).

``game_id`` (and the catalog's ``game``) are given real values through a schemathesis
config file, so the per-game routes reach a started game instead of answering 404.
"""

from __future__ import annotations

import asyncio
import importlib.util
import re
import sys
from pathlib import Path

import pytest

from domain.catalog import GAMES
from tests.reliability.harness import figure
from tests.reliability.sizes import SOAK, limit
from tests.server.conftest import Running

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("schemathesis") is None, reason="schemathesis is not installed (pip install schemathesis)"
)

EXAMPLES = 200 if SOAK else 8  # test cases per operation and phase (fewer where an operation's inputs run out)
NARROWED = ("positive_data_acceptance", "missing_required_header")
SKIPPED_PATHS = ("/api/v1/games/{game_id}/ws", "/api/v1/games/import")


async def schemathesis(
    server: Running, tmp_path: Path, game: str, *, checks: str, exclude: tuple[str, ...]
) -> tuple[int, str, int]:
    """Run ``st run`` against ``server`` on one started game; (exit code, output, test cases generated)."""
    players = GAMES[game].min_players
    game_id = await server.create(players, game)
    await server.seat_all(game_id, players)
    config = tmp_path / "schemathesis.toml"
    config.write_text(f'[parameters]\n"path.game_id" = "{game_id}"\n"path.game" = "{game}"\n')
    args = [sys.executable, "-m", "schemathesis.cli", "--config-file", str(config), "--no-color", "run"]
    args += [f"{server.url}/openapi.json", "--checks", checks, "-n", str(EXAMPLES), "--seed", "9"]
    args += ["--request-timeout", "10", "--output-truncate", "false", "--generation-database", "none"]
    if exclude:
        args += ["--exclude-checks", ",".join(exclude)]
    for path in SKIPPED_PATHS:
        args += ["--exclude-path", path]
    process = await asyncio.create_subprocess_exec(
        *args, cwd=tmp_path, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT
    )
    out, _ = await process.communicate()
    output = out.decode(errors="replace")
    generated = re.search(r"(\d+) generated", output)
    return process.returncode or 0, output, int(generated.group(1)) if generated else 0


@pytest.mark.timeout(limit(60))
@pytest.mark.parametrize("game", sorted(GAMES))
async def test_schemathesis_finds_no_server_error_and_passes_every_other_check(
    server: Running, tmp_path: Path, game: str
) -> None:
    code, output, generated = await schemathesis(
        server, tmp_path, game, checks="all", exclude=(*NARROWED, "response_schema_conformance")
    )
    assert "500" not in re.findall(r"\[(\d{3})\]", output), output
    assert code == 0 and generated > 0, output
    figure(f"schemathesis ({game}): test cases, server errors", f"{generated} cases, 0 server errors")


@pytest.mark.timeout(limit(60))
async def test_every_response_matches_the_openapi_document(server: Running, tmp_path: Path) -> None:
    code, output, _ = await schemathesis(
        server, tmp_path, "vilar-de-mouros", checks="response_schema_conformance,not_a_server_error", exclude=()
    )
    assert code == 0, output


async def test_a_405_lists_the_allowed_methods(server: Running) -> None:
    r = await server.http.delete("/api/v1/games")
    assert r.status_code == 405
    assert {"GET", "POST"} <= {m.strip() for m in r.headers.get("allow", "").split(",")}
