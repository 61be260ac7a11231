"""A long game written straight into the store: thousands of events in a second or two,
where playing them over HTTP would take minutes."""

from __future__ import annotations

from typing import Any

from domain.catalog import GAMES
from server.service.codec import encode
from server.storage.store import Appended, EventStore
from tests.support.games import play_to_end

LONG_GAME = "itchy-feet"  # uniformly random play rarely ends it: it runs on to Game.most_events


def long_log(events: int, seed: int = 1) -> list[Any]:
    """The first ``events`` events of a random Itchy Feet game of four that ran to its most events."""
    log, _ = play_to_end(GAMES[LONG_GAME], 4, {}, seed)
    assert len(log) >= events, f"the game ended after {len(log)} events"
    return log[:events]


async def append_log(store: EventStore, game_id: str, log: list[Any], chunk: int = 500) -> None:
    """Append ``log`` to a new stream, ``chunk`` events an append."""
    game = GAMES[LONG_GAME]
    for start in range(0, len(log), chunk):
        result = await store.append(
            game_id, start, [encode(e) for e in log[start : start + chunk]], schema=game.event_schema
        )
        assert isinstance(result, Appended), result
