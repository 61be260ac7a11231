"""The strong bot: information-set Monte Carlo tree search over imagined worlds.

Single-observer ISMCTS (Cowling, Powley and Whitehouse 2012, "Information Set Monte Carlo Tree
Search"): one tree for the searching seat's information set; each iteration deals a new world
the seat cannot tell from the real one (world.py), walks the tree in that world, grows it by one
node, and backs up what it found. A node is a point of play reached by a sequence of commands;
its edges are the commands of the seat that moves there, and only those legal in the world at
hand are considered (UCB over availability counts, as the paper does).

- **Commands through the picks.** A node's commands are ``candidates`` (greedy.py): every
  command of each kind of move when it has few, random walks through its picks when it has many,
  and the game's proposals. Commands first met in another world join the node when met.
- **Priors from the game's points.** A command met for the first time is played once at once
  and scored for the seat that moves (its standing, turned into a reward); that counts as its
  first visit. So every seat of the tree, the opponents too, starts from what greedy would play,
  and the search spends its budget below the commands that look best.
- **Progressive widening.** At a node visited ``n`` times only the ``WIDEN * sqrt(n)`` best
  commands by that first score are open to UCB: with a small budget the search stays narrow and
  deep instead of trying every card once.
- **Rewards.** A state is judged once its open windows are settled as greedy settles them
  (greedy.py ``answered``: a trade's target answers as greedy would, a reaction window closes
  unanswered; judged at the window, every action looked alike). A finished game pays each winner
  ``1/k`` (k winners) and the others nothing; an unfinished one pays each seat
  ``sigmoid(lead / spread)``, its lead being its points less the best opponent's weighed by the
  game's rivalry (``Strategy.points``, ``rivalry`` and ``spread``). Each seat picks by its own
  reward (max-n).
- **Budget.** ``level`` sets how many commands the search may play in imagined worlds:
  ``PLAYS * 2 ** (level - 1)``; the root's own choice is the most visited command. An optional
  ``clock`` and ``seconds`` (the caller's: the domain has no clock of its own) stop it earlier.

No peeking: the root's commands come from the seat's own step, every other thing from imagined
worlds, all chance from the rng given; two real states the seat cannot tell apart give the same
choice for the same rng (tests/domain/test_bots.py).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from domain.bots.greedy import after, answered, answerer, candidates, closed, lead, points, rivalry, unanswered
from domain.bots.world import Hidden, SeededRng
from domain.engine import AnyGame, Rng, Seat

PLAYS = 1000  # commands played in imagined worlds at level 1; each level doubles it
LEVELS = (1, 2, 3, 4, 5)
LEVEL = 3  # the default
EXPLORE = 0.5  # UCB's exploration constant (rewards lie in [0, 1])
WIDEN = 2.0  # commands open to UCB at a node visited n times: WIDEN * sqrt(n), at least 1
DEPTH = 40  # commands below the root at most, in one iteration
ASKED, TAKEN = 6, 1 / 3  # an offer is made only if taken in a third of 6 imagined worlds
FEW, WALKS = 16, 6  # a node's candidates: kinds of move with at most FEW commands whole, else WALKS walks


class Edge:
    """One command at a node: its first score (the prior), visits, availability, rewards by seat."""

    __slots__ = ("available", "command", "node", "prior", "total", "visits")

    def __init__(self, command: Any, prior: float, rewards: list[float]) -> None:
        self.command = command
        self.prior = prior
        self.visits = 1  # its first play counts as a visit
        self.available = 1
        self.total = list(rewards)
        self.node: Node | None = None


class Node:
    """A point of play: the commands of the seat that moves there, as met so far."""

    __slots__ = ("edges", "visits")

    def __init__(self) -> None:
        self.edges: dict[Any, Edge] = {}
        self.visits = 0


def rewards(game: AnyGame, state: Any, spread: float) -> list[float]:
    """What each seat makes of ``state``: a finished game's share of the win, else a sigmoid of its lead."""
    result = game.outcome(state)
    if result is not None:
        share = 1 / len(result.winners) if result.winners else 0.0
        return [share if s in result.winners else 0.0 for s in range(state.players)]
    mine = points(game, state)
    weight = rivalry(game)
    out = []
    for s in range(len(mine)):
        ahead = lead(mine, s, weight)
        out.append(1 / (1 + math.exp(-max(-30.0, min(30.0, ahead / spread)))))
    return out


