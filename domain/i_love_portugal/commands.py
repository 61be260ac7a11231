"""What a seat may ask for. Setup: ChooseColour, then PlaceTourist. A turn: any number of
BuyCard, MoveTourist, FlyTo and BuyPhoto steps, each paid from the hand's running total, then
EndTurnAndDraw."""

from __future__ import annotations

from typing import Literal

import msgspec


class ChooseColour(msgspec.Struct, tag=True, tag_field="type", kw_only=True, frozen=True):
    """Setup, in turn order from the first player: take a colour and its 10 Backpack cards."""

    colour: str


class PlaceTourist(msgspec.Struct, tag=True, tag_field="type", kw_only=True, frozen=True):
    """Setup, in reverse turn order: put your tourist on the black circle of a free starting region."""

    region: str


class BuyCard(msgspec.Struct, tag=True, tag_field="type", kw_only=True, frozen=True):
    """Buy the top card of a pile on the board; it goes to your discard pile."""

    pile: Literal["selfie", "album", "plane"]


class MoveTourist(msgspec.Struct, tag=True, tag_field="type", kw_only=True, frozen=True):
    """Move your tourist along one connection (land or sea) to a neighbouring circle, for 1 EUR."""

    to: str


class FlyTo(msgspec.Struct, tag=True, tag_field="type", kw_only=True, frozen=True):
    """Play a Plane card from your hand (instead of spending it) to jump to an airport."""

    airport: str


class BuyPhoto(msgspec.Struct, tag=True, tag_field="type", kw_only=True, frozen=True):
    """On a region's black circle: buy its photo for the rating's price, score it, place a cube."""


class EndTurnAndDraw(msgspec.Struct, tag=True, tag_field="type", kw_only=True, frozen=True):
    """Pay for the turn, discard your whole hand and draw 5 cards. Always allowed on your turn."""


Command = ChooseColour | PlaceTourist | BuyCard | MoveTourist | FlyTo | BuyPhoto | EndTurnAndDraw
