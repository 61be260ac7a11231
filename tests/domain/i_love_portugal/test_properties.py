"""Random legal games: the contract holds at every step, and nothing hidden reaches a viewer."""

from __future__ import annotations

import random
import re
from collections import Counter

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.engine import FULL, Rejected
from domain.i_love_portugal import GAME
from domain.i_love_portugal.cards import BACKPACKS, CARDS, PHOTOS, PILE_CARDS
from domain.i_love_portugal.commands import Command
from domain.i_love_portugal.events import Event, FinalScoresCounted, PhotosStopped
from domain.i_love_portugal.state import State
from domain.table import decide_game

from ..contract import check_moves
from .helpers import ctx, fold, result, swap, universe, zones

players_st = st.integers(min_value=2, max_value=5)
seed_st = st.integers(min_value=0, max_value=2**32 - 1)
MAX_COMMANDS = 20_000  # measured: random games end within about 3,000 commands (see the docs)
BOX = Counter(
    [*(c for pile in PILE_CARDS.values() for c in pile), *PHOTOS, *(c for b in BACKPACKS.values() for c in b)]
)


def check_cards_conserved(state: State) -> None:
    assert Counter(card for zone in zones(state) for card in zone) == BOX, "every card is in exactly one place"
    for seat in range(state.players):
        owned = len(state.draw[seat]) + len(state.hands[seat]) + len(state.discards[seat])
        assert state.colours[seat] is None or owned >= 10


def check_universe(state: State) -> None:
    """decide accepts every listed command and rejects every other one, from every seat."""
    for seat in range(state.players):
        legal = GAME.commands(state, seat)
        listed = set(legal)
        assert len(listed) == len(legal), "no command is listed twice"
        for command in universe():
            if command in listed:
                decide_game(GAME, state, command, seat, ctx())  # must not raise
                continue
            try:
                decide_game(GAME, state, command, seat, ctx())
            except Rejected as exc:
                assert re.fullmatch(r"[a-z_]+", exc.code) and exc.message
                continue
            raise AssertionError(f"seat {seat}: {command} is accepted but not listed")


@pytest.mark.timeout(1200)  # the soak profile runs past the default 120 s
@given(players=players_st, seed=seed_st, choice_seed=seed_st)
def test_random_legal_games_keep_the_contract(players: int, seed: int, choice_seed: int) -> None:
    choices = random.Random(choice_seed)
    start = GAME.initial(players, None)
    log: list[Event] = GAME.setup(start, ctx(seed))
    state = fold(start, log)
    steps = 0
    while GAME.outcome(state) is None:
        assert steps < MAX_COMMANDS, "the game always ends"
        awaited = GAME.awaited(state)
        assert len(awaited) == 1 and awaited[0].seat == state.current
        if steps < 12 or choices.random() < 0.01:  # every setup step, then about 1 step in 100
            check_cards_conserved(state)
            check_universe(state)
            check_moves(GAME, state, choices, {seat: universe() for seat in range(players)})
        seat = awaited[0].seat
        command = choices.choice(GAME.commands(state, seat))
        events = decide_game(GAME, state, command, seat, ctx(seed + steps))
        log += events
        state = fold(state, events)
        steps += 1
    check_cards_conserved(state)
    assert fold(start, log) == state
    still = isinstance(log[-3], PhotosStopped)  # random play seldom buys photos: 12 rounds without one end it
    assert still or 0 in state.cubes_left, "the game ends after someone placed their last cube"
    assert all(len(cubes) <= spaces for cubes, spaces in zip(state.cubes, state.capacity, strict=True))
    outcome = GAME.outcome(fold(start, log))
    assert outcome == GAME.outcome(state) and outcome is not None
    assert isinstance(log[-1], FinalScoresCounted) and list(log[-1].scores) == outcome.scores
    assert GAME.awaited(state) == [] and all(GAME.commands(state, s) == [] for s in range(players))
    assert len(outcome.winners) == 1 and sorted(outcome.places) == list(range(1, players + 1))
    encoded = msgspec.json.encode(outcome)
    assert msgspec.json.decode(encoded, type=GAME.outcome_type) == outcome


# -- no leaks ------------------------------------------------------------------------------------


def hidden_from(state: State, viewer: int | None) -> set[str]:
    """Cards this viewer cannot see now: every draw pile and the other seats' hands."""
    hands = {c for seat, hand in enumerate(state.hands) if seat != viewer for c in hand}
    return {c for pile in state.draw for c in pile} | hands


