"""Vilar de Mouros: collect festival cards into collections of years, village, posters and stages.

Rules page and rulings: docs/games/vilar-de-mouros.md.
"""

from __future__ import annotations

from domain import words
from domain.engine import Game
from domain.vilar_de_mouros.cards import CARD_FILE
from domain.vilar_de_mouros.commands import Command, DrawFromCentre
from domain.vilar_de_mouros.events import Event
from domain.vilar_de_mouros.rules import awaited, decide, evolve, moves, setup
from domain.vilar_de_mouros.scoring import VilarOutcome, outcome, standing
from domain.vilar_de_mouros.state import Options, State, initial
from domain.vilar_de_mouros.strategy import STRATEGY
from domain.vilar_de_mouros.views import VilarView, redact, view

GAME: Game[State, Command, Event, VilarOutcome] = Game(
    id="vilar-de-mouros",
    title="Vilar de Mouros",
    min_players=2,
    max_players=6,
    options_type=Options,
    command_type=Command,
    event_type=Event,
    view_type=VilarView,
    outcome_type=VilarOutcome,
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
    components=CARD_FILE,
    strategy=STRATEGY,
    # A draw from the deck shows the drawer a hidden card; placing cards and taking a bonus end the turn.
    undoable=frozenset({DrawFromCentre}),
    words=words.read(__package__),
)

__all__ = ["GAME"]
