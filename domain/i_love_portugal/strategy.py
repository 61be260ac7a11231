"""What the bots are told of I Love Portugal (the contract: ``Strategy`` in domain/engine.py)."""

from __future__ import annotations

from domain.engine import Place, Strategy
from domain.i_love_portugal.scoring import final_scores
from domain.i_love_portugal.state import State


def points(state: State) -> list[float]:
    return [float(s.points) for s in final_scores(state)]


def pool(place: Place, card: str) -> str:
    """A player's hand and draw pile are one pool (the draw pile is shuffled, the hand drawn from
    it); a pile of the board holds its own cards."""
    if place[0] in ("hands", "draw"):
        return f"seat-{place[1]}"
    return card.split("-")[0]


STRATEGY = Strategy(points=points, pool=pool, spread=15.0)