class Search:
    """One decision's search: the tree, the worlds and the budget."""

    def __init__(
        self,
        game: AnyGame,
        state: Any,
        seat: Seat,
        rng: Rng,
        plays: int,
        clock: Callable[[], float] | None = None,
        seconds: float | None = None,
    ) -> None:
        self.game, self.seat, self.rng = game, seat, rng
        self.spread = game.strategy.spread if game.strategy is not None else 10.0
        self.hidden = Hidden(game, state, seat)
        self.plays_left = plays
        self.clock, self.seconds = clock, seconds
        self.started = clock() if clock is not None else 0.0
        self.root = Node()
        self.root_commands = [c for c in candidates(game, state, seat, rng) if not self.long_shot(state, c)]

    def long_shot(self, state: Any, command: Any) -> bool:
        """Whether ``command`` opens a window one seat answers that, unanswered, gives the move
        back to this seat (a trade offer), and that the seat takes in fewer than ``TAKEN`` of
        ``ASKED`` imagined worlds, greedy answering. In the tree
        a refusal costs nothing (the seat moves again), so every offer looked worth making; at a
        table it costs the others' time, and a player asks for what it expects to get."""
        taken = 0
        for _ in range(ASKED):
            world = self.hidden.world(self.rng)
            then = after(self.game, world, command, self.seat, SeededRng(self.rng.randrange(2**32)))
            if then is None or answerer(self.game, then) is None:
                return False  # no window one seat answers (in every world alike: a window is public)
            lapsed = unanswered(self.game, then, SeededRng(0))
            if all(a.seat != self.seat for a in self.game.awaited(lapsed)):
                return False  # unanswered, the move goes ahead (a reaction window): not an offer
            taken += answered(self.game, then, SeededRng(0)) != lapsed
        return taken < TAKEN * ASKED

    def out_of_time(self) -> bool:
        if self.plays_left <= 0:
            return True
        return self.clock is not None and self.seconds is not None and self.clock() - self.started >= self.seconds

    def play(self, world: Any, command: Any, seat: Seat) -> Any | None:
        self.plays_left -= 1
        return after(self.game, world, command, seat, SeededRng(self.rng.randrange(2**32)))

    def worth(self, state: Any) -> list[float]:
        """Each seat's reward for ``state``, judged once its open windows are settled (as greedy
        judges a move): a move that waits for an answer is worth what it does, not the pause."""
        return rewards(self.game, answered(self.game, state, self.rng), self.spread)

    def mover(self, state: Any) -> Seat | None:
        """The seat that moves next in ``state`` (the first awaited one that has a move)."""
        for awaited in sorted({a.seat for a in self.game.awaited(state)}):
            if not self.game.moves(state, awaited, ()).empty:
                return awaited
        return None

    def grow(self, node: Node, state: Any, seat: Seat, commands: list[Any]) -> tuple[list[Edge], dict[Any, Any]]:
        """The edges of ``commands`` at ``node`` (those decide takes here), each command met for the
        first time played once and scored; the states those first plays reached."""
        edges, reached = [], {}
        for command in commands:
            key = (seat, command)
            edge = node.edges.get(key)
            if edge is None:
                then = self.play(state, command, seat)
                if then is None:
                    continue  # refused in this world
                scored = self.worth(then)
                edge = node.edges[key] = Edge(command, scored[seat], scored)
                reached[key] = then
            edges.append(edge)
        return edges, reached

    def choose(self, node: Node, edges: list[Edge], seat: Seat) -> Edge:
        """UCB among the best ``WIDEN * sqrt(n)`` edges by prior, of those available here."""
        node.visits += 1
        for edge in edges:
            edge.available += 1
        room = max(1, int(WIDEN * math.sqrt(node.visits)))
        open_ = sorted(edges, key=lambda e: -e.prior)[:room] if len(edges) > room else edges

        def ucb(edge: Edge) -> float:
            return edge.total[seat] / edge.visits + EXPLORE * math.sqrt(math.log(edge.available) / edge.visits)

        return max(open_, key=ucb)

    def iterate(self) -> None:
        """One iteration: a new world, down the tree, one node more, rewards back up."""
        state = self.hidden.world(self.rng)
        node, path = self.root, []
        for depth in range(DEPTH):
            if self.game.outcome(state) is not None:
                break
            seat = self.seat if depth == 0 else self.mover(state)
            if seat is None:  # only a window's deadline moves the game on
                state = closed(self.game, state, self.rng)
                if state is None:
                    return
                continue
            commands = self.root_commands if depth == 0 else candidates(self.game, state, seat, self.rng, FEW, WALKS)
            edges, reached = self.grow(node, state, seat, commands)
            if not edges:
                break
            edge = self.choose(node, edges, seat)
            path.append(edge)
            then = reached.get((seat, edge.command)) or self.play(state, edge.command, seat)
            if then is None:
                break
            state = then
            if edge.node is None:  # the tree grows by this node; its worth for now is where it leads
                edge.node = Node()
                break
            node = edge.node
        value = self.worth(state)
        for edge in path:
            edge.visits += 1
            for s, v in enumerate(value):
                edge.total[s] += v

    def best(self) -> Any:
        """The most visited command at the root (the better mean breaks a tie)."""
        while not self.out_of_time():
            self.iterate()
        edges = [e for c in self.root_commands if (e := self.root.edges.get((self.seat, c))) is not None]
        if not edges:
            return self.root_commands[0]
        top = max(edges, key=lambda e: (e.visits, e.total[self.seat] / e.visits))
        return top.command


def strong(
    game: AnyGame,
    state: Any,
    seat: Seat,
    rng: Rng,
    level: int = LEVEL,
    clock: Callable[[], float] | None = None,
    seconds: float | None = None,
) -> Any:
    """The command the search finds best for ``seat`` (``None`` when it has no move, which is
    public: the seat is not awaited). It searches its whole budget even when the seat has one
    command: answering at once would tell the table what it holds (a target that lacks the cards
    asked has only the refusal; a seat with no Mousetrap only the pass)."""
    search = Search(game, state, seat, rng, PLAYS * 2 ** (level - 1), clock, seconds)
    if not search.root_commands:
        return None
    return search.best()
