"""The folders are the architecture: imports run one way, between packages and between the server's layers.

``server -> projections -> domain``; ``clients`` speaks only HTTP and WebSocket (it renders the catalogs the
server serves with a message format of its own). Inside ``server/``:
``web -> service <- workers``, ``service -> storage``, ``runtime`` imports nothing of the application,
the hand-written protocol code is reached only through its own layer, and nothing in the product
imports the bench but the CLI's ``bench`` verb. Each rule names what a folder may never import;
a failure names the file and the import.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

APPLICATION = ("server.service", "server.storage", "server.web", "server.workers")
TOP = ("server.app", "server.cli", "server.serve", "server.settings")
WEB_FRAMEWORK = ("starlette", "uvicorn", "websockets")
REDIS_LIBRARY = ("redis", "hiredis")

# folder -> prefixes of modules no file under it may import (a prefix matches itself and its sub-modules)
NEVER: dict[str, tuple[str, ...]] = {
    "domain": (
        "server",
        "projections",
        "clients",
        *WEB_FRAMEWORK,
        *REDIS_LIBRARY,
        "asyncio",
        "random",
        "time",
        "socket",
        "httpx",
    ),
    "projections": ("server", "clients", *WEB_FRAMEWORK, *REDIS_LIBRARY),
    "clients": ("server", "projections", "domain"),
    # the message format and the languages: shared by every side, it knows none of them
    # the application: no adapter, no worker, no web framework, no Redis client
    "server/service": ("server.web", "server.workers", "server.bench", *TOP, *WEB_FRAMEWORK, *REDIS_LIBRARY),
    # every Redis key: facts in, facts out; never the service's refusals or the game's types
    "server/storage": (
        "server.service",
        "server.web",
        "server.workers",
        "server.bench",
        *TOP,
        "projections",
        "domain",
        *WEB_FRAMEWORK,
    ),
    # the adapters: through the service, never to Redis
    "server/web": ("server.storage", "server.workers", "server.bench", *TOP, *REDIS_LIBRARY),
    # loops any replica runs: they call the service, never a web adapter
    "server/workers": ("server.web", "server.bench", *TOP, *WEB_FRAMEWORK, *REDIS_LIBRARY),
    # process concerns that know no game, key or route
    "server/runtime": (*APPLICATION, "server.bench", *TOP, "projections", "domain"),
}
# Fenced sub-packages: hand-written code a library does too, reached only from the folders named.
FENCED: dict[str, tuple[str, ...]] = {
    "server.storage.resp": ("server/storage", "server/bench"),
    "server.runtime.uvicorn": ("server/runtime", "server/serve.py", "server/web/websocket.py", "server/bench"),
    "server.bench": ("server/bench", "server/cli.py"),
}
# ``server.cli`` reaches the bench from its ``bench`` verb only, imported when that verb runs.


# Modules of the shipped packages that need an optional extra, which nothing the server or the
# clients import: the games as a reinforcement-learning environment; the S3 client of backups (only
# `ludoteca admin backup|restore s3://...` imports it).
OPTIONAL = {"projections/environment.py": "rl", "server/storage/s3.py": "s3"}


def imported_modules(source: str, filename: str = "<planted>") -> set[str]:
    """Every module a source file imports, dotted in full (``from a.b import c`` gives ``a.b`` and ``a.b.c``)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(source, filename)):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
            names |= {f"{node.module}.{alias.name}" for alias in node.names}
    return names


def matches(module: str, prefix: str) -> bool:
    return module == prefix or module.startswith(prefix + ".")


def offences(root: Path, folder: str, never: tuple[str, ...]) -> dict[str, list[str]]:
    """``{file: [forbidden imports]}`` for every file under ``root / folder`` that imports what it may never."""
    found: dict[str, list[str]] = {}
    for path in sorted((root / folder).rglob("*.py")):
        bad = sorted(m for m in imported_modules(path.read_text(), str(path)) if any(matches(m, p) for p in never))
        if bad:
            found[str(path.relative_to(root))] = bad
    return found


def fence_breaches(root: Path, fenced: str, allowed: tuple[str, ...]) -> dict[str, list[str]]:
    """Files outside ``allowed`` (folders or files, relative to ``root``) that import the fenced package."""
    found: dict[str, list[str]] = {}
    for package in ("server", "projections", "domain", "clients"):
        for path in sorted((root / package).rglob("*.py")):
            where = str(path.relative_to(root))
            if any(where == a or where.startswith(a + "/") for a in allowed):
                continue
            bad = sorted(m for m in imported_modules(path.read_text(), where) if matches(m, fenced))
            if bad:
                found[where] = bad
    return found


