"""The examples in the docs run as written, to the end of a game, against a real server.

Each is taken out of its Markdown file (the fenced block), run in a fresh directory with a
shell that stops at the first failing command, and must finish within its timeout.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import secrets
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import redis.asyncio as aioredis

from domain.catalog import GAMES
from tests.server.conftest import Running, quick_settings, running
from tests.support.processes import ROOT, Serve, free_port

ADMIN = "an-admin-token-for-the-docs"
BIN = Path(sys.executable).parent


def fenced(path: Path, language: str, starting: str) -> str:
    """The first ``language`` block of ``path`` whose first line starts with ``starting``."""
    for block in re.findall(rf"^```{language}\n(.*?)^```$", path.read_text(encoding="utf-8"), re.S | re.M):
        if block.startswith(starting):
            return str(block)
    raise AssertionError(f"{path.name} has no {language} block starting with {starting!r}")


def run_shell(script: str, cwd: Path, env: dict[str, str], timeout: float) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", "-euo", "pipefail", "-c", script], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout
    )


def client_env(url: str) -> dict[str, str]:
    """A newcomer's shell: no LUDOTECA_ setting of ours, the ``ludoteca`` command on the PATH, and
    LUDOTECA_URL naming the test's server (the README's server listens on its default port)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("LUDOTECA_")}
    return env | {"PATH": f"{BIN}{os.pathsep}{env.get('PATH', '')}", "LUDOTECA_URL": url}


@pytest.mark.timeout(300)
def test_the_readmes_cli_block_runs_top_to_bottom_on_the_quick_starts_server(
    redis: aioredis.Redis, redis_url: str, tmp_path: Path
) -> None:
    script = fenced(ROOT / "README.md", "sh", "ludoteca games")
    # The server as the README's quick start runs it: `ludoteca serve` and nothing else (its own
    # embedded Redis, no admin token, the bots' usual pause to think), on a free port.
    serve = Serve(free_port(), data_dir=tmp_path / "ludoteca-data")
    serve.environ = {k: v for k, v in serve.environ.items() if not k.startswith("LUDOTECA_")}
    with serve:
        done = run_shell(script, tmp_path, client_env(serve.url), 240)
    assert done.returncode == 0, f"stdout:\n{done.stdout[-3000:]}\nstderr:\n{done.stderr[-3000:]}"
    out = done.stdout
    assert "finished at version" in out, "watch follows the game to its final scores"
    assert re.search(r"seat \d is yours: a bot played it for you", out), "bots --mine says it played your seat"
    assert "no free seat" not in out
    assert (tmp_path / "game.jsonl").read_text().count("\n") > 40

    # The operator's import, against a server started with the token in ./admin-token.
    operator = fenced(ROOT / "README.md", "sh", "export LUDOTECA_ADMIN_TOKEN=$(cat admin-token)")
    token = secrets.token_urlsafe(32)
    (tmp_path / "admin-token").write_text(token + "\n")
    with Serve(free_port(), redis_url=redis_url, LUDOTECA_ADMIN_TOKEN=token) as serve:
        done = run_shell(operator, tmp_path, client_env(serve.url), 60)
    assert done.returncode == 0, f"stdout:\n{done.stdout[-3000:]}\nstderr:\n{done.stderr[-3000:]}"
    imported = done.stdout.strip().splitlines()[-1]
    assert re.fullmatch(r"[0-9a-f]{16}", imported), "import prints the new game's id last"


@pytest.fixture
async def quick(redis: aioredis.Redis, redis_url: str) -> AsyncIterator[Running]:
    """The real server in process, its bots without a pause to think."""
    async with running(quick_settings(redis_url)) as api:
        yield api


@pytest.mark.timeout(120)
async def test_the_first_example_of_docs_sdk_md_plays_a_whole_game(quick: Running) -> None:
    example = fenced(ROOT / "docs" / "sdk.md", "python", "from clients.python import Client, RuleViolation\n\nwith")
    code = compile(example.replace("http://127.0.0.1:8000", quick.url), "docs/sdk.md", "exec")
    printed: list[tuple[Any, ...]] = []
    scope = {"print": lambda *values: printed.append(values)}
    # The blocking client in a thread: the server runs on this test's event loop.
    await asyncio.wait_for(asyncio.to_thread(exec, code, scope), 90)
    [(scores,)] = [p for p in printed if isinstance(p[0], list)]
    assert len(scores) == 2 and all(isinstance(s, int) for s in scores), printed


