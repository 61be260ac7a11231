"""Undo as compensating facts (domain/undo.py): a seat takes back its own steps within
its turn, never past a draw, a reveal or another seat's part."""

from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.catalog import GAMES
from domain.engine import FULL, AnyGame, Awaited, Ctx, Rejected, fold
from domain.itchy_feet.commands import AcceptTrade, DiscardDownToSeven, OfferTrade
from domain.table import (
    MOST_UNDOS,
    StepsUndone,
    Table,
    Undo,
    Undoable,
    decide,
    evolve,
    open_table,
    status,
    take_seat,
    undo_versions,
)
from domain.undo import RecordingRng, _strings, can_undo
from domain.vilar_de_mouros.commands import DrawFromCentre

from .itchy_feet import helpers as itchy

UNDOABLE_GAMES = ["i-love-portugal", "miss-liz-parks", "vilar-de-mouros"]


def started(game: AnyGame, players: int, rng: random.Random) -> tuple[Table, list[Any]]:
    log: list[Any] = [open_table(game, players, {})]
    table = evolve(game, None, log[0])
    for _ in range(players):
        for event in take_seat(game, table, None, "", None, Ctx(rng=rng)):
            log.append(event)
            table = evolve(game, table, event)
    return table, log


def step(game: AnyGame, table: Table, log: list[Any], seat: int, command: Any, rng: random.Random) -> Table:
    for event in decide(game, table, command, seat, Ctx(rng=rng)):
        log.append(event)
        table = evolve(game, table, event)
    return table


def some_commands(game: AnyGame, table: Table, rng: random.Random) -> list[tuple[int, Any]]:
    """One random complete command of each seat that has one (a move may combine cells or cards
    past listing every command: Miss Liz's streets)."""
    return [(s, c) for s in range(table.players) if (c := game.random_command(table.state, s, rng)) is not None]


def until_undoable(game: AnyGame, seed: int) -> tuple[Table, Table, list[Any], int]:
    """Play randomly until a step is marked undoable; the tables before and after it."""
    rng = random.Random(seed)
    table, log = started(game, 2, rng)
    for _ in range(5000):
        assert status(game, table) == "active"
        seat, command = rng.choice(some_commands(game, table, rng))
        before, mark = table, len(log)
        table = step(game, table, log, seat, command, rng)
        if isinstance(log[mark], Undoable):
            return before, table, log, seat
    raise AssertionError("no undoable step")


@pytest.mark.parametrize("kind", UNDOABLE_GAMES)
def test_a_seat_takes_back_its_last_step_and_the_game_is_as_it_was(kind: str) -> None:
    game = GAMES[kind]
    before, table, _, seat = until_undoable(game, 1)
    assert undo_versions(table, seat) == [before.version]
    undone = decide(game, table, Undo(), seat, Ctx(rng=random.Random()))
    assert undone == [StepsUndone(seat=seat, version=before.version)]
    back = evolve(game, table, undone[0])
    assert back.state == before.state
    assert back.version == table.version + 1  # the steps stay in the log, followed by their undoing
    for viewer in (None, FULL, *range(2)):
        assert game.view(back.state, viewer) == game.view(before.state, viewer)
    assert undo_versions(back, seat) == []


def test_several_steps_of_one_turn_are_taken_back_to_a_chosen_version() -> None:
    game = GAMES["i-love-portugal"]  # moving the tourist circle by circle: many steps in one turn
    rng = random.Random(2)
    table, log = started(game, 2, rng)
    marks: list[tuple[int, Any]] = []
    for _ in range(5000):
        seat, command = rng.choice([(s, c) for s in range(2) for c in game.commands(table.state, s)])
        before = table
        size = len(log)
        table = step(game, table, log, seat, command, rng)
        if isinstance(log[size], Undoable):
            marks.append((before.version, before.state))
            if len(marks) == 3:
                break
        else:
            marks.clear()
    assert len(marks) == 3
    version, state = marks[0]
    back = evolve(game, table, decide(game, table, Undo(version=version), seat, Ctx(rng=rng))[0])
    assert back.state == state and back.checkpoints == ()


