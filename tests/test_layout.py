"""Imports run one way: server -> projections -> domain; clients speak only HTTP and WebSocket."""

from __future__ import annotations

import ast
import re
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


# Modules of the shipped packages that need an optional extra, which nothing the server or the
# clients import: the games as a reinforcement-learning environment.
OPTIONAL = {"projections/environment.py": "rl"}


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


def test_no_module_the_server_or_the_clients_import_needs_an_optional_extra() -> None:
    for path in [*(ROOT / "server").rglob("*.py"), *(ROOT / "clients").rglob("*.py")]:
        assert not {"pettingzoo", "gymnasium"} & imported_modules(path), path
        assert "projections.environment" not in path.read_text(), path


def test_every_library_the_shipped_packages_import_is_a_runtime_dependency() -> None:
    """`pip install .` (the README's first command) must bring everything the server and the
    clients import; a library only the tests install would break `ludoteca serve`."""
    import sys
    import tomllib
    from importlib.metadata import packages_distributions

    declared = {
        re.split(r"[\[<>=~!; ]", requirement, maxsplit=1)[0].lower().replace("_", "-")
        for requirement in tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    }
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    ours = {"domain", "projections", "server", "clients"}
    distributions = packages_distributions()
    missing: dict[str, list[str]] = {}
    for package in sorted(ours):
        for path in (ROOT / package).rglob("*.py"):
            allowed = declared
            if str(path.relative_to(ROOT)) in OPTIONAL:  # a module nothing the server runs imports
                allowed = declared | {r.split(">")[0] for r in extras[OPTIONAL[str(path.relative_to(ROOT))]]}
            for module in imported_modules(path) - ours - set(sys.stdlib_module_names):
                dists = {d.lower().replace("_", "-") for d in distributions.get(module, [module])}
                if not dists & allowed:
                    missing.setdefault(module, []).append(str(path.relative_to(ROOT)))
    assert missing == {}
