"""The ``ludoteca`` client verbs as subprocesses against a real server: every verb, for people and for
scripts (``--json``, ``play ...``)."""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import os
import re
import sys
from pathlib import Path
from typing import Any
from unittest import mock

import msgspec
import pytest

from clients.bots import run_bots
from clients.python import AsyncClient, Progress
from domain import words
from domain.catalog import GAMES
from domain.words.format import Choice, parse
from server.cli import main
from tests.clients.conftest import Running
from tests.clients.test_web_table import Table
from tests.server.conftest import ADMIN
from tests.support.games import ending_bot

ROOT = Path(__file__).resolve().parents[2]


async def ludoteca(
    server: Running,
    *args: str,
    token: str | None = None,
    admin: str | None = None,
    timeout: float = 90,
    lang: str = "C",
) -> tuple[int, str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("LUDOTECA_TOKEN", "LUDOTECA_ADMIN_TOKEN")}
    env["LUDOTECA_URL"] = server.url
    env["LC_ALL"] = lang  # the user's locale: C is English, the default
    if token is not None:
        env["LUDOTECA_TOKEN"] = token
    if admin is not None:
        env["LUDOTECA_ADMIN_TOKEN"] = admin
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "server.cli",
        *args,
        cwd=ROOT,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(proc.communicate(), timeout)
    assert proc.returncode is not None
    return proc.returncode, out.decode(), err.decode()


def in_process(argv: list[str], lang: str = "C") -> tuple[int, str, str]:
    """``ludoteca ARGV`` in this process under the locale ``lang`` (C: English), its stdout and stderr captured
    (for a thread: see ``cli``)."""
    out, err = io.TextIOWrapper(io.BytesIO(), "utf-8"), io.TextIOWrapper(io.BytesIO(), "utf-8")
    # The width is set too: a test runner's worker may hold a terminal of its own width.
    shell = {"LC_ALL": lang, "COLUMNS": "160"}
    with mock.patch.dict(os.environ, shell), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as exc:
            code = int(exc.code or 0)
    texts = []
    for stream in (out, err):
        stream.flush()
        assert isinstance(stream.buffer, io.BytesIO)
        texts.append(stream.buffer.getvalue().decode())
    return code, texts[0], texts[1]


async def cli(
    server: Running, *args: str, token: str | None = None, admin: str | None = None, lang: str = "C"
) -> tuple[int, str, str]:
    """``ludoteca ARGS`` in a thread of this process: as the command runs it, without starting Python each time.

    One at a time (it swaps sys.stdout); verbs that must run side by side use ``ludoteca`` (subprocesses).
    """
    argv = [*args, "--url", server.url]
    if token is not None:
        argv += ["--token", token]
    if admin is not None:
        argv += ["--admin-token", admin]
    return await asyncio.wait_for(asyncio.to_thread(in_process, argv, lang), 90)


async def ok(server: Running, *args: str, token: str | None = None, admin: str | None = None) -> str:
    code, out, err = await cli(server, *args, token=token, admin=admin)
    assert code == 0, err
    return out


async def ok_json(server: Running, *args: str, token: str | None = None) -> Any:
    return json.loads(await ok(server, *args, token=token))


