"""Random legal games: the contract holds at every step, and nothing hidden reaches a viewer."""

from __future__ import annotations

import itertools
import random
import re
from collections import Counter
from typing import Any

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st
from msgspec.structs import replace

from domain.engine import CLOCK, FULL, Pick, Step
from domain.itchy_feet import GAME
from domain.itchy_feet.cards import CARDS, COUNTRIES, of_type
from domain.itchy_feet.commands import (
    AcceptTrade,
    Command,
    DiscardDownToSeven,
    Draw,
    OfferTrade,
    PassReaction,
    PlayMousetrap,
    RejectTrade,
    Steal,
)
from domain.itchy_feet.events import CardPassed, CardsDiscarded, CardStolen, Event, ItchyCardDrawn, TripWon
from domain.itchy_feet.rules import in_play
from domain.itchy_feet.state import Options, State, hand_limit, over_limit
from domain.table import decide_game

from ..contract import check_never_stuck
from .helpers import ALL, ctx, fold, lean, result, zones

players_st = st.integers(min_value=2, max_value=6)
seed_st = st.integers(min_value=0, max_value=2**32 - 1)
MAX_STEPS = 60000


def all_cards(state: State) -> Counter[str]:
    return Counter([*in_play(state), *of_type("passport")])


def choose(state: State, rng: random.Random) -> tuple[int, Command]:
    """Any awaited seat; a command built pick by pick by the test player (helpers.lean), now and
    then a uniformly random one (GAME.random_command), so the games end and still wander."""
    seat = rng.choice(GAME.awaited(state)).seat
    command = GAME.random_command(state, seat, rng) if rng.random() < 0.2 else lean(state, seat, rng)
    assert command is not None, f"seat {seat} is awaited but has no command"
    return seat, command


def check_step(state: State) -> None:
    assert Counter(c for zone in zones(state) for c in zone) == all_cards(state), "every card in one place"
    for viewer, row in enumerate(state.known):  # a seat's memory of the hands is never wrong
        for holder, cards in enumerate(row):
            assert set(cards) <= set(state.hands[holder]), (viewer, holder, cards)
            assert holder != viewer or not cards, "a seat sees its own hand; it keeps no memory of it"
    over = over_limit(state)
    waiting = GAME.awaited(state)
    # the hand limit holds at every moment: an over-full hand is all the game waits for
    for seat in range(state.players if state.phase != "over" else 0):
        if len(state.hands[seat]) > hand_limit(state, seat):
            assert {a.seat for a in waiting} == set(over)
    done = [c for t in state.travelled for c in t]
    countries = [c for c in [*state.own, *state.aside] if c] + done + [c for c in [state.centre] if c and c not in done]
    assert sorted(countries) == sorted(COUNTRIES), "every country in one place"


def play_game(players: int, options: Options, seed: int, choice_seed: int) -> None:
    rng = random.Random(choice_seed)
    start = GAME.initial(players, options)
    log: list[Event] = GAME.setup(start, ctx(seed))
    state = fold(start, log)
    steps = 0
    while GAME.outcome(state) is None:
        assert steps < MAX_STEPS, "the game ends"
        check_step(state)
        if steps % 17 == 0:  # every awaited seat has a move, and a command built at random is accepted
            check_never_stuck(GAME, state, rng)
        seat, command = choose(state, rng)
        events = decide_game(GAME, state, command, seat, ctx(seed + steps, now_ms=steps))
        log += events
        state = fold(state, events)
        for deadline in GAME.deadlines(state):  # now and then the clock closes a window
            if rng.random() < 0.05:
                events = decide_game(GAME, state, deadline.command, CLOCK, ctx(steps, now_ms=deadline.due_ms))
                log += events
                state = fold(state, events)
                break
        steps += 1
    check_step(state)
    assert fold(start, log) == state
    outcome = GAME.outcome(fold(start, log))
    assert outcome == GAME.outcome(state) and outcome is not None
    assert isinstance(log[-1], TripWon) and outcome.winners == [log[-1].seat]
    assert GAME.awaited(state) == [] and all(GAME.step(state, s).empty for s in range(players))
    assert GAME.deadlines(state) == []
    assert msgspec.json.decode(msgspec.json.encode(outcome), type=GAME.outcome_type) == outcome
    encoded = msgspec.json.encode(log)
    assert msgspec.json.decode(encoded, type=list[GAME.event_type]) == log  # type: ignore[name-defined]


