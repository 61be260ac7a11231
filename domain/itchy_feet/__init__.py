"""Itchy Feet: The Travel Game: collect the objects of your country, then of the centre one.

Rules page and rulings: docs/games/itchy-feet.md.
"""

from __future__ import annotations

from domain.engine import Game
from domain.itchy_feet.cards import CARD_FILE
from domain.itchy_feet.commands import Command
from domain.itchy_feet.events import Event
from domain.itchy_feet.rules import awaited, deadlines, decide, evolve, legal_commands, setup
from domain.itchy_feet.scoring import ItchyOutcome, outcome
from domain.itchy_feet.state import Options, State, initial
from domain.itchy_feet.views import ItchyView, redact, view
from domain.moves import from_list

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
    moves=from_list(
        legal_commands,
        {
            "target": "seat",
            "card": "card",
            "take": "card",
            "pay": "card",
            "give": "cards",
            "ask": "kinds",
            "country": "country",
            "forbidden": "card",
            "other": "card",
            "cards": "cards",
        },
    ),
    awaited=awaited,
    outcome=outcome,
    components=CARD_FILE,
    deadlines=deadlines,
)

__all__ = ["GAME"]
