"""The fold of a stream: each stored fact, table or game, applied to the ``Table`` (evolve never
validates: what is stored was decided)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import msgspec

from domain import chat, clock, fair
from domain.cards import replaced
from domain.chat import CHAT_FACT_TYPES
from domain.engine import AnyGame
from domain.fair import CardsOpened, Commitment, DeckCommitted, SeedRevealed
from domain.table.facts import (
    TABLE_EVENTS,
    ClockTicked,
    RematchOpened,
    SeatOffered,
    SeatResigned,
    SeatTaken,
    SeatTakenOver,
    StepsUndone,
    TableCancelled,
    TableOpened,
    TimeExtended,
    TimeRanOut,
    Undoable,
)
from domain.table.state import Checkpoint, SeatInfo, Table, Tenure, default_name, outcome


def evolve(game: AnyGame, table: Table | None, event: Any) -> Table:
    """Apply one stored fact, table or game."""
    if table is None or type(event) is TableOpened:
        assert isinstance(event, TableOpened), "a stream starts with TableOpened"
        return _opened(game, event)
    kind = type(event)
    if kind in CHAT_FACT_TYPES:
        version = table.version + 1
        return msgspec.structs.replace(
            table, chat=chat.evolve(table.chat, event, version), chat_after=table.chat_after + 1, version=version
        )
    if table.chat_after:  # play again after chat
        table = msgspec.structs.replace(table, chat_after=0)
    table_fact = _TABLE_FACTS.get(kind)
    if table_fact is not None:
        return table_fact(game, table, event)
    state = game.evolve(table.state, event)
    if table.covered:  # an event of an undoable step
        return msgspec.structs.replace(table, state=state, covered=table.covered - 1, version=table.version + 1)
    # a step that cannot be taken back: nothing before it can be either
    return msgspec.structs.replace(table, state=state, checkpoints=(), undos=0, version=table.version + 1)


def _opened(game: AnyGame, event: TableOpened) -> Table:
    options = msgspec.convert(event.options, game.options_type)
    return Table(
        seed=event.seed,
        seed_hash=event.seed_hash,
        entropies=("",) * event.players,
        game=event.game,
        players=event.players,
        options=options,
        seats=(None,) * event.players,
        version=1,
        rules=event.rules,
        clock=event.clock,
        reserved=event.reserved,
        reserved_until_ms=event.reserved_until_ms,
        takeover=event.takeover,
        rated=event.rated,
        lang=event.lang,
    )


def _seat_taken(game: AnyGame, table: Table, event: SeatTaken) -> Table:
    seats = list(table.seats)
    named = event.name != default_name(event.seat, event.bot)
    seats[event.seat] = SeatInfo(event.seat, event.name, event.bot, event.player, named)
    entropies = replaced(table.entropies, event.seat, event.entropy)
    state, key = table.state, table.key
    if all(s is not None for s in seats):
        state = game.begin(table.players, table.options, table.rules)
        if table.seed is not None:
            key = fair.table_key(table.seed, entropies).hex()
    return msgspec.structs.replace(
        table, seats=tuple(seats), state=state, entropies=entropies, key=key, version=table.version + 1
    )


def _deck_committed(game: AnyGame, table: Table, event: DeckCommitted) -> Table:
    made = Commitment(table.version + 1, event.root, event.items or ())
    return msgspec.structs.replace(table, commitments=(*table.commitments, made), version=table.version + 1)


def _cards_opened(game: AnyGame, table: Table, event: CardsOpened) -> Table:
    if not event.openings:
        return msgspec.structs.replace(table, version=table.version + 1)
    places: dict[int, list[int]] = {}
    for o in event.openings:
        if o.position not in places.setdefault(o.commitment, []):  # one opening a seat shown the item
            places[o.commitment].append(o.position)
    commitments = tuple(
        msgspec.structs.replace(c, opened=(*c.opened, *places[c.version])) if c.version in places else c
        for c in table.commitments
    )
    return msgspec.structs.replace(table, commitments=commitments, version=table.version + 1)


def _seed_revealed(game: AnyGame, table: Table, event: SeedRevealed) -> Table:
    return msgspec.structs.replace(table, version=table.version + 1)


def _undoable(game: AnyGame, table: Table, event: Undoable) -> Table:
    checkpoint = Checkpoint(table.version, event.seat, table.state)
    return msgspec.structs.replace(
        table, checkpoints=(*table.checkpoints, checkpoint), covered=event.events, version=table.version + 1
    )


def _steps_undone(game: AnyGame, table: Table, event: StepsUndone) -> Table:
    kept = tuple(c for c in table.checkpoints if c.version < event.version)
    back = next(c for c in table.checkpoints if c.version == event.version)
    return msgspec.structs.replace(
        table, state=back.state, checkpoints=kept, covered=0, undos=table.undos + 1, version=table.version + 1
    )


def _seat_resigned(game: AnyGame, table: Table, event: SeatResigned) -> Table:
    seats = list(table.seats)
    left = seats[event.seat]
    assert left is not None
    seats[event.seat] = SeatInfo(left.seat, left.name, event.bot, left.player, left.named)
    resigned = (*table.resigned, event.seat)
    out = tuple(s for s in table.out_of_time if s != event.seat)
    return msgspec.structs.replace(
        table,
        seats=tuple(seats),
        resigned=resigned,
        checkpoints=(),
        undos=0,
        out_of_time=out,
        version=table.version + 1,
    )


def _clock_ticked(game: AnyGame, table: Table, event: ClockTicked) -> Table:
    if table.clock is None or table.state is None:
        return msgspec.structs.replace(table, version=table.version + 1)
    awaited = {a.seat for a in game.awaited(table.state)} if outcome(game, table) is None else set()
    out = tuple(s for s in table.out_of_time if s != event.seat)  # a seat out of time that acted is back
    ticking = table.clocks or clock.stopped(table.players)
    clocks = clock.tick(ticking, awaited, event.seat, event.at_ms, table.clock, frozenset(out))
    return msgspec.structs.replace(table, clocks=clocks, out_of_time=out, version=table.version + 1)


def _time_ran_out(game: AnyGame, table: Table, event: TimeRanOut) -> Table:
    asks = table.clock is not None and table.clock.on_timeout == "ask"
    out = (*table.out_of_time, event.seat) if asks and event.seat not in table.out_of_time else table.out_of_time
    return msgspec.structs.replace(table, out_of_time=out, version=table.version + 1)


def _time_extended(game: AnyGame, table: Table, event: TimeExtended) -> Table:
    out = tuple(s for s in table.out_of_time if s != event.seat)  # the tick after it starts the seat's clock
    return msgspec.structs.replace(table, out_of_time=out, version=table.version + 1)


def _seat_offered(game: AnyGame, table: Table, event: SeatOffered) -> Table:
    offered = table.offered if event.seat in table.offered else (*table.offered, event.seat)
    return msgspec.structs.replace(table, offered=offered, version=table.version + 1)


def _seat_taken_over(game: AnyGame, table: Table, event: SeatTakenOver) -> Table:
    seats = list(table.seats)
    former = seats[event.seat]
    seats[event.seat] = SeatInfo(event.seat, event.name, None, event.player, event.name != default_name(event.seat))
    return msgspec.structs.replace(
        table,
        seats=tuple(seats),
        resigned=tuple(s for s in table.resigned if s != event.seat),
        offered=tuple(s for s in table.offered if s != event.seat),
        tenures=(*table.tenures, Tenure(event.seat, table.version + 1, former.player if former else None)),
        version=table.version + 1,
    )


def _table_cancelled(game: AnyGame, table: Table, event: TableCancelled) -> Table:
    return msgspec.structs.replace(table, cancelled=True, version=table.version + 1)


def _rematch_opened(game: AnyGame, table: Table, event: RematchOpened) -> Table:
    return msgspec.structs.replace(table, rematch=event.game_id, version=table.version + 1)


# The table's own facts after TableOpened, by type: one look-up instead of a chain of
# isinstance tests (a replay applies every event; most are the game's own).
_TABLE_FACTS: dict[type[Any], Callable[[AnyGame, Table, Any], Table]] = {
    SeatTaken: _seat_taken,
    Undoable: _undoable,
    StepsUndone: _steps_undone,
    SeatResigned: _seat_resigned,
    ClockTicked: _clock_ticked,
    TimeRanOut: _time_ran_out,
    TimeExtended: _time_extended,
    SeatOffered: _seat_offered,
    SeatTakenOver: _seat_taken_over,
    TableCancelled: _table_cancelled,
    RematchOpened: _rematch_opened,
    DeckCommitted: _deck_committed,
    CardsOpened: _cards_opened,
    SeedRevealed: _seed_revealed,
}
assert set(_TABLE_FACTS) | {TableOpened} | CHAT_FACT_TYPES == set(TABLE_EVENTS)


def fold(game: AnyGame, table: Table | None, events: Sequence[Any]) -> Table | None:
    for event in events:
        table = evolve(game, table, event)
    return table
