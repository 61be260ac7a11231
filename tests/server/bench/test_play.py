"""The bench's games (server/bench/play.py): a table mid-play is stored as the server stores one."""

from __future__ import annotations

import random

import pytest

from domain.catalog import GAMES
from domain.fair import DeckCommitted
from domain.table import fold
from server.bench import play


@pytest.mark.parametrize("kind", sorted(GAMES))
def test_a_table_mid_play_is_opened_with_a_seed_and_carries_fair_plays_facts(kind: str) -> None:
    """The dormant and cached games' figures must count what a real table holds: the lobby opens
    every table with a seed, so its deals are committed and its random commands drawn from the
    table's own chance."""
    game = GAMES[kind]
    events = play.midplay(game, game.min_players, random.Random(1), 10)
    table = fold(game, None, events)
    assert table is not None and table.seed is not None and table.key is not None
    assert any(isinstance(e, DeckCommitted) for e in events)
    assert table.version == len(events) > 1 + game.min_players  # the opening, every seat, then play