@pytest.mark.timeout(1200)
@given(players=players_st, seed=seed_st, choice_seed=seed_st)
def test_random_legal_games_with_no_expansion_reach_a_winner(players: int, seed: int, choice_seed: int) -> None:
    play_game(players, Options(), seed, choice_seed)


@pytest.mark.timeout(1200)
@given(players=players_st, seed=seed_st, choice_seed=seed_st)
def test_random_legal_games_with_all_five_expansions_reach_a_winner(players: int, seed: int, choice_seed: int) -> None:
    play_game(players, ALL, seed, choice_seed)


# -- no leaks ------------------------------------------------------------------------------------


def hidden_from(state: State, viewer: int | None) -> set[str]:
    """Cards this viewer cannot see now: the deck, the passports set aside, other hands."""
    hands = {c for seat, hand in enumerate(state.hands) if seat != viewer for c in hand}
    return {*state.deck, *state.passports_aside} | hands


def leaks(value: object, hidden: set[str]) -> set[str]:
    text = msgspec.json.encode(value).decode()
    return {card for card in hidden if card in text and re.search(rf"(?<![\w-]){re.escape(card)}(?![\w-])", text)}


def masked(event: Any, viewer: int) -> Any:
    """What the rules let the viewer learn by its own command (the card it steals, draws or is
    passed) is masked: it comes from the swapped cards by rule, not by a leak."""
    event = GAME.redact(event, viewer)
    if isinstance(event, CardStolen) and event.thief == viewer:
        return replace(event, card="?")
    if isinstance(event, CardPassed | ItchyCardDrawn) and event.card is not None:
        return replace(event, card="?")
    if isinstance(event, CardsDiscarded) and event.reason == "lost_luggage":  # a random card, shown by rule
        return replace(event, cards=("?",))
    return event


def public_answer(answer: object, viewer: int) -> object:
    if not isinstance(answer, list):
        return answer
    return [masked(e, viewer) for e in answer]


def viewer_steps(state: State, viewer: int | None) -> list[Step]:
    """The steps of the viewer's moves: the first, the one after each first pick, and those along
    a few walks of random picks (the same picks in every world the viewer cannot tell apart)."""
    if viewer is None:
        return []
    first = GAME.moves(state, viewer, ())
    steps = [first]
    walker = random.Random(viewer)
    for option in first.options:
        picks: tuple[Pick, ...] = (option.pick,)
        at = GAME.moves(state, viewer, picks)
        steps.append(at)
        for _ in range(6):
            if not at.options:
                break
            picks = (*picks, walker.choice(at.options).pick)
            at = GAME.moves(state, viewer, picks)
            steps.append(at)
    return steps


def viewer_commands(state: State, viewer: int | None, named: list[str]) -> list[Command]:
    """The viewer's commands worth asking about: some it may build, and ones naming the swapped cards."""
    if viewer is None:
        return []
    commands: list[Command] = list(itertools.islice(GAME.walk(state, viewer), 12))
    built = [GAME.random_command(state, viewer, random.Random(n)) for n in range(4)]
    commands += [c for c in built if c is not None]
    others = [s for s in range(state.players) if s != viewer]
    hand = state.hands[viewer]
    commands += [AcceptTrade(), RejectTrade(), Draw(), PassReaction()]
    commands += [PlayMousetrap(card=c) for c in named] + [DiscardDownToSeven(card=c) for c in named]
    if hand:
        commands += [OfferTrade(target=others[0], give=(hand[0],), ask=(CARDS[c].kind,)) for c in named]
        commands += [Steal(target=s, pay=hand[0]) for s in others]
    return commands


def received(state: State, viewer: int | None, commands: list[Command]) -> list[object]:
    out: list[object] = [GAME.view(state, viewer), GAME.deadlines(state), viewer_steps(state, viewer)]
    if viewer is not None:
        out += [public_answer(result(state, command, viewer), viewer) for command in commands]
    return out