async def test_games_new_join_show_legal_and_send(server: Running) -> None:
    text = await ok(server, "games")
    assert "vilar-de-mouros" in text and "Miss Liz" in text and "no open tables" in text
    game_id = (await ok(server, "new", "vilar-de-mouros", "--players", "2")).strip()
    assert len(game_id) == 16
    entry = await ok_json(server, "new", "miss-liz-parks", "--players", "3", "--option", "side_b=true", "--json")
    assert (entry["game"], entry["players"], entry["status"]) == ("miss-liz-parks", 3, "open")
    listed = await ok_json(server, "games", "--json")
    assert {game_id, entry["game_id"]} <= {g["game_id"] for g in listed["games"]}
    assert "itchy-feet" in {g["game"] for g in listed["catalog"]}
    assert f"{game_id}   vilar-de-mouros    0/2" in await ok(server, "games")
    tokens = [(await ok(server, "join", game_id, "--name", "Ana")).strip()]
    bruno = await ok_json(server, "join", game_id, "--seat", "1", "--name", "Bruno", "--json")
    assert bruno["seat"] == 1
    tokens.append(bruno["token"])
    assert tokens[0].startswith(game_id + ".")
    shown = await ok(server, "show", game_id)
    assert f"Vilar de Mouros {game_id}: under way" in shown and "awaiting" in shown and "a spectator" in shown
    table = await ok_json(server, "show", game_id, "--json")
    seat = table["awaiting"][0]["seat"]
    legal = await ok_json(server, "legal", game_id, "--json", token=tokens[seat])
    assert legal["commands"] and legal["version"] == table["version"]
    assert '"type":' in await ok(server, "legal", game_id, token=tokens[seat])
    command = json.dumps(legal["commands"][0])
    sent = await ok(server, "send", game_id, command, "--expected-version", str(legal["version"]), token=tokens[seat])
    assert str(legal["version"] + 1) in sent.split()[0]
    # a refusal: exit 1, the API's error on stderr (text, or JSON with --json)
    other = tokens[1 - (await ok_json(server, "show", game_id, "--json"))["awaiting"][0]["seat"]]
    code, out, err = await cli(server, "send", game_id, '{"type": "DrawFromDeck"}', token=other)
    assert (code, out) == (1, "") and "422 not_your_turn" in err
    code, out, err = await cli(server, "send", game_id, '{"type": "DrawFromDeck"}', "--json", token=other)
    assert code == 1 and json.loads(err)["error"] == "not_your_turn"
    code, _, err = await cli(server, "new", "chess", "--players", "2")
    assert code == 1 and "unknown_game_type" in err
    # a seat for a bot the server plays: no token to print
    table_for_bots = (await ok(server, "new", "vilar-de-mouros", "--players", "3")).strip()
    code, out, err = await cli(server, "join", table_for_bots, "--bot", "random")
    assert (code, out) == (0, "") and f"a random bot took seat 0 at {table_for_bots}" in err
    code, _, err = await cli(server, "join", table_for_bots, "--bot", "nonsense")
    assert code == 1 and "422 no_such_bot" in err


async def test_a_player_is_made_signs_in_elsewhere_and_lists_its_tables_awaiting_it_first(server: Running) -> None:
    phone = (await ok(server, "player", "new", "Ana", "--lang", "gl")).strip()
    assert phone.startswith("player.")
    assert (await ok(server, "player", "me", token=phone)).startswith("Ana (p")
    game_id = (await ok(server, "new", "vilar-de-mouros", "--players", "2")).strip()
    assert "seat 0" in (await cli(server, "join", game_id, token=phone))[2]
    await ok(server, "join", game_id, "--name", "Rui")
    code = (await ok(server, "player", "code", token=phone)).strip()
    laptop = (await ok(server, "player", "sign-in", code)).strip()
    mine = await ok(server, "mine", token=laptop)
    assert mine.startswith(game_id) and "seat 0" in mine
    table = await ok_json(server, "show", game_id, "--json", token=laptop)
    waiting = "your move" in mine
    assert waiting == any(a["seat"] == 0 for a in table["awaiting"])
    assert (await ok_json(server, "player", "rename", "Ana Sousa", "--json", token=laptop))["name"] == "Ana Sousa"
    assert (await ok(server, "player", "sign-out-everywhere", token=laptop)).strip() == "signed out 2 tokens"
    status, _, err = await cli(server, "mine", token=phone)
    assert status == 1 and "401 unknown_token" in err


async def test_say_speaks_at_the_table_and_replay_shows_what_was_said(server: Running) -> None:
    async with AsyncClient(server.url) as lobby:
        game_id = (await lobby.create("vilar-de-mouros", 3)).game_id
        tokens = [str((await lobby.join(game_id, name=name)).token) for name in ("Ana", "Bruno", "Carla")]
    said = await ok(server, "say", game_id, "Boa sorte!", token=tokens[0])
    [line] = said.splitlines()
    version = int(line.split()[0])
    assert line == f"{version:>6}  Ana: Boa sorte!", line
    answer = await ok_json(server, "say", game_id, "Só para ti", "--to", "2", "--json", token=tokens[1])
    [fact] = answer["events"]
    assert fact["event"] == {"type": "MessageSaid", "text": "Só para ti", "seat": 1, "to": 2}
    # the log of each reader: the table's message for everyone, the private line for its two seats alone
    everyone = await ok(server, "replay", game_id)
    assert line in everyone.splitlines() and "Só para ti" not in everyone
    assert f"{version + 1:>6}  Bruno (to Carla): Só para ti" in await ok(server, "replay", game_id, token=tokens[2])
    assert "Só para ti" not in await ok(server, "replay", game_id, token=tokens[0])
    code, out, err = await cli(server, "say", game_id, "  ", token=tokens[2])
    assert (code, out) == (1, "") and "422 empty_message" in err
    code, _, err = await cli(server, "say", game_id, "Olá")
    assert code == 1 and "403 spectator" in err


