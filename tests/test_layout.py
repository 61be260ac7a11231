"""Imports run one way: server -> projections -> domain; clients speak only HTTP and WebSocket."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FORBIDDEN = {
    "domain": {
        "server",
        "projections",
        "clients",
        "redis",
        "starlette",
        "uvicorn",
        "websockets",
        "asyncio",
        "random",
        "time",
        "socket",
        "httpx",
    },
    "projections": {"server", "clients", "redis", "starlette", "uvicorn", "websockets"},
    "clients": {"server", "projections", "domain"},
}


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_a_package_imports_nothing_it_must_not(package: str) -> None:
    offenders = {
        str(path.relative_to(ROOT)): sorted(imported_modules(path) & FORBIDDEN[package])
        for path in (ROOT / package).rglob("*.py")
    }
    assert {k: v for k, v in offenders.items() if v} == {}


def test_the_domain_loads_without_the_server() -> None:
    import subprocess
    import sys

    code = (
        "import sys, domain.catalog\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in "
        "{'server', 'projections', 'redis', 'starlette', 'asyncio'})\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True)
