"""The card primitives every game's evolve uses (domain/cards.py)."""

from __future__ import annotations

from domain.cards import replaced, without


def test_without_takes_one_named_card_out_and_keeps_the_order() -> None:
    assert without(("a", "b", "c"), "b") == ("a", "c")


def test_without_takes_several_cards_out_in_one_call() -> None:
    assert without(("a", "b", "c", "d"), "d", "a") == ("b", "c")


def test_without_takes_out_one_copy_per_time_a_card_is_named() -> None:
    assert without(("a", "b", "a", "a"), "a") == ("b", "a", "a")
    assert without(("a", "b", "a", "a"), "a", "a") == ("b", "a")


def test_without_skips_a_card_that_is_not_there() -> None:
    """A pile shuffled from the discards and the box takes each card from wherever it lies."""
    assert without(("a", "b"), "z") == ("a", "b")
    assert without(("a", "b"), "b", "z") == ("a",)


def test_without_nothing_named_is_the_same_cards() -> None:
    assert without(("a", "b")) == ("a", "b")
    assert without((), "a") == ()


def test_replaced_changes_one_seat_and_no_other() -> None:
    assert replaced((("a",), ("b",), ()), 1, ("b", "c")) == (("a",), ("b", "c"), ())
    assert replaced((1, 2, 3), 0, 9) == (9, 2, 3)
