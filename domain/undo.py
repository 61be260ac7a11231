"""Which steps a seat may take back, judged once, when the step is decided.

Board Game Arena's policy, for every game: a seat may undo its own last steps within
its turn, never past a step that drew on randomness, revealed something hidden, or
involved another seat. A step is one command's events. It can be undone when

- deciding it asked the random generator nothing;
- every one of its events is the same for every viewer (none is redacted: nobody
  learns anything privately);
- its events name nothing the spectator could not see before (a card from the hand
  played face up), and the seat sees after it nothing that was hidden from it before
  (a card drawn into the hand without being named);
- the game awaited this seat alone before the step and still does after it.

The check needs the states before and after and the rng's use, which only decide has;
so the table writes its verdict into the stream (``Undoable`` before the step's events)
and evolve keeps, per step so marked, the state to return to.
"""

from __future__ import annotations

import re
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
    # Nothing hidden before may show after. The others learn of a step only through its
    # events, the same for all of them: none may name a thing the spectator could not see
    # (what the spectator sees, every viewer sees). The seat itself may also learn through
    # its own view: nothing may appear there that was hidden from it (a card drawn unnamed).
    # New names are fine (a new phase, a score): only those hidden before are not. The events'
    # news is judged first: a step that names a hidden thing (a card drawn face up from the
    # deck) is settled without the seat's own two views.
    public = msgspec.json.encode(game.view(before, None))
    news = {name for name in _strings(events) if name not in public}
    full = msgspec.json.encode(game.view(before, FULL)) if news else b""
    if any(name in full for name in news):
        return False
    mine_before, mine_after = game.view(before, seat), game.view(after, seat)
    seen = msgspec.json.encode(mine_before)
    mine_news = {name for name in _strings(_changed(mine_before, mine_after)) if name not in seen}
    if not mine_news:
        return True
    full = full or msgspec.json.encode(game.view(before, FULL))
    return not any(name in full for name in mine_news)


def _changed(before: Any, after: Any) -> list[Any]:
    """The parts of a view that a step changed (only those can show something new), down to
    the field or list item: a moved tourist is one changed field, not every seat's strings."""
    if isinstance(after, msgspec.Struct) and type(before) is type(after):
        pairs = [(getattr(before, f), getattr(after, f)) for f in after.__struct_fields__]
    elif isinstance(after, list) and isinstance(before, list):
        if len(before) != len(after):
            # A list that grew or shrank (a card drawn into the hand): its items that were there
            # before showed all they hold already, so only the others can show something new.
            return [item for item in after if item not in before]
        pairs = list(zip(before, after, strict=True))
    else:
        return [after]
    return [part for old, new in pairs if old != new for part in _changed(old, new)]


# Every JSON string of a value, quoted as in its encoding, but keys and type tags (they
# name no thing of the game): a regular expression over the encoding, then plain byte
# searches, is many times faster than walking the built-in objects.
_JSON_STRING = re.compile(rb'("(?:[^"\\]|\\.)*")(:?)')


def _strings(value: Any) -> set[bytes]:
    found: set[bytes] = set()
    key = b""
    for text, colon in _JSON_STRING.findall(msgspec.json.encode(value)):
        if colon:
            key = text
        elif key != b'"type"':
            found.add(text)
        else:
            key = b""
    return found
