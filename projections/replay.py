"""A game as it was at any version, rebuilt from its events alone."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from domain.engine import AnyGame, Viewer
from domain.table import Table, fold
from projections.views import TableView, table_view


def table_at(game: AnyGame, events: Sequence[tuple[int, Any]], version: int) -> Table | None:
    """The fold of every event up to and including ``version``."""
    return fold(game, None, [event for v, event in events if v <= version])


def replay(game: AnyGame, game_id: str, events: Sequence[tuple[int, Any]], version: int, viewer: Viewer) -> TableView:
    """``viewer``'s view of the table at ``version`` (the events start at version 1)."""
    table = table_at(game, events, version)
    assert table is not None, "a replay starts at version 1 or later"
    return table_view(game, game_id, table, viewer)
