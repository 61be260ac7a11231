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

from domain.engine import FULL, Rejected
from domain.miss_liz_parks import GAME
from domain.miss_liz_parks.commands import (
    AssignEmployee,
    BuildTile,
    BuyPlanningCard,
    BuyStreets,
    BuyTile,
    ChooseTheme,
    Command,
    EndTurn,
    HireEmployees,
    KeepPlanningCard,
    MoveEmployee,
    PassRound,
    PlaceEntrance,
    PlaceFirstStreet,
    PlaceThemeToken,
    ReturnPlanningCard,
    TakeInvestment,
)
from domain.miss_liz_parks.components import (
    EMPLOYEES_PER_THEME,
    PLANNING,
    PURCHASE_TOKENS_PER_THEME,
    STREETS,
    THEME_IDS,
    THEME_TOKENS,
    TILES,
)
from domain.miss_liz_parks.events import Event, ParkGameEnded
from domain.miss_liz_parks.state import ALL_CELLS, Options, State

from .helpers import ctx, fold

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
    for p in state.parks:
        assert p.employees >= 0 and p.employees + sum(b.employees for b in p.buildings) <= EMPLOYEES_PER_THEME
        assert 0 <= p.tokens_used <= p.purchase_tokens <= PURCHASE_TOKENS_PER_THEME
        assert p.income >= 0 and 0 <= p.invested <= 10 and len(p.planning) <= 3


def universe(state: State, seat: int, rng: random.Random) -> list[Command]:
    """Every command of the finite parts (single-cell street purchases), with a sample of ids."""
    park = state.parks[seat]
    cells = [*ALL_CELLS, (6, 0), (0, 7), (-1, 0)]
    built = [b.cell for b in park.buildings]
    tiles = [t for row in state.projects for t in row if t] + rng.sample(sorted(TILES), 3)
    cards = sorted(PLANNING)
    commands: list[Command] = [ChooseTheme(theme=t) for t in (*THEME_IDS, "space")]
    commands += [PlaceEntrance(column=c) for c in range(-1, 9)]
    commands += [PlaceFirstStreet(cell=c) for c in cells]
    commands += [KeepPlanningCard(card=c) for c in cards] + [ReturnPlanningCard(card=c) for c in cards]
    commands += [BuyTile(tile=t) for t in tiles]
    commands += [BuildTile(cell=c) for c in cells]
    commands += [BuyStreets(cells=(c,)) for c in cells]
    commands += [HireEmployees(count=n) for n in range(0, 17)]
    commands += [BuyPlanningCard(), PassRound(), EndTurn()]
    commands += [AssignEmployee(cell=c) for c in cells]
    commands += [MoveEmployee(source=a, target=b) for a in built for b in [*built, (0, 0)]]
    commands += [PlaceThemeToken(cell=c, theme=t) for c in [*built, (0, 0)] for t in (*THEME_IDS, "none")]
    commands += [TakeInvestment(amount=n) for n in range(0, 12)]
    return commands


def check_universe(state: State, rng: random.Random) -> None:
    """decide accepts every listed command and rejects every other one of the universe, from every seat."""
    for seat in range(state.players):
        legal = GAME.commands(state, seat)
        listed = set(legal)
        assert len(listed) == len(legal), "no command is listed twice"
        for command in legal:
            GAME.decide(state, command, seat, ctx())  # must not raise
        for command in universe(state, seat, rng):
            if command in listed:
                continue
            try:
                GAME.decide(state, command, seat, ctx())
            except Rejected:
                continue
            raise AssertionError(f"seat {seat}: {command} is accepted but not listed")


def random_game(players: int, seed: int, choice_seed: int, options: Options, audits: int) -> None:
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
        if choices.random() < audits / 150:
            check_universe(state, choices)
        seat = choices.choice(awaited).seat
        legal = GAME.commands(state, seat)
        assert legal
        for command in choices.sample(legal, min(2, len(legal))):
            GAME.decide(state, command, seat, ctx())
        events = GAME.decide(state, choices.choice(legal), seat, ctx(seed + steps))
        log += events
        state = fold(state, events)
        steps += 1
    check_conserved(state)
    assert fold(start, log) == state
    assert state.round == 5
    outcome = GAME.outcome(fold(start, log))
    assert outcome == GAME.outcome(state) and outcome is not None
    assert isinstance(log[-1], ParkGameEnded) and list(log[-1].scores) == outcome.scores
    assert GAME.awaited(state) == [] and all(GAME.commands(state, s) == [] for s in range(players))
    assert msgspec.json.decode(msgspec.json.encode(outcome), type=GAME.outcome_type) == outcome


@pytest.mark.timeout(1200)
@given(players=players_st, seed=seed_st, choice_seed=seed_st)
def test_random_legal_games_keep_the_contract(players: int, seed: int, choice_seed: int) -> None:
    random_game(players, seed, choice_seed, Options(), audits=3)


@pytest.mark.timeout(1200)
@given(players=players_st, seed=seed_st, choice_seed=seed_st, side_b=st.booleans())
def test_random_legal_games_with_the_investment_variant(
    players: int, seed: int, choice_seed: int, side_b: bool
) -> None:
    random_game(players, seed, choice_seed, Options(investment=True, side_b=side_b), audits=1)


@pytest.mark.timeout(1200)
@given(players=players_st, seed=seed_st, choice_seed=seed_st)
def test_random_legal_games_with_side_b(players: int, seed: int, choice_seed: int) -> None:
    random_game(players, seed, choice_seed, Options(side_b=True), audits=1)


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
        events = GAME.decide(state, command, viewer, ctx())
    except Rejected as exc:
        return ("rejected", exc.code, exc.message, exc.details)
    return [ParkGameEnded() if isinstance(e, ParkGameEnded) else GAME.redact(e, viewer) for e in events]


def received(state: State, viewer: int | None, commands: list[Command]) -> list[object]:
    out: list[object] = [GAME.view(state, viewer)]
    if viewer is not None:
        out.append(GAME.commands(state, viewer))
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
        legal = GAME.commands(state, viewer)
        commands += rng.sample(legal, min(4, len(legal)))
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
        events = GAME.decide(state, choices.choice(GAME.commands(state, seat)), seat, ctx(seed))
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
