"""The facts of a game. Secret fields default to None: their public form leaves them out.

Visibility of each event type is declared in ``views.REDACTIONS``.
"""

from __future__ import annotations

from typing import Literal

import msgspec


class DeckShuffled(msgspec.Struct, tag=True, tag_field="type", kw_only=True, frozen=True):
    """The game cards were shuffled; ``order`` is top first (secret from every seat)."""

    count: int
    order: tuple[str, ...] | None = None


class BonusDeckShuffled(msgspec.Struct, tag=True, tag_field="type", kw_only=True, frozen=True):
    """The bonus cards were shuffled; ``order`` is top first (secret from every seat)."""

    count: int
    order: tuple[str, ...] | None = None


class CardsDealt(msgspec.Struct, tag=True, tag_field="type", kw_only=True, frozen=True):
    """A seat was dealt its opening hand from the top of the deck (cards secret to that seat)."""

    seat: int
    count: int
    cards: tuple[str, ...] | None = None


class BonusRowRevealed(msgspec.Struct, tag=True, tag_field="type", kw_only=True, frozen=True):
    """The opening row of face-up bonus cards, from the top of the bonus deck."""

    cards: tuple[str, ...]


class FirstPlayerDrawn(msgspec.Struct, tag=True, tag_field="type", kw_only=True, frozen=True):
    """The first player, drawn at random."""

    seat: int


class TurnStarted(msgspec.Struct, tag=True, tag_field="type", kw_only=True, frozen=True):
    seat: int


class CardDrawn(msgspec.Struct, tag=True, tag_field="type", kw_only=True, frozen=True):
    """A card drawn into a hand: from the deck (card secret to the drawer) or the centre (public)."""

    seat: int
    source: Literal["deck", "centre"]
    card: str | None = None


class CardsPlaced(msgspec.Struct, tag=True, tag_field="type", kw_only=True, frozen=True):
    """One hand card went to the centre and another to the seat's personal area, both face up."""

    seat: int
    centre: str
    personal: str


class BonusTaken(msgspec.Struct, tag=True, tag_field="type", kw_only=True, frozen=True):
    seat: int
    card: str


class BonusRevealed(msgspec.Struct, tag=True, tag_field="type", kw_only=True, frozen=True):
    """The top bonus card was turned face up to refill the row."""

    card: str


class GameEnded(msgspec.Struct, tag=True, tag_field="type", kw_only=True, frozen=True):
    """Every personal area is full; ``scores`` by seat (details in the outcome)."""

    scores: tuple[int, ...] = ()


Event = (
    DeckShuffled
    | BonusDeckShuffled
    | CardsDealt
    | BonusRowRevealed
    | FirstPlayerDrawn
    | TurnStarted
    | CardDrawn
    | CardsPlaced
    | BonusTaken
    | BonusRevealed
    | GameEnded
)
