"""Twin games: two logs identical but for cards one viewer may not see.

The noninterference test of hidden information (the leak oracle in the suite, ``ludoteca audit``
against a deployment): a random game is played from chosen seeds, the strings its log hides from
one viewer are found (everything the viewer is entitled to receive leaves them out), one pile of
them that chance dealt together is permuted, and everything the viewer receives from the two
games must then be byte for byte the same. Pure functions over the domain: no I/O.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import msgspec

from domain.chat import Say
from domain.engine import AnyGame, Ctx, Viewer
from domain.fair import CardsOpened
from domain.table import (
    Table,
    chance,
    decide,
    event_union,
    evolve,
    fold,
    open_table,
    openings_shown,
    status,
    take_seat,
)
from projections.views import feed, is_revealed, listed_commands, move_step, table_view


def played(
    game: AnyGame,
    players: int,
    rng: random.Random,
    steps: int,
    options: dict[str, Any] | None = None,
    most_events: int = 3_000,
    now_ms: int = 0,
    chat_every: int = 0,
) -> list[Any]:
    """The stored log of a random game dealt from chosen seeds: the table's seed and each seat's
    entropy drawn from ``rng``, then ``steps`` random legal commands at most (cut at ``most_events``),
    with every fair-play fact, as the server deals and writes them; every step at ``now_ms`` on the
    shared clock (the windows it opens run from then). With ``chat_every``: a seat says something
    after every so many steps, to the table or on a private line, each message's words its own."""
    log: list[Any] = [open_table(game, players, options or {}, seed=rng.randbytes(32).hex())]
    table = evolve(game, None, log[0])
    for _ in range(players):
        entropy = rng.randbytes(16).hex()
        dealt = chance(table, entropy)
        assert dealt is not None
        for event in take_seat(game, table, None, "", None, Ctx(rng=dealt, now_ms=now_ms), entropy=entropy):
            log.append(event)
            table = evolve(game, table, event)
    for _ in range(steps):
        if status(game, table) != "active" or len(log) >= most_events:
            break
        seat, command = next(
            (s, c) for s in range(players) if (c := game.random_command(table.state, s, rng)) is not None
        )
        drawn = chance(table)
        assert drawn is not None
        for event in decide(game, table, command, seat, Ctx(rng=drawn, now_ms=now_ms)):
            log.append(event)
            table = evolve(game, table, event)
        if chat_every and len(log) % chat_every == 0 and status(game, table) == "active":
            speaker = rng.randrange(players)
            to = rng.choice([None, *(s for s in range(players) if s != speaker)])
            said = Say(text=f"message {len(log)} from {speaker} to {to}", to=to)
            for event in decide(game, table, said, speaker, Ctx(rng=random.Random(0), now_ms=now_ms)):
                log.append(event)
                table = evolve(game, table, event)
    return log


def tables(game: AnyGame, log: list[Any]) -> Iterator[Table]:
    """The table after each event of ``log``."""
    table = None
    for event in log:
        table = evolve(game, table, event)
        yield table


def strings_of(value: Any, keys: bool = False) -> set[str]:
    """Every string in a value (and its mappings' keys, with ``keys``)."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        found = set(value) if keys else set()
        return found.union(*(strings_of(v, keys) for v in value.values()))
    if isinstance(value, list | tuple):
        return set().union(*(strings_of(v, keys) for v in value)) if value else set()
    return set()


def lists_of(value: Any) -> list[list[Any]]:
    """Every list inside a value: the piles, hands and orders an event names."""
    if isinstance(value, dict):
        return [found for v in value.values() for found in lists_of(v)]
    if isinstance(value, list | tuple):
        return [list(value), *(found for v in value for found in lists_of(v))]
    return []


def entitled(game: AnyGame, log: list[Any], viewer: Viewer) -> list[Any]:
    """What ``viewer`` is entitled to receive of this log: its feed, its view at every version, and
    at the end its complete commands and the step after each first pick (what the rules accept is
    no secret)."""
    history = list(tables(game, log))
    final = history[-1]
    parts: list[Any] = [feed(game, enumerate(log, 1), viewer, is_revealed(game, final), final)]
    parts += [table_view(game, "g", table, viewer) for table in history]
    if viewer is not None and status(game, final) == "active":
        first = move_step(game, final, viewer)
        parts += [first, listed_commands(game, final, viewer, first)]
        parts += [move_step(game, final, viewer, (option.pick,)) for option in first.options]
    return parts


def whole(game: AnyGame, log: list[Any]) -> list[Any]:
    """``log`` with each opening's salt and path written out (the stored facts leave them to be
    made when shown), as a log written before that kept them."""
    final = fold(game, None, log)
    if final is None:
        return log
    return [openings_shown(final, event) if type(event) is CardsOpened else event for event in log]


def hidden_from(game: AnyGame, log: list[Any], viewer: Viewer) -> set[str]:
    """The strings of ``log`` (every opening's salt and path among them) that nothing ``viewer`` is
    entitled to receive contains (a field's name counts as received: a card named like one is no
    secret)."""
    shown = strings_of(msgspec.to_builtins(entitled(game, log, viewer)), keys=True)
    return strings_of(msgspec.to_builtins(whole(game, log))) - shown


def interchangeable(log: list[Any], hidden: list[str]) -> list[list[str]]:
    """Groups of hidden strings that one event lists together (a shuffled pile, a dealt hand):
    cards that chance could have put in each other's place. Swapping across groups (a set-aside
    passport for a card in the deck) would build a world no game can reach."""
    secret = set(hidden)
    groups = []
    for event in msgspec.to_builtins(log):
        for found in lists_of(event):
            group = sorted({s for s in found if isinstance(s, str) and s in secret})
            if len(group) >= 2:
                groups.append(group)
    return groups


def swap(game: AnyGame, log: list[Any], renamed: dict[str, str]) -> list[Any]:
    """The log with hidden strings renamed (a permutation of one pile's hidden cards). Its openings
    keep the salts and paths of ``log``'s commitments: made again from the renamed items, the
    paths would differ by the hashes of cards the viewer may not see, which their secret salts
    hide (docs/fair-play.md), not by anything it could read."""
    log = whole(game, log)
    kind = event_union(game)

    def swapped(value: Any) -> Any:
        if isinstance(value, str):
            return renamed.get(value, value)
        if isinstance(value, dict):
            return {k: swapped(v) for k, v in value.items()}
        if isinstance(value, list | tuple):
            return [swapped(v) for v in value]
        return value

    return [msgspec.convert(swapped(msgspec.to_builtins(e)), kind) for e in log]


def twin(game: AnyGame, log: list[Any], viewer: Viewer, rng: random.Random) -> tuple[list[Any], list[str]] | None:
    """A twin of ``log`` for ``viewer``: one pile of cards hidden from it permuted (so that some card
    moves), and that pile; ``None`` when nothing hidden from it was dealt together."""
    groups = interchangeable(log, sorted(hidden_from(game, log, viewer)))
    if not groups:
        return None
    group = rng.choice(groups)
    shuffled = rng.sample(group, len(group))
    while shuffled == group:
        shuffled = rng.sample(group, len(group))
    return swap(game, log, dict(zip(group, shuffled, strict=True))), group
