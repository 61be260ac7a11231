"""Os Incríveis Parques de Miss Liz: build an amusement park on a grid of your own.

Buildings work only when staffed and joined to the Entrance by streets; adjacency pays.
Rules page and rulings: docs/games/miss-liz-parks.md.
"""

from __future__ import annotations

from domain import words
from domain.engine import Game
from domain.miss_liz_parks.commands import Command
from domain.miss_liz_parks.components import COMPONENTS
from domain.miss_liz_parks.events import Event
from domain.miss_liz_parks.moves import moves
from domain.miss_liz_parks.rules import awaited, decide, evolve, setup
from domain.miss_liz_parks.scoring import ParkOutcome, outcome, standing
from domain.miss_liz_parks.state import RULES, Options, State, initial
from domain.miss_liz_parks.strategy import STRATEGY
from domain.miss_liz_parks.views import ParkGameView, redact, view

GAME: Game[State, Command, Event, ParkOutcome] = Game(
    id="miss-liz-parks",
    title="Os Incríveis Parques de Miss Liz",
    min_players=2,
    max_players=5,
    options_type=Options,
    command_type=Command,
    event_type=Event,
    view_type=ParkGameView,
    outcome_type=ParkOutcome,
    initial=initial,
    setup=setup,
    decide=decide,
    evolve=evolve,
    view=view,
    redact=redact,
    moves=moves,
    awaited=awaited,
    outcome=outcome,
    standing=standing,
    components=COMPONENTS,
    rules_version=RULES,
    strategy=STRATEGY,
    words=words.read(__package__),
)

__all__ = ["GAME"]
