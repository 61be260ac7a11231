"""Final score and the outcome (rulebook, "Final Score"; rulings in docs/games/i-love-portugal.md).

The points scored with photos during the game, plus 10 points for every 3 Photo cards of one
colour (2 for grey) among all the player's cards: hand, draw pile and discard pile. Only Photo
cards count towards sets (our ruling). A tie goes to the tied player latest in turn order.
"""

from __future__ import annotations

import msgspec

from domain.engine import Outcome, places_from_keys
from domain.i_love_portugal.cards import CARDS, SET_POINTS, set_size
from domain.i_love_portugal.state import State, order_from_first


class ColourSets(msgspec.Struct, kw_only=True):
    colour: str
    cards: list[str]  # the player's Photo cards of this colour
    sets: int
    points: int


class PortugalSeatScore(msgspec.Struct, kw_only=True):
    seat: int
    points: int  # the final score
    photo_points: int  # scored during the game, when buying photos
    set_points: int
    colours: list[ColourSets]  # every colour the player holds photos of
    turn_position: int  # 0 for the first player: the tie-breaker (later wins)

    def tie_key(self) -> tuple[int, int]:
        return (self.points, self.turn_position)


class PortugalOutcome(Outcome, tag="i-love-portugal", kw_only=True):
    breakdown: list[PortugalSeatScore]


def colour_sets(cards: list[str]) -> list[ColourSets]:
    """Sets of Photo cards of one colour: 3 of a colour, or 2 grey, score 10 points each."""
    by_colour: dict[str, list[str]] = {}
    for card in cards:
        info = CARDS[card]
        if info.kind == "photo" and info.colour is not None:
            by_colour.setdefault(info.colour, []).append(card)
    out = []
    for colour, members in sorted(by_colour.items()):
        sets = len(members) // set_size(colour)
        out.append(ColourSets(colour=colour, cards=sorted(members), sets=sets, points=sets * SET_POINTS))
    return out


def final_scores(state: State) -> list[PortugalSeatScore]:
    order = order_from_first(state)
    scores = []
    for seat in range(state.players):
        colours = colour_sets([*state.hands[seat], *state.draw[seat], *state.discards[seat]])
        bonus = sum(c.points for c in colours)
        scores.append(
            PortugalSeatScore(
                seat=seat,
                points=state.scores[seat] + bonus,
                photo_points=state.scores[seat],
                set_points=bonus,
                colours=colours,
                turn_position=order.index(seat),
            )
        )
    return scores


def outcome(state: State) -> PortugalOutcome | None:
    if state.phase != "over":
        return None
    breakdown = final_scores(state)
    places = places_from_keys([s.tie_key() for s in breakdown])
    return PortugalOutcome(
        scores=[s.points for s in breakdown],
        places=places,
        winners=[seat for seat, place in enumerate(places) if place == 1],
        breakdown=breakdown,
    )
