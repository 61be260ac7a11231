"""Progress of long work (uploads, downloads, games played), reported to a callback or drawn on a terminal."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from typing import TextIO

CHUNK = 64 * 1024


def chunks(body: bytes, size: int = CHUNK) -> Iterator[bytes]:
    for start in range(0, len(body), size):
        yield body[start : start + size]


class Progress:
    """A progress line on ``stream`` (stderr): a bar when the total is known, a count otherwise.

    On a terminal it redraws one line in place; elsewhere (a pipe, a log, CI) it writes a plain line at most
    every ``every`` seconds and one at the end, so logs stay short.
    """

    def __init__(
        self, label: str, unit: str = "", stream: TextIO | None = None, every: float = 2.0, width: int = 30
    ) -> None:
        self.label = label
        self.unit = unit
        self.stream = stream if stream is not None else sys.stderr
        self.tty = self.stream.isatty()
        self.every = every
        self.width = width
        self.total: int | None = None
        self.count = 0
        self.note = ""
        self.last = float("-inf")  # never drawn: the first line is due at once, however long the machine has been up
        self.finished = False

    def start(self, total: int | None) -> None:
        self.total = total
        self.count = 0
        self.draw(force=True)

    def advance(self, amount: int = 1, note: str | None = None) -> None:
        self.count += amount
        if note is not None:
            self.note = note
        self.draw()

    def update(self, count: int, note: str | None = None) -> None:
        self.count = count
        if note is not None:
            self.note = note
        self.draw()

    def done(self, note: str | None = None) -> None:
        if note is not None:
            self.note = note
        if self.total is not None:
            self.count = max(self.count, self.total)
        self.finished = True
        self.draw(force=True)
        if self.tty:
            self.stream.write("\n")
            self.stream.flush()

    def line(self) -> str:
        amount = f"{self.count}{self.unit}"
        if self.total:
            filled = min(self.width, self.width * self.count // self.total)
            bar = "#" * filled + "." * (self.width - filled)
            percent = min(100, 100 * self.count // self.total)
            text = f"{self.label} [{bar}] {percent:3d}% {amount}/{self.total}{self.unit}"
        else:
            text = f"{self.label} {amount}"
        return f"{text} {self.note}".rstrip()

    def draw(self, force: bool = False) -> None:
        now = time.monotonic()
        if self.tty:
            if force or now - self.last >= 0.05:
                self.stream.write("\r\x1b[2K" + self.line())
                self.stream.flush()
                self.last = now
        elif (force and self.finished) or now - self.last >= self.every:
            self.stream.write(self.line() + "\n")
            self.stream.flush()
            self.last = now
