"""``ludoteca audit`` against a running server (server/audit.py): twin games, every answer compared."""

from __future__ import annotations

import asyncio

import pytest

from domain.catalog import GAMES
from server.audit import audit, first_difference, steady
from server.cli import main
from tests.server.conftest import ADMIN, Running


@pytest.mark.timeout(240)
async def test_the_audit_finds_no_leak_on_a_running_server_and_runs_again_from_its_seed(quick: Running) -> None:
    report = await audit(quick.url, ADMIN, pairs=2, steps=3, seed="suite")
    print("\n".join(report.lines()))
    assert not report.leaks, report.leaks
    assert set(report.games) == set(GAMES)
    for game, figures in report.games.items():
        assert figures.pairs == 2 and figures.hidden >= 4 and figures.answers > 40, (game, figures)
    assert sum(f.steps for f in report.games.values()) > 0, "nothing was played on in lockstep"
    for game_id in report.twins:  # asked, then called off: none left listed as under way
        table = (await quick.http.get(f"/api/v1/games/{game_id}")).json()
        assert (table["status"], table["outcome"]["reason"]) == ("finished", "cancelled"), table
    again = await audit(quick.url, ADMIN, games=["vilar-de-mouros"], pairs=2, steps=3, seed="suite")
    assert again.games["vilar-de-mouros"] == report.games["vilar-de-mouros"]


@pytest.mark.timeout(120)
async def test_the_audit_catches_a_server_that_shows_every_viewer_every_fact(
    quick: Running, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The control: a server whose feeds reveal every fact to every viewer (as after the end) is caught."""
    for module in ("server.service.games", "server.service.reads"):  # a command's answer, and the reads
        monkeypatch.setattr(f"{module}.is_revealed", lambda game, table: True)
    report = await audit(quick.url, ADMIN, games=["vilar-de-mouros"], pairs=1, steps=0, seed="control")
    assert any("/events" in leak for leak in report.leaks), report.leaks


def test_a_difference_is_named_by_where_it_is_and_the_clock_is_set_aside() -> None:
    assert first_difference({"hand": ["a", "b"]}, {"hand": ["a", "c"]}) == ".hand[1]: b / c"
    assert steady({"opened_at_ms": 17, "seat": 1, "events": [{"due_ms": 3}]}) == {
        "opened_at_ms": 0,
        "seat": 1,
        "events": [{"due_ms": 0}],
    }


async def test_the_command_prints_its_report_and_says_by_its_exit_status_whether_anything_leaked(
    quick: Running, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    run = ["audit", quick.url, "--games", "vilar-de-mouros", "--pairs", "1", "--steps", "2", "--seed", "cli"]
    monkeypatch.delenv("LUDOTECA_ADMIN_TOKEN", raising=False)
    assert await asyncio.to_thread(main, run) == 2
    monkeypatch.setenv("LUDOTECA_ADMIN_TOKEN", ADMIN)
    assert await asyncio.to_thread(main, run) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"ludoteca audit {quick.url} --seed cli\n") and "no difference" in out
    assert "vilar-de-mouros: 1 twin pairs" in out
