"""What a viewer receives over its socket: one ``update`` message, built one way for live
delivery and for catch-up.

An update covers the events up to ``version`` as the viewer may see them. The last
update of a catch-up, and every live one, also carries the table as the viewer sees it
now: its view, status and outcome, and, for a seat the game awaits, the first step of
its move. The events are redacted by the same rule as the view (projections/views.py),
so after any end of the table the feed and the view reveal the same.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import msgspec

from domain.engine import AnyGame, Step, Viewer
from domain.table import Status, Table, outcome, status
from projections.views import VersionedEvent, feed, first_step, game_view


class Update(msgspec.Struct, tag="update", tag_field="type"):
    version: int
    events: list[VersionedEvent]
    view: Any
    check: str = ""  # the check value of ``version`` (server/storage/checks.py): echo it in the hello to resume
    # With the view: the table's status, and its outcome once finished (no need to ask the REST API).
    status: Status | None = None
    outcome: Any = None
    # To a seat the game awaits, with the view: the first step of its move (build it from here).
    step: Step | None = None


def standing(game: AnyGame, table: Table) -> tuple[Status, Any]:
    """The table's status, and its outcome once finished: the same for every viewer (a delivery
    works it out once for all of them: a game's outcome scores the whole table)."""
    current = status(game, table)
    return current, outcome(game, table) if current == "finished" else None


def update(
    game: AnyGame,
    table: Table,
    events: Iterable[tuple[int, Any]],
    viewer: Viewer,
    *,
    version: int | None = None,
    check: str = "",
    now: tuple[Status, Any] | None = None,
) -> Update:
    """``viewer``'s update with ``events``, on ``table`` (the table at the end of what is being sent).

    ``version``: the last version this update covers, when it is a chunk of a catch-up
    before ``table``'s own version; such a chunk carries events only. Otherwise the update
    ends at ``table`` and carries the view, the standing and the seat's first step. ``now``:
    the table's ``standing``, if the caller worked it out already."""
    current, ended = now or standing(game, table)
    seen = feed(game, events, viewer, current == "finished", table)
    if version is not None and version != table.version:
        return Update(version, seen, None, check)
    view = game_view(game, table, viewer, current)
    return Update(table.version, seen, view, check, current, ended, first_step(game, table, viewer, current))