async def test_bots_fill_the_free_seats_and_watch_follows_live_to_the_scores(server: Running) -> None:
    async with AsyncClient(server.url) as client:
        game_id = (await client.create("vilar-de-mouros", 3)).game_id
        human = await client.join(game_id, name="Ana", seat=0)
    # a person watches from the start, live, while the table fills and the game is played
    watcher = asyncio.create_task(ludoteca(server, "watch", game_id))
    human_bot = asyncio.create_task(ludoteca(server, "play", "bot", game_id, "--seed", "3", token=human.token))
    code, out, err = await ludoteca(server, "bots", "--game", game_id, "--seed", "1")
    assert code == 0, err
    assert f"bots played seats 1 and 2 of {game_id}" in out and "final scores:" in out
    assert "Ana (seat 0)" in out and "Random bot 2 (seat 1)" in out
    assert f"bots at {game_id}: version" in err and "(finished)" in err  # the progress line
    assert (await human_bot)[0] == 0
    code, watched, err = await asyncio.wait_for(watcher, 30)
    assert code == 0, err
    lines = watched.splitlines()
    assert "takes a seat" in lines[1] and "The game is over." in watched
    assert lines[-4].startswith("finished at version") and lines[-3].strip().startswith("1st")
    assert "awaiting" in watched


async def test_bots_mine_says_it_played_your_seat_when_no_seat_was_free(server: Running) -> None:
    async with AsyncClient(server.url) as client:
        game_id = (await client.create("vilar-de-mouros", 2)).game_id
        human = await client.join(game_id, name="Ana", seat=0)
        await client.join(game_id, bot="greedy")
    code, out, err = await cli(server, "bots", "--game", game_id, "--mine", token=human.token)
    assert code == 0, err
    assert f"bots played seat 0 of {game_id}" in out and "seat 0 is yours" in out and "final scores:" in out, out
    assert "no free seat" not in out


async def test_replay_export_and_import_round_trip(server: Running, tmp_path: Path) -> None:
    async with AsyncClient(server.url) as lobby:
        game_id = (await lobby.create("vilar-de-mouros", 2)).game_id
    await asyncio.wait_for(run_bots(server.url, game_id, seed=5), 90)
    final = await ok_json(server, "show", game_id, "--json")
    assert final["status"] == "finished"
    replay = await ok(server, "replay", game_id, "--to", "12", "--as", "1")
    lines = replay.splitlines()
    assert "A table of Vilar de Mouros for 2 players is opened." in lines[0] and lines[11].split()[0] == "12"
    assert "at version 12" in replay and "seen by seat 1" in replay
    full = await ok_json(server, "replay", game_id, "--as", "full", "--json")
    assert full["version"] == final["version"] and full["view"]["viewer"] == -1
    assert "final scores:" in await ok(server, "replay", game_id)
    viewed = await ok(server, "replay", game_id, "--to", "12", "--view")
    assert '"viewer": null' in viewed
    # export: the whole log on stdout, progress on stderr; import: admin only
    code, exported, err = await ludoteca(server, "export", game_id)
    assert code == 0 and f"{final['version']} events of {game_id}" in err
    header, *facts = exported.splitlines()
    assert json.loads(header)["format"] == "ludoteca-export" and json.loads(header)["viewpoint"] == "everyone"
    assert [json.loads(line)["version"] for line in facts] == list(range(1, final["version"] + 1))
    log = tmp_path / "game.jsonl"
    log.write_text(exported)
    assert (await ok(server, "export", game_id, "--out", str(tmp_path / "again.jsonl"))) == ""
    assert (tmp_path / "again.jsonl").read_text() == exported
    code, _, err = await cli(server, "import", str(log))
    assert code == 1 and "missing_token" in err
    copy = (await ok(server, "import", str(log), admin=ADMIN)).strip()
    assert copy != game_id and len(copy) == 16
    again = await ok_json(server, "replay", copy, "--as", "full", "--json")
    assert {**again, "game_id": ""} == {**full, "game_id": ""}
    code, exported_copy, _ = await cli(server, "export", copy)
    assert exported_copy.replace(copy, game_id, 1) == exported  # its header names its new id
    bad = tmp_path / "bad.jsonl"
    bad.write_text(exported.splitlines()[0] + "\n" + exported.splitlines()[2] + "\n")
    code, _, err = await cli(server, "import", str(bad), admin=ADMIN)
    assert code == 1 and "versions must run" in err
    # an active game is exported only with the admin token
    active, _ = await server.started(2)
    code, _, err = await cli(server, "export", active)
    assert code == 1 and "missing_token" in err
    assert (await ok(server, "export", active, "--admin-token", ADMIN)).count("\n") > 2


