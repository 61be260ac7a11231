"""The facts of a game. Secret fields default to None: their public form leaves them out.

Visibility of each event type is declared in ``views.REDACTIONS``.
"""

from __future__ import annotations

from typing import Literal

from domain import messages


class DeckShuffled(messages.Event):
    """The game cards were shuffled; ``order`` is top first (secret from every seat)."""

    count: int
    order: tuple[str, ...] | None = None


class BonusDeckShuffled(messages.Event):
    """The bonus cards were shuffled; ``order`` is top first (secret from every seat)."""

    count: int
    order: tuple[str, ...] | None = None


class CardsDealt(messages.Event):
    """A seat was dealt its opening hand from the top of the deck (cards secret to that seat)."""

    seat: int
    count: int
    cards: tuple[str, ...] | None = None


class BonusRowRevealed(messages.Event):
    """The opening row of face-up bonus cards, from the top of the bonus deck."""

    cards: tuple[str, ...]


class FirstPlayerDrawn(messages.Event):
    """The first player, drawn at random."""

    seat: int


class TurnStarted(messages.Event):
    seat: int


class CardDrawn(messages.Event):
    """A card drawn into a hand: from the deck (card secret to the drawer) or the centre (public)."""

    seat: int
    source: Literal["deck", "centre"]
    card: str | None = None


class CardsPlaced(messages.Event):
    """One hand card went to the centre and another to the seat's personal area, both face up."""

    seat: int
    centre: str
    personal: str


class BonusTaken(messages.Event):
    seat: int
    card: str


class BonusRevealed(messages.Event):
    """The top bonus card was turned face up to refill the row."""

    card: str


class GameEnded(messages.Event):
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
