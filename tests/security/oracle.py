"""The leak oracle: which strings of a game's stored log a viewer may not see.

The stored log (every event whole, read with the admin export) is folded with the
game's own rules; everything the viewer is entitled to receive up to then (its feed,
its views at every version, its complete legal commands) is rendered; any string of the log
that never appears there is hidden from it, and must appear nowhere the server sends
it: REST bodies, WebSocket messages, errors, headers, log lines. The steps of building a
move are not among what the viewer is entitled to: they are held to the rest.
"""

from __future__ import annotations

import json
from typing import Any

import msgspec

from domain.engine import AnyGame, Viewer
from domain.table import event_union
from tests.projections.test_no_leak import received, strings_of

ENCODE = msgspec.json.encode


def log_from_export(game: AnyGame, export: str) -> list[Any]:
    kind = event_union(game)
    lines = [json.loads(line) for line in export.splitlines() if line.strip()]
    assert [line["version"] for line in lines] == list(range(1, len(lines) + 1))
    return [msgspec.convert(line["event"], kind) for line in lines]


def hidden_from(game: AnyGame, log: list[Any], viewer: Viewer) -> set[str]:
    """The strings of ``log`` that nothing ``viewer`` may receive contains."""
    plain = received(game, log, viewer, [], moves=False)  # the steps of a move are checked, not trusted
    return {s for s in strings_of(msgspec.to_builtins(log)) if ENCODE(s) not in plain}


def leaks(hidden: set[str], *received_texts: str | bytes, bare: bool = False) -> set[str]:
    """The hidden strings that occur in what was received: JSON-encoded (``"card"``), or
    anywhere as a bare substring (for headers and log lines) when ``bare``."""
    found = set()
    for text in received_texts:
        blob = text if isinstance(text, str) else text.decode(errors="replace")
        for s in hidden:
            needle = s if bare else ENCODE(s).decode()
            if (not bare or len(s) >= 4) and needle in blob:
                found.add(s)
    return found
