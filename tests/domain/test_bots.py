"""Bots: each picks a legal command, greedy beats random at every game, and greedy does not
peek: permuting the cards hidden from its seat never changes its choice."""

from __future__ import annotations

import random

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.bots import BOTS, duel, greedy_bot
from domain.catalog import GAMES
from domain.table import status
from tests.domain.contract import accepted
from tests.projections.test_no_leak import ENCODE, interchangeable, play, received, strings_of, swap, tables

DUEL_GAMES = 20  # per game, greedy sitting first in half of them


@pytest.mark.parametrize("game_id", sorted(GAMES))
@pytest.mark.parametrize("bot", sorted(BOTS))
def test_a_bot_picks_a_legal_command_or_none(game_id: str, bot: str) -> None:
    game = GAMES[game_id]
    log = play(game, 3, 7, 25)
    table = list(tables(game, log))[-1]
    for seat in range(3):
        choice = BOTS[bot](game, table.state, seat, random.Random(seat))
        assert (choice is None) == game.step(table.state, seat).empty
        assert choice is None or accepted(game, table.state, choice, seat)


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_greedy_beats_random_in_most_games(game_id: str) -> None:
    figure = duel(GAMES[game_id], DUEL_GAMES)
    assert figure.unfinished == 0, "a game between bots ends"
    assert figure.greedy > DUEL_GAMES // 2, figure


@pytest.mark.parametrize("game_id", sorted(GAMES))
@given(data=st.data())
def test_greedy_chooses_the_same_whatever_is_hidden_from_its_seat(game_id: str, data: st.DataObject) -> None:
    game = GAMES[game_id]
    players = data.draw(st.integers(game.min_players, game.max_players), label="players")
    log = play(game, players, data.draw(st.integers(0, 2**32), label="seed"), data.draw(st.integers(0, 80)))
    final = list(tables(game, log))[-1]
    if status(game, final) != "active":
        return
    acting = [s for s in range(players) if not game.step(final.state, s).empty]
    seat = data.draw(st.sampled_from(acting), label="seat")
    plain = received(game, log, seat, [])
    hidden = sorted(s for s in strings_of(msgspec.to_builtins(log)) if ENCODE(s) not in plain)
    groups = interchangeable(log, hidden)
    if not groups:
        return
    group = data.draw(st.sampled_from(groups), label="pile")
    renamed = dict(zip(group, data.draw(st.permutations(group), label="permuted"), strict=True))
    other = list(tables(game, swap(game, log, renamed)))[-1]
    seed = data.draw(st.integers(0, 2**32), label="bot seed")
    mine = greedy_bot(game, final.state, seat, random.Random(seed))
    theirs = greedy_bot(game, other.state, seat, random.Random(seed))
    assert ENCODE(mine) == ENCODE(theirs)
