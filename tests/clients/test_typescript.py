"""The TypeScript client (clients/typescript) against a real server: its Node tests (``node --test``, the server's
URL in LUDOTECA_URL), docs/typescript.md's example played to the end of a game, and its types held to what
``ludoteca schema`` writes. Needs Node 20 or newer and the package's dependencies (``npm ci --prefix
clients/typescript``, which builds it too); without them the tests are skipped at a desk, and fail in CI."""

from __future__ import annotations

import asyncio
import dataclasses
import filecmp
import functools
import http.server
import os
import re
import shutil
import subprocess
import threading
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
import redis.asyncio as aioredis

from domain.catalog import GAMES
from server.cli import main
from tests.clients.conftest import Running
from tests.server.conftest import ADMIN, quick_settings, running

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "clients" / "typescript"
GUIDE = ROOT / "docs" / "typescript.md"
EXAMPLE = PACKAGE / "examples" / "play.js"
API_MD = ROOT / "docs" / "API.md"
CHROMIUM = Path("/usr/bin/chromium")


def need_node() -> str:
    """The node binary; skipped without Node 20+ or the package's dependencies at a desk, failed in CI."""
    node = shutil.which("node")
    missing = []
    if node is None:
        missing.append("Node 20 or newer (node and npm)")
    if not (PACKAGE / "node_modules" / "typescript").is_dir():
        missing.append("the package's dependencies (npm ci --prefix clients/typescript)")
    if missing:
        text = "the TypeScript client's tests need " + " and ".join(missing)
        if os.environ.get("CI"):
            pytest.fail(text + "; CI must run them (.ci/run runs npm ci on the machine's Node)")
        pytest.skip(text)
    assert node is not None
    return node


