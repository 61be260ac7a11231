"""Every game as a multi-agent reinforcement-learning environment: PettingZoo's AEC API on the
same rules the server runs (docs/bots.md, "The games as an environment").

- **Agents**: ``seat_0`` ... ``seat_<n-1>``; the one to act (``agent_selection``) is the first
  seat the game awaits that has a move; a window nobody can answer closes on its deadline by
  itself, as the server's clock closes it.
- **Actions**: a move is built pick by pick, as every client builds it (docs/architecture.md,
  "Moves are built, not listed"): action ``i`` takes option ``i`` of the seat's step, action
  ``SEND`` (the last) sends the command the picks already make. A pick that completes a command
  plays it. ``action_mask`` marks the options offered and, when the picks make a command,
  ``SEND``: legal moves from move building.
- **Observations**: the seat's information state, what its seat may see and nothing else: its
  view of the game (``game.view``: its own hand, the public table, what it has seen go into the
  other hands where the game keeps that) and the picks it has made of the move under way, as
  JSON bytes, zero-padded to ``OBSERVATION_BYTES``. Two states that differ only in a card hidden
  from the seat give the same observation (tests/projections/test_environment.py).
- **Rewards**: from the outcome, when the game ends: each winner ``1 / k`` (k winners), the
  others 0; nothing before. A game that runs past ``max_commands`` is truncated.

Pure: no I/O; chance from the rng ``reset(seed)`` makes. pettingzoo and gymnasium come with the
``rl`` extra (``pip install -e '.[rl]'``); nothing the server runs imports this module.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import msgspec
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from domain.catalog import GAMES
from domain.engine import CLOCK, Ctx, Pick
from domain.table import decide_game, open_table, take_seat
from domain.table import evolve as evolve_table

MOST_OPTIONS = 300  # a step offers at most a few hundred options (the move contract's bound)
SEND = MOST_OPTIONS  # the action that sends the command the picks make
OBSERVATION_BYTES = 16_384  # a seat's view as JSON: 7 KB at most in random games of every game
MAX_COMMANDS = 20_000


class GameEnv(AECEnv):  # type: ignore[misc]
    """One game of the catalog at a table of ``players`` seats, with the table's ``options``."""

    metadata: ClassVar[dict[str, Any]] = {"name": "ludoteca_v0", "render_modes": [], "is_parallelizable": False}

    def __init__(
        self, game: str, players: int, options: dict[str, Any] | None = None, max_commands: int = MAX_COMMANDS
    ) -> None:
        super().__init__()
        self.game = GAMES[game]
        if not self.game.min_players <= players <= self.game.max_players:
            raise ValueError(f"{game} is for {self.game.min_players} to {self.game.max_players} players")
        self.players, self.options, self.max_commands = players, dict(options or {}), max_commands
        self.possible_agents = [f"seat_{s}" for s in range(players)]
        self.agents = list(self.possible_agents)
        self._observation = spaces.Dict(
            {
                "observation": spaces.Box(0, 255, (OBSERVATION_BYTES,), np.uint8),
                "action_mask": spaces.Box(0, 1, (SEND + 1,), np.int8),
            }
        )
        self._action = spaces.Discrete(SEND + 1)
        self.rng = random.Random()
        self.game_state: Any = None
        self.picks: tuple[Pick, ...] = ()
        self.commands = 0
        self.now = 0

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action

    # -- the game ---------------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.rng = random.Random(seed)
        ctx = Ctx(rng=self.rng)
        table = evolve_table(self.game, None, open_table(self.game, self.players, self.options))
        for _ in range(self.players):
            for event in take_seat(self.game, table, None, "", None, ctx):
                table = evolve_table(self.game, table, event)
        self.game_state, self.picks, self.commands, self.now = table.state, (), 0, 0
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._next()

    def _next(self) -> None:
        """Who acts now: the first awaited seat with a move (windows nobody answers close first)."""
        while True:
            if self.game.outcome(self.game_state) is not None:
                return self._end()
            for awaited in sorted({a.seat for a in self.game.awaited(self.game_state)}):
                if not self.game.moves(self.game_state, awaited, ()).empty:
                    self.agent_selection = self.possible_agents[awaited]
                    return None
            due = sorted(self.game.deadlines(self.game_state), key=lambda d: d.due_ms)
            if not due:  # nobody can move and nothing closes: a made-up position, truncated
                return self._end(truncated=True)
            self.now = max(self.now, due[0].due_ms)
            self._play(due[0].command, CLOCK)

    def _play(self, command: Any, seat: int) -> None:
        for event in decide_game(self.game, self.game_state, command, seat, Ctx(rng=self.rng, now_ms=self.now)):
            self.game_state = self.game.evolve(self.game_state, event)
        self.commands += 1

    def _end(self, truncated: bool = False) -> None:
        result = self.game.outcome(self.game_state)
        for s, agent in enumerate(self.possible_agents):
            if agent not in self.agents:
                continue
            if result is not None and s in result.winners:
                self.rewards[agent] = 1 / len(result.winners)
            self.terminations[agent] = result is not None
            self.truncations[agent] = truncated or result is None
        self._accumulate_rewards()
        self.agent_selection = self.agents[0] if self.agents else self.agent_selection

    # -- the AEC API ----------------------------------------------------------------------

    def _seat(self, agent: str) -> int:
        return self.possible_agents.index(agent)

    def observe(self, agent: str) -> dict[str, Any]:
        seat = self._seat(agent)
        seen = {"view": msgspec.to_builtins(self.game.view(self.game_state, seat)), "picks": []}
        if agent == self.agent_selection:
            seen["picks"] = [msgspec.to_builtins(p) for p in self.picks]
        raw = msgspec.json.encode(seen)[:OBSERVATION_BYTES]
        observation = np.zeros(OBSERVATION_BYTES, np.uint8)
        observation[: len(raw)] = np.frombuffer(raw, np.uint8)
        return {"observation": observation, "action_mask": self.mask(agent)}

    def mask(self, agent: str) -> Any:
        """The actions legal for ``agent`` now: the options of its step, and SEND when the picks
        make a command (nothing for a seat that is not to act)."""
        mask = np.zeros(SEND + 1, np.int8)
        if agent != self.agent_selection or self.terminations.get(agent) or self.truncations.get(agent):
            return mask
        step = self.game.moves(self.game_state, self._seat(agent), self.picks)
        mask[: len(step.options)] = 1
        mask[SEND] = step.command is not None
        return mask

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self._seat(agent)
        self._clear_rewards()
        self._cumulative_rewards[agent] = 0.0
        step = self.game.moves(self.game_state, seat, self.picks)
        if action is None or not (0 <= action < len(step.options) or (action == SEND and step.command is not None)):
            raise ValueError(f"action {action} is not legal for {agent} now (see its action_mask)")
        if action == SEND:
            command = step.command
        else:
            option = step.options[action]
            command = option.command
            if command is None:
                self.picks = (*self.picks, option.pick)
                return
        self.picks = ()
        self._play(command, seat)
        if self.commands >= self.max_commands and self.game.outcome(self.game_state) is None:
            self._end(truncated=True)
            return
        self._next()

    def render(self) -> None:
        return None

    def close(self) -> None:
        return None


def env(game: str, players: int = 2, options: dict[str, Any] | None = None, **kwargs: Any) -> GameEnv:
    """The environment of ``game`` (a game id of the catalog) at a table of ``players``."""
    return GameEnv(game, players, options, **kwargs)
