"""The reliability suite's own set-up: the figures it measured, printed at the end of the run."""

from __future__ import annotations

import pytest

from tests.reliability.harness import print_figures


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "timeout(seconds): pytest-timeout's per-test limit")


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter, exitstatus: int, config: pytest.Config) -> None:
    print_figures(terminalreporter)
