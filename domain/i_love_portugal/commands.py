"""What a seat may ask for. Setup: ChooseColour, then PlaceTourist. A turn: any number of
BuyCard, MoveTourist, FlyTo and BuyPhoto steps, each paid from the hand's running total, then
EndTurnAndDraw."""

from __future__ import annotations

from typing import Literal

from domain import messages


class ChooseColour(messages.Command):
    """Setup, in turn order from the first player: take a colour and its 10 Backpack cards."""

    colour: str


class PlaceTourist(messages.Command):
    """Setup, in reverse turn order: put your tourist on the black circle of a free starting region."""

    region: str


class BuyCard(messages.Command):
    """Buy the top card of a pile on the board; it goes to your discard pile."""

    pile: Literal["selfie", "album", "plane"]


class MoveTourist(messages.Command):
    """Move your tourist along one connection (land or sea) to a neighbouring circle, for 1 EUR."""

    to: str


class FlyTo(messages.Command):
    """Play a Plane card from your hand (instead of spending it) to jump to an airport."""

    airport: str


class BuyPhoto(messages.Command):
    """On a region's black circle: buy its photo for the rating's price, score it, place a cube."""


class EndTurnAndDraw(messages.Command):
    """Pay for the turn, discard your whole hand and draw 5 cards. Always allowed on your turn."""


Command = ChooseColour | PlaceTourist | BuyCard | MoveTourist | FlyTo | BuyPhoto | EndTurnAndDraw
