"""Building a move from the command line one pick at a time (``legal``, ``send``): the picks typed
resolved against the options offered, and what to pick next, in words."""

from __future__ import annotations

import re
import shlex
from typing import Any

from clients.cli.text import Trouble, Voice, awaiting_text, compact, json_value, value_text, who_am_i
from clients.python import (
    AsyncClient,
    AsyncMove,
    Option,
    Pick,
    Step,
    TableView,
)

FEW = 6  # a move with at most this many commands is shown as its commands, else as what to pick next
FIELD = re.compile(r"[a-z_][a-z0-9_]*")


def nobody_moves(voice: Voice, table: TableView, version: int) -> str:
    if table.finished:
        return voice("nothing_over", version=version)
    if table.status == "open":
        return voice("nothing_open", version=version)
    return voice(
        "nothing_else", version=version, who=who_am_i(voice, table), awaiting=awaiting_text(voice, table.awaiting)
    )


def option_text(voice: Voice, option: Option) -> str:
    """An option as one types it, with the word for it when it is not the same (a move, a card's name, a seat's)."""
    shown = value_text(option.value)
    if option.kind == "seat" and isinstance(option.value, int):
        word = voice.seat(option.value)
    elif option.field == "type":
        return move_text(voice, option.value)
    else:
        word = voice.term("name", option.value) if isinstance(option.value, str) else shown
    return shown if word == shown else voice("option", value=shown, word=word)


def move_text(voice: Voice, move: Any) -> str:
    """A move's type as one types it, with its word."""
    word = voice.term("move", move)
    return value_text(move) if word == value_text(move) else voice("option", value=value_text(move), word=word)


def fields_text(voice: Voice, options: list[Option]) -> list[tuple[str, list[Option]]]:
    """The options by field, in the order offered, each field with its word (and its name, to type it)."""
    groups: dict[str, list[Option]] = {}
    for option in options:
        groups.setdefault(option.field, []).append(option)
    return [(voice("field", field=f, word=voice.term("field", f)), group) for f, group in groups.items()]


def next_picks(voice: Voice, step: Step) -> str:
    """What to pick next, or the command the picks make, in one line (the choices apart by " | ")."""
    parts = [
        voice("offered", field=label, count=len(group), options=[option_text(voice, o) for o in group])
        for label, group in fields_text(voice, step.options)
    ]
    if step.command is not None:
        parts.insert(0, voice("complete", command=compact(step.command, 1000)))
    return " | ".join(parts) or voice("nothing_to_pick")


def step_lines(voice: Voice, move: AsyncMove) -> list[str]:
    """The step after the picks, for people: the command made, if any, then each option (with the command it ends
    the move with), and how to go on."""
    made = [move_text(voice, p.value) if p.field == "type" else pick_arg(p) for p in move.picks]
    lines = [voice("step", picks=made, version=move.version)]
    picks = " ".join(f"--pick {shlex.quote(pick_arg(p))}" for p in move.picks)
    if move.command is not None:
        lines += [
            "  " + voice("complete", command=compact(move.command, 1000)),
            "  " + voice("send_it", game_id=move.game_id, picks=picks),
        ]
    for label, group in fields_text(voice, move.options):
        lines.append("  " + voice("pick_more" if move.command is not None else "pick", field=label))
        shown = [option_text(voice, o) for o in group]
        width = min(40, max(map(len, shown)))
        for text, option in zip(shown, group, strict=True):
            ends = f"  -> {compact(option.command, 1000)}" if option.command is not None else ""
            lines.append(f"    {text:<{width}}{ends}".rstrip())
    if move.options:
        verb = "send" if all(o.command is not None for o in move.options) else "legal"
        field = shlex.quote(move.options[0].field)
        lines.append("  " + voice("next", command=f"ludoteca {verb} {move.game_id} {picks} --pick {field}=VALUE"))
    if move.empty:
        lines.append("  " + voice("no_such_move"))
    return lines


def pick_arg(pick: Pick) -> str:
    return f"{pick.field}={value_text(pick.value)}"


def names_value(text: str, value: Any) -> bool:
    """Whether ``text`` (as typed after ``--pick``) names the option value ``value``."""
    return text == value_text(value) or json_value(text) == value


def resolve(text: str, options: list[Option]) -> Pick:
    """The pick ``text`` names among the options offered: ``FIELD=VALUE``, or a ``VALUE`` only one option has.

    A value no option has is still sent as typed (the server refuses it with ``not_offered``)."""
    name, sep, value = text.partition("=")
    if sep and FIELD.fullmatch(name):
        matches = [o for o in options if o.field == name and names_value(value, o.value)]
        return matches[0].pick if matches else Pick(name, json_value(value))
    matches = [o for o in options if names_value(text, o.value)]
    fields = sorted({o.field for o in matches or options})
    if len(fields) > 1:
        raise Trouble("which_field", value=text, fields=fields)
    if matches:
        return matches[0].pick
    return Pick(fields[0] if fields else "type", json_value(text))


async def build(client: AsyncClient, game_id: str, picks: list[str]) -> AsyncMove:
    """The move the ``--pick``s make, each resolved against the options of the step before it."""
    move = await client.move(game_id)
    for text in picks:
        move = await move.pick(resolve(text, move.options))
    return move
