"""Every size the reliability and security suites use, in one place.

CI size by default; the soak size (the issue's numbers) with ``LUDOTECA_SOAK=1``.
docs/reliability.md gives the figures each size measured.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

SOAK = os.environ.get("LUDOTECA_SOAK") == "1"


@dataclass(frozen=True)
class Sizes:
    replicas: int = 3
    # (1) concurrency: racing clients per round, rounds in all, games at once
    race_clients: int = 5
    race_rounds: int = 400
    race_games: int = 8
    # (1) retries: commands, each sent 3 times under one command id
    retried_commands: int = 600
    # (2) replicas killed with SIGKILL under load
    server_kills: int = 20
    crash_games: int = 6
    # (3) Redis killed with SIGKILL and restarted under load, per appendfsync setting
    redis_cycles: int = 10
    redis_games: int = 4
    # (3) failovers of Redis Sentinel and of Redis Cluster (a primary killed with SIGKILL), games played through them
    failovers: int = 2
    failover_games: int = 3
    # (4) lost writes: rollbacks of the append-only file
    rollbacks: int = 3
    # (5) network faults between a replica and Redis
    fault_rounds: int = 3
    # (7) random games attacked by the leak oracle, per game in GAMES (4 games: 100 in CI, 2,000 soaked)
    leak_games: int = 25
    # (7) twin games per game in GAMES whose notifications (webhook and email bodies) are compared
    twin_games: int = 16
    # (7) timing: twin decisions per window kind, and answers timed per side of each comparison
    timing_twins: int = 12
    timing_decisions: int = 120
    # (11) notifications: rounds in which the replicas are killed while a delivery is under way
    notice_kills: int = 2
    # (9) abuse: messages in the flood, idle sockets held open
    flood_messages: int = 1000
    idle_sockets: int = 500


CI = Sizes()
FULL = Sizes(
    race_clients=50,
    race_rounds=1000,
    race_games=20,
    retried_commands=10_000,
    server_kills=200,
    crash_games=10,
    redis_cycles=100,
    redis_games=6,
    failovers=20,
    failover_games=6,
    rollbacks=20,
    fault_rounds=20,
    leak_games=500,
    twin_games=200,
    timing_twins=100,
    timing_decisions=1000,
    flood_messages=1000,
    idle_sockets=10_000,
    notice_kills=30,
)
SIZE = FULL if SOAK else CI


def limit(ci_seconds: float) -> float:
    """A test's timeout: its CI budget, scaled up for the soak run."""
    return ci_seconds * 60 if SOAK else ci_seconds
