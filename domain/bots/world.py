"""Imagined worlds: the real state with everything hidden from a seat dealt again at random.

A bot looks ahead with the game's full rules, which read the full state, so it never looks at
the real state: it looks at a *determinized* copy (Cowling, Powley and Whitehouse 2012). The
strings the seat can see are those of its own view and of its first step's options; every
other string in the state (other hands, the deck's order, face-down piles) is a hidden place.
The hidden cards are grouped by the game's ``Strategy.pool`` (an opponent's hand and draw pile
are one pool, the festival deck another), each group **sorted**, shuffled with the bot's rng
and dealt back into that group's places.

An imagined world therefore depends only on what the seat sees (its view, its options, and the
*set* of cards hidden from it, never where they are) and on the rng: two real states the seat
cannot tell apart give the same worlds (tests/domain/test_bots.py checks it as a property).
"""

from __future__ import annotations

from typing import Any

import msgspec

from domain.engine import AnyGame, Place, Rng, Seat, one_pool


def strings(value: Any, into: set[str]) -> None:
    """Every string in plain data (dicts, lists), into ``into``."""
    if isinstance(value, str):
        into.add(value)
    elif isinstance(value, dict):
        for v in value.values():
            strings(v, into)
    elif isinstance(value, list | tuple):
        for v in value:
            strings(v, into)


class Hidden:
    """What ``seat`` cannot see of ``state``, worked out once; ``world(rng)`` deals one imagined world."""

    def __init__(self, game: AnyGame, state: Any, seat: Seat) -> None:
        visible: set[str] = set()
        strings(msgspec.to_builtins(game.view(state, seat)), visible)
        for option in game.moves(state, seat, ()).options:
            strings(msgspec.to_builtins(option), visible)
        self.state = state
        self.plain = msgspec.json.decode(msgspec.json.encode(state))  # every tuple a list, to write into
        strategy = game.strategy
        pool = strategy.pool if strategy is not None else one_pool
        bounds = list(strategy.bounds(state)) if strategy is not None else []
        groups: dict[str, list[tuple[list[Any], int, frozenset[str] | None]]] = {}

        def bound(place: Place) -> frozenset[str] | None:
            return next((cards for path, cards in bounds if place[: len(path)] == path), None)

        def walk(value: Any, place: Place) -> None:
            if isinstance(value, dict):
                for key, v in value.items():
                    walk(v, (*place, key))
            elif isinstance(value, list):
                for i, v in enumerate(value):
                    if isinstance(v, str):
                        if v not in visible:
                            groups.setdefault(pool((*place, i), v), []).append((value, i, bound((*place, i))))
                    else:
                        walk(v, (*place, i))

        walk(self.plain, ())
        self.groups = [Group(spots) for _, spots in sorted(groups.items())]

    @property
    def nothing(self) -> bool:
        """Nothing is hidden from the seat: the real state is the only world."""
        return not self.groups

    def world(self, rng: Rng) -> Any:
        """One imagined world: each pool's cards shuffled into that pool's places."""
        if not self.groups:
            return self.state
        for group in self.groups:
            group.deal(rng)
        return msgspec.convert(self.plain, type(self.state))


class Group:
    """One pool's hidden places and the cards dealt among them; a place with a bound (the game's
    ``Strategy.bounds``) gets only a card of its set.

    Dealing is uniform over the deals that keep the bound (a game has one set per pool): the
    bounded places take a random draw of the cards they may hold, the other places the rest,
    shuffled. The cards are kept
    sorted, so a deal depends on the set of hidden cards and the rng, never on where they are."""

    def __init__(self, spots: list[tuple[list[Any], int, frozenset[str] | None]]) -> None:
        self.free = [(where, i) for where, i, allowed in spots if allowed is None]
        self.bounded = [(where, i, allowed) for where, i, allowed in spots if allowed is not None]
        self.cards = sorted(where[i] for where, i, _ in spots)

    def deal(self, rng: Rng) -> None:
        cards = list(self.cards)
        for where, i, allowed in self.bounded:  # each bounded place: any card left that it may hold
            fits = [k for k, card in enumerate(cards) if card in allowed] or list(range(len(cards)))
            where[i] = cards.pop(fits[rng.randrange(len(fits))])
        rng.shuffle(cards)
        for (where, i), card in zip(self.free, cards, strict=True):
            where[i] = card


def determinize(game: AnyGame, state: Any, seat: Seat, rng: Rng) -> Any:
    """One world ``seat`` cannot tell from ``state``, dealt with ``rng``."""
    return Hidden(game, state, seat).world(rng)


class SeededRng:
    """A small generator (splitmix64) for imagined worlds: the same seed, the same luck, so every
    command a bot tries meets the same draws. Domain code has no ``random`` of its own."""

    MASK = (1 << 64) - 1

    def __init__(self, seed: int) -> None:
        self.state = seed & self.MASK

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & self.MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & self.MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & self.MASK
        return z ^ (z >> 31)

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        if stop is None:
            start, stop = 0, start
        count = len(range(start, stop, step))
        if count <= 0:
            raise ValueError("empty range for randrange()")
        return start + step * (self.next() % count)

    def shuffle(self, x: list[Any]) -> None:
        for i in range(len(x) - 1, 0, -1):
            j = self.randrange(i + 1)
            x[i], x[j] = x[j], x[i]
