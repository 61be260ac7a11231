"""What operators watch, with the real tools: Debian's ``prometheus`` scrapes a running server with the
metrics token and answers the queries the dashboard and the alerts are made of; ``promtool`` checks and
unit-tests deploy/prometheus/rules.yaml, checks the example configuration, and parses every expression of
deploy/grafana/ludoteca.json, whose metric names the server's /metrics must serve.

Without Debian's prometheus (``apt-get install -y prometheus``) these tests are skipped at a desk and
fail in CI (.ci/run installs it), as the browser tests do without chromium.
"""

from __future__ import annotations

import asyncio
import json
import re
import secrets
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis.asyncio as aioredis
import yaml
from prometheus_client.parser import text_string_to_metric_families
from websockets.asyncio.client import connect

from server.settings import Settings
from tests.server.conftest import ADMIN, AT_ONCE, NO_QUOTAS, Running, running
from tests.support.processes import ROOT, free_port
from tests.support.tools import tool

PROMETHEUS_DIR = ROOT / "deploy" / "prometheus"
RULES = PROMETHEUS_DIR / "rules.yaml"
DASHBOARD = ROOT / "deploy" / "grafana" / "ludoteca.json"
SERVICE_MONITOR = ROOT / "deploy" / "kubernetes" / "examples" / "servicemonitor.yaml"
COMMANDS_ROUTE = "/api/v1/games/{game_id}/commands"
METRICS_TOKEN = "metrics-" + secrets.token_urlsafe(32)  # not the admin token: the operator's scraper


def need(name: str) -> str:
    return tool(name, "Debian's prometheus: apt-get install -y prometheus; .ci/run installs it")


