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
from domain.table import decide_game
from domain.vilar_de_mouros import GAME
from domain.vilar_de_mouros.cards import BONUS_CARDS, GAME_CARDS, TARGET
from domain.vilar_de_mouros.commands import Command, DrawFromCentre, DrawFromDeck, PlaceCards, TakeBonus
from domain.vilar_de_mouros.events import Event, GameEnded
from domain.vilar_de_mouros.state import State

from ..contract import check_moves
from .helpers import ALL_IDS, ctx, fold, result, swap, universe, zones

players_st = st.integers(min_value=2, max_value=6)
seed_st = st.integers(min_value=0, max_value=2**32 - 1)


def max_commands(players: int) -> int:
    return players * TARGET[players] * 3  # at most 3 commands a turn, one card per turn


def check_cards_conserved(state: State) -> None:
    counts = Counter(card for zone in zones(state) for card in zone)
    assert counts == Counter(ALL_IDS), "every card is in exactly one place"


def check_universe(state: State, rng: random.Random, every_pair: bool) -> None:
    """decide accepts every listed command and rejects every other one, from every seat.

    The universe is every command over every card id, except that PlaceCards pairs are drawn from
    the acting hand plus a few other ids (or, with ``every_pair``, every pair of ids).
    """
    for seat in range(state.players):
        legal = GAME.commands(state, seat)
        listed = set(legal)
        assert len(listed) == len(legal), "no command is listed twice"
        if seat == state.current:
            place_ids = ALL_IDS if every_pair else [*state.hands[seat], *rng.sample(ALL_IDS, 4)]
        else:
            place_ids = rng.sample(ALL_IDS, 3)
        for command in universe(place_ids):
            if command in listed:
                continue
            try:
                decide_game(GAME, state, command, seat, ctx())
            except Rejected:
                continue
            raise AssertionError(f"seat {seat}: {command} is accepted but not listed")
        for command in legal:
            decide_game(GAME, state, command, seat, ctx())  # must not raise


def check_some_commands(state: State, rng: random.Random) -> None:
    """The cheap version for the other steps: a few listed commands pass, a few others fail."""
    seat = state.current
    assert seat is not None
    legal = GAME.commands(state, seat)
    for command in rng.sample(legal, min(3, len(legal))):
        decide_game(GAME, state, command, seat, ctx())
    for command in rng.sample(universe(rng.sample(ALL_IDS, 3)), 5):
        if command not in legal:
            try:
                decide_game(GAME, state, command, seat, ctx())
            except Rejected:
                continue
            raise AssertionError(f"{command} is accepted but not listed")


@pytest.mark.timeout(1200)  # the soak profile (2000 games) runs past the default 120 s
@given(players=players_st, seed=seed_st, choice_seed=seed_st)
def test_random_legal_games_keep_the_contract(players: int, seed: int, choice_seed: int) -> None:
    choices = random.Random(choice_seed)
    start = GAME.initial(players, None)
    log: list[Event] = GAME.setup(start, ctx(seed))
    state = fold(start, log)
    length = players * (TARGET[players] * 3 - 2)  # 2 or 3 bonus turns of 1 command, the rest 3
    audited = set(choices.sample(range(length), 6))  # steps where the whole universe is checked
    steps = 0
    while GAME.outcome(state) is None:
        assert steps < max_commands(players), "the game always ends"
        check_cards_conserved(state)
        awaited = GAME.awaited(state)
        assert len(awaited) == 1 and awaited[0].seat == state.current
        if steps in audited:
            check_universe(state, choices, every_pair=state.phase == "place" and steps == min(audited))
            hand = [*state.hands[awaited[0].seat], *choices.sample(ALL_IDS, 3)]
            check_moves(GAME, state, choices, {awaited[0].seat: universe(hand)})
        else:
            check_some_commands(state, choices)
        seat = awaited[0].seat
        command = choices.choice(GAME.commands(state, seat))
        events = decide_game(GAME, state, command, seat, ctx(seed + steps))
        log += events
        state = fold(state, events)
        steps += 1
    check_cards_conserved(state)
    assert fold(start, log) == state
    assert [len(p) for p in state.personal] == [TARGET[players]] * players
    assert all(2 <= sum(c in BONUS_CARDS for c in p) <= 3 for p in state.personal)
    outcome = GAME.outcome(fold(start, log))
    assert outcome == GAME.outcome(state) and outcome is not None
    assert isinstance(log[-1], GameEnded) and list(log[-1].scores) == outcome.scores
    assert GAME.awaited(state) == [] and all(GAME.commands(state, s) == [] for s in range(players))
    encoded = msgspec.json.encode(outcome)
    assert msgspec.json.decode(encoded, type=GAME.outcome_type) == outcome


def test_every_pair_of_cards_is_checked_once_in_a_placing_step() -> None:
    """The full PlaceCards universe (every ordered pair of ids) at one placing step."""
    state = fold(GAME.initial(2, None), GAME.setup(GAME.initial(2, None), ctx(3)))
    for _ in range(2):
        seat = state.current
        assert seat is not None
        state = fold(state, decide_game(GAME, state, GAME.commands(state, seat)[-1], seat, ctx()))
    assert state.phase == "place"
    check_universe(state, random.Random(0), every_pair=True)