def test_an_undo_to_a_version_that_is_not_a_step_of_this_turn_is_refused() -> None:
    game = GAMES["miss-liz-parks"]
    before, table, _, seat = until_undoable(game, 3)
    with pytest.raises(Rejected) as refused:
        decide(game, table, Undo(version=before.version - 1), seat, Ctx(rng=random.Random()))
    assert refused.value.code == "cannot_undo"
    with pytest.raises(Rejected) as not_yours:
        decide(game, table, Undo(), 1 - seat, Ctx(rng=random.Random()))
    assert not_yours.value.code == "nothing_to_undo"


@pytest.mark.parametrize("kind", sorted(GAMES))
def test_no_undo_past_a_card_drawn_in_secret(kind: str) -> None:
    """A step that draws on randomness or shows someone a hidden card starts the turn afresh."""
    game = GAMES[kind]
    rng = random.Random(4)
    table, log = started(game, 2, rng)
    for _ in range(5000):
        seat, command = rng.choice(some_commands(game, table, rng))
        size = len(log)
        table = step(game, table, log, seat, command, rng)
        secret = any(game.redact(e, v) != e for e in log[size:] for v in (None, 0, 1))
        if secret and status(game, table) == "active":
            assert not isinstance(log[size], Undoable)
            assert table.checkpoints == ()
            with pytest.raises(Rejected) as refused:
                decide(game, table, Undo(), seat, Ctx(rng=rng))
            assert refused.value.code == "nothing_to_undo"
            return
    raise AssertionError("no secret step")


def test_itchy_feet_takes_back_only_a_hand_limit_discard_that_shows_nothing() -> None:
    """Every action of Itchy Feet ends the turn or involves another seat. A hand-limit discard may
    leave the seat to play on (its turn comes next): it can be taken back when the card was known
    to be in the hand (received in a trade), which shows nobody anything; a card nobody else knew
    of shows it. So the game lists only that command as ``undoable``."""
    game = GAMES["itchy-feet"]
    assert game.undoable == frozenset({DiscardDownToSeven})
    state, _ = itchy.start(3)
    seat = state.current
    assert seat is not None
    target = (seat + 1) % 3  # the next seat: its turn follows the discard
    give = itchy.spare_objects(state, 2)
    own = itchy.spare_objects(state, 7, avoid=give)
    state = itchy.arrange(state, hands={seat: give, target: own})
    state, _ = itchy.play(state, OfferTrade(target=target, give=tuple(give), ask=(itchy.kind(own[0]),)))
    state, _ = itchy.play(state, AcceptTrade(), target)
    assert game.awaited(state) == [Awaited(seat=target, reason="discard")]
    received = next(c for c in give if c in state.hands[target])
    unknown = next(c for c in own if c in state.hands[target])
    for card, verdict in ((received, True), (unknown, False)):
        events = game.decide(state, DiscardDownToSeven(card=card), target, Ctx(rng=random.Random(0)))
        assert can_undo(game, 3, target, state, events, False) is verdict, card


@settings(max_examples=15, deadline=None)
@given(kind=st.sampled_from(UNDOABLE_GAMES), seed=st.integers(0, 10**6))
def test_random_games_with_undos_reach_their_end_and_every_undo_restores_its_checkpoint(kind: str, seed: int) -> None:
    game = GAMES[kind]
    rng = random.Random(seed)
    table, log = started(game, 2, rng)
    undos = 0
    for _ in range(20_000):
        if status(game, table) != "active":
            break
        choices = some_commands(game, table, rng)
        choices += [(s, Undo()) for s in range(2) if undo_versions(table, s)]
        seat, command = rng.choice(choices)
        if isinstance(command, Undo):
            if undos >= 50:  # enough: let the game end
                continue
            undos += 1
            target = next(c for c in reversed(table.checkpoints) if c.seat == seat)
            table = step(game, table, log, seat, command, rng)
            assert table.state == target.state
            continue
        table = step(game, table, log, seat, command, rng)
    assert status(game, table) == "finished"
    replayed = None
    for event in log:
        replayed = evolve(game, replayed, event)
    assert replayed == table