@pytest.mark.parametrize("folder", sorted(NEVER))
def test_a_folder_imports_nothing_it_must_not(folder: str) -> None:
    assert offences(ROOT, folder, NEVER[folder]) == {}


@pytest.mark.parametrize("fenced", sorted(FENCED))
def test_a_fenced_package_is_imported_only_from_its_own_side(fenced: str) -> None:
    assert fence_breaches(ROOT, fenced, FENCED[fenced]) == {}


def test_the_server_shows_its_layers_at_its_top() -> None:
    """No more than a dozen modules at the top of ``server/``: the composition root, the command and its
    settings; everything else lives in its layer."""
    top = sorted(p.name for p in (ROOT / "server").glob("*.py"))
    assert len(top) <= 12, top
    layers = sorted(p.name for p in (ROOT / "server").iterdir() if (p / "__init__.py").exists())
    assert layers == ["bench", "runtime", "service", "storage", "web", "workers"]


def test_a_planted_wrong_import_is_named(tmp_path: Path) -> None:
    """The rules catch what they promise: a service module importing the web adapter, storage importing
    the domain, and a web module reaching the hand-written Redis client, each named with its file."""
    for folder, source in {
        "server/service": "from server.web.rest import answer\n",
        "server/storage": "import domain.table\n",
        "server/web": "from server.storage.resp import client\n",
    }.items():
        (tmp_path / folder).mkdir(parents=True)
        (tmp_path / folder / "planted.py").write_text(source)
    assert offences(tmp_path, "server/service", NEVER["server/service"]) == {
        "server/service/planted.py": ["server.web.rest", "server.web.rest.answer"]
    }
    assert offences(tmp_path, "server/storage", NEVER["server/storage"]) == {
        "server/storage/planted.py": ["domain.table"]
    }
    assert fence_breaches(tmp_path, "server.storage.resp", FENCED["server.storage.resp"]) == {
        "server/web/planted.py": ["server.storage.resp", "server.storage.resp.client"]
    }


# A package split a module a concept, each module importing only those listed before it (its docstring says so).
ORDERED = {
    "domain.table": ("facts", "state", "evolve", "sealing", "lifecycle", "decide"),
    "clients.cli": ("text", "moves", "people", "scripts", "__init__"),
}


@pytest.mark.parametrize("package", sorted(ORDERED))
def test_a_package_of_modules_imports_only_downwards(package: str) -> None:
    order = ORDERED[package]
    folder = ROOT / package.replace(".", "/")
    assert sorted(p.stem for p in folder.glob("*.py")) == sorted({*order, "__init__"})
    for i, name in enumerate(order):
        path = folder / f"{name}.py"
        below = {f"{package}.{m}" for m in order[:i]}
        inside = {m for m in imported_modules(path.read_text(), str(path)) if m.count(".") == package.count(".") + 1}
        ours = {m for m in inside if matches(m, package)}
        assert ours <= below, f"{path.relative_to(ROOT)} imports {sorted(ours - below)}, listed after it"


def test_the_domain_loads_without_the_server() -> None:
    code = (
        "import sys, domain.catalog\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in "
        "{'server', 'projections', 'redis', 'starlette', 'asyncio'})\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True)


def test_serving_loads_no_bench() -> None:
    """`ludoteca serve` runs without the bench: making the application imports none of it."""
    code = (
        "import sys, server.app, server.serve\n"
        "bad = sorted(m for m in sys.modules if m.startswith('server.bench'))\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True)


def test_no_module_the_server_or_the_clients_import_needs_an_optional_extra() -> None:
    for path in [*(ROOT / "server").rglob("*.py"), *(ROOT / "clients").rglob("*.py")]:
        assert not {"pettingzoo", "gymnasium"} & {m.split(".")[0] for m in imported_modules(path.read_text())}, path
        assert "projections.environment" not in path.read_text(), path


def test_every_library_the_shipped_packages_import_is_a_runtime_dependency() -> None:
    """`pip install .` (the README's first command) must bring everything the server and the
    clients import; a library only the tests install would break `ludoteca serve`."""
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
            tops = {m.split(".")[0] for m in imported_modules(path.read_text(), str(path))}
            for module in tops - ours - set(sys.stdlib_module_names):
                dists = {d.lower().replace("_", "-") for d in distributions.get(module, [module])}
                if not dists & allowed:
                    missing.setdefault(module, []).append(str(path.relative_to(ROOT)))
    assert missing == {}
