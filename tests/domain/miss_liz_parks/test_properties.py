"""Random legal games: the contract holds at every step, and nothing hidden reaches a viewer."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st
from msgspec.structs import replace

from domain.engine import FULL, Pick, Rejected
from domain.miss_liz_parks import GAME
from domain.miss_liz_parks.commands import (
    BuyPlanningCard,
    BuyTile,
    Command,
    KeepPlanningCard,
    PassRound,
    ReturnPlanningCard,
)
from domain.miss_liz_parks.components import (
    EMPLOYEES_PER_THEME,
    PLANNING,
    PURCHASE_TOKENS_PER_THEME,
    STREETS,
    THEME_TOKENS,
    TILES,
)
from domain.miss_liz_parks.events import Event, ParkGameEnded
from domain.miss_liz_parks.state import PATH_NEIGHBOURS, Options, State
from domain.table import decide_game

from ..contract import check_moves, check_never_stuck, check_step
from .helpers import ctx, fold
from .universe import universe

players_st = st.integers(min_value=2, max_value=5)
seed_st = st.integers(min_value=0, max_value=2**32 - 1)
MAX_STEPS = 20_000


def check_conserved(state: State) -> None:
    """Every tile in one place; employees, streets, theme and purchase tokens within their supplies."""
    if state.piles:
        themes = {p.theme for p in state.parks} | {"none"}
        places = [
            *(t for pile in state.piles for t in pile),
            *state.removed,
            *(t for row in state.projects for t in row if t),
            *state.discarded,
            *([state.pending_tile] if state.pending_tile else []),
            *(b.tile for p in state.parks for b in p.buildings if TILES[b.tile].type != "Entrance"),
        ]
        expected = [t.id for t in TILES.values() if t.theme in themes and t.type != "Entrance"]
        assert Counter(places) == Counter(expected), "every tile is in exactly one place"
        cards = [*state.planning_deck, *(c for p in state.parks for c in (*p.planning, *p.looking))]
        assert len(cards) == len(set(cards)) and set(cards) <= set(PLANNING)
    assert sum(len(p.streets) for p in state.parks) <= STREETS
    placed = sum(1 for p in state.parks for b in p.buildings if b.token)
    assert state.theme_tokens + sum(p.theme_tokens for p in state.parks) + placed == THEME_TOKENS
    for seat, p in enumerate(state.parks):
        assert p.employees >= 0 and p.employees + sum(b.employees for b in p.buildings) <= EMPLOYEES_PER_THEME
        assert 0 <= p.tokens_used <= p.purchase_tokens <= PURCHASE_TOKENS_PER_THEME
        assert p.income >= 0 and 0 <= p.invested <= 10
        returning = state.step == "give_back" and seat == state.current  # a 4th card, one to return
        assert len(p.planning) <= (4 if returning else 3)


# How often a random player picks each kind of command: building more than passing, so that
# games run long enough to fill parks, staff them and use Rest Areas and theme tokens.
WEIGHTS = {"BuyTile": 4.0, "AssignEmployee": 4.0, "PlaceThemeToken": 2.0, "MoveEmployee": 2.0, "PassRound": 0.3}


def random_move(state: State, seat: int, rng: random.Random) -> Command | None:
    """A random command built pick by pick, by a player that builds: kinds weighted as above,
    streets mostly grown from the streets already there, few employees at a time. Where the picks
    already make a command it stops half the time, so purchases of every length come up; one time
    in ten it takes ``GAME.random_command`` (any legal command; the longest street purchases)."""
    if rng.random() < 0.1:
        return GAME.random_command(state, seat, rng)
    streets = set(state.parks[seat].streets)
    picks: tuple[Pick, ...] = ()
    while True:
        at = GAME.moves(state, seat, picks)
        if at.command is not None and (not at.options or rng.random() < 0.5):
            return at.command  # type: ignore[no-any-return]
        if not at.options:
            return None
        options = at.options
        if not picks:
            option = rng.choices(options, [WEIGHTS.get(str(o.value), 1.0) for o in options])[0]
        else:
            if options[0].field == "cells":
                grown = streets | {p.value for p in picks if p.field == "cells"}
                near = [o for o in options if any(n in grown for n in PATH_NEIGHBOURS[o.value])]  # type: ignore[index]
                options = tuple(near) if near and rng.random() < 0.8 else options
            elif options[0].field == "count" and rng.random() < 0.8:
                options = options[:2]
            option = rng.choice(options)
        if option.command is not None:
            return option.command  # type: ignore[no-any-return]
        picks = (*picks, option.pick)


def check_walks(state: State, seat: int, rng: random.Random, walks: int = 4) -> None:
    """Random walks through the picks: every step on the way keeps the contract's step rules."""
    for _ in range(walks):
        picks: tuple[Pick, ...] = ()
        while True:
            at = GAME.moves(state, seat, picks)
            check_step(GAME, state, seat, picks, at)
            going = [o for o in at.options if o.command is None]
            if not going or (at.command is not None and rng.random() < 0.3):
                break
            picks = (*picks, rng.choice(going).pick)


