"""The security suite shares the reliability suite's harness, and prints the figures it measured."""

from __future__ import annotations

import pytest

from tests.reliability.harness import print_figures
from tests.server.conftest import server  # noqa: F401 - the real server, for the fuzzing tests


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "timeout(seconds): pytest-timeout's per-test limit")


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter, exitstatus: int, config: pytest.Config) -> None:
    print_figures(terminalreporter)
