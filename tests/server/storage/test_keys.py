"""Every Redis key has one owner: server/storage/keys.py spells them, only their owners touch them or the
Redis client, and docs/operations.md lists the same keys."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from server.storage.keys import EVENTS, KEYS, QUOTA, Key

ROOT = Path(__file__).resolve().parents[3]
SERVER = ROOT / "server"
OWNERS = {key.owner for key in KEYS}
# The composition roots make the client and hand it to the owners; they call nothing on it but
# ``aclose``. The bench (server/bench/) measures Redis itself, beside the server: it is not the server.
ROOTS = {"server.app", "server.cli"}
PROCESS = "server.storage.embedded"  # runs the redis-server process (its ``redis`` is that process), holds no client
# Make the connections (the client, ``connect``; the lean one of the hot path, server/storage/resp/client.py) and read
# the server's INFO: touch no key.
CONNECTIONS = {"server.storage.connection", "server.storage.resp.client"}


def modules() -> dict[str, ast.Module]:
    found = {}
    for path in sorted(SERVER.rglob("*.py")):
        if "bench" in path.relative_to(SERVER).parts:
            continue
        name = ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        found[name] = ast.parse(path.read_text(), str(path))
    assert "server.service.games" in found and "server.storage.store" in found  # every layer is looked at
    return found


def docstrings(tree: ast.Module) -> set[int]:
    """The ids of the docstring nodes (they may name keys, for the reader)."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def test_a_key_is_filled_in_and_read_back() -> None:
    assert EVENTS.at(game_id="ab12") == "lt:{ab12}:events"
    assert EVENTS.parts("lt:{ab12}:events") == {"game_id": "ab12"}
    assert EVENTS.parts("lt:{ab12}:meta") is None
    assert QUOTA.at(what="games", address="10.0.0.1", hour=7) == "lt:{quota}:games:10.0.0.1:7"


def test_every_key_is_spelt_in_server_keys_alone() -> None:
    for name, tree in modules().items():
        if name == "server.storage.keys":
            continue
        skip = docstrings(tree)
        spelt = [
            node.value
            for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip
            if re.search(r"\blt:", node.value)
        ]
        assert spelt == [], f"{name} spells a key itself: {spelt}"


def test_a_key_is_used_by_its_owner_alone() -> None:
    by_name = {name: value for name, value in vars(__import__("server.storage.keys", fromlist=["KEYS"])).items()}
    for name, tree in modules().items():
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module == "server.storage.keys":
                for alias in node.names:
                    key = by_name[alias.name]
                    if isinstance(key, Key):
                        assert key.owner == name, f"{name} uses {key.pattern}, which {key.owner} owns"


def test_only_the_owners_touch_the_redis_client() -> None:
    for name, tree in modules().items():
        if name in OWNERS or name in ("server.storage.keys", PROCESS, *CONNECTIONS):
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr == "redis":
                raise AssertionError(f"{name}:{node.lineno} reaches for a Redis client (.redis)")
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "redis":
                # The package's errors (redis.RedisError) are no client; a call on a client is.
                allowed = (
                    node.attr[0].isupper() or node.attr == "exceptions" or (name in ROOTS and node.attr == "aclose")
                )
                assert allowed, f"{name}:{node.lineno} calls redis.{node.attr} outside the keys' owners"
            if isinstance(node, ast.Import | ast.ImportFrom):
                imported = [node.module] if isinstance(node, ast.ImportFrom) else [a.name for a in node.names]
                assert not any(m and m.startswith("redis.asyncio") for m in imported), f"{name} imports the client"


def test_the_operators_key_list_is_the_one_in_server_keys() -> None:
    text = (ROOT / "docs" / "operations.md").read_text()
    section = text.split("## Redis keys", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| `lt:")]
    listed = {}
    for row in rows:
        cells = [c.strip() for c in row.strip("|").split("|")]
        listed[cells[0].strip("`")] = (cells[1], cells[2])
    expected = {key.pattern: (key.kind, key.owner.replace(".", "/") + ".py") for key in KEYS}
    assert listed == expected