async def run(*args: str, env: dict[str, str] | None = None, timeout: float = 300) -> tuple[int, str]:
    """Run a command in the package (without blocking the server's event loop); its exit code and output."""
    process = await asyncio.create_subprocess_exec(
        *args,
        cwd=PACKAGE,
        env={**os.environ, **(env or {})},
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    try:
        out, _ = await asyncio.wait_for(process.communicate(), timeout)
    except TimeoutError:
        process.kill()
        await process.wait()
        raise
    return process.returncode or 0, out.decode(errors="replace")


@pytest.fixture
async def quick(redis: aioredis.Redis, redis_url: str) -> AsyncIterator[Running]:
    """A server whose bots do not pause to think (the guide's example plays against one)."""
    async with running(quick_settings(redis_url)) as api:
        yield api


def run_now(*args: str) -> tuple[int, str]:
    """Run a command in the package, waiting for it (no server in this process needs the loop meanwhile)."""
    done = subprocess.run(args, cwd=PACKAGE, capture_output=True, text=True, timeout=300, check=False)
    return done.returncode, done.stdout + done.stderr


@pytest.fixture(scope="module")
def built() -> str:
    """The package compiled from its sources as they are now (tsc: the types check, dist is current)."""
    node = need_node()
    tsc = PACKAGE / "node_modules" / "typescript" / "bin" / "tsc"
    code, out = run_now(node, str(tsc), "-p", "tsconfig.json")
    assert code == 0, out
    return node


def test_node_is_20_or_newer(built: str) -> None:
    code, out = run_now(built, "--version")
    major = int(re.match(r"v(\d+)", out.strip()).group(1))  # type: ignore[union-attr]
    assert code == 0 and major >= 20, out


def test_the_committed_types_are_what_ludoteca_schema_writes(built: str, tmp_path: Path) -> None:
    """src/generated is scripts/generate.mjs's output for the schemas of this server: regenerate it with
    ``ludoteca schema --out DIR && npm run generate --prefix clients/typescript -- DIR``."""
    assert main(["schema", "--out", str(tmp_path / "schemas")]) == 0
    out = tmp_path / "generated"
    code, text = run_now(built, "scripts/generate.mjs", str(tmp_path / "schemas"), str(out))
    assert code == 0, text
    committed = PACKAGE / "src" / "generated"
    mine = sorted(p.relative_to(out) for p in out.rglob("*") if p.is_file())
    theirs = sorted(p.relative_to(committed) for p in committed.rglob("*") if p.is_file())
    assert mine == theirs
    drifted = [str(p) for p in mine if not filecmp.cmp(out / p, committed / p, shallow=False)]
    assert not drifted, f"the committed types drifted from `ludoteca schema`: {drifted}; regenerate them"
    types = (committed / "types.ts").read_text(encoding="utf-8")
    for name in ("TableView", "UpdateMessage", "Command", "ItchyFeetSeatView", "VilarDeMourosGameEnded", "Resign"):
        assert re.search(rf"^export (interface|type) {name}\b", types, re.MULTILINE), name


async def test_the_node_tests_pass_against_a_real_server(built: str, server: Running) -> None:
    code, out = await run("npm", "test", env={"LUDOTECA_URL": server.url, "LUDOTECA_ADMIN_TOKEN": ADMIN})
    assert code == 0, out
    passed = re.search(r"^# pass (\d+)$", out, re.MULTILINE)
    failed = re.search(r"^# fail (\d+)$", out, re.MULTILINE)
    assert passed and int(passed.group(1)) >= 10 and failed and failed.group(1) == "0", out


def guide_example() -> str:
    """The example of docs/typescript.md: its one ```js block under 'A whole game'."""
    text = GUIDE.read_text(encoding="utf-8")
    section = text.split("## A whole game", 1)[1]
    match = re.search(r"```js\n(.*?)```", section, re.DOTALL)
    assert match, "docs/typescript.md has no js example under 'A whole game'"
    return match.group(1)


async def test_the_guides_example_plays_a_game_to_its_end(built: str, quick: Running) -> None:
    assert guide_example() == EXAMPLE.read_text(encoding="utf-8"), "docs/typescript.md's example is examples/play.js"
    code, out = await run(built, str(EXAMPLE.relative_to(PACKAGE)), env={"LUDOTECA_URL": quick.url}, timeout=120)
    assert code == 0, out
    assert re.search(r"^finished: ", out, re.MULTILINE), out
    game_id = re.search(r"^table ([0-9a-f]{16})$", out, re.MULTILINE)
    assert game_id, out
    table = (await quick.get(f"/api/v1/games/{game_id.group(1)}")).json()
    assert table["status"] == "finished" and table["outcome"]["type"] == "vilar-de-mouros"


def test_every_envelope_error_code_of_api_md_is_a_typed_code_of_the_client() -> None:
    text = API_MD.read_text(encoding="utf-8")
    table = text.split("### Every code", 1)[1].split("Rule codes of", 1)[0]
    documented = set(re.findall(r"^\| `([a-z_]+)` \|", table, re.MULTILINE))
    source = (PACKAGE / "src" / "errors.ts").read_text(encoding="utf-8")
    listed = source.split("export const ENVELOPE_CODES = [", 1)[1].split("] as const", 1)[0]
    codes = set(re.findall(r'"([a-z_]+)"', listed))
    assert len(documented) > 30 and documented == codes


# -- in a browser -------------------------------------------------------------------------------------------

IN_A_BROWSER = """async (url) => {
  const { Client, GAME_IDS } = await import("/dist/index.js");
  const lobby = new Client(url);
  const table = await lobby.create("vilar-de-mouros", 2);
  const me = await lobby.join(table.game_id, { name: "Ana" });
  await lobby.join(table.game_id, { bot: "random" });
  const live = lobby.asSeat(me.token).watch(table.game_id);
  let sent = 0;
  for await (const update of live) {
    if (update.status === "finished") return { sent, outcome: update.outcome.type, games: GAME_IDS.length };
    if (!update.step) continue;
    const move = await live.move(update).random();
    if (!move) continue;
    try { await move.send(); sent += 1; } catch (e) { if (e.code !== "version_conflict") throw e; }
  }
}"""


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture
def package_site() -> Iterator[str]:
    """clients/typescript served as static files, as a page would load the package (its own origin)."""
    site = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(PACKAGE)))
    thread = threading.Thread(target=site.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{site.server_address[1]}"
    finally:
        site.shutdown()
        site.server_close()


async def test_the_client_plays_a_game_in_a_browser(
    built: str, package_site: str, redis: aioredis.Redis, redis_url: str
) -> None:
    """The built package, loaded as ES modules by Chromium from another origin (CORS), with the browser's own
    fetch and WebSocket, plays a game to its end against a bot."""
    try:
        from playwright.async_api import async_playwright
    except ImportError:  # pragma: no cover - the test extras install it
        async_playwright = None  # type: ignore[assignment]
    if async_playwright is None or not CHROMIUM.exists():
        text = "playing in a browser needs playwright and Debian's chromium"
        if os.environ.get("CI"):
            pytest.fail(text + "; CI must run it (.ci/run installs chromium)")
        pytest.skip(text)
    settings = dataclasses.replace(quick_settings(redis_url), allowed_origins=(package_site,))
    async with running(settings) as api, async_playwright() as p:
        browser = await p.chromium.launch(executable_path=str(CHROMIUM), args=["--headless", "--no-sandbox"])
        try:
            page = await browser.new_page()
            await page.goto(f"{package_site}/package.json")
            result = await page.evaluate(IN_A_BROWSER, api.url)
        finally:
            await browser.close()
    assert result["outcome"] == "vilar-de-mouros" and result["sent"] > 10 and result["games"] == len(GAMES), result
