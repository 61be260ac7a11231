"""What a viewer may see: ``view`` of a state and ``redact`` of one event.

A seat sees the public table and its own hand; the spectator sees the public table; ``FULL``
sees everything, draw-pile orders included. Once the game is over every viewer sees
everything. Public: the board, tourists, cubes, scores, the size of every pile, and every
discard pile whole (our ruling: the discard pile is face up). Event visibility is declared per
type in ``REDACTIONS``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from functools import lru_cache
from typing import Any

import msgspec

from domain.engine import FULL, Awaited, Viewer
from domain.i_love_portugal.cards import CARDS, PILE_KINDS, RATING, REGION, REGIONS, hand_value
from domain.i_love_portugal.events import DrawPileShuffled, Event, HandDrawn
from domain.i_love_portugal.rules import awaited
from domain.i_love_portugal.state import State, pile_price
from domain.visibility import Rule, redactor, secret, seen_by


class PortugalRegionView(msgspec.Struct, kw_only=True):
    region: str
    colour: str
    rating: str | None  # the rating token, None before setup
    price: int | None  # its photo's price and points
    spaces: int  # usable cube spaces (a neutral cube takes one)
    neutral: bool  # two players: a neutral cube holds a space
    cubes: list[int]  # seats with a cube here, in order placed
    photos_left: int


class PortugalPileView(msgspec.Struct, kw_only=True):
    pile: str
    price: int
    count: int


class PortugalSeatView(msgspec.Struct, kw_only=True):
    seat: int
    colour: str | None
    tourist: str | None  # the circle the tourist stands on
    score: int  # points scored so far (colour sets are added at the end)
    cubes_left: int
    hand_count: int
    hand: list[str] | None = None  # None when hidden from the viewer
    hand_value: int | None = None  # what the hand pays, for its seat only
    draw_count: int
    draw: list[str] | None = None  # top first; only for FULL and once the game is over
    discard: list[str]  # face up, bottom first
    photos: list[str]  # every photo bought, in order


class PortugalView(msgspec.Struct, kw_only=True, tag="i-love-portugal", tag_field="type"):
    players: int
    viewer: int | None
    phase: str
    turn: int | None  # the seat awaited (a setup choice or a turn)
    first_player: int | None
    awaiting: list[Awaited]
    turn_cost: int  # the running total of the turn under way, paid at its end
    final_round: bool  # someone has placed their last cube
    regions: list[PortugalRegionView]
    piles: list[PortugalPileView]
    photo_pile_count: int
    seats: list[PortugalSeatView]
    finished: bool


@lru_cache(maxsize=64)
def _photos_left(photo_pile: tuple[str, ...]) -> Counter[str | None]:
    """Photos left per region: the pile changes only when a photo is bought, and every view asks."""
    return Counter(CARDS[c].region for c in photo_pile)


def view(state: State, viewer: Viewer) -> PortugalView:
    everything = viewer == FULL or state.phase == "over"
    photos_left = _photos_left(state.photo_pile)
    regions = []
    for index, region in enumerate(REGIONS):
        token = state.ratings[index] if state.ratings else None
        regions.append(
            PortugalRegionView(
                region=region,
                colour=REGION[region].colour,
                rating=token,
                price=RATING[token].price if token is not None else None,
                spaces=state.capacity[index],
                neutral=region in state.neutral,
                cubes=list(state.cubes[index]),
                photos_left=photos_left[region],
            )
        )
    seats = []
    for seat in range(state.players):
        mine = everything or viewer == seat
        seats.append(
            PortugalSeatView(
                seat=seat,
                colour=state.colours[seat],
                tourist=state.tourists[seat],
                score=state.scores[seat],
                cubes_left=state.cubes_left[seat],
                hand_count=len(state.hands[seat]),
                hand=list(state.hands[seat]) if mine else None,
                hand_value=hand_value(state.hands[seat]) if mine else None,
                draw_count=len(state.draw[seat]),
                draw=list(state.draw[seat]) if everything else None,
                discard=list(state.discards[seat]),
                photos=list(state.photos[seat]),
            )
        )
    return PortugalView(
        players=state.players,
        viewer=viewer,
        phase=state.phase,
        turn=state.current,
        first_player=state.first,
        awaiting=awaited(state),
        turn_cost=state.spent,
        final_round=state.final_round,
        regions=regions,
        piles=[
            PortugalPileView(pile=kind, price=pile_price(state, kind), count=len(pile))
            for kind, pile in zip(PILE_KINDS, state.piles, strict=True)
        ],
        photo_pile_count=len(state.photo_pile),
        seats=seats,
        finished=state.phase == "over",
    )


# -- redaction: one entry per private event type; every other type is public ---------------


REDACTIONS: dict[type[Any], Rule] = {
    DrawPileShuffled: secret("order"),
    HandDrawn: seen_by("seat", hides=("cards",)),
}


redact: Callable[[Event, Viewer], Event | None] = redactor(REDACTIONS)
