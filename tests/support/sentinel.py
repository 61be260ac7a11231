"""A Redis primary, its replica and three Sentinels on loopback, built from the embedded redis-server binary."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path
from typing import IO

import redis

from server.storage.embedded import EmbeddedRedis, redis_server_executable
from tests.support.processes import free_port

SERVICE = "ludoteca"
DOWN_AFTER_MS = 500  # a primary that does not answer for this long is down
FAILOVER_TIMEOUT_MS = 2000


def parent_death_signal() -> None:
    """In the child, between fork and exec: SIGKILL it when the test process dies."""
    import ctypes

    ctypes.CDLL("libc.so.6").prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG


class LocalSentinel:
    """Two redis-servers, the second a replica of the first, watched by three Sentinels with a quorum of
    2 and short time-outs (``DOWN_AFTER_MS``, ``FAILOVER_TIMEOUT_MS``): a primary killed is replaced by
    its replica within a few seconds."""

    def __init__(self, appendfsync: str = "everysec") -> None:
        self.directory = Path(tempfile.mkdtemp(prefix="lt-sentinel-"))
        self.ports = [free_port(), free_port()]
        self.nodes = [
            EmbeddedRedis(
                self.directory / str(port),
                appendfsync=appendfsync,  # type: ignore[arg-type]
                extra_args=("--port", str(port), "--bind", "127.0.0.1",
                            *(("--replicaof", "127.0.0.1", str(self.ports[0])) if i else ())),
            )
            for i, port in enumerate(self.ports)
        ]  # fmt: skip
        self.sentinel_ports = [free_port() for _ in range(3)]
        self.sentinels: list[subprocess.Popen[bytes]] = []
        self.logs: list[IO[bytes]] = []

    @property
    def url(self) -> str:
        """The URL the server takes for this Sentinel's primary."""
        return f"redis+sentinel://{','.join(f'127.0.0.1:{p}' for p in self.sentinel_ports)}/{SERVICE}"

    def node(self, port: int) -> EmbeddedRedis:
        return self.nodes[self.ports.index(port)]

    def start(self) -> LocalSentinel:
        for node in self.nodes:
            node.start()
        for port in self.sentinel_ports:
            directory = self.directory / f"sentinel-{port}"
            directory.mkdir()
            conf = directory / "sentinel.conf"
            conf.write_text(
                f"port {port}\nbind 127.0.0.1\ndir {directory}\n"
                f"sentinel monitor {SERVICE} 127.0.0.1 {self.ports[0]} 2\n"
                f"sentinel down-after-milliseconds {SERVICE} {DOWN_AFTER_MS}\n"
                f"sentinel failover-timeout {SERVICE} {FAILOVER_TIMEOUT_MS}\n"
                f"sentinel parallel-syncs {SERVICE} 1\n"
            )
            log = open(directory / "sentinel.log", "ab")  # noqa: SIM115 - closed in stop()
            self.logs.append(log)
            self.sentinels.append(
                subprocess.Popen(
                    [redis_server_executable(), str(conf), "--sentinel"],
                    stdout=log,
                    stderr=subprocess.STDOUT,
                    stdin=subprocess.DEVNULL,
                    preexec_fn=parent_death_signal,
                )
            )
        self.settled()
        return self

    def primary_port(self) -> int:
        """The port of the primary the Sentinels name now."""
        for port in self.sentinel_ports:
            with contextlib.suppress(redis.RedisError), redis.Redis(port=port, socket_timeout=1) as sentinel:
                address = sentinel.sentinel_get_master_addr_by_name(SERVICE)
                if address:
                    return int(address[1])
        raise RuntimeError("no Sentinel names a primary")

    def settled(self, seconds: float = 30) -> int:
        """Wait until every Sentinel names one primary, knows the two other Sentinels and a replica in
        sync with it (so that a failover can happen); the primary's port."""
        deadline = time.monotonic() + seconds
        last = "nothing asked yet"
        while time.monotonic() < deadline:
            try:
                ports = set()
                for port in self.sentinel_ports:
                    with redis.Redis(port=port, socket_timeout=1, decode_responses=True) as sentinel:
                        master = sentinel.sentinel_master(SERVICE)
                        replicas = sentinel.sentinel_slaves(SERVICE)
                        ports.add(int(master["port"]))
                        ready = [r for r in replicas if not r["is_sdown"] and int(r["port"]) != int(master["port"])]
                        if master["num-other-sentinels"] < 2 or not ready or not master["is_master"]:
                            raise RuntimeError(f"sentinel {port}: {master['flags']}, {len(ready)} replicas ready")
                if len(ports) != 1:
                    raise RuntimeError(f"the Sentinels name different primaries: {ports}")
                [primary] = ports
                replica = next(p for p in self.ports if p != primary)
                with redis.Redis(port=replica, socket_timeout=1, decode_responses=True) as node:
                    info = node.info("replication")
                    if info.get("master_link_status") != "up" or int(info.get("master_port", 0)) != primary:
                        raise RuntimeError(f"replica {replica}: {info.get('master_link_status')}")
                return primary
            except (redis.RedisError, RuntimeError, KeyError) as exc:
                last = str(exc)
            time.sleep(0.1)
        raise RuntimeError(f"the Sentinels did not settle in {seconds:g} s: {last}")

    def restart_as_replica(self, port: int) -> None:
        """Start the node on ``port`` again as the replica of the primary the Sentinels name now, as
        they would make it themselves (after a while: they look at a replica every 10 s)."""
        primary = self.primary_port()
        node = self.node(port)
        node.extra_args = ("--port", str(port), "--bind", "127.0.0.1", "--replicaof", "127.0.0.1", str(primary))
        node.start()

    def kill_primary(self) -> int:
        """SIGKILL the primary (and reap it); its port."""
        port = self.primary_port()
        node = self.node(port)
        assert node.pid is not None
        os.kill(node.pid, signal.SIGKILL)
        node.stop()
        return port

    def stop(self) -> None:
        for process in self.sentinels:
            process.kill()
            process.wait()
        for log in self.logs:
            log.close()
        for node in self.nodes:  # throwaway data: no shutdown to wait for
            if node.pid is not None:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(node.pid, signal.SIGKILL)
            node.stop()
        shutil.rmtree(self.directory, ignore_errors=True)
