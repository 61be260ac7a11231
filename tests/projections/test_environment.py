"""Every game as a PettingZoo environment (projections/environment.py): PettingZoo's own API test
passes for every game, the observation is the seat's information state (a twin state that differs
only in cards hidden from the seat gives the same observation), and docs/bots.md's random agent
runs a game of each to its end."""

from __future__ import annotations

import random
import re
from pathlib import Path

import numpy as np
import pytest
from pettingzoo.test import api_test

from domain.bots.world import Hidden
from domain.catalog import GAMES
from projections.environment import SEND, env

DOCS = Path(__file__).resolve().parents[2] / "docs" / "bots.md"
# A Dict observation holding the action mask is PettingZoo's own way for games with illegal moves.
DICT_OBSERVATION = [
    "ignore:Observation space for each agent probably should be:UserWarning",
    "ignore:Observation is not a NumPy array:UserWarning",
]


@pytest.mark.timeout(120)
@pytest.mark.parametrize("game", sorted(GAMES))
def test_pettingzoos_api_test_passes(game: str) -> None:
    with pytest.warns(UserWarning):  # only the two about the Dict observation (filtered below)
        api_test(env(game, GAMES[game].min_players), num_cycles=300)


for mark in DICT_OBSERVATION:
    test_pettingzoos_api_test_passes = pytest.mark.filterwarnings(mark)(test_pettingzoos_api_test_passes)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_twin_that_differs_only_in_hidden_cards_gives_the_same_observation(game: str) -> None:
    table = env(game, 3)
    table.reset(seed=4)
    rng = random.Random(4)
    twins = 0
    for _ in range(120):
        agent = table.agent_selection
        if table.terminations[agent] or table.truncations[agent]:
            break
        seat = table.possible_agents.index(agent)
        for other in table.possible_agents:
            mine = table.observe(other)
            hidden = Hidden(table.game, table.game_state, table.possible_agents.index(other))
            real, twin = table.game_state, hidden.world(rng)
            table.game_state = twin
            assert np.array_equal(table.observe(other)["observation"], mine["observation"]), other
            assert np.array_equal(table.observe(other)["action_mask"], mine["action_mask"]), other
            twins += twin != real
            table.game_state = real
        legal = np.flatnonzero(table.observe(agent)["action_mask"])
        assert legal.size, f"{agent} (seat {seat}) is to act with no legal action"
        table.step(int(rng.choice(legal)))
    assert twins > 0, "no twin differed from the real state: the test proved nothing"


def test_an_action_outside_the_mask_is_refused() -> None:
    table = env("vilar-de-mouros", 2)
    table.reset(seed=1)
    mask = table.observe(table.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(ValueError, match="not legal"):
        table.step(illegal)
    assert mask[SEND] in (0, 1)


@pytest.mark.timeout(300)
def test_the_random_agent_of_docs_bots_md_plays_every_game_to_its_end(capsys: pytest.CaptureFixture[str]) -> None:
    block = re.search(r"```python\n(# A random agent.*?)```", DOCS.read_text(), re.S)
    assert block, "docs/bots.md has the random agent's example"
    exec(compile(block.group(1), "docs/bots.md", "exec"), {})
    out = capsys.readouterr().out
    for game in GAMES:
        assert re.search(rf"^{game}: .* rewards ", out, re.M), out
