"""Primitives every game's evolve shares: taking cards out of a hand or a pile, and
replacing one seat's part of a per-seat tuple.

Card ids are unique within a game (each is a key of its card file), so a pile holds a
card at most once; ``without`` still takes out one copy per time a card is named.
"""

from __future__ import annotations

from typing import TypeVar

T = TypeVar("T")


def without(cards: tuple[str, ...], *gone: str) -> tuple[str, ...]:
    """``cards`` in their order, with each card of ``gone`` taken out once.

    A named card that is not there is skipped, not an error: evolve never validates (decide
    has), and some facts take cards from wherever they lie (a pile shuffled from the discards
    and the box)."""
    if len(gone) == 1:  # the common case (a card drawn, played, taken): slices, no loop
        card = gone[0]
        if card not in cards:
            return cards
        i = cards.index(card)
        return cards[:i] + cards[i + 1 :]
    out = list(cards)
    for card in gone:
        if card in out:
            out.remove(card)
    return tuple(out)


def replaced(items: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    """``items`` with the one at ``index`` (a seat's hand, park, score) replaced by ``value``."""
    return (*items[:index], value, *items[index + 1 :])
