"""The shared redaction rules: secret fields, fields seen only by the seats an event names."""

from __future__ import annotations

import msgspec

from domain.engine import FULL
from domain.visibility import redactor, secret, seen_by


class Shuffled(msgspec.Struct, frozen=True):
    count: int
    order: tuple[str, ...] | None = None


class Stolen(msgspec.Struct, frozen=True):
    thief: int
    victim: int
    card: str | None = None


class Played(msgspec.Struct, frozen=True):
    card: str


redact = redactor({Shuffled: secret("order"), Stolen: seen_by("thief", "victim", hides=("card",))})


def test_a_secret_field_is_hidden_from_every_seat_and_the_spectator() -> None:
    event = Shuffled(2, ("a", "b"))
    assert redact(event, 0) == Shuffled(2, None)
    assert redact(event, None) == Shuffled(2, None)


def test_a_field_seen_by_named_seats_is_hidden_from_the_others() -> None:
    event = Stolen(thief=1, victim=2, card="x")
    assert redact(event, 1) == event and redact(event, 2) == event
    assert redact(event, 0) == Stolen(1, 2, None)
    assert redact(event, None) == Stolen(1, 2, None)


def test_the_full_view_sees_everything_and_undeclared_events_are_public() -> None:
    assert redact(Shuffled(2, ("a", "b")), FULL) == Shuffled(2, ("a", "b"))
    assert redact(Played("x"), None) == Played("x")
