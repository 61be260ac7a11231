"""What a seat may ask for. A turn is either two draws and one PlaceCards, or one TakeBonus."""

from __future__ import annotations

from domain import messages


class DrawFromDeck(messages.Command):
    """Draw the top card of the face-down deck into your hand."""


class DrawFromCentre(messages.Command):
    """Draw one face-up card from the centre of the table into your hand."""

    card: str


class PlaceCards(messages.Command):
    """After drawing two cards: one hand card to the centre, another to your personal area."""

    centre: str
    personal: str


class TakeBonus(messages.Command):
    """Instead of drawing: take one face-up bonus card into your personal area."""

    card: str


Command = DrawFromDeck | DrawFromCentre | PlaceCards | TakeBonus
