"""The facts of a game. Secret fields default to None: their public form leaves them out.

Visibility of each event type is declared in ``views.REDACTIONS``.
"""

from __future__ import annotations

import msgspec


class FirstPlayerCardGiven(msgspec.Struct, tag=True, tag_field="type", kw_only=True, frozen=True):
    """The first player, drawn at random; they keep the 1st player card all game."""

    seat: int


class RatingPlaced(msgspec.Struct, frozen=True, kw_only=True):
    region: str
    token: str
    price: int


class RatingTokensPlaced(msgspec.Struct, tag=True, tag_field="type", kw_only=True, frozen=True):
    """The rating tokens, shuffled, one face up on each region (every region, board order)."""

    ratings: tuple[RatingPlaced, ...]


class ColourChosen(msgspec.Struct, tag=True, tag_field="type", kw_only=True, frozen=True):
    seat: int
    colour: str


class DrawPileShuffled(msgspec.Struct, tag=True, tag_field="type", kw_only=True, frozen=True):
    """A seat's cards were shuffled into its new draw pile: its 10 Backpacks at setup, later its
    discard pile. ``order`` (top first) is secret from every seat."""

    seat: int
    count: int
    order: tuple[str, ...] | None = None


class HandDrawn(msgspec.Struct, tag=True, tag_field="type", kw_only=True, frozen=True):
    """Cards from the top of a seat's draw pile into its hand (cards secret to that seat)."""

    seat: int
    count: int
    cards: tuple[str, ...] | None = None


class NeutralCubesPlaced(msgspec.Struct, tag=True, tag_field="type", kw_only=True, frozen=True):
    """Two players: a neutral cube on each region of neither player's colour, nor grey nor orange."""

    regions: tuple[str, ...]


class TouristPlaced(msgspec.Struct, tag=True, tag_field="type", kw_only=True, frozen=True):
    seat: int
    region: str


class TurnPassedTo(msgspec.Struct, tag=True, tag_field="type", kw_only=True, frozen=True):
    """A seat's turn began."""

    seat: int


class CardBought(msgspec.Struct, tag=True, tag_field="type", kw_only=True, frozen=True):
    """The top card of a board pile went to the seat's discard pile; ``price`` joins the turn's cost."""

    seat: int
    pile: str
    card: str
    price: int


class TouristMoved(msgspec.Struct, tag=True, tag_field="type", kw_only=True, frozen=True):
    seat: int
    origin: str
    to: str
    cost: int


class PlaneFlown(msgspec.Struct, tag=True, tag_field="type", kw_only=True, frozen=True):
    """A Plane card played face up from the hand to the discard pile; the tourist flew."""

    seat: int
    card: str
    origin: str
    to: str


class PhotoBought(msgspec.Struct, tag=True, tag_field="type", kw_only=True, frozen=True):
    """A region's photo went to the seat's discard pile, ``price`` joined the turn's cost, the
    seat scored ``price`` points and placed one cube in the region."""

    seat: int
    region: str
    card: str
    price: int


class LastCubePlaced(msgspec.Struct, tag=True, tag_field="type", kw_only=True, frozen=True):
    """A seat placed its last cube: the round is finished, then the game ends."""

    seat: int


class HandDiscarded(msgspec.Struct, tag=True, tag_field="type", kw_only=True, frozen=True):
    """The end of a turn: ``paid`` EUR paid with no change, and the whole hand laid face up on the
    discard pile (public, by our ruling on the discard pile)."""

    seat: int
    paid: int
    cards: tuple[str, ...]


class FinalScoresCounted(msgspec.Struct, tag=True, tag_field="type", kw_only=True, frozen=True):
    """The game is over; ``scores`` by seat, colour sets included (details in the outcome)."""

    scores: tuple[int, ...] = ()


Event = (
    FirstPlayerCardGiven
    | RatingTokensPlaced
    | ColourChosen
    | DrawPileShuffled
    | HandDrawn
    | NeutralCubesPlaced
    | TouristPlaced
    | TurnPassedTo
    | CardBought
    | TouristMoved
    | PlaneFlown
    | PhotoBought
    | LastCubePlaced
    | HandDiscarded
    | FinalScoresCounted
)
