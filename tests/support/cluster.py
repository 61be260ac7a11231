"""A 3-master Redis Cluster on loopback, built from the embedded redis-server binary."""

from __future__ import annotations

import random
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

from server.storage.embedded import EmbeddedRedis, redis_server_executable


def cluster_port() -> int:
    """A free port whose cluster bus port (port + 10000) is free and valid too."""
    rng = random.Random()
    for _ in range(200):
        port = rng.randrange(20_000, 50_000)
        try:
            for candidate in (port, port + 10_000):
                with socket.socket() as s:
                    s.bind(("127.0.0.1", candidate))
        except OSError:
            continue
        return port
    raise RuntimeError("no free port pair for a cluster node")


class LocalCluster:
    """Three cluster-enabled redis-servers (children with a parent-death signal) joined into one cluster."""

    def __init__(self, masters: int = 3) -> None:
        self.directory = Path(tempfile.mkdtemp(prefix="lt-cluster-"))
        self.ports: list[int] = []
        while len(self.ports) < masters:  # each node's own pair of ports (the port names its directory too)
            port = cluster_port()
            taken = {q + bus for q in self.ports for bus in (0, 10_000)}
            if not {port, port + 10_000} & taken:
                self.ports.append(port)
        self.nodes = [
            EmbeddedRedis(
                self.directory / str(port),
                extra_args=("--port", str(port), "--bind", "127.0.0.1", "--cluster-enabled", "yes",
                            "--cluster-config-file", "nodes.conf", "--cluster-node-timeout", "2000"),
            )
            for port in self.ports
        ]  # fmt: skip

    @property
    def url(self) -> str:
        """The URL the server takes for a cluster (any node will do)."""
        return f"redis+cluster://127.0.0.1:{self.ports[0]}"

    def start(self) -> LocalCluster:
        for node in self.nodes:
            node.start()
        cli = str(Path(redis_server_executable()).with_name("redis-cli"))
        addresses = [f"127.0.0.1:{port}" for port in self.ports]
        subprocess.run([cli, "--cluster", "create", *addresses, "--cluster-yes"], check=True, capture_output=True)
        # Every node must say the cluster is up: one that has not heard of the others yet
        # answers a client it redirects there with CLUSTERDOWN.
        deadline = time.monotonic() + 30
        waiting = list(self.ports)
        while waiting:
            port = waiting[0]
            info = subprocess.run([cli, "-p", str(port), "cluster", "info"], capture_output=True, text=True)
            if "cluster_state:ok" in info.stdout:
                waiting.pop(0)
                continue
            if time.monotonic() > deadline:
                raise RuntimeError(f"the cluster did not come up on port {port}: {info.stdout}")
            time.sleep(0.1)
        return self

    def stop(self) -> None:
        for node in self.nodes:
            node.stop()
        shutil.rmtree(self.directory, ignore_errors=True)