def random_game(players: int, seed: int, choice_seed: int, options: Options) -> None:
    choices = random.Random(choice_seed)
    start = GAME.initial(players, options)
    log: list[Event] = GAME.setup(start, ctx(seed))
    state = fold(start, log)
    steps = 0
    while GAME.outcome(state) is None:
        assert steps < MAX_STEPS, "the game always ends"
        check_conserved(state)
        awaited = GAME.awaited(state)
        assert awaited, "someone is always awaited"
        check_never_stuck(GAME, state, choices)
        seat = choices.choice(awaited).seat
        command = random_move(state, seat, choices)
        assert command is not None
        events = decide_game(GAME, state, command, seat, ctx(seed + steps))
        log += events
        state = fold(state, events)
        steps += 1
    check_conserved(state)
    assert fold(start, log) == state
    assert state.round == 5
    outcome = GAME.outcome(fold(start, log))
    assert outcome == GAME.outcome(state) and outcome is not None
    assert isinstance(log[-1], ParkGameEnded) and list(log[-1].scores) == outcome.scores
    assert GAME.awaited(state) == [] and all(GAME.step(state, s).empty for s in range(players))
    assert msgspec.json.decode(msgspec.json.encode(outcome), type=GAME.outcome_type) == outcome


@pytest.mark.timeout(1200)
@given(players=players_st, seed=seed_st, choice_seed=seed_st)
def test_random_legal_games_keep_the_contract(players: int, seed: int, choice_seed: int) -> None:
    random_game(players, seed, choice_seed, Options())


@pytest.mark.timeout(1200)
@given(players=players_st, seed=seed_st, choice_seed=seed_st, side_b=st.booleans())
def test_random_legal_games_with_the_investment_variant(
    players: int, seed: int, choice_seed: int, side_b: bool
) -> None:
    random_game(players, seed, choice_seed, Options(investment=True, side_b=side_b))


@pytest.mark.timeout(1200)
@given(players=players_st, seed=seed_st, choice_seed=seed_st)
def test_random_legal_games_with_side_b(players: int, seed: int, choice_seed: int) -> None:
    random_game(players, seed, choice_seed, Options(side_b=True))


# -- moves: sound, complete, small, never stuck ---------------------------------------------------

VARIANTS = [Options(), Options(investment=True), Options(side_b=True), Options(investment=True, side_b=True)]


def reachable(players: int, seed: int, choices: random.Random, options: Options, depth: int) -> State:
    """The state after ``depth`` random commands (or the last before the end), then on to the
    next action step, the richest in moves, unless the game ends first."""
    state = fold(GAME.initial(players, options), GAME.setup(GAME.initial(players, options), ctx(seed)))
    steps = 0
    while steps < depth or (state.step != "action" and steps < depth + 20):
        seat = choices.choice(GAME.awaited(state)).seat
        command = random_move(state, seat, choices)
        assert command is not None
        after = fold(state, decide_game(GAME, state, command, seat, ctx(seed + steps)))
        if GAME.outcome(after) is not None:
            break
        state, steps = after, steps + 1
    return state


@pytest.mark.timeout(1200)
@given(
    players=players_st,
    seed=seed_st,
    choice_seed=seed_st,
    options=st.sampled_from(VARIANTS),
    depth=st.integers(min_value=0, max_value=300),
)
def test_moves_are_sound_complete_and_never_stuck_in_random_reachable_states(
    players: int, seed: int, choice_seed: int, options: Options, depth: int
) -> None:
    choices = random.Random(choice_seed)
    state = reachable(players, seed, choices, options, depth)
    check_moves(GAME, state, choices, {seat: universe(state, seat, choices) for seat in range(players)}, nodes=40)
    for awaited in GAME.awaited(state):
        check_walks(state, awaited.seat, choices)


# -- no leaks ------------------------------------------------------------------------------------


def strings(value: Any) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(strings(v) for v in value.values())) if value else set()
    if isinstance(value, list | tuple):
        return set().union(*(strings(v) for v in value)) if value else set()
    return set()


def hidden_from(state: State, viewer: int | None) -> set[str]:
    others = {c for s, p in enumerate(state.parks) if s != viewer for c in (*p.planning, *p.looking)}
    return {*(t for pile in state.piles for t in pile), *state.removed, *state.planning_deck} | others


