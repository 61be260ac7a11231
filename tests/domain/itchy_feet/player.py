"""A test player that builds every move pick by pick among the options offered, leaning towards
the end of the game: uniformly random moves almost never end one (a trade asks for kinds at
random, a recycle pays a needed object), so the random games of the tests play like this.

It sees only what its seat sees (its hand, the discard pile, its next country) and works on plain
data, so the domain tests and the API bot (tests/server/itchy_bot.py) share it:

- the type: ``Travel`` whenever offered; a forbidden object's ``DitchForbidden`` / ``Smuggle`` most
  of the time; ``AcceptTrade`` and ``PassReaction`` mostly; otherwise weighted, ``Draw`` first,
  but trades and steals once its hand is full and the deck all but empty;
- cards that leave the hand (paid, given, discarded, swapped): spare ones first, that is not an
  object of the next country, not the only passport, not a stand-in or a postcard;
- cards and kinds it gets (taken from the discard pile, asked for): wanted ones first;
- it stops a tuple field early (one or two cards given, one kind asked) most of the time.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from domain.itchy_feet.cards import CARDS, COUNTRIES, HAND_LIMIT

ACTION_WEIGHTS = {
    "Draw": 4.0,
    "Recycle": 0.3,  # 3 when a wanted card lies in the discard pile
    "OfferTrade": 0.6,
    "Steal": 0.6,
    "PlaySpecial": 1.0,
    "DitchForbidden": 8.0,
    "Smuggle": 8.0,
}

# With five or six players the 32 objects fit in the hands (seven each): the deck runs down to a
# card or two and a draw is discarded again at once. Then the player trades and steals instead.
LOW_DECK = 4
LOW_DECK_WEIGHTS = {"Draw": 1.0, "OfferTrade": 4.0, "Steal": 4.0}


@dataclass(frozen=True)
class Seen:
    """What the seat knows that the player leans on."""

    hand: tuple[str, ...]
    discard: tuple[str, ...]
    country: str | None  # the next country to travel to
    postcards: bool = False  # the postcards expansion is in play
    deck: int = 99  # cards left in the deck (public)

    @property
    def wanted(self) -> set[str]:
        kinds = set(COUNTRIES[self.country].requires) if self.country else set()
        if not any(CARDS[c].type == "passport" for c in self.hand):
            kinds.add("passport")
        if self.postcards:
            kinds.add("postcard")
        return kinds

    def spare(self, card: str) -> bool:
        """A card this seat can do without."""
        info = CARDS[card]
        if info.type == "passport":
            return sum(CARDS[c].type == "passport" for c in self.hand) > 1
        return info.kind not in self.wanted and info.effect not in ("wild_object", "visa")


def choose(
    options: Sequence[tuple[str, object]],
    can_send: bool,
    picked: Sequence[tuple[str, object]],
    seen: Seen,
    rng: random.Random,
) -> int | None:
    """The index of the option to pick next, or ``None`` to send the command the picks make."""
    if not options:
        return None
    if not picked:
        return _type(options, seen, rng)
    move = str(picked[0][1])
    made = [field for field, _ in picked]
    if can_send and rng.random() < (0.8 if "ask" in made else 0.5):
        return None
    fields = {field for field, _ in options}
    if fields == {"give", "ask"} and rng.random() < 0.8:
        fields = {"ask"}  # one or two cards given is plenty
    pool = [i for i, (field, _) in enumerate(options) if field in fields]
    if rng.random() < 0.9:  # now and then anything offered
        leaning = [i for i in pool if _good(move, picked, *options[i], seen)]
        pool = leaning or pool
    return rng.choice(pool)


def _type(options: Sequence[tuple[str, object]], seen: Seen, rng: random.Random) -> int:
    names = [str(value) for _, value in options]
    for name, chance in (("Travel", 1.0), ("AcceptTrade", 0.9), ("PassReaction", 0.9)):
        if name in names and rng.random() < chance:
            return names.index(name)
    useful = any(CARDS[c].kind in seen.wanted and CARDS[c].type != "event" for c in seen.discard)
    weights = [3.0 if n == "Recycle" and useful else ACTION_WEIGHTS.get(n, 1.0) for n in names]
    if seen.deck < LOW_DECK and len(seen.hand) >= HAND_LIMIT:  # a draw only goes round: trade, steal
        weights = [LOW_DECK_WEIGHTS.get(n, w) for n, w in zip(names, weights, strict=True)]
    return rng.choices(range(len(names)), weights)[0]


def _good(move: str, picked: Sequence[tuple[str, object]], field: str, value: object, seen: Seen) -> bool:
    """Whether this option is one the player leans to: spare cards leave, wanted ones arrive."""
    if field == "ask":
        return str(value) in seen.wanted
    if field == "take":
        return CARDS[str(value)].kind in seen.wanted
    if field in ("pay", "give", "other") or (move == "DiscardDownToSeven" and field == "card"):
        return seen.spare(str(value))
    if move == "PlaySpecial" and field == "cards":
        special = str(dict(picked)["card"])
        if CARDS[special].effect == "take_from_discard":
            return CARDS[str(value)].kind in seen.wanted
        return seen.spare(str(value))
    return True
