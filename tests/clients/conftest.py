"""The clients' tests run against the same real in-process server as the API tests; the web table's
tests drive Debian's Chromium (tests/clients/test_web_table.py ``chromium``)."""

from collections.abc import AsyncIterator
from typing import Any

import pytest

from tests.server.conftest import Running, quick, server  # noqa: F401

__all__ = ["Running"]


@pytest.fixture
async def browser() -> AsyncIterator[Any]:
    """Chromium, watched: a page's error fails the test that used it (imported here, when asked for:
    the web table's tests import this package's fixtures' types)."""
    from tests.clients.test_web_table import chromium

    async with chromium() as watched:
        yield watched