async def test_the_play_verbs_print_json(server: Running) -> None:
    catalog = await ok_json(server, "play", "catalog")
    assert "vilar-de-mouros" in {g["game"] for g in catalog["games"]}
    assert (await ok_json(server, "play", "components", "vilar-de-mouros"))["game"] == "vilar-de-mouros"
    entry = await ok_json(server, "play", "create", "vilar-de-mouros", "--players", "2")
    game_id = entry["game_id"]
    assert (await ok_json(server, "play", "games"))["games"][-1]["game_id"] == game_id
    seats = [await ok_json(server, "play", "join", game_id, "--name", name) for name in ("Ana", "Bruno")]
    assert [s["seat"] for s in seats] == [0, 1]
    table = await ok_json(server, "play", "show", game_id)
    assert table["status"] == "active" and table["seat"] is None
    turn = table["awaiting"][0]["seat"]
    token = seats[turn]["token"]
    legal = await ok_json(server, "play", "legal", game_id, token=token)
    command = json.dumps(legal["commands"][0])
    sent = await ok_json(
        server, "play", "send", game_id, command, "--expected-version", str(legal["version"]), "--token", token
    )
    assert sent["version"] > legal["version"]
    assert (await ok_json(server, "play", "show", game_id, token=token))["seat"] == turn
    events = await ok_json(server, "play", "events", game_id, "--after", "1", "--limit", "2")
    assert [e["version"] for e in events["events"]] == [2, 3]
    assert (await ok_json(server, "play", "replay", game_id, "--version", "3", token=token))["version"] == 3
    update = await ok_json(server, "play", "watch", game_id, "--count", "1")
    assert update["type"] == "update" and update["version"] == sent["version"]
    refused = seats[1 - (await ok_json(server, "play", "show", game_id))["awaiting"][0]["seat"]]["token"]
    code, out, err = await cli(server, "play", "send", game_id, '{"type": "DrawFromDeck"}', token=refused)
    assert code == 1 and out == "" and json.loads(err)["error"] == "not_your_turn"


