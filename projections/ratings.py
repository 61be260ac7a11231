"""What a finished rated table says of its players' ratings: each player's place among them, one per tenure.

A player who left a game under way (resigned, dropped, out of time: the table's bot played on
for it) places behind everyone who stayed, whatever the bot made of the seat, as does the
holder of a seat before it was taken over; the newcomer takes the seat's final place. Ties keep
their shared place. A table called off, or ended with no winner (too long), rates nobody.
"""

from __future__ import annotations

from domain.engine import AnyGame
from domain.table import Abandoned, Table, outcome, status


def standings(game: AnyGame, table: Table) -> list[tuple[str, int]] | None:
    """``(player id, place)`` for every tenure of a finished rated table (place 1 the best), or
    ``None`` when the table rates nobody."""
    if not table.rated or status(game, table) != "finished":
        return None
    ended = outcome(game, table)
    if ended is None or (isinstance(ended, Abandoned) and ended.reason != "resigned"):
        return None
    places = list(getattr(ended, "places", []))
    if len(places) != table.players:
        return None
    staying = [places[seat] for seat in range(table.players) if seat not in table.resigned]
    last = max(staying, default=0) + 1  # behind the worst of those who stayed
    found: list[tuple[str, int]] = []
    for seat, held in enumerate(table.seats):
        if held is None or held.player is None:
            continue
        found.append((held.player, last if seat in table.resigned else places[seat]))
    found += [(tenure.former, last) for tenure in table.tenures if tenure.former is not None]
    worst: dict[str, int] = {}
    for player, place in found:  # a player who left one seat and took over another: its worse place
        worst[player] = max(place, worst.get(player, 0))
    if len(worst) < 2:
        return None
    dense = {place: rank for rank, place in enumerate(sorted(set(worst.values())), start=1)}
    return [(player, dense[place]) for player, place in worst.items()]  # places among the players rated
