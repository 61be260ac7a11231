"""The outcome: the first to travel to the centre country (or to hold 4 postcards) wins.

Scores are the countries each seat travelled to; the winner is placed first, the others by
their countries travelled (seats that tie share a place).
"""

from __future__ import annotations

from domain.engine import Outcome, Viewer, places_from_keys
from domain.itchy_feet.state import State


class ItchyOutcome(Outcome, tag="itchy-feet", kw_only=True):
    winner: int
    won_by: str  # "centre" or "postcards"
    travelled: list[list[str]]  # by seat, in the order travelled


def standing(state: State, viewer: Viewer) -> list[int | None]:
    """The countries each seat has travelled to (public), as the game would place them if it ended now."""
    return [len(t) for t in state.travelled]


def outcome(state: State) -> ItchyOutcome | None:
    if state.phase != "over" or state.winner is None:
        return None
    scores = [len(t) for t in state.travelled]
    places = places_from_keys([(int(seat == state.winner), scores[seat]) for seat in range(state.players)])
    return ItchyOutcome(
        scores=scores,
        places=places,
        winners=[state.winner],
        winner=state.winner,
        won_by=state.won_by,
        travelled=[list(t) for t in state.travelled],
    )
