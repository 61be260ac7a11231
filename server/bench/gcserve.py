"""`ludoteca serve` with its garbage collector watched, for the bench's GC figures.

``python -m server.bench.gcserve --mode M --port N --stats FILE`` (``REDIS_URL`` set) runs
the same app under the same uvicorn settings as ``ludoteca serve``, and records every
collection (its generation and pause). On SIGUSR1 it writes the pauses recorded so far to
FILE as JSON and starts again. Modes: ``default`` (Python's own settings), ``off``
(``gc.disable()``), ``freeze`` (``gc.collect(); gc.freeze()`` once start-up is done, so
the objects that live as long as the server are never scanned again).
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import gc
import json
import signal
import time
from collections.abc import AsyncIterator
from pathlib import Path
from types import FrameType
from typing import Any

import uvicorn
from starlette.applications import Starlette

from server.app import create_app
from server.bench.procs import UVICORN
from server.settings import Settings

_pauses: list[tuple[int, float]] = []  # (generation, seconds)
_started = [0.0]


def _on_gc(phase: str, info: dict[str, Any]) -> None:
    if phase == "start":
        _started[0] = time.perf_counter()
    else:
        _pauses.append((int(info["generation"]), time.perf_counter() - _started[0]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--mode", choices=["default", "off", "freeze"], required=True)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--stats", type=Path, required=True)
    args = parser.parse_args()
    settings = dataclasses.replace(Settings.from_env(), port=args.port, log_level="warning")
    app = create_app(settings)
    if args.mode == "freeze":
        inner = app.router.lifespan_context

        @contextlib.asynccontextmanager
        async def frozen(app: Starlette) -> AsyncIterator[None]:
            async with inner(app):
                gc.collect()
                gc.freeze()
                yield

        app.router.lifespan_context = frozen
    if args.mode == "off":
        gc.disable()

    def dump(signum: int, frame: FrameType | None) -> None:
        pauses, _pauses[:] = list(_pauses), []
        partial = args.stats.with_suffix(".partial")
        partial.write_text(json.dumps({"pauses": pauses}))
        partial.replace(args.stats)

    gc.callbacks.append(_on_gc)
    signal.signal(signal.SIGUSR1, dump)
    uvicorn.run(app, host="127.0.0.1", port=args.port, **UVICORN)  # type: ignore[arg-type]


if __name__ == "__main__":
    main()
