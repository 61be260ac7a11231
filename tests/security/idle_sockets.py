"""Hold N idle spectator WebSockets to one game: ``python -m tests.security.idle_sockets URL GAME N``.

Run as a process of its own by test_abuse.py. Prints ``open <n>`` once every socket has
said hello and received its catch-up, then holds them until its standard input closes.
"""

from __future__ import annotations

import asyncio
import json
import sys

from websockets.asyncio.client import ClientConnection, connect


async def one(url: str) -> ClientConnection:
    ws = await connect(url, open_timeout=30, ping_interval=None)
    await ws.send(json.dumps({"type": "hello", "token": None, "after": 0}))
    await asyncio.wait_for(ws.recv(), 30)
    return ws


async def main(base: str, game_id: str, count: int) -> None:
    url = base.replace("http://", "ws://") + f"/api/v1/games/{game_id}/ws"
    sockets: list[ClientConnection] = []
    for start in range(0, count, 200):  # in batches, as a crowd arrives
        sockets += await asyncio.gather(*(one(url) for _ in range(min(200, count - start))))
    print(f"open {len(sockets)}", flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)
    await asyncio.gather(*(ws.close() for ws in sockets), return_exceptions=True)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2], int(sys.argv[3])))