def promtool(*args: str, cwd: Path = PROMETHEUS_DIR) -> str:
    result = subprocess.run([need("promtool"), *args], cwd=cwd, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


# --- the rules and the example configuration ------------------------------------------------


def rule_expressions() -> dict[str, str]:
    groups = yaml.safe_load(RULES.read_text())["groups"]
    return {rule["alert"]: rule["expr"] for group in groups for rule in group["rules"]}


def test_the_alerting_rules_pass_promtool() -> None:
    assert "SUCCESS" in promtool("check", "rules", str(RULES))


def test_the_alerting_rules_pass_their_unit_tests() -> None:
    """rules.test.yaml: every alert fires on a series shaped like its trouble, and not before."""
    assert "SUCCESS" in promtool("test", "rules", "rules.test.yaml")
    tested = set(re.findall(r"alertname: (\w+)", (PROMETHEUS_DIR / "rules.test.yaml").read_text()))
    assert tested == set(rule_expressions())  # every alert, none forgotten


def test_the_example_configuration_passes_promtool(tmp_path: Path) -> None:
    """Checked fully (its rule files and token file read), with the token file where the test put it."""
    config = yaml.safe_load((PROMETHEUS_DIR / "prometheus.yml").read_text())
    [job] = config["scrape_configs"]
    assert job["job_name"] == "ludoteca" and job["metrics_path"] == "/metrics"
    assert job["authorization"]["type"] == "Bearer"
    (tmp_path / "token").write_text(METRICS_TOKEN)
    job["authorization"]["credentials_file"] = str(tmp_path / "token")
    config["rule_files"] = [str(PROMETHEUS_DIR / name) for name in config["rule_files"]]
    (tmp_path / "prometheus.yml").write_text(yaml.safe_dump(config))
    assert "SUCCESS" in promtool("check", "config", str(tmp_path / "prometheus.yml"))


def test_the_service_monitor_scrapes_the_service_with_the_metrics_token() -> None:
    """kubernetes-validate has no schema for the Prometheus Operator's resource: its fields are checked here."""
    [monitor] = yaml.safe_load_all(SERVICE_MONITOR.read_text())
    [service] = yaml.safe_load_all((ROOT / "deploy" / "kubernetes" / "service.yaml").read_text())
    [secret] = yaml.safe_load_all((ROOT / "deploy" / "kubernetes" / "examples" / "secret.yaml").read_text())
    assert monitor["apiVersion"] == "monitoring.coreos.com/v1" and monitor["kind"] == "ServiceMonitor"
    assert monitor["spec"]["selector"]["matchLabels"].items() <= service["metadata"]["labels"].items()
    [endpoint] = monitor["spec"]["endpoints"]
    assert endpoint["port"] in {port["name"] for port in service["spec"]["ports"]}
    assert endpoint["path"] == "/metrics"
    credentials = endpoint["authorization"]["credentials"]
    assert credentials["name"] == secret["metadata"]["name"] and credentials["key"] in secret["stringData"]
    # The job Prometheus names after the Service is the one the rules and the dashboard select.
    assert service["metadata"]["name"] == "ludoteca"


# --- the dashboard ----------------------------------------------------------------------------


def dashboard() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(DASHBOARD.read_text())
    return loaded


def dashboard_expressions() -> Iterator[tuple[str, str]]:
    for panel in dashboard()["panels"]:
        for target in panel["targets"]:
            yield f"{panel['title']} {target['refId']}", target["expr"]


def as_promql(expr: str) -> str:
    """A dashboard's expression as Prometheus reads it once Grafana has put in its variables."""
    return expr.replace("$__rate_interval", "1m").replace("$instance", ".*")


def test_the_dashboard_is_a_well_formed_grafana_dashboard() -> None:
    board = dashboard()
    assert board["uid"] == "ludoteca" and board["title"] and isinstance(board["schemaVersion"], int)
    variables = {v["name"]: v for v in board["templating"]["list"]}
    assert variables["datasource"]["type"] == "datasource" and variables["datasource"]["query"] == "prometheus"
    panels = board["panels"]
    assert len({p["id"] for p in panels}) == len(panels)
    cells: set[tuple[int, int]] = set()
    for panel in panels:
        assert panel["type"] in {"stat", "timeseries"} and panel["title"] and panel["description"]
        grid = panel["gridPos"]
        assert grid["x"] >= 0 and grid["w"] > 0 and grid["x"] + grid["w"] <= 24 and grid["h"] > 0
        covered = {
            (x, y) for x in range(grid["x"], grid["x"] + grid["w"]) for y in range(grid["y"], grid["y"] + grid["h"])
        }
        assert not covered & cells, f"{panel['title']} overlaps another panel"
        cells |= covered
        assert panel["datasource"] == {"type": "prometheus", "uid": "${datasource}"}
        refs = [t["refId"] for t in panel["targets"]]
        assert refs and len(set(refs)) == len(refs)
        for target in panel["targets"]:
            assert target["datasource"] == panel["datasource"] and target["expr"].strip()
            assert set(re.findall(r"\$(\w+)", target["expr"])) <= {"__rate_interval", "instance"}


def test_every_dashboard_expression_parses(tmp_path: Path) -> None:
    """promtool parses PromQL in rule files: each expression becomes a recording rule there."""
    rules = [
        {"record": f"dashboard:expression_{i}", "expr": as_promql(e)}
        for i, (_, e) in enumerate(dashboard_expressions())
    ]
    (tmp_path / "dashboard.rules.yaml").write_text(yaml.safe_dump({"groups": [{"name": "dashboard", "rules": rules}]}))
    assert f"SUCCESS: {len(rules)} rules found" in promtool("check", "rules", str(tmp_path / "dashboard.rules.yaml"))


def metric_names(expr: str) -> set[str]:
    """The metric names a PromQL expression selects: each name is followed by its braces."""
    without_strings = re.sub(r'"[^"]*"', '""', expr)
    return set(re.findall(r"([A-Za-z_:][A-Za-z0-9_:]*)\{", without_strings))


def served_names(text: str) -> set[str]:
    names = set()
    suffixes = {"counter": ("_total",), "histogram": ("_bucket", "_count", "_sum"), "gauge": ("",)}
    for family in text_string_to_metric_families(text):
        if family.name.endswith("_created"):  # when prometheus_client's counters and histograms began
            continue
        names |= {family.name + suffix for suffix in suffixes[family.type]}
    return names


def settings_for(redis_url: str) -> Settings:
    return Settings(
        redis_url=redis_url, admin_token=ADMIN, metrics_token=METRICS_TOKEN, sweep_interval=0.5, **NO_QUOTAS, **AT_ONCE
    )


async def test_every_metric_the_alerts_and_the_dashboard_name_is_served(redis: aioredis.Redis, redis_url: str) -> None:
    async with running(settings_for(redis_url)) as api:
        game_id, tokens = await api.started(2)
        seat, commands = await api.awaited(game_id, tokens)
        assert (await api.send(game_id, tokens[seat], commands[0])).status_code == 200
        r = await api.http.get("/metrics", headers={"Authorization": f"Bearer {METRICS_TOKEN}"})
        assert r.status_code == 200
    served = served_names(r.text) | {"up"}  # up: Prometheus's own, a scrape's success
    expressions = [*rule_expressions().items(), *dashboard_expressions()]
    for where, expr in expressions:
        named = metric_names(expr)
        assert named, where
        assert named <= served, f"{where} names what /metrics does not serve: {sorted(named - served)}"
        for route in re.findall(r'route="([^"]*)"', expr):
            assert f'route="{route}"' in r.text, f"{where}: no requests are timed under {route}"
    # Every metric the server serves is on the dashboard.
    on_board = set().union(*(metric_names(e) for _, e in dashboard_expressions()))
    families = {re.sub(r"_(total|bucket|count|sum)$", "", n) for n in served - {"up"}}
    missing = {f for f in families if not any(n.startswith(f) for n in on_board)}
    assert not missing, f"metrics no panel shows: {sorted(missing)}"


# --- a real Prometheus scraping a running server --------------------------------------------


class Prometheus:
    """Debian's prometheus on loopback, scraping ``target`` every second with the metrics token and
    evaluating rules.yaml every second: deploy/prometheus/prometheus.yml with those changes."""

    def __init__(self, target: str, directory: Path) -> None:
        config = yaml.safe_load((PROMETHEUS_DIR / "prometheus.yml").read_text())
        config["global"] = {"scrape_interval": "1s", "evaluation_interval": "1s"}
        config["rule_files"] = [str(RULES)]
        [job] = config["scrape_configs"]
        job["static_configs"] = [{"targets": [target]}]
        (directory / "token").write_text(METRICS_TOKEN)
        job["authorization"]["credentials_file"] = str(directory / "token")
        (directory / "prometheus.yml").write_text(yaml.safe_dump(config))
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = directory / "prometheus.log"
        self.log_file = self.log.open("w")
        self.process = subprocess.Popen(
            [
                need("prometheus"),
                f"--config.file={directory / 'prometheus.yml'}",
                f"--storage.tsdb.path={directory / 'data'}",
                f"--web.listen-address=127.0.0.1:{self.port}",
                "--log.level=warn",
            ],
            stdout=subprocess.DEVNULL,
            stderr=self.log_file,
        )

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.log_file.close()

    async def api(self, http: httpx.AsyncClient, path: str, **params: str) -> Any:
        r = await http.get(f"{self.url}/api/v1/{path}", params=params)
        assert r.status_code == 200, r.text
        body = r.json()
        assert body["status"] == "success", body
        return body["data"]

    async def query(self, http: httpx.AsyncClient, expr: str) -> list[tuple[dict[str, str], float]]:
        data = await self.api(http, "query", query=expr)
        assert data["resultType"] == "vector", data
        return [(sample["metric"], float(sample["value"][1])) for sample in data["result"]]

    async def one(self, http: httpx.AsyncClient, expr: str) -> float:
        samples = await self.query(http, expr)
        assert len(samples) == 1, (expr, samples)
        return samples[0][1]

    async def until(self, http: httpx.AsyncClient, expr: str, seconds: float = 20) -> float:
        """The query's one sample, once it has one and it is not 0."""
        deadline = time.monotonic() + seconds
        while True:
            if self.process.poll() is not None:
                pytest.fail(f"prometheus exited: {self.log.read_text()}")
            try:
                samples = await self.query(http, expr)
            except httpx.TransportError:
                samples = []  # not listening yet
            if len(samples) == 1 and samples[0][1]:
                return samples[0][1]
            assert time.monotonic() < deadline, f"{expr}: {samples}"
            await asyncio.sleep(0.2)


async def play(api: Running, game_id: str, tokens: list[str], moves: int) -> int:
    """Up to ``moves`` legal moves, a fifth of a second apart (so that several scrapes see the count
    grow); the moves made."""
    made = 0
    while made < moves:
        seat, commands = await api.awaited(game_id, tokens)
        if seat < 0:
            break
        r = await api.send(game_id, tokens[seat], commands[0])
        assert r.status_code == 200, r.text
        made += 1
        await asyncio.sleep(0.2)
    return made


@pytest.mark.timeout(120)
async def test_prometheus_scrapes_the_server_and_answers_the_operators_queries(
    redis: aioredis.Redis, redis_url: str, tmp_path: Path
) -> None:
    need("prometheus")
    job = 'job="ludoteca"'
    async with httpx.AsyncClient(timeout=5) as http:
        prometheus: Prometheus | None = None
        try:
            async with running(settings_for(redis_url)) as api:
                prometheus = Prometheus(api.url.removeprefix("http://"), tmp_path)
                assert await prometheus.until(http, f"up{{{job}}}") == 1  # scraped with the token
                api.deal_from("prometheus")  # a game that lasts past the moves played, on every run
                await api.create(3)  # a table still open
                game_id, tokens = await api.started(2)  # a table under way
                seat, commands = await api.awaited(game_id, tokens)
                refused = await api.send(game_id, tokens[1 - seat], commands[0])
                assert refused.status_code == 422
                async with connect(f"{api.ws_url}/api/v1/games/{game_id}/ws") as ws:
                    await ws.send(json.dumps({"type": "hello", "token": tokens[0], "after": 0}))
                    await ws.recv()
                    moves = await play(api, game_id, tokens, 15)
                    assert moves >= 5
                    # Every move is in a scrape: the count Prometheus holds is the moves made.
                    accepted = f'sum(ludoteca_commands_total{{{job}, result="accepted"}})'
                    deadline = time.monotonic() + 10
                    while await prometheus.until(http, accepted) != moves:
                        assert time.monotonic() < deadline
                        await asyncio.sleep(0.2)
                    # Moves a second: the rate of the commands counter.
                    rate = await prometheus.one(
                        http, f'sum(rate(ludoteca_commands_total{{{job}, result="accepted"}}[30s]))'
                    )
                    assert 0 < rate <= moves
                    results = dict(
                        (m["result"], v)
                        for m, v in await prometheus.query(http, f"sum by (result) (ludoteca_commands_total{{{job}}})")
                    )
                    assert results == {"accepted": moves, "refused": 1}
                    # p99 of a command, from the request histogram: within its buckets (0.001 s to 2.5 s).
                    p99 = await prometheus.one(
                        http,
                        "histogram_quantile(0.99, sum by (le) (rate(ludoteca_request_seconds_bucket"
                        f'{{{job}, route="{COMMANDS_ROUTE}"}}[30s])))',
                    )
                    assert 0 < p99 <= 2.5
                    # Sockets open, and the messages they carried.
                    assert await prometheus.one(http, f"sum(ludoteca_websockets{{{job}}})") == 1
                    directions = dict(
                        (m["direction"], v)
                        for m, v in await prometheus.query(
                            http, f"sum by (direction) (ludoteca_websocket_messages_total{{{job}}})"
                        )
                    )
                    assert directions["in"] == 1 and directions["out"] >= 1  # the hello; the view and the moves
                    # Tables by status.
                    tables = dict(
                        (m["status"], v)
                        for m, v in await prometheus.query(http, f"max by (status) (ludoteca_games{{{job}}})")
                    )
                    assert tables == {"open": 1, "active": 1, "finished": 0}
                    # Redis's memory and round trip, read at every scrape.
                    assert await prometheus.one(http, f"max(ludoteca_redis_memory_bytes{{{job}}})") > 500_000
                    pings = await prometheus.one(http, f"max(ludoteca_redis_roundtrip_seconds_count{{{job}}})")
                    assert pings >= 2
                    redis_p99 = await prometheus.one(
                        http,
                        "histogram_quantile(0.99, sum by (le) (rate(ludoteca_redis_roundtrip_seconds_bucket"
                        f"{{{job}}}[30s])))",
                    )
                    assert 0 < redis_p99 <= 2.5
                    # How late the replica's event loop runs: a timer every 10 ms, each one counted.
                    timers = await prometheus.one(http, f"sum(ludoteca_event_loop_lag_seconds_count{{{job}}})")
                    assert timers >= 100
                    loop_p99 = await prometheus.one(
                        http,
                        "histogram_quantile(0.99, sum by (instance, le) (rate(ludoteca_event_loop_lag_seconds_bucket"
                        f"{{{job}}}[30s])))",
                    )
                    assert 0 < loop_p99 <= 2.5
                    # The notifications' outbox: no player here asked for any, so nothing was posted or waits.
                    assert await prometheus.query(http, f"ludoteca_notices_total{{{job}}}") == []
                    assert await prometheus.query(http, f"max(ludoteca_outbox_waiting{{{job}}})") == [({}, 0.0)]
                    # The alerting rules loaded and evaluated, and a healthy server sets none off.
                    groups = (await prometheus.api(http, "rules"))["groups"]
                    rules = [rule for group in groups for rule in group["rules"]]
                    assert {rule["name"] for rule in rules} == set(rule_expressions())
                    deadline = time.monotonic() + 10
                    while any(rule["health"] != "ok" for rule in rules):
                        assert time.monotonic() < deadline, [
                            (r["name"], r["health"], r.get("lastError")) for r in rules
                        ]
                        await asyncio.sleep(0.2)
                        rules = [r for g in (await prometheus.api(http, "rules"))["groups"] for r in g["rules"]]
                    # (A scrape slower than the test's 1 s interval may leave an alert pending: none fires.)
                    alerts = (await prometheus.api(http, "alerts"))["alerts"]
                    assert [a for a in alerts if a["state"] == "firing"] == []
            # The server is gone: its target goes down, and the replica's alert is pending (it fires after 2 minutes).
            assert prometheus is not None
            deadline = time.monotonic() + 15
            while True:
                alerts = (await prometheus.api(http, "alerts"))["alerts"]
                if any(a["labels"]["alertname"] == "LudotecaReplicaDown" and a["state"] == "pending" for a in alerts):
                    break
                assert time.monotonic() < deadline, alerts
                await asyncio.sleep(0.2)
        finally:
            if prometheus is not None:
                prometheus.stop()