async def test_legal_shows_each_move_and_a_move_is_built_pick_by_pick_then_sent(server: Running) -> None:
    game_id = await server.create(2)
    tokens = [await ok(server, "join", game_id, "--name", name) for name in ("Ana", "Eve\x1b[2J\u009b31m")]
    tokens = [t.strip() for t in tokens]
    table = await ok_json(server, "show", game_id, "--json")
    seat = table["awaiting"][0]["seat"]
    me, other = tokens[seat], tokens[1 - seat]
    shown = await ok(server, "legal", game_id, token=me)
    lines = shown.splitlines()
    assert lines[0].endswith(f"(seat {seat}), at version {table['version']}: 2 moves")
    assert "TakeBonus" in lines[1] and '{"type":"TakeBonus","card":' in lines[1]
    drawing = [line for line in lines if "DrawFromDeck" in line]
    assert len(drawing) == 1 and drawing[0].split()[0] == "DrawFromDeck"
    assert "(Draw from the deck)" in drawing[0] and drawing[0].endswith('{"type":"DrawFromDeck"}')
    assert lines[-2] == f"send a command: ludoteca send {game_id} 'COMMAND'"
    assert lines[-1] == f"or build one pick by pick: ludoteca legal {game_id} --pick MOVE [--pick VALUE ...]"
    idle = await ok(server, "legal", game_id, token=other)
    assert idle.startswith(f"nothing to do at version {table['version']} (seen by ") and "awaiting" in idle
    assert "\x1b" not in idle + shown and "\x9b" not in idle + shown  # no escape reaches the terminal
    assert "Eve[2J31m" in (idle if seat == 0 else shown)  # the server took them out of the name
    # a move of one pick: its step says the command is complete and how to send it
    drawn = await ok(server, "legal", game_id, "--pick", "DrawFromDeck", token=me)
    assert drawn.splitlines() == [
        f"DrawFromDeck (Draw from the deck), at version {table['version']}:",
        '  complete: {"type":"DrawFromDeck"}',
        f"  send it: ludoteca send {game_id} --pick type=DrawFromDeck",
    ]
    for _ in range(2):
        sent = await ok(server, "send", game_id, "--pick", "type=DrawFromDeck", token=me)
        assert " draws " in sent
    # PlaceCards has more commands than a person reads: shown as what to pick next
    shown = await ok(server, "legal", game_id, token=me)
    assert "PlaceCards" in shown and " commands: pick to the centre (centre), " in shown and " offered: " in shown
    placing = await ok(server, "legal", game_id, "--pick", "PlaceCards", token=me)
    lines = placing.splitlines()
    # two draws from the deck, each with the seat's opening of its card (docs/fair-play.md)
    assert lines[:2] == [
        f"PlaceCards (Place cards), at version {table['version'] + 4}:",
        "  pick to the centre (centre):",
    ]
    hand = [line.split()[0] for line in lines[2:-1]]  # each card's id, then its printed name
    assert len(hand) > 2 and lines[-1] == (
        f"  next: ludoteca legal {game_id} --pick type=PlaceCards --pick centre=VALUE"
    )
    centre = await ok(server, "legal", game_id, "--pick", "PlaceCards", "--pick", f"centre={hand[0]}", token=me)
    lines = centre.splitlines()
    assert lines[1] == "  pick to your area (personal):"
    first = f'{{"type":"PlaceCards","centre":"{hand[0]}","personal":"{hand[1]}"}}'
    assert lines[2].split()[0] == hand[1] and lines[2].endswith(f"  -> {first}")
    assert lines[-1] == (
        f"  next: ludoteca send {game_id} --pick type=PlaceCards --pick centre={hand[0]} --pick personal=VALUE"
    )
    # --json prints the API's answer to the same picks
    picks = [{"field": "type", "value": "PlaceCards"}, {"field": "centre", "value": hand[0]}]
    answer = await server.http.post(
        f"/api/v1/games/{game_id}/moves", json={"picks": picks}, headers={"Authorization": f"Bearer {me}"}
    )
    printed = await ok_json(server, "legal", game_id, "--pick", "PlaceCards", "--pick", hand[0], "--json", token=me)
    assert printed == answer.json()
    code, _, err = await cli(
        server, "play", "moves", game_id, "--pick", "type=PlaceCards", "--pick", f"centre={hand[0]}"
    )
    assert code == 1 and json.loads(err)["error"] == "not_offered"  # a spectator has no move to build
    assert (
        await ok_json(
            server, "play", "moves", game_id, "--pick", "type=PlaceCards", "--pick", f"centre={hand[0]}", token=me
        )
        == answer.json()
    )
    # a pick that was not offered: the API's refusal, exit 1
    code, out, err = await cli(
        server, "legal", game_id, "--pick", "PlaceCards", "--pick", "centre=no-such-card", token=me
    )
    assert (code, out) == (1, "") and err.startswith("ludoteca: 422 not_offered: ")
    code, _, err = await cli(server, "send", game_id, "--pick", "DrawFromDeck", "--json", token=me)
    assert code == 1 and json.loads(err)["error"] == "not_offered" and json.loads(err)["details"]["field"] == "picks[0]"
    code, out, err = await cli(server, "send", game_id, "--pick", "PlaceCards", "--pick", hand[0], token=me)
    assert (code, out) == (2, "") and "the move is not complete: pick personal next" in err
    code, _, err = await cli(server, "send", game_id, token=me)
    assert code == 2 and "--pick" in err
    # sent, built from its picks (a bare value is the option that has it)
    sent = await ok(server, "send", game_id, "--pick", "PlaceCards", "--pick", hand[0], "--pick", hand[1], token=me)
    assert " places " in sent and " in the centre and " in sent and " in their personal area." in sent
    # for scripts, the same from JSON picks
    version = (await ok_json(server, "show", game_id, "--json"))["version"]
    answer = await ok_json(server, "play", "send", game_id, "--pick", "type=DrawFromDeck", token=other)
    # the draw, and the seat's opening of its card (docs/fair-play.md)
    assert answer["version"] == version + 2 and answer["events"][0]["event"]["type"] == "CardDrawn"


