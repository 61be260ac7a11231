"""The clients' tests run against the same real in-process server as the API tests."""

from tests.server.conftest import Running, quick, server  # noqa: F401

__all__ = ["Running"]
