"""A 3-master Redis Cluster on loopback (each master with replicas if asked), built from the embedded
redis-server binary."""

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
    """Three cluster-enabled redis-servers (children with a parent-death signal) joined into one cluster;
    with ``replicas``, that many replicas of each master besides, which take over a master that fails
    (after ``node_timeout_ms`` without an answer, and an election)."""

    def __init__(self, masters: int = 3, replicas: int = 0, node_timeout_ms: int = 2000) -> None:
        self.directory = Path(tempfile.mkdtemp(prefix="lt-cluster-"))
        self.replicas = replicas
        self.ports: list[int] = []
        while len(self.ports) < masters * (
            1 + replicas
        ):  # each node's own pair of ports (the port names its directory too)
            port = cluster_port()
            taken = {q + bus for q in self.ports for bus in (0, 10_000)}
            if not {port, port + 10_000} & taken:
                self.ports.append(port)
        self.nodes = [
            EmbeddedRedis(
                self.directory / str(port),
                extra_args=("--port", str(port), "--bind", "127.0.0.1", "--cluster-enabled", "yes",
                            "--cluster-config-file", "nodes.conf", "--cluster-node-timeout", str(node_timeout_ms)),
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
        subprocess.run(
            [cli, "--cluster", "create", *addresses, "--cluster-replicas", str(self.replicas), "--cluster-yes"],
            check=True,
            capture_output=True,
        )
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
        if self.replicas:
            self.synced()
        return self

    def cli(self, port: int, *args: str) -> str:
        cli = str(Path(redis_server_executable()).with_name("redis-cli"))
        return subprocess.run([cli, "-p", str(port), *args], capture_output=True, text=True, timeout=10).stdout

    def masters(self) -> list[int]:
        """The ports of the masters now (as a live node sees the cluster)."""
        for port in self.ports:
            if self.node(port).pid is None:
                continue
            lines = [line.split() for line in self.cli(port, "cluster", "nodes").splitlines() if line.strip()]
            return [int(f[1].split(":")[1].split("@")[0]) for f in lines if "master" in f[2] and "fail" not in f[2]]
        raise RuntimeError("no node runs")

    def synced(self, seconds: float = 30) -> None:
        """Wait until every node runs, the cluster is up everywhere, and every master has its replicas in sync."""
        deadline = time.monotonic() + seconds
        while True:
            infos = {
                port: self.cli(port, "info", "replication") + self.cli(port, "cluster", "info") for port in self.ports
            }
            masters = [p for p, info in infos.items() if "role:master" in info]
            ok = all("cluster_state:ok" in info for info in infos.values()) and all(
                f"connected_slaves:{self.replicas}" in infos[p] for p in masters
            )
            ok = ok and all("master_link_status:up" in info for p, info in infos.items() if p not in masters)
            if ok and len(masters) == len(self.ports) // (1 + self.replicas):
                return
            if time.monotonic() > deadline:
                raise RuntimeError(f"the cluster's replicas did not come in sync: {infos}")
            time.sleep(0.1)

    def node(self, port: int) -> EmbeddedRedis:
        return self.nodes[self.ports.index(port)]

    def stop(self) -> None:
        for node in self.nodes:
            node.stop()
        shutil.rmtree(self.directory, ignore_errors=True)