def swap(state: State, a: str, b: str) -> State:
    def sw(items: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(b if x == a else a if x == b else x for x in items)

    return replace(
        state,
        piles=tuple(sw(p) for p in state.piles),
        removed=sw(state.removed),
        planning_deck=sw(state.planning_deck),
        parks=tuple(replace(p, planning=sw(p.planning), looking=sw(p.looking)) for p in state.parks),
    )


def answer(state: State, command: Command, viewer: int) -> object:
    try:
        events = decide_game(GAME, state, command, viewer, ctx())
    except Rejected as exc:
        return ("rejected", exc.code, exc.message, exc.details)
    return [ParkGameEnded() if isinstance(e, ParkGameEnded) else GAME.redact(e, viewer) for e in events]


def steps_seen(state: State, viewer: int, walks: int = 3) -> list[object]:
    """The steps a seat may ask for: the first, each one after a first pick, and a few deeper
    ones down walks of a fixed seed (the same walks in any state that shows the same steps)."""
    first = GAME.step(state, viewer)
    out: list[object] = [first, *(GAME.moves(state, viewer, (o.pick,)) for o in first.options)]
    walker = random.Random(0)
    for _ in range(walks):
        picks: tuple[Pick, ...] = ()
        at = first
        while at.options and len(picks) < 6:
            option = walker.choice(at.options)
            if option.command is not None:
                break
            picks = (*picks, option.pick)
            at = GAME.moves(state, viewer, picks)
            out.append(at)
    return out


def received(state: State, viewer: int | None, commands: list[Command]) -> list[object]:
    out: list[object] = [GAME.view(state, viewer)]
    if viewer is not None:
        out += steps_seen(state, viewer)
        out += [answer(state, command, viewer) for command in commands]
    return out


def check_swaps(state: State, viewer: int | None, seen: set[str], rng: random.Random) -> None:
    secret = hidden_from(state, viewer) - seen
    if viewer in {a.seat for a in GAME.awaited(state)}:  # what its own command would reveal (next pile)
        secret -= {*state.planning_deck[:2], *(state.piles[state.round] if state.round < len(state.piles) else ())}
    tiles = sorted(secret & set(TILES))
    cards = sorted(secret & set(PLANNING))
    swaps = [rng.sample(pool, 2) for pool in (tiles, cards) if len(pool) >= 2]
    named = [x for pair in swaps for x in pair]
    commands: list[Command] = [BuyPlanningCard(), PassRound()]
    commands += [BuyTile(tile=x) for x in named] + [KeepPlanningCard(card=x) for x in named]
    commands += [ReturnPlanningCard(card=x) for x in named]
    if viewer is not None:
        commands += [c for _ in range(4) if (c := random_move(state, viewer, rng)) is not None]
    mine = received(state, viewer, commands)
    text = msgspec.json.encode(mine).decode()
    leaked = {x for x in secret if f'"{x}"' in text}
    assert not leaked, f"hidden ids reached the viewer: {leaked}"
    for a, b in swaps:
        assert received(swap(state, a, b), viewer, commands) == mine, f"swapping {a} and {b} shows"


@pytest.mark.timeout(1200)
@given(players=players_st, seed=seed_st, choice_seed=seed_st)
def test_hidden_tiles_and_planning_cards_never_reach_a_viewer(players: int, seed: int, choice_seed: int) -> None:
    choices = random.Random(choice_seed)
    state = GAME.initial(players, None)
    viewers: list[int | None] = [None, *range(players)]
    seen: dict[int | None, set[str]] = {v: set() for v in viewers}
    events: list[Event] = GAME.setup(state, ctx(seed))
    while True:
        for event in events:
            assert GAME.redact(event, FULL) is event
        state = fold(state, events)
        for viewer in viewers:  # the event feed, as each viewer gets it
            seen[viewer] |= strings(msgspec.to_builtins([GAME.redact(e, viewer) for e in events]))
            if GAME.outcome(state) is None:
                assert not (hidden_from(state, viewer) - seen[viewer]) & strings(
                    msgspec.to_builtins(GAME.view(state, viewer))
                )
        if GAME.outcome(state) is not None:
            break
        if choices.random() < 0.1:
            awaited = GAME.awaited(state)
            viewer = choices.choice(awaited).seat if awaited and choices.random() < 0.5 else choices.choice(viewers)
            check_swaps(state, viewer, seen[viewer], choices)
        seat = choices.choice(GAME.awaited(state)).seat
        command = random_move(state, seat, choices)
        assert command is not None
        events = decide_game(GAME, state, command, seat, ctx(seed))
    assert GAME.view(state, None).pile_tiles is not None  # all revealed once over


def test_view_shows_own_planning_cards_only_and_everything_once_over() -> None:
    from .helpers import start

    state, _ = start(3, seed=7)
    mine = GAME.view(state, 1)
    assert mine.parks[1].planning == list(state.parks[1].planning)
    assert mine.parks[0].planning is None and mine.parks[0].planning_count == 1
    assert mine.pile_tiles is None and mine.removed is None and mine.planning_deck is None
    assert GAME.view(state, FULL).planning_deck == list(state.planning_deck)
    finished = replace(state, phase="over", current=None)
    assert all(p.planning is not None for p in GAME.view(finished, None).parks)
    assert msgspec.json.decode(msgspec.json.encode(mine), type=GAME.view_type) == mine
