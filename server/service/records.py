"""A game's command records: what the store keeps per command id, to answer a retry as the first
time and, in an export, to say which command began each step (docs/fair-play.md)."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping

import msgspec

from projections.export import Sent
from server.service.codec import encode


class CommandRecord(msgspec.Struct, omit_defaults=True):
    """What the store keeps per command id: to answer a retry as the first time, and, with the
    command and the clock it was decided at, for a verifier to decide it again (docs/fair-play.md)."""

    seat: int
    hash: str
    first: int  # the first and last versions the command appended
    last: int
    command: msgspec.Raw = msgspec.Raw(b"null")  # the command as decided (records from before: null)
    at_ms: int = 0  # the shared clock it was decided at (0: a game that keeps no time, decided unread)


RECORD = msgspec.json.Decoder(CommandRecord)


def steps_sent(records: Mapping[str, bytes], version: int) -> dict[int, Sent]:
    """The commands of a game's records, by the version their step begins at (up to ``version``):
    a record's field is ``<sender> <command id>``, or a bare id from before ids were scoped."""
    sent: dict[int, Sent] = {}
    for name, raw in records.items():
        try:
            record = RECORD.decode(raw)
        except msgspec.DecodeError:  # not a record of ours
            continue
        if not record.first <= record.last <= version:
            continue  # appended nothing, or after the version exported
        sender, _, command_id = name.partition(" ") if " " in name else ("", "", name)
        command = msgspec.json.decode(record.command)
        sent[record.first] = Sent(sender, command_id, record.seat, record.last, command, record.at_ms)
    return sent


def record_of(first: int, step: Sent) -> tuple[str, bytes]:
    """The field and record that keep ``step``, beginning at version ``first``, in a game's command
    records (an imported game's)."""
    name = f"{step.sender} {step.id}" if step.sender else step.id
    body = encode(step.command) if step.command is not None else b"null"
    digest = hashlib.sha256(body).hexdigest()
    return name, encode(CommandRecord(step.seat, digest, first, step.last, msgspec.Raw(body), step.at_ms))