def test_a_turn_may_take_steps_back_at_most_most_undos_times() -> None:
    """Vilar de Mouros: draw a card from the centre, take it back, again and again: the fourth
    undo of the turn is refused, so the loop cannot grow the log while the game stands still."""
    game = GAMES["vilar-de-mouros"]
    rng = random.Random(3)
    table, log = started(game, 2, rng)
    while not (table.state.centre and table.state.phase == "action"):  # a turn with a centre card to draw
        table = step(game, table, log, *rng.choice(some_commands(game, table, rng)), rng)
    seat, card = table.state.current, table.state.centre[0]
    for _ in range(MOST_UNDOS):
        table = step(game, table, log, seat, DrawFromCentre(card=card), rng)
        assert undo_versions(table, seat)
        table = step(game, table, log, seat, Undo(), rng)
    table = step(game, table, log, seat, DrawFromCentre(card=card), rng)
    assert undo_versions(table, seat) == []  # a frontend hides its undo button
    with pytest.raises(Rejected) as refused:
        decide(game, table, Undo(), seat, Ctx(rng=rng))
    assert refused.value.code == "undo_limit" and f"{MOST_UNDOS} times this turn" in refused.value.message


@pytest.mark.parametrize("kind", UNDOABLE_GAMES)
def test_the_undo_count_starts_again_after_a_step_that_cannot_be_taken_back(kind: str) -> None:
    game = GAMES[kind]
    _, table, log, seat = until_undoable(game, 1)
    table = msgspec.structs.replace(table, undos=MOST_UNDOS)
    assert undo_versions(table, seat) == []
    rng = random.Random(5)
    for _ in range(200):
        mark = len(log)
        who, command = rng.choice(some_commands(game, table, rng))
        table = step(game, table, log, who, command, rng)
        if not isinstance(log[mark], Undoable):
            break
    assert table.undos == 0


def undoable_as_stated(game: AnyGame, players: int, seat: int, before: Any, events: list[Any], drew: bool) -> bool:
    """The rule of domain/undo.py's docstring, stated plainly with whole views: slow, but plainly right."""
    if drew or not events or [a.seat for a in game.awaited(before)] != [seat]:
        return False
    if any(game.redact(e, v) != e for e in events for v in (None, *range(players))):
        return False
    after = fold(game.evolve, before, events)
    if [a.seat for a in game.awaited(after)] != [seat] or game.outcome(after) is not None:
        return False
    public, full = (msgspec.json.encode(game.view(before, v)) for v in (None, FULL))
    if any(name not in public and name in full for name in _strings(events)):
        return False  # the events name a thing the spectator could not see
    seen = msgspec.json.encode(game.view(before, seat))
    return not any(name not in seen and name in full for name in _strings(game.view(after, seat)))


@settings(max_examples=10, deadline=None)
@given(kind=st.sampled_from(sorted(GAMES)), seed=st.integers(0, 10**6))
def test_the_undo_check_gives_the_verdict_of_the_rule_stated_plainly_at_every_step(kind: str, seed: int) -> None:
    """``can_undo`` looks only at what a step changed, cheapest checks first; on every step of
    random games of every kind its verdict is the whole-view rule's."""
    judge_every_step(kind, seed)


@settings(max_examples=10, deadline=None)
@given(kind=st.sampled_from(sorted(k for k, g in GAMES.items() if g.undoable is not None)), seed=st.integers(0, 10**6))
def test_a_game_that_lists_what_may_be_undone_leaves_out_nothing_the_check_allows(kind: str, seed: int) -> None:
    """The table asks the check only of the command types a game lists as ``undoable``: on every
    step of random games, a step the check allows is of a listed type."""
    judge_every_step(kind, seed)


def judge_every_step(kind: str, seed: int) -> None:
    game = GAMES[kind]
    rng = random.Random(seed)
    players = rng.randint(game.min_players, game.max_players)
    table, _ = started(game, players, rng)
    for _ in range(400):
        choices = some_commands(game, table, rng) if status(game, table) == "active" else []
        if not choices:
            break
        seat, command = rng.choice(choices)
        recording = RecordingRng(random.Random(seed))
        events = game.decide(table.state, command, seat, Ctx(rng=recording))
        verdict = can_undo(game, players, seat, table.state, events, recording.used)
        assert verdict == undoable_as_stated(game, players, seat, table.state, events, recording.used)
        if verdict and game.undoable is not None:
            assert type(command) in game.undoable, f"{game.id}: {command!r} was undoable"
        table = step(game, table, [], seat, command, rng)