# -- no leaks ------------------------------------------------------------------------------------


def hidden_from(state: State, viewer: int | None, ever_public: set[str]) -> set[str]:
    """Cards this viewer has never been shown: deck, bonus deck, other hands (minus public ones)."""
    hands = {c for seat, hand in enumerate(state.hands) if seat != viewer for c in hand}
    return ({*state.deck, *state.bonus_deck} | hands) - ever_public


def leaks(value: object, hidden: set[str]) -> set[str]:
    """Hidden card ids found anywhere in the encoded value (fields, messages, details)."""
    text = msgspec.json.encode(value).decode()
    return {card for card in hidden if card in text and re.search(rf"(?<![\w-]){re.escape(card)}(?![\w-])", text)}


def public_answer(answer: object, viewer: int) -> object:
    """A command's answer as the viewer gets it. A command that ends the game reveals every hand,
    so the final scores in GameEnded are left out of the comparison."""
    if not isinstance(answer, list):
        return answer
    return [GameEnded() if isinstance(e, GameEnded) else GAME.redact(e, viewer) for e in answer]


def received(state: State, viewer: int | None, commands: list[Command]) -> list[object]:
    """Everything the viewer gets from this state: view, legal commands, answers to its commands."""
    out: list[object] = [GAME.view(state, viewer)]
    if viewer is not None:
        out.append(GAME.commands(state, viewer))
        first = GAME.step(state, viewer)
        out += [first, *(GAME.moves(state, viewer, (o.pick,)) for o in first.options)]
        out += [public_answer(result(state, command, viewer), viewer) for command in commands]
    return out


def viewer_commands(state: State, viewer: int | None, named: list[str], rng: random.Random) -> list[Command]:
    """The viewer's commands worth asking about: every kind, naming public cards and the swapped ones."""
    if viewer is None:
        return []
    hand = rng.sample(state.hands[viewer], 3)
    commands: list[Command] = [DrawFromDeck()]
    commands += [DrawFromCentre(card=c) for c in [*state.centre, *named]]
    commands += [TakeBonus(card=c) for c in [*state.bonus_row, *named]]
    ids = [*hand, *named, *state.centre[:1]]
    commands += [PlaceCards(centre=a, personal=b) for a in ids for b in ids]
    return commands


@pytest.mark.timeout(1200)  # the soak profile (2000 games) runs past the default 120 s
@given(players=players_st, seed=seed_st, choice_seed=seed_st)
def test_hidden_cards_never_reach_a_viewer(players: int, seed: int, choice_seed: int) -> None:
    choices = random.Random(choice_seed)
    state = GAME.initial(players, None)
    viewers: list[int | None] = [None, *range(players)]
    events: list[Event] = GAME.setup(state, ctx(seed))
    ever_public: set[str] = set()
    while True:
        for event in events:
            assert GAME.redact(event, FULL) is event
        state = fold(state, events)
        ever_public |= {*state.centre, *state.bonus_row, *(c for p in state.personal for c in p)}
        for viewer in viewers:  # the event feed
            hidden = hidden_from(state, viewer, ever_public)
            assert not leaks([GAME.redact(e, viewer) for e in events], hidden)
        if GAME.outcome(state) is not None:
            break
        if choices.random() < 0.25:  # half the time the seat to play: its commands do the most
            viewer = state.current if choices.random() < 0.5 else choices.choice(viewers)
            check_swaps(state, viewer, ever_public, choices)
        seat = state.current
        assert seat is not None
        events = decide_game(GAME, state, choices.choice(GAME.commands(state, seat)), seat, ctx(seed))


def check_swaps(state: State, viewer: int | None, ever_public: set[str], rng: random.Random) -> None:
    """Swapping two cards hidden from the viewer changes nothing it receives; no hidden id shows."""
    # Cards the viewer's own command would reveal (top of either deck) are not secret here.
    secret = hidden_from(state, viewer, ever_public) - {*state.deck[:1], *state.bonus_deck[:1]}
    swaps = [
        rng.sample(pool, 2)
        for pool in (sorted(secret & set(GAME_CARDS)), sorted(secret & set(BONUS_CARDS)))
        if len(pool) >= 2
    ]
    commands = viewer_commands(state, viewer, [c for pair in swaps for c in pair], rng)
    seen = received(state, viewer, commands)
    assert not leaks(seen, secret)
    for a, b in swaps:
        assert received(swap(state, a, b), viewer, commands) == seen, f"swapping {a} and {b} shows"


def test_view_shows_own_hand_only_and_everything_once_over() -> None:
    state = fold(GAME.initial(3, None), GAME.setup(GAME.initial(3, None), ctx(7)))
    mine = GAME.view(state, 1)
    assert mine.seats[1].hand == list(state.hands[1])
    assert mine.seats[0].hand is None and mine.seats[2].hand is None and mine.deck is None
    spectator = GAME.view(state, None)
    assert all(s.hand is None for s in spectator.seats) and spectator.deck_count == len(state.deck)
    assert GAME.view(state, FULL).deck == list(state.deck)
    finished = msgspec.structs.replace(state, phase="over", current=None)
    assert all(s.hand is not None for s in GAME.view(finished, None).seats)
    assert msgspec.json.decode(msgspec.json.encode(mine), type=GAME.view_type) == mine
