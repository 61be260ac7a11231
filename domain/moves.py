"""Building blocks for a game's ``moves`` (the contract is in domain/engine.py).

A game's ``moves(state, seat, picks)`` usually reads:

    return menu(picks, {"Draw": draw, "Recycle": recycle, ...})

with one builder per kind of command the seat may send now. A builder gets the picks made
after the command's type (``Chosen``) and answers a ``Step``: the options that may come next
(``offer``), and the command once the picks make one. Its first step (no picks) must be
empty exactly when the seat has no command of that kind: ``menu`` offers the type only then.

Where every command of a kind is few and known (one field over a short list), ``listed``
builds the steps from the list itself, field after field.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from domain.engine import NO_MOVE, Option, Pick, PickValue, Step

Builder = Callable[["Chosen"], Step]


class Chosen:
    """The picks of one move after its type, by field (a tuple field's values in pick order)."""

    __slots__ = ("picks",)

    def __init__(self, picks: Sequence[Pick]) -> None:
        self.picks = tuple(picks)

    def __len__(self) -> int:
        return len(self.picks)

    def one(self, field: str) -> Any:
        """The value picked for ``field``, or ``None``."""
        return next((p.value for p in self.picks if p.field == field), None)

    def many(self, field: str) -> tuple[Any, ...]:
        """Every value picked for the tuple field ``field``, in order."""
        return tuple(p.value for p in self.picks if p.field == field)

    def has(self, field: str) -> bool:
        return any(p.field == field for p in self.picks)


def offer(
    field: str, kind: str, values: Iterable[PickValue], complete: Callable[[Any], Any] | None = None
) -> list[Option]:
    """Options for ``field``; ``complete(value)``, when given, is the command each one finishes."""
    if complete is None:
        return [Option(field, value, kind) for value in values]
    return [Option(field, value, kind, complete(value)) for value in values]


def menu(picks: Sequence[Pick], builders: Mapping[str, Builder]) -> Step:
    """The first pick is the command's type, among the kinds the seat may send now; the
    rest are its builder's. A type whose builder needs no more picks carries its command."""
    if not picks:
        options = []
        for name, build in builders.items():
            first = build(Chosen(()))
            if not first.empty:
                options.append(Option("type", name, "move", None if first.options else first.command))
        return Step(tuple(options))
    chosen = builders.get(str(picks[0].value))
    return NO_MOVE if chosen is None else chosen(Chosen(picks[1:]))


def send(command: Any) -> Builder:
    """A command with no fields to pick (``None``: not possible now)."""
    step = NO_MOVE if command is None else Step(command=command)
    return lambda chosen: step


def pick_one(field: str, kind: str, values: Iterable[PickValue], make: Callable[[Any], Any]) -> Builder:
    """A command with one field, any of ``values``; ``make(value)`` is the command."""
    options = tuple(offer(field, kind, values, make))

    def build(chosen: Chosen) -> Step:
        return Step(command=make(chosen.picks[0].value)) if chosen else Step(options)

    return build


def listed(commands: Sequence[Any], kinds: Mapping[str, str]) -> Builder:
    """A builder over a short list of complete commands of one type: their fields are picked
    in declared order, each among the values the commands still consistent with the picks have.
    ``kinds`` names what each field's values are (``{"card": "card"}``). Scalar fields only."""

    def build(chosen: Chosen) -> Step:
        left = [c for c in commands if all(getattr(c, p.field) == p.value for p in chosen.picks)]
        if not left:
            return NO_MOVE
        fields = type(left[0]).__struct_fields__
        if len(chosen) == len(fields):
            return Step(command=left[0])
        field = fields[len(chosen)]
        last = len(chosen) == len(fields) - 1
        values = list(dict.fromkeys(getattr(c, field) for c in left))
        if last:
            by_value = {getattr(c, field): c for c in left}
            return Step(tuple(offer(field, kinds.get(field, field), values, by_value.__getitem__)))
        return Step(tuple(offer(field, kinds.get(field, field), values)))

    return build


def by_type(commands: Sequence[Any], kinds: Mapping[str, str]) -> dict[str, Builder]:
    """``listed`` builders for a list of complete commands of several types, by type name."""
    groups: dict[str, list[Any]] = {}
    for command in commands:
        groups.setdefault(type(command).__struct_config__.tag, []).append(command)
    return {name: listed(group, kinds) for name, group in groups.items()}