@pytest.mark.timeout(300)
def test_the_curl_walkthrough_of_docs_api_md_runs_to_the_final_scores(
    redis: aioredis.Redis, redis_url: str, tmp_path: Path
) -> None:
    text = (ROOT / "docs" / "API.md").read_text(encoding="utf-8")
    section = text.split("## A whole game with curl", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"^```sh\n(.*?)^```$", section, re.S | re.M)
    scripts = [b for b in blocks if b.startswith("#!/usr/bin/env bash")]
    assert len(scripts) == 1 and len(blocks) >= 5
    (tmp_path / "play.sh").write_text(scripts[0])
    walk = "\n".join(b for b in blocks if b not in scripts)
    with Serve(free_port(), redis_url=redis_url) as serve:
        env = {k: v for k, v in os.environ.items() if not k.startswith("LUDOTECA_")}
        env["API"] = f"{serve.url}/api/v1"
        done = run_shell(walk, tmp_path, env, 240)
    assert done.returncode == 0, f"stdout:\n{done.stdout[-3000:]}\nstderr:\n{done.stderr[-3000:]}"
    lines = done.stdout.strip().splitlines()
    assert json.loads(lines[0]) == list(GAMES)  # the catalog, in its order
    assert any(line.endswith(" 422") and "not_your_turn" in line for line in lines)
    assert '["CardsPlaced","TurnStarted"]' in lines
    assert '"status":"finished"' in lines[-2] and '"type":"vilar-de-mouros"' in lines[-1]


def worked_moves() -> tuple[str, list[str]]:
    """docs/API.md's "A move of each game, pick by pick": the helpers' block and one block per game."""
    text = (ROOT / "docs" / "API.md").read_text(encoding="utf-8")
    section = text.split("#### A move of each game, pick by pick", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"^```sh\n(.*?)^```$", section, re.S | re.M)
    helpers = [b for b in blocks if b.startswith("API=${API:-")]
    assert len(helpers) == 1
    return helpers[0], [b for b in blocks if b not in helpers]


def shown_last(example: str) -> str:
    """The answer the example shows for its last command: its last comment line."""
    return [line for line in example.splitlines() if line.startswith("# ")][-1][2:]


@pytest.mark.timeout(300)
def test_the_worked_move_of_each_game_in_docs_api_md_runs_to_its_end(
    redis: aioredis.Redis, redis_url: str, tmp_path: Path
) -> None:
    """Each example builds its move by picks through the real API and sends it; its last answer is the one shown."""
    helpers, examples = worked_moves()
    games = [re.search(r"^new_table ([a-z-]+)", example, re.M) for example in examples]
    assert sorted(g.group(1) for g in games if g) == sorted(GAMES)  # one worked move a game
    with Serve(free_port(), redis_url=redis_url) as serve:
        env = {k: v for k, v in os.environ.items() if not k.startswith("LUDOTECA_")}
        env["API"] = f"{serve.url}/api/v1"
        runs = {}
        for game, example in zip(games, examples, strict=True):
            assert game is not None
            done = run_shell(f"{helpers}\n{example}", tmp_path, env, 120)
            assert done.returncode == 0, (
                f"{game.group(1)}\nstdout:\n{done.stdout[-3000:]}\nstderr:\n{done.stderr[-3000:]}"
            )
            lines = done.stdout.strip().splitlines()
            assert lines[-1] == shown_last(example), (game.group(1), lines)
            runs[game.group(1)] = [json.loads(line) for line in lines]
    # The moves are the ones the text says: several cells in one action, two cards given for one kind asked.
    streets = [r["command"] for r in runs["miss-liz-parks"] if isinstance(r, dict) and r.get("command")]
    assert [len(c["cells"]) for c in streets] == [1, 2, 3]
    offers = [r["command"] for r in runs["itchy-feet"] if isinstance(r, dict) and r.get("command")]
    assert (len(offers[-1]["give"]), len(offers[-1]["ask"])) == (2, 1)
    placed = [r for r in runs["vilar-de-mouros"] if isinstance(r, list)]
    assert placed[-1][0] == "CardsPlaced"


async def test_the_table_chat_example_of_docs_api_md_says_its_message(quick: Running, tmp_path: Path) -> None:
    """docs/API.md's "Table chat": a seat's Say, sent with curl as written, lands as its MessageSaid."""
    block = fenced(ROOT / "docs" / "API.md", "sh", 'curl -s -X POST -H "Authorization: Bearer $T0"')
    game = (await quick.http.post("/api/v1/games", json={"game": "vilar-de-mouros", "players": 2})).json()["game_id"]
    t0 = (await quick.http.post(f"/api/v1/games/{game}/seats", json={"name": "Ana"})).json()["token"]
    env = client_env(quick.url) | {"API": f"{quick.url}/api/v1", "GAME": game, "T0": t0}
    done = await asyncio.to_thread(run_shell, block, tmp_path, env, 60)
    assert done.returncode == 0, done.stderr
    said = json.loads(done.stdout)
    assert [e["event"] for e in said["events"]] == [{"type": "MessageSaid", "text": "Boa sorte!", "seat": 0}]
