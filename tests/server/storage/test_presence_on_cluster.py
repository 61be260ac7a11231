"""Presence's tests again, on a 3-master Redis Cluster on loopback: a renewal's batches span every
node. (Those that count round trips read one Redis's INFO, and stay with the single Redis.)"""

from __future__ import annotations

import pytest

from tests.server.storage.test_presence import (  # noqa: F401 - the same contract, another Redis
    test_a_dead_replicas_connections_expire_and_a_live_one_renews_its_own,
    test_a_renewal_keeps_every_connection_of_every_game_in_batches,
    test_connected_seats_with_their_oldest_connection_and_the_spectators,
    test_every_change_is_published_for_the_other_replicas,
)
from tests.support.cluster import LocalCluster


@pytest.fixture(scope="module")
def redis_url(cluster: LocalCluster) -> str:
    return cluster.url  # the module's cluster (tests/server/conftest.py) in place of the test Redis
