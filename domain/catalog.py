"""Every game this server hosts, by its id."""

from __future__ import annotations

from domain.engine import AnyGame
from domain.i_love_portugal import GAME as I_LOVE_PORTUGAL
from domain.itchy_feet import GAME as ITCHY_FEET
from domain.miss_liz_parks import GAME as MISS_LIZ_PARKS
from domain.vilar_de_mouros import GAME as VILAR_DE_MOUROS

GAMES: dict[str, AnyGame] = {game.id: game for game in (VILAR_DE_MOUROS, I_LOVE_PORTUGAL, ITCHY_FEET, MISS_LIZ_PARKS)}
