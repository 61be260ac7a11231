"""The facts of a game. Secret fields default to None: their public form leaves them out.

Visibility of each event type is declared in ``views.REDACTIONS``.
"""

from __future__ import annotations

import msgspec

from domain import messages


class FirstPlayerCardGiven(messages.Event):
    """The first player, drawn at random; they keep the 1st player card all game."""

    seat: int


class RatingPlaced(msgspec.Struct, frozen=True, kw_only=True):
    region: str
    token: str
    price: int


class RatingTokensPlaced(messages.Event):
    """The rating tokens, shuffled, one face up on each region (every region, board order)."""

    ratings: tuple[RatingPlaced, ...]


class ColourChosen(messages.Event):
    seat: int
    colour: str


class DrawPileShuffled(messages.Event):
    """A seat's cards were shuffled into its new draw pile: its 10 Backpacks at setup, later its
    discard pile. ``order`` (top first) is secret from every seat."""

    seat: int
    count: int
    order: tuple[str, ...] | None = None


class HandDrawn(messages.Event):
    """Cards from the top of a seat's draw pile into its hand (cards secret to that seat)."""

    seat: int
    count: int
    cards: tuple[str, ...] | None = None


class NeutralCubesPlaced(messages.Event):
    """Two players: a neutral cube on each region of neither player's colour, nor grey nor orange."""

    regions: tuple[str, ...]


class TouristPlaced(messages.Event):
    seat: int
    region: str


class TurnPassedTo(messages.Event):
    """A seat's turn began."""

    seat: int


class CardBought(messages.Event):
    """The top card of a board pile went to the seat's discard pile; ``price`` joins the turn's cost."""

    seat: int
    pile: str
    card: str
    price: int


class TouristMoved(messages.Event):
    seat: int
    origin: str
    to: str
    cost: int


class PlaneFlown(messages.Event):
    """A Plane card played face up from the hand to the discard pile; the tourist flew."""

    seat: int
    card: str
    origin: str
    to: str


class PhotoBought(messages.Event):
    """A region's photo went to the seat's discard pile, ``price`` joined the turn's cost, the
    seat scored ``price`` points and placed one cube in the region."""

    seat: int
    region: str
    card: str
    price: int


class LastCubePlaced(messages.Event):
    """A seat placed its last cube: the round is finished, then the game ends."""

    seat: int


class PhotosStopped(messages.Event):
    """No photo was bought in ``rounds`` whole rounds: the game ends with this round (a ruling of
    ours, rules 3), its final scores counted next."""

    rounds: int


class HandDiscarded(messages.Event):
    """The end of a turn: ``paid`` EUR paid with no change, and the whole hand laid face up on the
    discard pile (public, by our ruling on the discard pile)."""

    seat: int
    paid: int
    cards: tuple[str, ...]


class FinalScoresCounted(messages.Event):
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
    | PhotosStopped
    | HandDiscarded
    | FinalScoresCounted
)
