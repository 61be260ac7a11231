"""Itchy Feet: The Travel Game: collect the objects of your country, then of the centre one.

Rules page and rulings: docs/games/itchy-feet.md.
"""

from __future__ import annotations

from domain import words
from domain.engine import Game
from domain.itchy_feet.cards import CARD_FILE
from domain.itchy_feet.commands import Command, DiscardDownToSeven
from domain.itchy_feet.events import Event
from domain.itchy_feet.moves import moves
from domain.itchy_feet.rules import awaited, deadlines, decide, evolve, setup
from domain.itchy_feet.scoring import ItchyOutcome, outcome, standing
from domain.itchy_feet.state import Options, State, initial
from domain.itchy_feet.strategy import STRATEGY
from domain.itchy_feet.views import ItchyView, redact, view

GAME: Game[State, Command, Event, ItchyOutcome] = Game(
    id="itchy-feet",
    title="Itchy Feet: The Travel Game",
    min_players=2,
    max_players=6,
    options_type=Options,
    command_type=Command,
    event_type=Event,
    view_type=ItchyView,
    outcome_type=ItchyOutcome,
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
    deadlines=deadlines,
    # a hand-limit discard of a card every seat knows the hand holds, the seat's turn next, is the one
    # step that may be taken back (docs/table-services.md): the table judges no other
    undoable=frozenset({DiscardDownToSeven}),
    rules_version=2,  # 2: Pass the Souvenir passes every card at once, then counts postcards
    strategy=STRATEGY,
    words=words.read(__package__),
)

__all__ = ["GAME"]
