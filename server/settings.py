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
    log_level: str = "info"
    admin_token: str | None = None  # None: admin routes answer 403
    allowed_origins: tuple[str, ...] = field(default_factory=tuple)  # CORS and the WebSocket Origin check
    cache_size: int = 1000  # games whose state each replica keeps in memory
    max_body: int = 64 * 1024
    max_import: int = 16 * 1024 * 1024  # an exported log can be far larger than a command
    command_retries: int = 5  # decide again after a conflict, when no expected_version was given
    ws_queue: int = 256  # updates a socket may fall behind before it is told to resume
    hello_timeout: float = 10.0
    catch_up_chunk: int = 200  # events per update message during catch-up
    sweep_interval: float = 2.0  # how often watched games are read even without a notification
    ws_max_message: int = 16 * 1024  # largest WebSocket message a client may send (closed with 1009 past it)
    ws_rate: float = 20.0  # messages per second a socket may send after its hello, on average...
    ws_burst: int = 40  # ...with bursts of this many (a token bucket)
    ws_flood_limit: int = 40  # messages refused with too_many in a row before the socket is closed (4029)
    deadline_interval: float = 0.2  # how often each replica looks for windows that are due
    shutdown_grace: float = 10.0  # on SIGTERM: seconds to finish requests in flight before closing
    create_per_hour: int = 0  # games one client address may open an hour (0: no limit)
    max_open_games: int = 10_000  # open games in total, waiting for players (0: no limit)
    open_ttl: float = 86_400.0  # seconds an open game waits for players before it is deleted (0: forever)
    retention: float = 30 * 86_400.0  # seconds a finished game stays in Redis before it is archived
    archive_dir: Path | None = None  # None: finished games are not archived by the schedule
    housekeeping_interval: float = 60.0  # how often each replica looks for games to expire or archive
    bot_delay_ms: int = 300  # a bot's think time before it moves, so people can follow (0 in tests)
    drop_after: float = 0.0  # seconds a seat's sockets may stay away before a bot takes it over (0: never)

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        env = os.environ if env is None else env
        default = cls()

        def get(name: str, fallback: str) -> str:
            return env.get(f"LUDOTECA_{name}", fallback)

        origins = get("ALLOWED_ORIGINS", "")
        return cls(
            host=get("HOST", default.host),
            port=int(get("PORT", str(default.port))),
            data_dir=Path(get("DATA_DIR", str(default.data_dir))),
            redis_url=env.get("REDIS_URL") or None,
            appendfsync=get("APPENDFSYNC", default.appendfsync),
            log_level=get("LOG_LEVEL", default.log_level),
            admin_token=get("ADMIN_TOKEN", "") or None,
            allowed_origins=tuple(o.strip() for o in origins.split(",") if o.strip()),
            cache_size=int(get("CACHE_SIZE", str(default.cache_size))),
            max_body=int(get("MAX_BODY", str(default.max_body))),
            max_import=int(get("MAX_IMPORT", str(default.max_import))),
            catch_up_chunk=int(get("CATCH_UP_CHUNK", str(default.catch_up_chunk))),
            command_retries=int(get("COMMAND_RETRIES", str(default.command_retries))),
            ws_queue=int(get("WS_QUEUE", str(default.ws_queue))),
            hello_timeout=float(get("HELLO_TIMEOUT", str(default.hello_timeout))),
            sweep_interval=float(get("SWEEP_INTERVAL", str(default.sweep_interval))),
            ws_max_message=int(get("WS_MAX_MESSAGE", str(default.ws_max_message))),
            ws_rate=float(get("WS_RATE", str(default.ws_rate))),
            ws_burst=int(get("WS_BURST", str(default.ws_burst))),
            ws_flood_limit=int(get("WS_FLOOD_LIMIT", str(default.ws_flood_limit))),
            deadline_interval=float(get("DEADLINE_INTERVAL", str(default.deadline_interval))),
            shutdown_grace=float(get("SHUTDOWN_GRACE", str(default.shutdown_grace))),
            create_per_hour=int(get("CREATE_PER_HOUR", str(default.create_per_hour))),
            max_open_games=int(get("MAX_OPEN_GAMES", str(default.max_open_games))),
            open_ttl=float(get("OPEN_TTL", str(default.open_ttl))),
            retention=float(get("RETENTION", str(default.retention))),
            archive_dir=Path(archive) if (archive := get("ARCHIVE_DIR", "")) else None,
            housekeeping_interval=float(get("HOUSEKEEPING_INTERVAL", str(default.housekeeping_interval))),
            drop_after=float(get("DROP_AFTER", str(default.drop_after))),
            bot_delay_ms=int(get("BOT_DELAY_MS", str(default.bot_delay_ms))),
        )
