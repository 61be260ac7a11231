"""Which steps a seat may take back, judged once, when the step is decided.

Board Game Arena's policy, for every game: a seat may undo its own last steps within
its turn, never past a step that drew on randomness, revealed something hidden, or
involved another seat. A step is one command's events. It can be undone when

- deciding it asked the random generator nothing;
- every one of its events is the same for every viewer (none is redacted: nobody
  learns anything privately);
- nobody, the seat included, sees after it anything that was hidden from them before
  (a card drawn into the hand, a card from the hand played face up);
- the game awaited this seat alone before the step and still does after it.

The check needs the states before and after and the rng's use, which only decide has;
so the table writes its verdict into the stream (``Undoable`` before the step's events)
and evolve keeps, per step so marked, the state to return to.
"""

from __future__ import annotations

from typing import Any

import msgspec

from domain.engine import FULL, AnyGame, Rng, Seat, fold


class RecordingRng:
    """The lent generator, noting whether a decision drew on it."""

    def __init__(self, rng: Rng) -> None:
        self.rng = rng
        self.used = False

    def shuffle(self, x: list[Any]) -> None:
        self.used = True
        self.rng.shuffle(x)

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        self.used = True
        return self.rng.randrange(start, stop, step)


def can_undo(game: AnyGame, players: int, seat: Seat, before: Any, events: list[Any], drew: bool) -> bool:
    """Whether ``seat``'s step from ``before`` through ``events`` may be taken back (cheap checks first)."""
    if drew or not events or [a.seat for a in game.awaited(before)] != [seat]:
        return False
    others: list[int | None] = [None, *(s for s in range(players) if s != seat)]
    if any(game.redact(e, v) != e for e in events for v in (seat, *others)):
        return False
    after = fold(game.evolve, before, events)
    if [a.seat for a in game.awaited(after)] != [seat] or game.outcome(after) is not None:
        return False
    # Nothing hidden from a viewer before (in the full view, not in theirs) may show in
    # what that viewer sees after: a card drawn into the hand, a card played face up.
    full = _strings(msgspec.to_builtins(game.view(before, FULL)))
    for viewer in (seat, *others):
        seen = _strings(msgspec.to_builtins(game.view(before, viewer)))
        shown = _strings(msgspec.to_builtins(game.view(after, viewer))) - seen
        if shown & (full - seen):
            return False
    return True


def _strings(value: Any) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*map(_strings, value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*map(_strings, value)) if value else set()
    return set()
