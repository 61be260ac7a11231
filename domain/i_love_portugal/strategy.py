"""What the bots are told of I Love Portugal (the contract: ``Strategy`` in domain/engine.py).

The plan: travel to regions whose photos you can still buy, buy them (their price is their
points), and collect photos of one colour, three at a time (two grey), for the sets. Looking
one command ahead, a move of the tourist costs a euro and scores nothing, so the points here
count what is under way besides the score the end would count:

- a set under way: each photo of a colour towards its next set, ``SET_SHARE`` of the set's
  points shared among the photos it needs;
- the next photo: the best region the tourist can still buy a photo in, for its price less
  ``STEP`` a move to get there; on the seat's own turn only if the hand still pays the way
  and the photo (``NOW``), else as a plan for a later turn (``LATER``);
- the deck: a euro more in the cards the seat owns (other than photos) is worth ``EURO``
  points, times the share of the seat's cubes still to place (more money, more photos per
  turn; fading cube by cube, so that placing the last cube, which ends the game, pays).
"""

from __future__ import annotations

import functools
from collections import Counter, deque

from domain.engine import Place, Strategy
from domain.i_love_portugal.cards import CARDS, NEIGHBOURS, RATING, REGION, REGIONS, SET_POINTS, cubes_for, set_size
from domain.i_love_portugal.scoring import final_scores
from domain.i_love_portugal.state import State, budget, free_spaces

SET_SHARE = 0.6  # of a set's points, shared among the photos it needs
STEP = 0.4  # points a move of the tourist costs the plan
NOW = 0.9  # of a photo's points, reachable and payable this turn
LATER = 0.5  # of a photo's points, for a later turn
EURO = 0.25  # points a euro of the deck is worth while cubes are left


def points(state: State) -> list[float]:
    scored = final_scores(state)
    return [float(scored[s].points) + under_way(state, s) for s in range(state.players)]


def under_way(state: State, seat: int) -> float:
    if state.phase != "turn" or state.tourists[seat] is None:
        return 0.0
    owned = [*state.hands[seat], *state.draw[seat], *state.discards[seat]]
    colours = Counter(colour for c in owned if CARDS[c].kind == "photo" and (colour := CARDS[c].colour) is not None)
    total: float = sum(
        SET_SHARE * SET_POINTS * (n % set_size(colour)) / set_size(colour) for colour, n in colours.items()
    )
    if state.cubes_left[seat] > 0:  # the deck's worth fades cube by cube: the last photo is worth buying
        left = state.cubes_left[seat] / cubes_for(state.players)
        total += EURO * left * sum(CARDS[c].value for c in owned if CARDS[c].kind != "photo")
        total += next_photo(state, seat)
    return total


def next_photo(state: State, seat: int) -> float:
    """The best photo still to buy, less the way there (on the seat's turn, only one it can pay now)."""
    away = distances(state.tourists[seat] or "")
    mine = state.current == seat
    money = budget(state, seat) - state.spent if mine else 0
    best = 0.0
    for index, region in enumerate(REGIONS):
        if seat in state.cubes[index] or free_spaces(state, index) <= 0 or region not in away:
            continue
        price = RATING[state.ratings[index]].price if state.ratings else 0
        steps = away[region]
        if mine and steps + price <= money:
            best = max(best, NOW * price - STEP * steps)
        else:
            best = max(best, LATER * price - STEP * steps)
    return best


@functools.lru_cache(maxsize=256)
def distances(start: str) -> dict[str, int]:
    """Moves from ``start`` to every region's black circle (land and sea alike)."""
    seen = {start: 0}
    queue = deque([start])
    while queue:
        circle = queue.popleft()
        for n in NEIGHBOURS[circle]:
            if n not in seen:
                seen[n] = seen[circle] + 1
                queue.append(n)
    return {c: d for c, d in seen.items() if c in REGION}


def pool(place: Place, card: str) -> str:
    """A player's hand and draw pile are one pool (the draw pile is shuffled, the hand drawn from
    it); a pile of the board holds its own cards."""
    if place[0] in ("hands", "draw"):
        return f"seat-{place[1]}"
    return card.split("-")[0]


# The search does not beat greedy here (at level 1 it won 25% against casual on the ladder; a whole
# turn planned ahead ties greedy at best: docs/bots.md), so the levels above casual do not search.
STRATEGY = Strategy(points=points, pool=pool, spread=15.0, beats_greedy=None)
