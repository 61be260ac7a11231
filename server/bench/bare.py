"""The ceilings' server: a bare Starlette app under the same uvicorn settings as `ludoteca serve`.

- ``POST /games/{game_id}/commands`` decodes a small JSON body, runs the same Lua append
  once (one event, a command id and record, the lobby fields) and answers;
- ``/ws`` takes a hello, answers one message and then stays idle;
- ``POST /broadcast`` sends its body, as it is, to every socket on ``/ws``.

Run as ``python -m server.bench.bare --port N`` with ``REDIS_URL`` set.
"""

from __future__ import annotations

import argparse
import contextlib
import os
from collections.abc import AsyncIterator

import msgspec
import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from server.bench.procs import UVICORN
from server.storage.connection import connect
from server.storage.store import Appended, CommandKey, Conflict, EventStore

# What a command appends, in size and shape (a drawn card, its record, the lobby fields).
EVENT = b'{"type":"CardDrawn","seat":1,"source":"deck","card":"1971-duo-ouro-negro"}'
RECORD = b'{"seat":1,"hash":"4f0c2a9d7e1b3c5a8f6e2d4b0a9c7e5f3d1b8a6c4e2f0d9b7a5c3e1f8d6b4a2c","first":17,"last":17}'
META: dict[str, str | int] = {"game": "vilar-de-mouros", "status": "active", "players": 4, "seats_taken": 4}


class Body(msgspec.Struct, forbid_unknown_fields=True):
    command: msgspec.Raw
    command_id: str
    expected_version: int | None = None


class Answer(msgspec.Struct):
    version: int


async def append_once(store: EventStore, versions: dict[str, int], game_id: str, command_id: str) -> int:
    """The append a command makes; the bare endpoint keeps each game's version in memory."""
    for _ in range(3):
        result = await store.append(
            game_id,
            versions.get(game_id, 0),
            [EVENT],
            schema=1,
            command=CommandKey("seat:1", command_id),
            command_record=RECORD,
            meta=META,
        )
        if isinstance(result, Appended):
            versions[game_id] = result.version
            return result.version
        if isinstance(result, Conflict):
            versions[game_id] = result.current_version
        else:
            return versions.get(game_id, 0)
    raise RuntimeError("append kept conflicting")


def bare_app() -> Starlette:
    versions: dict[str, int] = {}
    sockets: set[WebSocket] = set()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        redis = connect(os.environ["REDIS_URL"])
        app.state.store = EventStore(redis)
        yield
        await redis.aclose()

    async def command(request: Request) -> Response:
        body = msgspec.json.decode(await request.body(), type=Body)
        version = await append_once(request.app.state.store, versions, request.path_params["game_id"], body.command_id)
        return Response(msgspec.json.encode(Answer(version)), media_type="application/json")

    async def broadcast(request: Request) -> Response:
        text = (await request.body()).decode()
        for websocket in list(sockets):
            with contextlib.suppress(WebSocketDisconnect, RuntimeError):
                await websocket.send_text(text)
        return Response(b"{}", media_type="application/json")

    async def ws(websocket: WebSocket) -> None:
        await websocket.accept()
        await websocket.receive_text()  # the hello
        await websocket.send_text('{"type":"update","version":0,"events":[],"view":null}')
        sockets.add(websocket)
        try:
            while (await websocket.receive())["type"] != "websocket.disconnect":
                pass
        finally:
            sockets.discard(websocket)

    async def readyz(request: Request) -> Response:
        await request.app.state.store.ping()
        return Response(b'{"status":"ready"}', media_type="application/json")

    return Starlette(
        routes=[
            Route("/games/{game_id}/commands", command, methods=["POST"]),
            Route("/broadcast", broadcast, methods=["POST"]),
            Route("/readyz", readyz),
            WebSocketRoute("/ws", ws),
        ],
        lifespan=lifespan,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--port", type=int, required=True)
    args = parser.parse_args()
    uvicorn.run(bare_app(), host="127.0.0.1", port=args.port, **UVICORN)  # type: ignore[arg-type]


if __name__ == "__main__":
    main()
