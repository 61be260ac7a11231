"""Text people type, made safe to show to others."""

from __future__ import annotations

import unicodedata


def plain(text: str) -> str:
    """Text as it is shown to others: NFC, without control, format (bidi overrides, zero-width) or
    unassigned characters, every run of whitespace one space.

    A name or a message is shown to everyone at the table and in terminals: U+202E would make
    it read as another's words, an escape sequence would move a terminal's cursor."""
    kept = []
    for char in unicodedata.normalize("NFC", text):
        kind = unicodedata.category(char)
        if kind.startswith("Z") or char.isspace():
            kept.append(" ")
        elif kind not in ("Cc", "Cf", "Cs", "Co", "Cn"):
            kept.append(char)
    return " ".join("".join(kept).split())