def swap(state: State, a: str, b: str) -> State:
    def sw(cards: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(b if c == a else a if c == b else c for c in cards)

    return replace(
        state,
        deck=sw(state.deck),
        passports_aside=sw(state.passports_aside),
        hands=tuple(sw(h) for h in state.hands),
    )


def check_swaps(state: State, viewer: int | None, rng: random.Random, seen_before: set[str]) -> None:
    """Swapping two cards of one type hidden from the viewer changes nothing it receives."""
    # The top of the deck is what the viewer's own command would draw: not secret here.
    # So are the hands a pending travel or trade shows when the viewer's answer lets it happen.
    showing = {state.window.seat} if state.window is not None else set()
    if state.trade is not None:
        showing |= {state.trade.offerer, state.trade.target}
    about_to_show = {c for seat in showing for c in state.hands[seat]}
    secret = hidden_from(state, viewer) - set(state.deck[:12]) - seen_before - about_to_show
    swaps = []
    for kind in ("object", "passport", "special", "forbidden", "postcard"):
        pool = sorted(c for c in secret if CARDS[c].type == kind)
        if len(pool) >= 2:
            swaps.append(rng.sample(pool, 2))
    commands = viewer_commands(state, viewer, [c for pair in swaps for c in pair])
    seen = received(state, viewer, commands)
    assert not leaks(seen, secret)
    for a, b in swaps:
        assert received(swap(state, a, b), viewer, commands) == seen, f"swapping {a} and {b} shows"


ALL_IDS = set(CARDS)


@pytest.mark.timeout(1200)
@given(players=players_st, seed=seed_st, choice_seed=seed_st, everything=st.booleans())
def test_hidden_cards_never_reach_a_viewer(players: int, seed: int, choice_seed: int, everything: bool) -> None:
    rng = random.Random(choice_seed)
    state = GAME.initial(players, ALL if everything else Options())
    viewers: list[int | None] = [None, *range(players)]
    events: list[Event] = GAME.setup(state, ctx(seed))
    # What each viewer has been shown by rule: cards in a public form (an offer, a travel, the
    # discard pile...) and cards that passed through its own hand. Everything else stays secret.
    shown: set[str] = set()
    known: dict[int | None, set[str]] = {v: set() for v in viewers}
    steps = 0
    while True:
        for event in events:
            assert GAME.redact(event, FULL) is event
        for event in events:  # one by one: a card may be stolen and passed on in one batch
            before = state
            state = fold(state, [event])
            public = leaks(GAME.redact(event, None), ALL_IDS)  # made public by this event
            for viewer in viewers:  # the feed shows no card that stays hidden from this viewer
                hidden = (hidden_from(before, viewer) & hidden_from(state, viewer)) - known[viewer] - shown - public
                assert not leaks(GAME.redact(event, viewer), hidden)
            shown |= public
            for seat in range(players):
                known[seat] |= set(state.hands[seat])
        if GAME.outcome(state) is not None or steps > 400:
            break
        if rng.random() < 0.2:
            awaited = [a.seat for a in GAME.awaited(state)]
            viewer = rng.choice(awaited) if rng.random() < 0.5 else rng.choice(viewers)
            check_swaps(state, viewer, rng, known[viewer] | shown)
        seat, command = choose(state, rng)
        events = decide_game(GAME, state, command, seat, ctx(seed + steps))
        steps += 1


def test_view_shows_own_hand_only_and_everything_once_over() -> None:
    start = GAME.initial(3, ALL)
    state = fold(start, GAME.setup(start, ctx(7)))
    mine = GAME.view(state, 1)
    assert mine.seats[1].hand == list(state.hands[1])
    assert mine.seats[0].hand is None and mine.seats[2].hand is None and mine.deck is None
    spectator = GAME.view(state, None)
    assert all(s.hand is None for s in spectator.seats) and spectator.deck_count == len(state.deck)
    assert [s.hand_count for s in spectator.seats] == [len(h) for h in state.hands]
    assert GAME.view(state, FULL).deck == list(state.deck)
    finished = replace(state, phase="over", winner=0, won_by="centre")
    assert all(s.hand is not None for s in GAME.view(finished, None).seats)
    assert msgspec.json.decode(msgspec.json.encode(mine), type=GAME.view_type) == mine
