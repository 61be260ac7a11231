"""The cold tier's tests again, on a 3-master Redis Cluster on loopback."""

from __future__ import annotations

import pytest

from tests.server.storage.test_cold import *  # noqa: F403 - the same contract, another Redis
from tests.support.cluster import LocalCluster


@pytest.fixture(scope="module")
def redis_url(cluster: LocalCluster) -> str:
    return cluster.url  # the module's cluster (tests/server/conftest.py) in place of the test Redis