async def test_play_watch_until_finished_after_two_bot_processes(server: Running) -> None:
    game_id, tokens = await server.started(2)
    runs = await asyncio.gather(
        *(ludoteca(server, "play", "bot", game_id, "--seed", str(i), token=t) for i, t in enumerate(tokens))
    )
    assert all(code == 0 for code, _, _ in runs), runs
    results = [json.loads(out) for _, out, _ in runs]
    assert all(r["status"] == "finished" for r in results)
    assert len(results[0]["outcome"]["scores"]) == 2
    code, out, _ = await cli(server, "play", "watch", game_id, "--until-finished")
    assert code == 0 and json.loads(out.splitlines()[-1])["view"]["finished"] is True


async def test_an_unreachable_server_or_a_missing_token_is_one_line(server: Running) -> None:
    code, out, err = await ludoteca(server, "games", "--url", "http://127.0.0.1:9")
    assert (code, out) == (1, "") and "cannot reach http://127.0.0.1:9" in err
    game_id, _ = await server.started(2)
    code, out, err = await cli(server, "play", "bot", game_id)
    assert (code, out, err) == (2, "", "ludoteca: a bot needs a seat token (--token or LUDOTECA_TOKEN)\n")


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_redraws_one_line_on_a_terminal_and_writes_few_lines_elsewhere() -> None:
    screen = Terminal()
    bar = Progress("export", " B", stream=screen)
    bar.start(200)
    bar.advance(100)
    bar.done()
    drawn = screen.getvalue()
    assert drawn.count("\n") == 1 and drawn.endswith("\n") and "\r\x1b[2K" in drawn
    assert "export [##############################] 100% 200 B/200 B" in drawn
    log = io.StringIO()
    count = Progress("bots: version", stream=log, every=3600)
    count.start(None)
    for version in range(1, 500):
        count.update(version, "(awaiting seat 0: draw)")
    count.done("(finished)")
    assert log.getvalue().splitlines() == ["bots: version 0", "bots: version 499 (finished)"]


def test_the_cli_writes_out_every_control_and_bidi_character_it_would_print() -> None:
    """Names are cleaned by the server, but whatever else a server sends the CLI prints escaped."""
    from clients.cli import printable

    assert printable("Eve\x1b[2J\u009b31m\u202eX\u2066") == "Eve\\u001b[2J\\u009b31m\\u202eX\\u2066"
    assert printable("two\nlines\tkept") == "two\nlines\tkept"


def english_only() -> set[str]:
    """Every word the CLI or the server's catalogs say in English and never in Galician (codes, ids and names
    aside): what a Galician reader must not meet."""
    catalogs = {lang: [words.read("clients")[lang], words.read("server.service")[lang]] for lang in ("en", "gl")}
    for lang in catalogs:
        catalogs[lang] += [game.words[lang] for game in GAMES.values()]

    def said(lang: str) -> set[str]:
        texts = [
            text
            for catalog in catalogs[lang]
            for part in catalog.values()
            for key, text in part.items()
            if not key.startswith(("name.", "game."))  # proper names stay as printed
        ]
        return {w.lower() for t in texts for piece in plain_text(parse(t)) for w in re.findall(r"[A-Za-zÀ-ÿ']+", piece)}

    printed = {
        w.lower()
        for game in GAMES.values()
        for name in re.findall(r"'name': '([^']*)'", str(msgspec.to_builtins(game.components)))
        for w in re.findall(r"[A-Za-zÀ-ÿ']+", name)
    }  # the names cards, bands and places are printed with stay as printed
    printed |= {w.lower() for game in GAMES.values() for w in re.findall(r"[A-Za-zÀ-ÿ']+", game.title)}  # as the box
    return {w for w in said("en") - said("gl") - printed if len(w) > 2}


def plain_text(nodes: Any) -> list[str]:
    """The literal text of a parsed message, in every case of its choices (placeholders and case names aside)."""
    found: list[str] = []
    for node in nodes:
        if isinstance(node, str):
            found.append(re.sub(r"\b[A-Z_]{3,}\b", " ", node))  # NAME, COMMAND: what to type, not words
        elif isinstance(node, Choice):
            for body in node.cases.values():
                found += plain_text(body)
    return found


