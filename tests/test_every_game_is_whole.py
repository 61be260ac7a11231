"""A game is its package, its line in the catalog, its screen, its rules page and its old logs: a game the
catalog lists without one of them fails here, named, and no other list of games needs to change."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from domain.catalog import GAMES

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_game_has_its_screen_at_the_web_table(game: str) -> None:
    assert (ROOT / "clients" / "web" / "js" / "games" / f"{game}.js").is_file()
    screens = (ROOT / "clients" / "web" / "js" / "games" / "index.js").read_text(encoding="utf-8")
    assert re.search(rf'^\s*"{game}":\s*\w+,$', screens, re.M), f"{game} is not in SCREENS"


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_game_has_its_rules_page_linked_from_the_readme(game: str) -> None:
    page = ROOT / "docs" / "games" / f"{game}.md"
    assert page.is_file()
    assert "## Rulings" in page.read_text(encoding="utf-8")
    assert f"(docs/games/{game}.md)" in (ROOT / "README.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_game_keeps_logs_of_its_older_rules(game: str) -> None:
    """tests/domain/test_old_logs.py folds each one: a rule that changes must not break a game already played."""
    assert list((ROOT / "tests" / "domain" / "old_logs" / game).glob("*.jsonl"))
