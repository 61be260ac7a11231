"""Fair play at the table (domain/fair.py): the chance a step is decided with, and the facts that
seal a step once decided (commitments, openings, the seed at the end)."""

from __future__ import annotations

from typing import Any, NamedTuple

from domain import fair
from domain.engine import AnyGame, Rng
from domain.fair import SeedRevealed
from domain.table.evolve import evolve, fold
from domain.table.facts import TABLE_FACT_TYPES, SeatTaken
from domain.table.state import Table, status


class Decision(NamedTuple):
    """A step decided on a table: its events, and the table they lead to. Sealing a step folds
    it anyway (does it end the table?), so the server appends that table rather than fold again."""

    events: list[Any]
    after: Table


def decision_of(game: AnyGame, table: Table, events: list[Any]) -> Decision:
    """Events decided on ``table`` by other means, with the table they lead to."""
    after = fold(game, table, events)
    assert after is not None
    return Decision(events, after)


def chance(table: Table, entropy: str = "") -> Rng | None:
    """The chance of the next step decided on ``table``: from its key, or, while a seat is still
    free, from the key the seat sitting down with ``entropy`` completes (the setup draws in the
    same step). ``None`` for a table without a seed (opened before fair play): the caller lends
    one of its own then."""
    if table.seed is None:
        return None
    if table.key is not None:
        return fair.Chance(bytes.fromhex(table.key), table.version)
    entropies = list(table.entropies)
    free = [i for i, s in enumerate(table.seats) if s is None]
    if len(free) == 1:  # only the last seat's step draws: the setup
        entropies[free[0]] = entropy
    return fair.Chance(fair.table_key(table.seed, entropies), table.version)


def _is_table_fact(event: Any) -> bool:
    return type(event) in TABLE_FACT_TYPES


def sealed(game: AnyGame, table: Table, events: list[Any]) -> list[Any]:
    """A step's events decided on ``table``, with the fair-play facts they call for: a commitment
    after each value hidden from every seat, the openings of what a seat alone was shown, and
    the seed once the step ends the table. A table without a seed has none of them."""
    return sealed_decision(game, table, events).events


def sealed_decision(game: AnyGame, table: Table, events: list[Any]) -> Decision:
    """``sealed``, with the table the step leads to."""
    if table.seed is None or not events:
        return decision_of(game, table, events)
    key = _key_after(table, events)
    if key is not None:
        events = fair.seal(game.redact, table.players, key, table.version, table.commitments, events, _is_table_fact)
    decided = decision_of(game, table, events)  # a finished table decides nothing more: this step ends it, or none does
    if status(game, decided.after) == "finished":
        revealed = SeedRevealed(seed=table.seed)
        return Decision([*events, revealed], evolve(game, decided.after, revealed))
    return decided


def _key_after(table: Table, events: list[Any]) -> bytes | None:
    """The key a step is sealed with: the table's, or the one its last seat's entropy completes."""
    if table.key is not None:
        return bytes.fromhex(table.key)
    assert table.seed is not None
    entropies, free = list(table.entropies), {i for i, s in enumerate(table.seats) if s is None}
    for event in events:
        if isinstance(event, SeatTaken):
            entropies[event.seat] = event.entropy
            free.discard(event.seat)
    return None if free else fair.table_key(table.seed, entropies)
