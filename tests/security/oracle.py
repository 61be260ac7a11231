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
import re
from typing import Any

import msgspec

from domain.engine import AnyGame
from domain.table import event_union
from projections.twins import hidden_from
from tests.projections.test_no_leak import json_strings

__all__ = ["hidden_from", "leaks", "log_from_export"]

ENCODE = msgspec.json.encode


def log_from_export(game: AnyGame, export: str) -> list[Any]:
    """Every fact of an export of every fact (its header left out)."""
    kind = event_union(game)
    lines = [json.loads(line) for line in export.splitlines() if line.strip()]
    if "format" in lines[0]:
        lines = lines[1:]
    assert [line["version"] for line in lines] == list(range(1, len(lines) + 1))
    return [msgspec.convert(line["event"], kind) for line in lines]


HEX = re.compile(r"[0-9a-f]{16,}")


def leaks(hidden: set[str], *received_texts: str | bytes, bare: bool = False) -> set[str]:
    """The hidden strings that occur in what was received: JSON-encoded (``"card"``), or
    anywhere as a bare substring (for headers and log lines) when ``bare``.

    Found in one pass a text where a game hides thousands of strings (the hashes and salts of
    fair play): JSON strings are collected from the text and looked up; bare, a long hex string
    (a hash, a salt, the seed) is looked up among the text's hex runs, any other one searched for."""
    found = set()
    quoted = {s: ENCODE(s) for s in hidden}
    hexes = {s for s in hidden if HEX.fullmatch(s)}
    for text in received_texts:
        raw = text.encode() if isinstance(text, str) else text
        if not bare:
            strings = json_strings(raw)
            found |= {s for s, needle in quoted.items() if needle in strings}
            continue
        blob = raw.decode(errors="replace")
        runs = set(HEX.findall(blob))
        found |= hexes & runs
        found |= {s for s in hidden - hexes if len(s) >= 4 and s in blob}
    return found
