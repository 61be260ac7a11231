"""The WebSocket protocol the server runs (server/runtime/uvicorn/websocket.py): uvicorn's, holding less while idle."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
import redis.asyncio as aioredis
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed
from websockets.frames import Frame, Opcode

from server.runtime.uvicorn.websocket import SEND_TEXT, Flag, Inbox, LeanWebSocketProtocol
from server.settings import Settings
from tests.server.conftest import ADMIN, NO_QUOTAS, start_server, stop_server


@contextlib.asynccontextmanager
async def a_socket(redis_url: str, **options: Any) -> AsyncIterator[tuple[ClientConnection, LeanWebSocketProtocol]]:
    """A server with a game on it and one spectator's socket past its hello (its first update
    read): the client's end and the server's protocol."""
    server, task, _, port = await start_server(Settings(redis_url=redis_url, admin_token=ADMIN, **NO_QUOTAS))
    try:
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as http:
            created = await http.post("/api/v1/games", json={"game": "vilar-de-mouros", "players": 2})
        game_id = created.json()["game_id"]
        async with connect(f"ws://127.0.0.1:{port}/api/v1/games/{game_id}/ws", **options) as ws:
            await ws.send(json.dumps({"type": "hello"}))
            assert json.loads(await ws.recv())["type"] == "update"
            sockets = [c for c in server.server_state.connections if isinstance(c, LeanWebSocketProtocol)]
            assert len(sockets) == 1
            yield ws, sockets[0]
    finally:
        await stop_server(server, task)


async def test_an_inbox_hands_each_event_once_in_order_and_holds_nothing_once_drained() -> None:
    inbox = Inbox()
    assert inbox.empty() and inbox.qsize() == 0
    inbox.put_nowait("a")
    inbox.put_nowait("b")
    assert inbox.qsize() == 2
    assert [await inbox.get(), await inbox.get()] == ["a", "b"]
    assert inbox.empty() and inbox.items is None and inbox.waiting.waiters is None


async def test_a_waiting_get_wakes_on_the_next_event() -> None:
    inbox = Inbox()
    waiting = asyncio.create_task(inbox.get())
    await asyncio.sleep(0)
    assert inbox.waiting.waiters is not None and len(inbox.waiting.waiters) == 1
    inbox.put_nowait({"type": "websocket.connect"})
    assert await asyncio.wait_for(waiting, 1) == {"type": "websocket.connect"}
    assert inbox.waiting.waiters is None and inbox.items is None


async def test_a_get_cancelled_while_waiting_leaves_the_event_to_the_next_get() -> None:
    inbox = Inbox()
    first = asyncio.create_task(inbox.get())
    await asyncio.sleep(0)
    first.cancel()
    await asyncio.gather(first, return_exceptions=True)
    assert inbox.waiting.waiters is None
    inbox.put_nowait("x")
    assert await asyncio.wait_for(inbox.get(), 1) == "x"


async def test_an_idle_socket_holds_no_asyncio_queue_no_handshake_request_response_or_headers_and_no_dict(
    redis: aioredis.Redis, redis_url: str
) -> None:
    """What the server's sockets hold while they wait (a uvicorn release renaming what
    LeanWebSocketProtocol replaces would make this fail, not silently hold more)."""
    async with a_socket(redis_url) as (_, socket):
        assert isinstance(socket.queue, Inbox) and socket.queue.items is None
        assert socket.request is None and socket.response is None
        # websockets' parser keeps the handshake request in its frame: its headers are emptied
        kept = socket.conn.parser.gi_frame.f_locals["request"]
        assert kept.path.startswith("/api/v1/games/") and len(kept.headers) == 0
        assert socket.scope["headers"] == []  # read for the origin, then dropped (server/web/websocket.py)
        assert isinstance(socket.writable, Flag) and socket.writable.is_set() and socket.writable.waiters is None
        held = [getattr(socket, name, None) for name in LeanWebSocketProtocol.__slots__]
        assert not any(isinstance(value, asyncio.Queue) for value in held)
        assert not socket.__dict__, "uvicorn sets an attribute the protocol's slots do not name"


async def test_a_flag_wakes_every_waiter_when_set_and_holds_nothing_while_nobody_waits() -> None:
    flag = Flag()
    assert not flag.is_set() and flag.waiters is None
    waiting = [asyncio.create_task(flag.wait()) for _ in range(2)]
    await asyncio.sleep(0)
    flag.set()
    assert await asyncio.wait_for(asyncio.gather(*waiting), 1) == [True, True]
    assert flag.is_set() and flag.waiters is None
    flag.clear()
    assert not flag.is_set()
    woken, _ = await asyncio.wait_for(asyncio.gather(flag.wait(), set_soon(flag)), 1)
    assert woken is True


async def set_soon(flag: Flag) -> None:
    await asyncio.sleep(0.01)
    flag.set()


async def test_a_text_written_at_once_reaches_the_client_as_one_text_message_of_any_length(
    redis: aioredis.Redis, redis_url: str
) -> None:
    """The application's way to write a message with no ASGI event (the SEND_TEXT extension): the
    frame's header in each of its three lengths, and nothing written once the socket is closing."""
    async with a_socket(redis_url, max_size=2**20) as (ws, socket):
        assert socket.scope["extensions"][SEND_TEXT] == {"send": socket.send_text_at_once}
        write = socket.send_text_at_once
        for size in (2, 125, 126, 65_535, 65_536, 100_000):
            text = "é" * (size // 2) + "x" * (size % 2)  # UTF-8: the length is in bytes
            assert write([text.encode()]) is True
            assert await ws.recv() == text
        assert write([b'{"a": 1}', "ä".encode() * 200, b"[]"]) is True  # one write, three messages
        assert [await ws.recv() for _ in range(3)] == ['{"a": 1}', "ä" * 200, "[]"]
        await ws.close()
        await asyncio.sleep(0.1)
        assert socket.send_text_at_once([b"late"]) is False  # closed: nothing written
        assert SEND_TEXT not in socket.scope["extensions"]  # the scope no longer holds the protocol


def moves_request(request_id: str, pad: int = 0) -> bytes:
    return json.dumps({"type": "moves", "picks": [], "request_id": request_id + " " * pad}).encode()


async def test_frames_sent_together_are_each_read_whatever_their_kind(redis: aioredis.Redis, redis_url: str) -> None:
    """Frames a client sends together are read in order whatever their kind (websockets' parser reads
    them all): frames of both short lengths, a ping, a fragmented message, and one split across two
    writes; text that is not UTF-8 closes the socket with 1007."""

    def frame(opcode: Opcode, data: bytes, fin: bool = True) -> bytes:
        return Frame(opcode, data, fin).serialize(mask=True)

    async with a_socket(redis_url) as (ws, _):
        fragmented = moves_request("d")
        together = b"".join(
            [
                frame(Opcode.TEXT, moves_request("a")),
                frame(Opcode.TEXT, moves_request("b", pad=200)),  # a 16-bit length
                frame(Opcode.PING, b"hi"),
                frame(Opcode.TEXT, moves_request("c")),
                frame(Opcode.TEXT, fragmented[:10], fin=False),
                frame(Opcode.CONT, fragmented[10:]),
                frame(Opcode.TEXT, moves_request("e")),
            ]
        )
        split = frame(Opcode.TEXT, moves_request("f"))
        ws.transport.write(together + split[:5])
        await asyncio.sleep(0.05)
        ws.transport.write(split[5:])
        answered = [json.loads(await ws.recv())["request_id"].strip() for _ in range(6)]
        assert answered == ["a", "b", "c", "d", "e", "f"]
        ws.transport.write(frame(Opcode.TEXT, b"\xff\xfe not UTF-8"))
        with pytest.raises(ConnectionClosed) as closed:
            await ws.recv()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1007
