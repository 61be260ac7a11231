"""``ludoteca bench``: Ludoteca measured against the ceiling of each path it takes, in one run.

Each figure pairs a ceiling (what the same machine does on the same path with nothing of
Ludoteca around it: the Lua append alone, a bare Starlette endpoint, a raw WebSocket
broadcast, XRANGE + decode) with Ludoteca on that path, and their ratio; docs/performance.md
explains every figure and records a full run. Modules: ``run`` (the phases, and the ceilings over
the servers), ``inprocess`` and ``memory`` (the ceilings in process, and memory), ``load`` (bots,
sockets), ``client`` (HTTP and WebSocket clients), ``play`` (games played in process,
streams), ``procs`` (servers under test), ``bare`` (the ceilings' server), ``gcserve``
(``ludoteca serve`` with its collector watched), ``report`` (table and JSON), ``versus`` (the
peer: boardgame.io beside Ludoteca), ``dormant`` (games waiting in the cold tier), ``capacity``
(tables held at a player's pace), ``node`` (the Node side in ``peer/``: boardgame.io's server and
the load driver).
"""

from __future__ import annotations

from pathlib import Path


def main(
    quick: bool = False,
    json_path: Path | None = None,
    peer: bool = False,
    only: set[str] | None = None,
    dormant_games: int | None = None,
) -> int:
    from server.bench.run import bench

    return bench(quick, json_path, peer, only, dormant_games)
