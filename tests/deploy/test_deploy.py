"""The image and manifests pass their linters, and the image's command runs as written.

There is no Docker engine here: the image is checked by hadolint, and what it runs is
tested by running its CMD, with its ENV and HEALTHCHECK, directly.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import redis.asyncio as aioredis
import yaml

from server.storage.connection import SentinelURL
from tests.support.processes import ROOT, free_port
from tests.support.tools import tool

DEPLOY = ROOT / "deploy"
BIN = Path(sys.executable).parent


def test_the_dockerfile_passes_hadolint() -> None:
    result = subprocess.run([tool("hadolint"), str(DEPLOY / "Dockerfile")], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_compose_file_follows_the_compose_spec() -> None:
    result = subprocess.run(
        [tool("check-jsonschema"), "--builtin-schema", "vendor.compose-spec", str(DEPLOY / "compose.yaml")],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_kubernetes_manifests_validate_strictly() -> None:
    manifests = sorted(str(p) for p in (DEPLOY / "kubernetes").rglob("*.yaml"))
    assert len(manifests) >= 8  # the applied folder, the Redis example, the Secret example
    # deploy/overlays/ holds partial objects (patches): what the overlays build is validated in test_overlays.py.
    result = subprocess.run([tool("kubernetes-validate"), "--strict", *manifests], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def kinds_in(path: Path) -> list[str]:
    return [doc["kind"] for doc in yaml.safe_load_all(path.read_text()) if doc]


def test_applying_the_kubernetes_folder_applies_no_example_secret() -> None:
    """`kubectl apply -f deploy/kubernetes/` reads that folder only, not its subfolders."""
    applied = [kind for path in sorted((DEPLOY / "kubernetes").glob("*.yaml")) for kind in kinds_in(path)]
    assert "Secret" not in applied
    assert {"Deployment", "Service", "Ingress", "ConfigMap", "PodDisruptionBudget", "HorizontalPodAutoscaler"} <= set(
        applied
    )
    assert kinds_in(DEPLOY / "kubernetes" / "examples" / "secret.yaml") == ["Secret"]


def test_the_ingress_keeps_websockets_open_past_the_servers_pings() -> None:
    [ingress] = yaml.safe_load_all((DEPLOY / "kubernetes" / "ingress.yaml").read_text())
    notes = ingress["metadata"]["annotations"]
    ping = 20  # seconds: server/serve.py's ws_ping_interval
    assert int(notes["nginx.ingress.kubernetes.io/proxy-read-timeout"]) > ping
    assert int(notes["nginx.ingress.kubernetes.io/proxy-send-timeout"]) > ping
    backend = ingress["spec"]["rules"][0]["http"]["paths"][0]["backend"]["service"]
    assert backend == {"name": "ludoteca", "port": {"name": "http"}}


def test_the_redis_example_keeps_every_event() -> None:
    service, statefulset = yaml.safe_load_all((DEPLOY / "kubernetes" / "redis" / "redis.yaml").read_text())
    args = statefulset["spec"]["template"]["spec"]["containers"][0]["args"]
    options = dict(zip(args[::2], args[1::2], strict=True))
    assert options["--appendonly"] == "yes" and options["--maxmemory-policy"] == "noeviction"
    assert statefulset["spec"]["volumeClaimTemplates"][0]["metadata"]["name"] == "data"
    # The Secret example's REDIS_URL names this Service.
    [secret] = yaml.safe_load_all((DEPLOY / "kubernetes" / "examples" / "secret.yaml").read_text())
    assert secret["stringData"]["REDIS_URL"].startswith(f"redis://{service['metadata']['name']}:6379")


def test_the_sentinel_example_keeps_every_event_and_its_url_names_its_sentinels() -> None:
    path = DEPLOY / "kubernetes" / "redis-sentinel" / "redis-sentinel.yaml"
    config, service, statefulset = yaml.safe_load_all(path.read_text())
    scripts = config["data"]
    assert "--appendonly yes" in scripts["redis.sh"] and "--maxmemory-policy noeviction" in scripts["redis.sh"]
    [monitor] = [line.split() for line in scripts["sentinel.sh"].splitlines() if line.startswith("sentinel monitor")]
    assert monitor[2] == "ludoteca" and monitor[-1] == "2"  # a quorum of 2 of the 3 Sentinels
    assert statefulset["spec"]["replicas"] == 3 and statefulset["spec"]["serviceName"] == service["metadata"]["name"]
    # The REDIS_URL its header and the Secret example give names the three pods' Sentinels and the service.
    urls = {
        m
        for p in (path, DEPLOY / "kubernetes" / "examples" / "secret.yaml")
        for m in re.findall(r"redis\+sentinel://redis-sentinel\S+", p.read_text())
    }
    [url] = urls
    where = SentinelURL.parse(url)
    assert where.service == "ludoteca"
    assert where.sentinels == tuple((f"redis-sentinel-{i}.redis-sentinel", 26379) for i in range(3))
    sentinels = [c for c in statefulset["spec"]["template"]["spec"]["containers"] if c["name"] == "sentinel"]
    assert sentinels[0]["ports"][0]["containerPort"] == 26379


def test_compose_requires_an_admin_token() -> None:
    compose = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    token = compose["services"]["ludoteca"]["environment"]["LUDOTECA_ADMIN_TOKEN"]
    assert token.startswith("${LUDOTECA_ADMIN_TOKEN:?"), "compose must refuse to start without the variable"


def dockerfile_instruction(name: str) -> list[str]:
    """Every (joined) line of one instruction of the final stage."""
    text = (DEPLOY / "Dockerfile").read_text().replace("\\\n", " ")
    final = text.split("\nFROM ")[-1]
    return [m.group(1).strip() for m in re.finditer(rf"^{name}\s+(.*)$", final, re.MULTILINE)]


def image_environment() -> dict[str, str]:
    env: dict[str, str] = {}
    for line in dockerfile_instruction("ENV"):
        for pair in shlex.split(line):
            key, _, value = pair.partition("=")
            env[key] = value
    return env


def test_the_images_command_serves_passes_its_healthcheck_and_stops_on_sigterm(
    redis: aioredis.Redis, redis_url: str, tmp_path: Path
) -> None:
    [cmd] = dockerfile_instruction("CMD")
    [healthcheck] = dockerfile_instruction("HEALTHCHECK")
    port = free_port()
    env = {**os.environ, **image_environment(), "LUDOTECA_PORT": str(port), "LUDOTECA_DATA_DIR": str(tmp_path)}
    env["REDIS_URL"] = redis_url  # as compose and Kubernetes run it
    env["PATH"] = f"{BIN}{os.pathsep}{env.get('PATH', '')}"
    assert env["LUDOTECA_HOST"] == "0.0.0.0"
    env["LUDOTECA_HOST"] = "127.0.0.1"  # the test listens on loopback only
    process = subprocess.Popen(json.loads(cmd), env=env, cwd=tmp_path, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(f"http://127.0.0.1:{port}/readyz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                assert time.monotonic() < deadline, "the image's command did not become ready"
                time.sleep(0.05)
        probe = json.loads(healthcheck.partition("CMD")[2].strip())
        assert probe[0] == "python"
        assert subprocess.run([sys.executable, *probe[1:]], env=env, timeout=10).returncode == 0
        process.send_signal(signal.SIGTERM)
        assert process.wait(15) == 0  # a clean stop (docs/operations.md, "Exit codes")
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def test_the_cronjob_example_runs_housekeeping_verbs_the_cli_has_against_the_servers_redis() -> None:
    """The archive and the backup on a schedule: each job runs a `ludoteca admin` verb the CLI takes,
    with REDIS_URL from the server's own Secret, into a mounted volume."""
    from server.cli import parser

    jobs = list(yaml.safe_load_all((DEPLOY / "kubernetes" / "examples" / "cronjobs.yaml").read_text()))
    assert [job["kind"] for job in jobs] == ["CronJob", "CronJob"]
    for job in jobs:
        pod = job["spec"]["jobTemplate"]["spec"]["template"]["spec"]
        [container] = pod["containers"]
        command = container["command"]
        assert command[:2] == ["ludoteca", "admin"] and command[2] in ("archive", "backup")
        parser().parse_args(command[1:])  # the CLI takes it as written
        assert container["envFrom"] == [{"secretRef": {"name": "ludoteca"}}]
        mounted = {m["mountPath"] for m in container["volumeMounts"]}
        assert any(arg in mounted for arg in command), (command, mounted)
        assert job["spec"]["concurrencyPolicy"] == "Forbid"
