"""The seat guard, once for every game (domain/table/decide.py ``check_awaited``): a command from a
seat the game does not await is refused before the game's decide is asked, naming whom it
awaits; a seat awaited for something else gets the game's own answer; the clock is awaited
while the game has a window open."""

from __future__ import annotations

import random

import pytest

from domain.catalog import GAMES
from domain.engine import CLOCK, Ctx, Rejected
from domain.itchy_feet import GAME as ITCHY_FEET
from domain.itchy_feet.commands import Draw, OfferTrade
from domain.miss_liz_parks import GAME as MISS_LIZ_PARKS
from domain.table import Table, decide, evolve, fold, open_table, take_seat
from domain.vilar_de_mouros import GAME as VILAR_DE_MOUROS
from domain.vilar_de_mouros.commands import DrawFromDeck

from .itchy_feet.helpers import kind, play, rejection, start

NAMES = ("Ana", "Rui", "Eva")


def seated(kind: str, players: int = 3) -> Table:
    game = GAMES[kind]
    table = evolve(game, None, open_table(game, players, {}))
    ctx = Ctx(rng=random.Random(7))
    for seat in range(players):
        after = fold(game, table, take_seat(game, table, seat, NAMES[seat], None, ctx))
        assert after is not None
        table = after
    return table


def refusal(kind: str, table: Table, command: object, seat: int) -> Rejected:
    with pytest.raises(Rejected) as refused:
        decide(GAMES[kind], table, command, seat, Ctx(rng=random.Random(0)))
    return refused.value


@pytest.mark.parametrize("kind", sorted(GAMES))
def test_a_seat_the_game_does_not_await_is_refused_naming_whom_it_awaits(kind: str) -> None:
    game, table = GAMES[kind], seated(kind)
    awaited = [a.seat for a in game.awaited(table.state)]
    idle = next(s for s in range(3) if s not in awaited)
    command = game.random_command(table.state, awaited[0], random.Random(0))
    error = refusal(kind, table, command, idle)
    assert error.code == "not_your_turn" and error.details["awaiting"] == awaited
    assert error.message.startswith("It is not your turn: the game awaits ")
    assert all(NAMES[s] in error.message for s in awaited)
    if len(awaited) == 1:
        assert error.details["turn"] == awaited[0] and error.message.endswith(f"awaits {NAMES[awaited[0]]}.")


def test_every_seat_awaited_at_once_passes_the_guard() -> None:
    """Miss Liz's opening: every seat sets up its park at the same time, in any order."""
    table = seated("miss-liz-parks")
    while table.state.phase == "themes":
        (turn,) = MISS_LIZ_PARKS.awaited(table.state)
        command = MISS_LIZ_PARKS.random_command(table.state, turn.seat, random.Random(0))
        table = fold(MISS_LIZ_PARKS, table, decide(MISS_LIZ_PARKS, table, command, turn.seat, Ctx(random.Random(0))))  # type: ignore[assignment]
    awaited = [a.seat for a in MISS_LIZ_PARKS.awaited(table.state)]
    assert awaited == [0, 1, 2]
    for seat in reversed(awaited):
        command = MISS_LIZ_PARKS.random_command(table.state, seat, random.Random(seat))
        assert decide(MISS_LIZ_PARKS, table, command, seat, Ctx(rng=random.Random(0)))


def test_a_seat_awaited_for_something_else_gets_the_games_own_answer() -> None:
    """Itchy Feet: the target of a trade offer is awaited to answer it, not to take an action."""
    state, _ = start(3)
    seat = state.current
    assert seat is not None
    target = (seat + 1) % 3
    offer = OfferTrade(target=target, give=(state.hands[seat][0],), ask=(kind(state.hands[target][0]),))
    state, _ = play(state, offer)
    assert rejection(state, Draw(), target).code == "not_now"
    assert rejection(state, Draw(), (seat + 2) % 3).code == "not_your_turn"
    assert rejection(state, Draw(), seat).code == "not_your_turn"  # the offerer waits for the answer


def test_the_clock_is_refused_while_the_game_has_no_window_open() -> None:
    table = seated("vilar-de-mouros")
    error = refusal("vilar-de-mouros", table, DrawFromDeck(), CLOCK)
    assert error.code == "window_closed"
    assert VILAR_DE_MOUROS.deadlines(table.state) == [] and ITCHY_FEET.deadlines(start(3)[0]) == []