# The moves' codes, which a player types (``--pick Draw``): shown beside their words, never instead of them.
MOVE_CODES = {
    m.__struct_config__.tag
    for game in GAMES.values()
    for m in getattr(game.command_type, "__args__", (game.command_type,))
}


def words_met(text: str) -> set[str]:
    """The words of ``text`` a person reads: not codes (``not_your_turn``, ``DrawFromDeck``, ``Draw``), ids or flags."""
    text = re.sub(r"\{[^{}]*\}", " ", text)  # a command shown as JSON is code to type
    return {
        w.lower()
        for w in re.findall(r"(?<![\w-])[A-Za-zÀ-ÿ']+(?![\w-])", text)
        if not re.search(r"[a-z][A-Z]", w) and w not in MOVE_CODES
    }


@pytest.mark.timeout(240)
@pytest.mark.parametrize("game", list(GAMES))
async def test_a_galician_reader_plays_a_whole_game_without_meeting_an_english_word(server: Running, game: str) -> None:
    english = english_only()
    assert {"draws", "places", "awaiting", "seat", "turn"} <= english
    met: list[str] = []

    async def gl(*args: str, token: str | None = None, code: int = 0) -> str:
        got, out, err = await cli(server, *args, token=token, lang="gl_ES.UTF-8")
        assert got == code, err
        met.append(out + err)
        return out + err

    game_id = (await gl("new", game, "--players", "2")).split()[0]
    ana = (await gl("join", game_id, "--name", "Ana", "--seat", "0")).split()[0]
    assert "posto 0" in met[-1]
    quick = game in ("vilar-de-mouros", "miss-liz-parks")  # games the CLI's random bot ends in a minute
    bot = ending_bot(game)
    # no name: its default, stored in English, is said in Galician
    other = (await gl("join", game_id, "--bot", bot)) if quick else (await gl("join", game_id)).split()[0]
    shown = await gl("show", game_id)
    assert GAMES[game].title in shown
    table = json.loads(await ok(server, "show", game_id, "--json"))
    if game == "vilar-de-mouros" and table["awaiting"][0]["seat"] == 0:
        assert "xogadas" in await gl("legal", game_id, token=ana)
        assert "Coller da baralla" in await gl("legal", game_id, "--pick", "DrawFromDeck", token=ana)
        assert " colle " in await gl("send", game_id, "--pick", "DrawFromDeck", token=ana)
        refused = await gl("send", game_id, "--pick", "TakeBonus", token=ana, code=1)
        assert "ludoteca: 422 " in refused
    elif game == "vilar-de-mouros":
        refused = await gl("send", game_id, '{"type": "DrawFromDeck"}', token=ana, code=1)
        assert "ludoteca: 422 " in refused
    else:
        await gl("legal", game_id, token=ana)  # what Ana may do, or that she is not awaited: in Galician
    if quick:
        # the rest of the game: a bot plays Ana's seat, and she reads the whole log as it happens, then the scores
        code, out, err = await ludoteca(
            server, "bots", "--game", game_id, "--mine", token=ana, lang="gl_ES.UTF-8", timeout=200
        )  # a whole game, a request a pick: about a minute on a busy machine
        assert code == 0, err
        met.append(out + err)
        assert "puntuacións finais:" in out and "1.º" in out
    else:
        # Hundreds of moves (thousands in Itchy Feet) would take the CLI's random bot minutes, a request a
        # pick: the test plays both seats over the API, and she reads the end and the whole log after it.
        table_ = Table(server, game, game_id, tokens={0: ana, 1: other})
        for _ in range(20_000):
            if (await table_.step())["status"] == "finished":
                break
        shown = await gl("show", game_id, token=ana)
        assert "puntuacións finais:" in shown and "1.º" in shown, shown
    log = await gl("replay", game_id)
    assert "puntuacións finais:" in log and "1.º" in log, log  # the whole log, then the final scores
    if quick:
        said_bot = {"random": "Bot aleatorio 2", "greedy": "Bot cobizoso 2"}[bot]
        assert f"{said_bot} (un bot) séntase á mesa." in log and f"{bot.capitalize()} bot" not in "".join(met)
    else:
        assert "Xogador 2 séntase á mesa." in log and "Player 2" not in "".join(met)
    leaked = {w for text in met for w in words_met(text)} & english
    assert not leaked, [line for text in met for line in text.splitlines() if words_met(line) & leaked]
