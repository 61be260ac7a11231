"""Scoring and the outcome (rulebook, "Scores"; our rulings are in docs/games/vilar-de-mouros.md).

Every game card in a player's hand and personal area joins each collection it belongs to:
its year, and each of its categories. A collection of 3+ cards scores its cows, doubled
by a bonus card for it (bonuses do not stack); 1-2 cards score face value only with such a
bonus card; other cards score nothing.
"""

from __future__ import annotations

import msgspec

from domain.engine import FULL, Outcome, Viewer, places_from_keys
from domain.vilar_de_mouros.cards import BONUS_CARDS, FIRST_EDITIONS, GAME_CARDS, GameCard
from domain.vilar_de_mouros.state import State

COMPLETE = 3


class CollectionScore(msgspec.Struct, kw_only=True):
    target: str  # a year ("1982") or a category ("village", "poster", "stage")
    cards: list[str]
    cows: int
    complete: bool  # 3 or more cards
    bonuses: list[str]  # bonus cards for this target (only one doubles)
    points: int


class SeatScore(msgspec.Struct, kw_only=True):
    seat: int
    points: int
    collections: list[CollectionScore]  # every collection that scored
    unused_bonuses: list[str]  # bonus cards whose target the player holds no card of
    remainder_cards: list[str]  # cards in no scoring collection (tie-breaker 1)
    remainder_points: int
    first_edition_cards: int  # cards of 1965/68 (tie-breaker 2)
    complete_collections: int  # tie-breaker 3

    def tie_key(self) -> tuple[int, int, int, int]:
        return (self.points, self.remainder_points, self.first_edition_cards, self.complete_collections)


class VilarOutcome(Outcome, tag="vilar-de-mouros", kw_only=True):
    breakdown: list[SeatScore]


def targets_of(card: GameCard) -> list[str]:
    return [str(card.year), *card.categories]


def score_cards(seat: int, cards: list[str]) -> SeatScore:
    """Score one player's cards (hand and personal area together)."""
    game = [GAME_CARDS[c] for c in cards if c in GAME_CARDS]
    bonuses = [BONUS_CARDS[c] for c in cards if c in BONUS_CARDS]
    groups: dict[str, list[GameCard]] = {}
    for card in game:
        for key in targets_of(card):
            groups.setdefault(key, []).append(card)
    scored: list[CollectionScore] = []
    counted: set[str] = set()
    for key, members in groups.items():
        boosts = [b.id for b in bonuses if b.target == key]
        cows = sum(c.cows for c in members)
        complete = len(members) >= COMPLETE
        if not complete and not boosts:
            continue
        points = cows * 2 if complete and boosts else cows
        scored.append(
            CollectionScore(
                target=key, cards=[c.id for c in members], cows=cows, complete=complete, bonuses=boosts, points=points
            )
        )
        counted.update(c.id for c in members)
    remainder = [c for c in game if c.id not in counted]
    return SeatScore(
        seat=seat,
        points=sum(s.points for s in scored),
        collections=scored,
        unused_bonuses=[b.id for b in bonuses if b.target not in groups],
        remainder_cards=[c.id for c in remainder],
        remainder_points=sum(c.cows for c in remainder),
        first_edition_cards=sum(1 for c in game if c.year in FIRST_EDITIONS),
        complete_collections=sum(1 for s in scored if s.complete),
    )


def score(state: State) -> list[SeatScore]:
    return [score_cards(seat, [*state.hands[seat], *state.personal[seat]]) for seat in range(state.players)]


def standing(state: State, viewer: Viewer) -> list[int | None]:
    """Each seat's points if the game ended now, where ``viewer`` may know them: a seat's hand is
    its own, so another seat's points are known only while its hand is empty."""
    return [
        score_cards(seat, [*hand, *personal]).points if viewer in (seat, FULL) or not hand else None
        for seat, (hand, personal) in enumerate(zip(state.hands, state.personal, strict=True))
    ]


def outcome(state: State) -> VilarOutcome | None:
    if state.phase != "over":
        return None
    breakdown = score(state)
    places = places_from_keys([s.tie_key() for s in breakdown])
    return VilarOutcome(
        scores=[s.points for s in breakdown],
        places=places,
        winners=[seat for seat, place in enumerate(places) if place == 1],
        breakdown=breakdown,
    )
