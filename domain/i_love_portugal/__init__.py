"""I Love Portugal: a deck-building game on the map of Portugal; buy photos of its regions.

Rules page and rulings: docs/games/i-love-portugal.md.
"""

from __future__ import annotations

from domain import words
from domain.engine import Game
from domain.i_love_portugal.cards import BOARD
from domain.i_love_portugal.commands import Command
from domain.i_love_portugal.events import Event
from domain.i_love_portugal.rules import awaited, decide, evolve, moves, setup
from domain.i_love_portugal.scoring import PortugalOutcome, outcome
from domain.i_love_portugal.state import RULES, PortugalOptions, State, initial, played_by
from domain.i_love_portugal.strategy import STRATEGY
from domain.i_love_portugal.views import PortugalView, redact, view

GAME: Game[State, Command, Event, PortugalOutcome] = Game(
    id="i-love-portugal",
    title="I Love Portugal",
    min_players=2,
    max_players=5,
    options_type=PortugalOptions,
    command_type=Command,
    event_type=Event,
    view_type=PortugalView,
    outcome_type=PortugalOutcome,
    initial=initial,
    setup=setup,
    decide=decide,
    evolve=evolve,
    view=view,
    redact=redact,
    moves=moves,
    awaited=awaited,
    outcome=outcome,
    components=BOARD,
    rules_version=RULES,  # 2: Selfie 3 EUR, Album 5 EUR; 3: no photo in 12 rounds ends the game (state.py)
    played_by=played_by,
    strategy=STRATEGY,
    words=words.read(__package__),
)

__all__ = ["GAME"]
