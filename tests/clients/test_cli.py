"""``ludoteca play ...`` as a subprocess against a real server: every verb prints JSON."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path
from typing import Any

from tests.clients.conftest import Running

ROOT = Path(__file__).resolve().parents[2]


async def play(server: Running, *args: str, token: str | None = None) -> tuple[int, str, str]:
    env = {k: v for k, v in os.environ.items() if k != "LUDOTECA_TOKEN"}
    if token is not None:
        env["LUDOTECA_TOKEN"] = token
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "server.cli",
        "play",
        *args,
        "--url",
        server.url,
        cwd=ROOT,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(proc.communicate(), 60)
    assert proc.returncode is not None
    return proc.returncode, out.decode(), err.decode()


async def ok(server: Running, *args: str, token: str | None = None) -> Any:
    code, out, err = await play(server, *args, token=token)
    assert code == 0, err
    return json.loads(out)


async def test_the_verbs_create_join_show_and_send(server: Running) -> None:
    catalog = await ok(server, "catalog")
    assert "vilar-de-mouros" in {g["game"] for g in catalog["games"]}
    entry = await ok(server, "create", "vilar-de-mouros", "--players", "2")
    game_id = entry["game_id"]
    assert (await ok(server, "games"))["games"][-1]["game_id"] == game_id
    seats = [await ok(server, "join", game_id, "--name", name) for name in ("Ana", "Bruno")]
    assert [s["seat"] for s in seats] == [0, 1]
    table = await ok(server, "show", game_id)
    assert table["status"] == "active" and table["seat"] is None
    turn = table["awaiting"][0]["seat"]
    token = seats[turn]["token"]
    legal = await ok(server, "legal", game_id, token=token)
    assert legal["commands"]
    command = json.dumps(legal["commands"][0])
    sent = await ok(server, "send", game_id, command, "--expected-version", str(legal["version"]), "--token", token)
    assert sent["version"] > legal["version"]
    mine = await ok(server, "show", game_id, token=token)
    assert mine["seat"] == turn
    updates = await ok(server, "watch", game_id, "--count", "1")
    assert updates["type"] == "update" and updates["version"] == sent["version"]

    # a refused command: exit 1, the API's error on stderr
    awaited = (await ok(server, "show", game_id))["awaiting"][0]["seat"]
    refused_token = seats[1 - awaited]["token"]
    code, out, err = await play(server, "send", game_id, '{"type": "DrawFromDeck"}', token=refused_token)
    assert code == 1 and out == ""
    assert json.loads(err)["error"] == "not_your_turn"


async def test_two_bot_processes_play_a_game_to_the_end(server: Running) -> None:
    game_id, tokens = await server.started(2)
    results = await asyncio.gather(
        *(ok(server, "bot", game_id, "--seed", str(i), "--token", token) for i, token in enumerate(tokens))
    )
    assert all(r["status"] == "finished" for r in results)
    assert len(results[0]["outcome"]["scores"]) == 2
    watched = await play(server, "watch", game_id, "--until-finished")
    assert watched[0] == 0
    last = json.loads(watched[1].splitlines()[-1])
    assert last["view"]["finished"] is True
