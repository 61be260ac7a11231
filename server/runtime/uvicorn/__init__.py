"""Fenced: uvicorn's protocols, subclassed where uvicorn offers no setting for what a public server
needs (server/runtime/uvicorn/http.py, server/runtime/uvicorn/websocket.py).

What keeps them:
- the HTTP protocol's bounds on how long a request's headers and body may take and how large its
  headers may be: uvicorn has none (a client trickling its headers holds a connection for ever),
  and a proxy in front is not always there (docs/operations.md);
- the WebSocket protocol's idle memory: an idle socket holds 19.6 KiB against 23.4 with uvicorn's
  own (-16%, what sizes a replica of mostly idle sockets), and what waits for one socket goes out
  in one write (a seat's ``ack`` and its update in one system call);
- reading frames stays websockets' (a hand-written reader saved about 4% of a move's CPU: below
  the 10% a parser of untrusted input would have to pay for).

The fence: only runtime, ``ludoteca serve``, the socket's web adapter (for the name of the
extension) and the bench import it (tests/test_layout.py); the private parts of uvicorn and
websockets it relies on are named in tests/server/test_library_internals.py, and pyproject.toml
caps uvicorn below its next minor version and websockets below its next major one.
"""