def leaks(value: object, hidden: set[str]) -> set[str]:
    """Hidden card ids found anywhere in the encoded value (fields, messages, details)."""
    text = msgspec.json.encode(value).decode()
    return {card for card in hidden if re.search(rf"(?<![\w~-]){re.escape(card)}(?![\w~-])", text)}


def strings(value: object) -> set[str]:
    found: set[str] = set()
    stack = [msgspec.to_builtins(value)]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            found.add(item)
        elif isinstance(item, list | tuple):
            stack += item
        elif isinstance(item, dict):
            stack += item.values()
    return found


def received(state: State, viewer: int | None) -> list[object]:
    """Everything the viewer gets from this state: view, legal commands, answers to its commands.

    A command's answer is the events as the viewer sees them; one that ends the game reveals
    every card, so FinalScoresCounted is left out of the comparison."""
    out: list[object] = [GAME.view(state, viewer)]
    if viewer is not None:
        out.append(GAME.commands(state, viewer))
        first = GAME.step(state, viewer)
        out += [first, *(GAME.moves(state, viewer, (o.pick,)) for o in first.options)]
        for command in universe():
            answer = result(state, command, viewer)
            if isinstance(answer, list):
                answer = [None if isinstance(e, FinalScoresCounted) else GAME.redact(e, viewer) for e in answer]
            out.append(answer)
    return out


def check_swaps(state: State, viewer: int | None, ever_public: set[str], rng: random.Random) -> None:
    """Swapping two cards hidden from the viewer changes nothing it receives; no hidden id shows."""
    hidden = hidden_from(state, viewer)
    # The viewer's own command draws from its own draw pile: that seat sees what it draws.
    mine = set(state.draw[viewer]) if viewer is not None else set()
    secret = hidden - ever_public - mine
    seen = received(state, viewer)
    assert not leaks(seen, secret)
    pool = sorted(secret)
    for _ in range(3):
        if len(pool) < 2:
            return
        a, b = rng.sample(pool, 2)
        assert received(swap(state, a, b), viewer) == seen, f"swapping {a} and {b} shows"


@pytest.mark.timeout(1200)
@given(players=players_st, seed=seed_st, choice_seed=seed_st)
def test_hidden_cards_never_reach_a_viewer(players: int, seed: int, choice_seed: int) -> None:
    choices = random.Random(choice_seed)
    state = GAME.initial(players, None)
    viewers: list[int | None] = [None, *range(players)]
    events: list[Event] = GAME.setup(state, ctx(seed))
    ever_public: set[str] = set()
    steps = 0
    while True:
        for event in events:
            assert GAME.redact(event, FULL) is event
        state = fold(state, events)
        ever_public |= {c for zone in (*state.piles, state.photo_pile, *state.discards) for c in zone}
        ever_public |= strings([GAME.redact(e, None) for e in events]) & set(CARDS)  # discarded hands
        for viewer in viewers:  # the event feed
            secret = hidden_from(state, viewer) - ever_public
            assert not leaks([GAME.redact(e, viewer) for e in events], secret)
        if GAME.outcome(state) is not None or steps > 600:
            break
        if choices.random() < 0.03:
            viewer = state.current if choices.random() < 0.5 else choices.choice(viewers)
            check_swaps(state, viewer, ever_public, choices)
        seat = state.current
        assert seat is not None
        command: Command = choices.choice(GAME.commands(state, seat))
        events = decide_game(GAME, state, command, seat, ctx(seed + steps))
        steps += 1


def test_view_shows_own_hand_only_and_everything_once_over() -> None:
    state = GAME.initial(3, None)
    state = fold(state, GAME.setup(state, ctx(7)))
    while state.phase != "turn":
        state = fold(state, decide_game(GAME, state, GAME.commands(state, state.current)[0], state.current, ctx()))  # type: ignore[arg-type]
    mine = GAME.view(state, 1)
    assert mine.seats[1].hand == list(state.hands[1]) and mine.seats[1].hand_value is not None
    assert all(mine.seats[s].hand is None and mine.seats[s].hand_value is None for s in (0, 2))
    assert all(s.draw is None and s.draw_count == 5 for s in mine.seats)
    spectator = GAME.view(state, None)
    assert all(s.hand is None for s in spectator.seats)
    assert GAME.view(state, FULL).seats[0].draw == list(state.draw[0])
    finished = msgspec.structs.replace(state, phase="over", current=None)
    assert all(s.hand is not None and s.draw is not None for s in GAME.view(finished, None).seats)
    assert msgspec.json.decode(msgspec.json.encode(mine), type=GAME.view_type) == mine
    assert all(CARDS[c].kind == "backpack" for c in state.hands[1])
