"""Redis replies as the tests read them.

The project's clients never decode (server/storage/store.py ``connect``), so every reply is bytes;
redis-py's types allow str and None too. These narrow a reply, failing loudly if it is not
what the store writes.
"""

from __future__ import annotations


def as_bytes(reply: object) -> bytes:
    assert isinstance(reply, bytes), reply
    return reply


def fields_of(reply: object) -> dict[bytes, bytes]:
    """A hash (HGETALL) or one stream entry's fields."""
    assert isinstance(reply, dict), reply
    return {as_bytes(k): as_bytes(v) for k, v in reply.items()}


def entries_of(reply: object) -> list[tuple[bytes, dict[bytes, bytes]]]:
    """An XRANGE reply: ``(entry id, fields)``, oldest first."""
    assert isinstance(reply, list), reply
    return [(as_bytes(entry_id), fields_of(fields)) for entry_id, fields in reply]


def key_names(reply: object) -> list[bytes]:
    """A KEYS or HKEYS reply."""
    assert isinstance(reply, list), reply
    return [as_bytes(key) for key in reply]
