"""Every game this server hosts, by its id."""

from __future__ import annotations

from domain.engine import AnyGame
from domain.vilar_de_mouros import GAME as VILAR_DE_MOUROS

GAMES: dict[str, AnyGame] = {game.id: game for game in (VILAR_DE_MOUROS,)}
