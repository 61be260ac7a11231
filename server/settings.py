"""Configuration, from environment variables only (docs/operations.md lists them)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class Settings:
    host: str = "127.0.0.1"
    port: int = 8000
    data_dir: Path = Path("ludoteca-data")
    redis_url: str | None = None  # None: run the embedded Redis in data_dir
    appendfsync: str = "everysec"  # the embedded Redis's durability: everysec or always
    # Each append answered only once this many replicas of the primary have it (WAIT; 0: at once),
    # waiting at most wait_timeout_ms (then 503): no acknowledged move is lost when one fails over.
    wait_replicas: int = 0
    wait_timeout_ms: int = 500
    log_level: str = "info"
    log_format: str | None = None  # "text" (for people) or "json"; None: text on a terminal, else json
    admin_token: str | None = None  # None: admin routes answer 403
    metrics_token: str | None = None  # who may read /metrics (besides the admin token); None: the admin only
    allowed_origins: tuple[str, ...] = field(default_factory=tuple)  # CORS and the WebSocket Origin check
    cache_size: int = 1000  # games whose state each replica keeps in memory
    max_body: int = 64 * 1024
    max_import: int = 16 * 1024 * 1024  # an exported log can be far larger than a command
    command_retries: int = 5  # decide again after a conflict, when no expected_version was given
    ws_queue: int = 256  # updates a socket may fall behind before it is told to resume
    hello_timeout: float = 10.0
    header_timeout: float = 10.0  # seconds a request's line and headers may take to arrive (then 408)
    body_timeout: float = 60.0  # seconds a request's body may take to arrive after its headers (then 408)
    max_header: int = 16 * 1024  # bytes of request line and headers (431 past it)
    catch_up_chunk: int = 200  # events per update message during catch-up
    sweep_interval: float = 2.0  # how often watched games are read even without a notification
    ws_max_message: int = 16 * 1024  # largest WebSocket message a client may send (closed with 1009 past it)
    ws_rate: float = 20.0  # messages per second a socket may send after its hello, on average...
    ws_burst: int = 40  # ...with bursts of this many (a token bucket)
    ws_flood_limit: int = 40  # messages refused with too_many in a row before the socket is closed (4029)
    ws_per_address: int = 64  # sockets one client address may hold on this replica (0: no cap)
    ws_per_game: int = 2000  # sockets one game may have on this replica (0: no cap)
    deadline_interval: float = 0.2  # how often each replica looks for windows that are due
    shutdown_grace: float = 10.0  # on SIGTERM: seconds to finish requests in flight before closing
    create_per_hour: int = 60  # tables one client address may open an hour (0: no limit)
    seats_per_hour: int = 240  # seats one client address may take an hour (0: no limit)
    players_per_hour: int = 30  # players one client address may make an hour (0: no limit)
    rating_interval: float = 2.0  # seconds between the rater's looks at the games that finished
    codes_per_hour: int = 20  # one-time sign-in codes one client address may try an hour (0: no limit)
    sign_ins_per_hour: int = 60  # passkey and identity-provider sign-ins one address may begin an hour (0: no limit)
    passkeys_per_hour: int = 10  # passkey registrations one player may begin an hour (0: no limit)
    # Passkeys (WebAuthn): the relying party's id (a domain) and the origins its pages are served from.
    # None and empty: the host and origin each request was sent to (a server reached by one name).
    passkey_rp_id: str | None = None
    passkey_origins: tuple[str, ...] = field(default_factory=tuple)
    passkey_timeout: float = 300.0  # seconds a passkey challenge holds (and the browser is told to wait)
    # OpenID Connect: off unless the issuer and the client id are set.
    oidc_issuer: str | None = None  # https://id.example.org (its /.well-known/openid-configuration is read)
    oidc_client_id: str | None = None
    oidc_client_secret: str | None = None  # None: a public client (PKCE alone)
    # https://ludoteca.example.org/api/v1/players/oidc/callback, as registered; None: the callback as each
    # sign-in's browser reached this server
    oidc_redirect: str | None = None
    oidc_scopes: str = "openid profile"
    # Addresses of the proxies whose X-Forwarded-For names the client (comma separated; "*": any).
    # None of them by default: a client cannot choose the address its quotas count against.
    trusted_proxies: tuple[str, ...] = field(default_factory=tuple)
    max_open_games: int = 10_000  # open games in total, waiting for players (0: no limit)
    open_ttl: float = 86_400.0  # seconds an open game waits for players before it is deleted (0: forever)
    retention: float = 30 * 86_400.0  # seconds a finished game stays in Redis before it is archived
    archive_dir: Path | None = None  # None: finished games are not archived by the schedule
    housekeeping_interval: float = 60.0  # how often each replica looks for games to expire or archive
    # A game with no event for cold_after seconds leaves its history in the cold tier (0: never):
    # cold_url is a directory or s3://bucket/prefix; unset, <data_dir>/cold with the embedded
    # Redis and no cold tier with an operator's Redis (replicas must share it).
    cold_after: float = 3 * 86_400.0
    cold_url: str | None = None
    cold_interval: float = 3600.0  # seconds between the looks for dormant games
    s3_endpoint: str | None = None  # an S3-compatible store's URL for the cold tier (None: AWS)
    bot_delay_ms: int = 300  # a bot's think time before it moves, so people can follow (0 in tests)
    # Every bot decision lands bot_pace_ms + U(0, bot_pace_spread_ms) after the worker takes it up,
    # whatever the bot holds: its time tells nothing (server/workers/pace.py); 0 and 0: at once
    bot_pace_ms: int = 700
    bot_pace_spread_ms: int = 700
    rematch_grace: float = 600.0  # seconds a rematch keeps its people's seats for them
    drop_after: float = 0.0  # seconds a seat's sockets may stay away before a bot takes it over (0: never)
    gc_thaw_interval: float = 3600.0  # seconds between full garbage collections of everything (0: never)
    gc_thaw_above: int = 100_000  # unreachable objects a census in a copy must find before a thaw (0: always)
    # -- notifications (docs/players.md "Notifications", docs/operations.md "Notifications") --
    public_url: str | None = None  # where players reach this server, for links in notifications; None: host and port
    smtp_host: str | None = None  # the operator's SMTP server; None: no email is sent
    smtp_port: int = 587
    smtp_from: str = "ludoteca@localhost"
    smtp_tls: str = "starttls"  # starttls, tls (implicit, port 465) or none
    smtp_user: str | None = None
    smtp_password: str | None = field(default=None, repr=False)
    email_every: float = 15.0  # minutes: at most one email a player this often; notices in between make a digest
    # Hosts (names, addresses or networks) a webhook may name although they are loopback, private,
    # link-local or metadata addresses, or use plain http. None by default.
    webhook_allow: tuple[str, ...] = field(default_factory=tuple)
    webhook_timeout: float = 5.0  # seconds a webhook delivery may take in all (resolving, connecting, answering)
    outbox_lease: float = 60.0  # seconds a claimed delivery is left to its replica before another may send it
    outbox_retry: float = 10.0  # seconds before the first retry of a failed delivery (doubling each time)
    outbox_attempts: int = 8  # attempts at a delivery before it is given up
    outbox_interval: float = 0.5  # seconds between each replica's looks at the outbox
    outbox_senders: int = 8  # deliveries one replica sends at once
    webhooks_per_hour: int = 120  # webhook deliveries one player may be sent an hour (0: no limit)
    webhooks_per_host_hour: int = 3600  # webhook deliveries one receiving host may be sent an hour (0: no limit)
    emails_per_hour: int = 8  # emails one player may be sent an hour (0: no limit)
    emails_per_address_hour: int = 8  # emails one address may be sent an hour, whoever registered it (0: no limit)
    destinations_per_hour: int = 20  # webhook URLs and email addresses one client address may set an hour (0: no limit)

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        env = os.environ if env is None else env
        default = cls()

        def get(name: str, fallback: str) -> str:
            return env.get(f"LUDOTECA_{name}", fallback)

        def whole(name: str, fallback: int) -> int:
            raw = get(name, str(fallback)).strip()
            digits = raw[1:] if raw.startswith("-") else raw
            if not (digits.isascii() and digits.isdigit()):  # int() would also take "٣" or "1_000"
                raise ValueError(f"LUDOTECA_{name} is a whole number, not {raw!r}.")
            return int(raw)

        def decimal(name: str, fallback: float) -> float:
            raw = get(name, str(fallback))
            try:
                return float(raw)
            except ValueError:
                raise ValueError(f"LUDOTECA_{name} is a number, not {raw!r}.") from None

        origins = get("ALLOWED_ORIGINS", "")
        return cls(
            host=get("HOST", default.host),
            port=whole("PORT", default.port),
            data_dir=Path(get("DATA_DIR", str(default.data_dir))),
            redis_url=env.get("REDIS_URL") or None,
            appendfsync=get("APPENDFSYNC", default.appendfsync),
            wait_replicas=whole("WAIT_REPLICAS", default.wait_replicas),
            wait_timeout_ms=whole("WAIT_TIMEOUT_MS", default.wait_timeout_ms),
            log_level=get("LOG_LEVEL", default.log_level),
            log_format=get("LOG_FORMAT", "") or None,
            admin_token=get("ADMIN_TOKEN", "") or None,
            metrics_token=get("METRICS_TOKEN", "") or None,
            allowed_origins=tuple(o.strip() for o in origins.split(",") if o.strip()),
            cache_size=whole("CACHE_SIZE", default.cache_size),
            max_body=whole("MAX_BODY", default.max_body),
            max_import=whole("MAX_IMPORT", default.max_import),
            catch_up_chunk=whole("CATCH_UP_CHUNK", default.catch_up_chunk),
            command_retries=whole("COMMAND_RETRIES", default.command_retries),
            ws_queue=whole("WS_QUEUE", default.ws_queue),
            hello_timeout=decimal("HELLO_TIMEOUT", default.hello_timeout),
            header_timeout=decimal("HEADER_TIMEOUT", default.header_timeout),
            body_timeout=decimal("BODY_TIMEOUT", default.body_timeout),
            max_header=whole("MAX_HEADER", default.max_header),
            sweep_interval=decimal("SWEEP_INTERVAL", default.sweep_interval),
            ws_max_message=whole("WS_MAX_MESSAGE", default.ws_max_message),
            ws_rate=decimal("WS_RATE", default.ws_rate),
            ws_burst=whole("WS_BURST", default.ws_burst),
            ws_flood_limit=whole("WS_FLOOD_LIMIT", default.ws_flood_limit),
            ws_per_address=whole("WS_PER_ADDRESS", default.ws_per_address),
            ws_per_game=whole("WS_PER_GAME", default.ws_per_game),
            deadline_interval=decimal("DEADLINE_INTERVAL", default.deadline_interval),
            shutdown_grace=decimal("SHUTDOWN_GRACE", default.shutdown_grace),
            create_per_hour=whole("CREATE_PER_HOUR", default.create_per_hour),
            seats_per_hour=whole("SEATS_PER_HOUR", default.seats_per_hour),
            players_per_hour=whole("PLAYERS_PER_HOUR", default.players_per_hour),
            codes_per_hour=whole("CODES_PER_HOUR", default.codes_per_hour),
            rating_interval=decimal("RATING_INTERVAL", default.rating_interval),
            sign_ins_per_hour=whole("SIGN_INS_PER_HOUR", default.sign_ins_per_hour),
            passkeys_per_hour=whole("PASSKEYS_PER_HOUR", default.passkeys_per_hour),
            passkey_rp_id=get("PASSKEY_RP_ID", "") or None,
            passkey_origins=tuple(o.strip() for o in get("PASSKEY_ORIGINS", "").split(",") if o.strip()),
            passkey_timeout=decimal("PASSKEY_TIMEOUT", default.passkey_timeout),
            oidc_issuer=get("OIDC_ISSUER", "") or None,
            oidc_client_id=get("OIDC_CLIENT_ID", "") or None,
            oidc_client_secret=get("OIDC_CLIENT_SECRET", "") or None,
            oidc_redirect=get("OIDC_REDIRECT", "") or None,
            oidc_scopes=get("OIDC_SCOPES", default.oidc_scopes),
            trusted_proxies=tuple(p.strip() for p in get("TRUSTED_PROXIES", "").split(",") if p.strip()),
            max_open_games=whole("MAX_OPEN_GAMES", default.max_open_games),
            open_ttl=decimal("OPEN_TTL", default.open_ttl),
            retention=decimal("RETENTION", default.retention),
            archive_dir=Path(archive) if (archive := get("ARCHIVE_DIR", "")) else None,
            housekeeping_interval=decimal("HOUSEKEEPING_INTERVAL", default.housekeeping_interval),
            cold_after=decimal("COLD_AFTER", default.cold_after),
            cold_url=get("COLD_URL", "") or None,
            cold_interval=decimal("COLD_INTERVAL", default.cold_interval),
            s3_endpoint=get("S3_ENDPOINT", "") or None,
            rematch_grace=decimal("REMATCH_GRACE", default.rematch_grace),
            drop_after=decimal("DROP_AFTER", default.drop_after),
            bot_delay_ms=whole("BOT_DELAY_MS", default.bot_delay_ms),
            bot_pace_ms=whole("BOT_PACE_MS", default.bot_pace_ms),
            bot_pace_spread_ms=whole("BOT_PACE_SPREAD_MS", default.bot_pace_spread_ms),
            gc_thaw_interval=decimal("GC_THAW_INTERVAL", default.gc_thaw_interval),
            gc_thaw_above=whole("GC_THAW_ABOVE", default.gc_thaw_above),
            public_url=get("PUBLIC_URL", "").rstrip("/") or None,
            smtp_host=get("SMTP_HOST", "") or None,
            smtp_port=whole("SMTP_PORT", default.smtp_port),
            smtp_from=get("SMTP_FROM", default.smtp_from),
            smtp_tls=smtp_tls(get("SMTP_TLS", default.smtp_tls)),
            smtp_user=get("SMTP_USER", "") or None,
            smtp_password=get("SMTP_PASSWORD", "") or None,
            email_every=decimal("EMAIL_EVERY", default.email_every),
            webhook_allow=tuple(h.strip() for h in get("WEBHOOK_ALLOW", "").split(",") if h.strip()),
            webhook_timeout=decimal("WEBHOOK_TIMEOUT", default.webhook_timeout),
            outbox_lease=decimal("OUTBOX_LEASE", default.outbox_lease),
            outbox_retry=decimal("OUTBOX_RETRY", default.outbox_retry),
            outbox_attempts=whole("OUTBOX_ATTEMPTS", default.outbox_attempts),
            outbox_interval=decimal("OUTBOX_INTERVAL", default.outbox_interval),
            outbox_senders=whole("OUTBOX_SENDERS", default.outbox_senders),
            webhooks_per_hour=whole("WEBHOOKS_PER_HOUR", default.webhooks_per_hour),
            webhooks_per_host_hour=whole("WEBHOOKS_PER_HOST_HOUR", default.webhooks_per_host_hour),
            emails_per_hour=whole("EMAILS_PER_HOUR", default.emails_per_hour),
            emails_per_address_hour=whole("EMAILS_PER_ADDRESS_HOUR", default.emails_per_address_hour),
            destinations_per_hour=whole("DESTINATIONS_PER_HOUR", default.destinations_per_hour),
        )


SMTP_TLS = ("starttls", "tls", "none")


def smtp_tls(value: str) -> str:
    if value not in SMTP_TLS:
        raise ValueError(f"LUDOTECA_SMTP_TLS is one of {', '.join(SMTP_TLS)}, not {value!r}.")
    return value


ADMIN_TOKEN_LEAST = 16  # characters: `openssl rand -base64 32` makes 44
# Known placeholders, as letters and digits only (so "change-me" and "CHANGE_ME" are caught too).
PLACEHOLDERS = frozenset({"changeme", "replaceme", "password", "secret", "admin", "admintoken", "token", "default"})


def wait_problem(settings: Settings) -> str | None:
    """Why ``LUDOTECA_WAIT_REPLICAS`` cannot be honoured (``None``: it can)."""
    if settings.wait_replicas < 0:
        return f"LUDOTECA_WAIT_REPLICAS is a count of replicas, not {settings.wait_replicas}"
    if settings.wait_replicas > 0 and settings.redis_url is None:
        return "LUDOTECA_WAIT_REPLICAS needs a Redis with replicas (REDIS_URL): the embedded Redis has none"
    if settings.wait_replicas > 0 and settings.redis_url and settings.redis_url.startswith("redis+cluster"):
        return "LUDOTECA_WAIT_REPLICAS needs a single primary (redis:// or redis+sentinel://), not a Cluster"
    return None


def token_problems(admin_token: str | None, metrics_token: str | None) -> list[str]:
    """Why the operator's tokens must not be used (a known placeholder, too short); empty if fine.

    The admin token exports every unfinished game with every hand and deck order: a
    server with a guessable one would hand them to anyone who tries."""
    found = [token_problem("LUDOTECA_ADMIN_TOKEN", admin_token), token_problem("LUDOTECA_METRICS_TOKEN", metrics_token)]
    return [problem for problem in found if problem is not None]


def token_problem(variable: str, token: str | None) -> str | None:
    if token is None:
        return None
    plain = "".join(c for c in token.lower() if c.isalnum())
    placeholder = plain in PLACEHOLDERS or "changeme" in plain or "replaceme" in plain
    if placeholder or len(token) < ADMIN_TOKEN_LEAST:
        return (
            f"{variable} is a placeholder or shorter than {ADMIN_TOKEN_LEAST} characters; "
            f"make one with `openssl rand -base64 32`, or leave it unset (what it opens then answers 403)."
        )
    return None
