"""Fenced: a client of Redis's protocol (RESP) of our own, beside redis-py, for the calls every move
and every socket make (server/storage/resp/client.py).

What keeps it: redis-py's asyncio client spends, per call, a pool checkout, a task for the
write's timeout and a timeout per reply; on the appends' pipelines, the notifications and the
sockets' scripts that was about 14% of a move's CPU (movecost: 364 -> 314 us a move, 2,742 ->
3,168 moves a second; docs/performance.md, "Levers"). A change that brings redis-py's own path
within 10% of it retires this package.

The fence: only storage imports it (tests/test_layout.py); every path the server sends batches
through passes one contract (tests/server/storage/test_resp_contract.py: the lean connection,
redis-py's pipeline, redis-py's cluster pipeline); the parts of redis-py it relies on that are not
public are named in tests/server/test_library_internals.py, and pyproject.toml caps redis below
its next major version.
"""
