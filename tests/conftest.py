"""Shared test set-up: hypothesis profiles and the real Redis every store test uses."""

from __future__ import annotations

import os
import shutil
import tempfile
import warnings
from collections.abc import AsyncIterator, Iterator

import pytest
from hypothesis import HealthCheck, settings

from server.storage.connection import Client, connect
from server.storage.embedded import EmbeddedRedis
from server.storage.store import EventStore

# ci: small and quick; dev: the default at a desk; soak: the documented long run
# (LUDOTECA_HYPOTHESIS=soak pytest), see docs/testing.md.
settings.register_profile("ci", max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile(
    "soak", max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]
)
settings.load_profile(os.environ.get("LUDOTECA_HYPOTHESIS", "ci" if os.environ.get("CI") else "dev"))


# --- the real Redis every store test uses ----------------------------------------
#
# REDIS_URL set: that server (it is FLUSHALLed before each test: never point it at
# data you keep). LUDOTECA_TEST_REDIS=container: a throwaway Redis container
# (testcontainers, needs Docker). Otherwise: an EmbeddedRedis in a temporary
# directory, the same one `ludoteca serve` runs. The fixture never skips: a Redis
# that cannot start is an error. With CI set, a skipped "redis" test fails the run.

_skipped_redis_tests: list[str] = []


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    url = os.environ.get("REDIS_URL")
    if url:
        yield url
        return
    if os.environ.get("LUDOTECA_TEST_REDIS") == "container":
        try:
            from testcontainers.community.redis import RedisContainer
        except ImportError:  # older testcontainers
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", DeprecationWarning)
                from testcontainers.redis import RedisContainer

        with RedisContainer("redis:7-alpine") as container:
            host = container.get_container_host_ip()
            port = container.get_exposed_port(6379)
            yield f"redis://{host}:{port}/0"
        return
    # A short path: unix socket paths are limited to 107 bytes.
    directory = tempfile.mkdtemp(prefix="lt-redis-")
    embedded = EmbeddedRedis(directory)
    embedded.start()  # pytest runs fixtures in the main thread, as the parent-death signal needs
    try:
        yield embedded.url
    finally:
        embedded.stop()
        shutil.rmtree(directory, ignore_errors=True)


@pytest.fixture
async def redis(redis_url: str) -> AsyncIterator[Client]:
    client = connect(redis_url)
    try:
        await client.flushall()
        yield client
    finally:
        await client.aclose()


@pytest.fixture
def store(redis: Client) -> EventStore:
    return EventStore(redis)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if "redis_url" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.redis)


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    skipped = report.skipped and not hasattr(report, "wasxfail")
    if skipped and "redis" in report.keywords and report.nodeid not in _skipped_redis_tests:
        _skipped_redis_tests.append(report.nodeid)


@pytest.hookimpl(tryfirst=True)
def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if os.environ.get("CI") and _skipped_redis_tests and session.exitstatus == 0:
        session.exitstatus = 1


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter, exitstatus: int, config: pytest.Config) -> None:
    if os.environ.get("CI") and _skipped_redis_tests:
        terminalreporter.section("Redis tests skipped in CI", sep="=", red=True, bold=True)
        terminalreporter.write_line(
            f"{len(_skipped_redis_tests)} test(s) marked 'redis' were skipped; in CI every store test must run "
            "against a real Redis, so this run fails:",
            red=True,
        )
        for nodeid in _skipped_redis_tests:
            terminalreporter.write_line(f"  {nodeid}")
