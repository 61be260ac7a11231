"""Prometheus metrics, one registry per application (served at ``/metrics`` by server/web/metrics.py).

The registry counts nothing a viewer of a game may not see: a refusal's rule code is told only to the
refused seat (``lacks_cards`` says what a hand lacks), so commands are counted by game and
by the class of their result (``accepted``, ``refused``, ``conflict``...), never by code.
Commands are counted by game and result class,
conflicts and retries by game, HTTP requests timed by route, WebSockets counted as
they open and close and as messages pass, and Redis's round trip timed at each scrape.
"""

from __future__ import annotations

from collections.abc import Iterator

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram
from prometheus_client.core import CounterMetricFamily

LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
PAUSE_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0)


class Count:
    """One labelled count of a :class:`Tally`."""

    __slots__ = ("value",)

    def __init__(self) -> None:
        self.value = 0

    def inc(self, amount: int = 1) -> None:
        self.value += amount


class Tally:
    """A counter kept as plain ints and read at each scrape, for what every move bumps (each socket
    message, each command): prometheus_client's counters take a lock and check themselves on each
    ``inc``, several times a move. The event loop is
    the only writer."""

    def __init__(self, name: str, documentation: str, labels: list[str], registry: CollectorRegistry) -> None:
        self.name, self.documentation, self.label_names = name, documentation, labels
        self.counts: dict[tuple[str, ...], Count] = {}
        registry.register(self)

    def labels(self, *values: str) -> Count:
        count = self.counts.get(values)
        if count is None:
            count = self.counts[values] = Count()
        return count

    def describe(self) -> list[CounterMetricFamily]:
        return [CounterMetricFamily(self.name, self.documentation, labels=self.label_names)]

    def collect(self) -> Iterator[CounterMetricFamily]:
        family = CounterMetricFamily(self.name, self.documentation, labels=self.label_names)
        for values, count in self.counts.items():
            family.add_metric(list(values), count.value)
        yield family


class Metrics:
    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        r = self.registry
        self.commands = Tally(
            "ludoteca_commands", "Commands decided, by game and result (accepted, refused, conflict...)",
            ["game", "result"], r,
        )  # fmt: skip
        self.conflicts = Counter("ludoteca_conflicts", "Appends another writer beat, by game", ["game"], registry=r)
        self.retries = Counter(
            "ludoteca_retries", "Commands decided again after a conflict, by game", ["game"], registry=r
        )
        self.requests = Histogram(
            "ludoteca_request_seconds", "HTTP request latency, by route and status", ["route", "method", "status"],
            buckets=LATENCY_BUCKETS, registry=r,
        )  # fmt: skip
        self.sockets = Gauge("ludoteca_websockets", "WebSockets open", registry=r)
        self.socket_messages = Tally(
            "ludoteca_websocket_messages", "WebSocket messages, by direction (in, out)", ["direction"], r
        )
        # Counted on every socket message: each direction's child looked up once, not per message.
        self.messages_in, self.messages_out = self.socket_messages.labels("in"), self.socket_messages.labels("out")
        self.feed_reads = Counter(
            "ludoteca_feed_reads", "Stream reads by this replica's feeds (for other replicas' appends)", registry=r
        )
        self.redis_seconds = Histogram(
            "ludoteca_redis_roundtrip_seconds", "A PING to Redis, timed at each scrape", buckets=LATENCY_BUCKETS,
            registry=r,
        )  # fmt: skip
        self.games = Gauge("ludoteca_games", "Games in the lobby index, by status", ["status"], registry=r)
        self.redis_memory = Gauge(
            "ludoteca_redis_memory_bytes", "Memory Redis holds (INFO used_memory, every node), read at each scrape",
            registry=r,
        )  # fmt: skip
        self.outbox = Gauge(
            "ludoteca_outbox_waiting", "Notifications waiting in the outbox (all replicas together)", registry=r
        )
        self.redis_restarts = Counter(
            "ludoteca_embedded_redis_restarts", "Times this replica restarted its embedded Redis after it died",
            registry=r,
        )  # fmt: skip
        self.dormant = Counter(
            "ludoteca_games_sent_to_cold_tier", "Games this replica's dormancy passes sent to the cold tier", registry=r
        )
        self.notices = Counter(
            "ludoteca_notices", "Notifications by channel (webhook, email) and what became of them (posted, sent, "
            "retried, failed, dropped, deferred, over_quota)", ["channel", "result"], registry=r,
        )  # fmt: skip
        self.quota_refusals = Counter(
            "ludoteca_quota_refusals", "Requests refused by a quota an hour (429), by quota (games, seats, players, "
            "codes, destinations, sign_ins, passkeys)", ["quota"], registry=r,
        )  # fmt: skip
        self.gc_frozen_garbage = Gauge(
            "ludoteca_gc_frozen_garbage", "Unreachable objects the last full look at every object found among the "
            "frozen", registry=r,
        )  # fmt: skip
        self.gc_look_pause = Gauge(
            "ludoteca_gc_look_pause_seconds", "What the last full look paused the server: the fork of the copy that "
            "counted, or a thaw", registry=r,
        )  # fmt: skip
        self.gc_look_interval = Gauge(
            "ludoteca_gc_look_interval_seconds", "Seconds between full looks at every object "
            "(LUDOTECA_GC_THAW_INTERVAL; 0: never)", registry=r,
        )  # fmt: skip
        self.gc_look_last = Gauge(
            "ludoteca_gc_look_last_timestamp_seconds", "When the last full look at every object ended, failed or "
            "not (Unix time; the server's start before its first)", registry=r,
        )  # fmt: skip
        self.gc_look_failures = Counter(
            "ludoteca_gc_look_failures", "Full looks at every object that failed (each logged at error; the next "
            "runs on its interval)", registry=r,
        )  # fmt: skip
        self.loop_lag = Histogram(
            "ludoteca_event_loop_lag_seconds", "How late the event loop ran a timer due every 10 ms: how long "
            "whatever held the loop then delayed every socket's messages", buckets=LATENCY_BUCKETS, registry=r,
        )  # fmt: skip
        self.gc_pauses = Histogram(
            "ludoteca_gc_pause_seconds", "Each collection of the garbage collector, by generation: the whole "
            "process waits while it runs", ["generation"], buckets=PAUSE_BUCKETS, registry=r,
        )  # fmt: skip
        self.bot_moves = Counter(
            "ludoteca_bot_moves", "Commands the server's bots played, by game and bot", ["game", "bot"], registry=r
        )
        self.bot_pace_overruns = Counter(
            "ludoteca_bot_pace_overruns", "Bot decisions that thought past their drawn time (server/workers/pace.py)",
            ["game", "bot"], registry=r,
        )  # fmt: skip
