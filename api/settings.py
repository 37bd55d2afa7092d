"""Runtime settings, from the environment."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Literal, cast

from sqlalchemy.engine import make_url

from kaiten.adapters.database import DEFAULT_CONNECTIONS, MIN_CONNECTIONS
from kaiten.api import tracing
from kaiten.services.scheduler import DEFAULT_LEASE
from kaiten.services.table_cache import DEFAULT_CACHED_TABLES
from kaiten.services.webhook_delivery import KEEP_FOR

DEFAULT_DATABASE_URL = "sqlite+aiosqlite:///kaiten.sqlite3"

RateUnit = Literal["second", "minute", "hour", "day"]
_RATE = re.compile(r"^\s*(\d+)\s*/\s*(second|minute|hour|day)\s*$")
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")


class SettingsError(ValueError):
    """A setting the service cannot start with; the message names it."""


@dataclass(frozen=True)
class RateLimit:
    requests: int
    per: RateUnit


def parse_rate_limit(value: str) -> RateLimit:
    """`600/minute`: requests per second, minute, hour or day."""
    match = _RATE.match(value)
    if match is None or int(match.group(1)) < 1:
        raise SettingsError(
            f"KAITEN_RATE_LIMIT must look like 600/minute (per second, minute, hour or day), not {value}"
        )
    return RateLimit(requests=int(match.group(1)), per=cast(RateUnit, match.group(2)))


_DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([smhd]?)\s*$")
_UNIT_SECONDS = {"": 1, "s": 1, "m": 60, "h": 3600, "d": 86400}


def parse_duration(name: str, value: str) -> timedelta:
    """`90`, `90s`, `15m`, `12h` or `30d`: a positive duration."""
    match = _DURATION.match(value)
    if match is None or float(match.group(1)) <= 0:
        raise SettingsError(f"{name} must be a positive duration like 90s, 15m, 12h or 30d, not {value!r}")
    return timedelta(seconds=float(match.group(1)) * _UNIT_SECONDS[match.group(2)])


def check_read_replica(database_url: str, read_database_url: str) -> str:
    """A read replica is a PostgreSQL standby of a PostgreSQL primary: SQLite has no replicas."""
    for name, url in (("DATABASE_URL", database_url), ("KAITEN_READ_DATABASE_URL", read_database_url)):
        if make_url(url).get_backend_name() not in ("postgres", "postgresql"):
            raise SettingsError(
                f"KAITEN_READ_DATABASE_URL names a read replica of a PostgreSQL primary, but {name} is not "
                "PostgreSQL: unset KAITEN_READ_DATABASE_URL, or use postgresql+psycopg:// URLs for both"
            )
    return read_database_url


def check_direct_url(database_url: str, direct_database_url: str) -> str:
    """A direct URL goes past a PostgreSQL pooler to the server itself: SQLite has neither."""
    for name, url in (("DATABASE_URL", database_url), ("KAITEN_DIRECT_DATABASE_URL", direct_database_url)):
        if make_url(url).get_backend_name() not in ("postgres", "postgresql"):
            raise SettingsError(
                f"KAITEN_DIRECT_DATABASE_URL names the PostgreSQL server behind a pooler, but {name} is not "
                "PostgreSQL: unset KAITEN_DIRECT_DATABASE_URL, or use postgresql+psycopg:// URLs for both"
            )
    return direct_database_url


def parse_connections(value: str) -> int:
    """`KAITEN_DB_CONNECTIONS`: a process's PostgreSQL connections, at least the few it cannot do without."""
    if not (value.strip().isdigit() and int(value) >= MIN_CONNECTIONS):
        raise SettingsError(
            f"KAITEN_DB_CONNECTIONS must be a number of connections, at least {MIN_CONNECTIONS} (one listens "
            f"for appends, the others are the pool that requests and background work share), not {value!r}"
        )
    return int(value)


#: The shortest admin key taken: it guards every app's keys.
MIN_ADMIN_KEY = 32


def parse_auth(value: str | None, database_set: bool) -> bool:
    """Whether the server is open: `KAITEN_AUTH=open` or `keys`, else open only with the embedded
    default database (no DATABASE_URL)."""
    if value is None or not value.strip():
        return not database_set
    if value.strip().lower() not in ("open", "keys"):
        raise SettingsError(f"KAITEN_AUTH must be open or keys, not {value!r}")
    return value.strip().lower() == "open"


def parse_admin_key(value: str | None) -> str | None:
    if value is None or value == "":
        return None
    if len(value) < MIN_ADMIN_KEY or any(not char.isprintable() or char.isspace() for char in value):
        raise SettingsError(f"KAITEN_ADMIN_KEY must be at least {MIN_ADMIN_KEY} printable characters without spaces")
    return value


def parse_traces(value: str | None) -> bool:
    """`KAITEN_OTEL=1`: OpenTelemetry traces, which need the `otel` extra (api/tracing.py)."""
    on, problem = tracing.problem(value)
    if problem is not None:
        raise SettingsError(problem)
    return on


@dataclass(frozen=True)
class WebhookOptions:
    #: Webhooks may point at loopback, link-local and private addresses (tests, local development).
    allow_private: bool = False
    #: The first retry of a failed delivery comes within this; each next within twice the one before.
    first_retry_seconds: float = 1.0
    #: Delivered and given-up deliveries are forgotten after this.
    keep_for: timedelta = KEEP_FOR

    @classmethod
    def from_env(cls) -> WebhookOptions:
        retry = os.environ.get("KAITEN_WEBHOOK_RETRY_SECONDS") or "1"
        try:
            first_retry = float(retry)
        except ValueError:
            first_retry = -1.0
        if not 0 < first_retry <= 3600:
            raise SettingsError(f"KAITEN_WEBHOOK_RETRY_SECONDS must be a number of seconds in (0, 3600], not {retry}")
        keep = os.environ.get("KAITEN_WEBHOOK_KEEP")
        keep_for = KEEP_FOR if not keep else parse_duration("KAITEN_WEBHOOK_KEEP", keep)
        return cls(os.environ.get("KAITEN_WEBHOOK_ALLOW_PRIVATE") == "1", first_retry, keep_for)


DEFAULT_WEBHOOKS = WebhookOptions()


#: More bot processes than this is a typing error, not a machine.
MAX_BOT_WORKERS = 256


@dataclass(frozen=True)
class Settings:
    database_url: str = DEFAULT_DATABASE_URL
    #: A read replica of that database (PostgreSQL streaming replication), for reads that may lag.
    read_database_url: str | None = None
    #: Requests per client and period, counted by each serving process on its own (None: no limit).
    rate_limit: RateLimit | None = None
    log_level: str = "INFO"
    #: The origins whose pages may call the API from a browser (`*`: any); empty: CORS is off.
    cors_origins: tuple[str, ...] = ()
    #: Games whose tables each serving process keeps in memory (least recently used go first).
    table_cache: int = DEFAULT_CACHED_TABLES
    webhooks: WebhookOptions = DEFAULT_WEBHOOKS
    #: A game nobody moved in for this long is abandoned (None: never).
    abandon_after: timedelta | None = None
    #: How often each serving process looks for due deadlines.
    scheduler_interval: timedelta = timedelta(seconds=1)
    #: How long a process that claimed a due game (a clock, a bot's move) has to act on it before
    #: another process may claim it: longer than a bot's longest decision (`KAITEN_SCHEDULER_LEASE`).
    scheduler_lease: timedelta = DEFAULT_LEASE
    #: Callers without an app key write as the built-in app (the embedded default); else every write
    #: needs an app key (`KAITEN_AUTH`).
    open: bool = True
    #: The key of the admin API (`KAITEN_ADMIN_KEY`; None: no admin API).
    admin_key: str | None = None
    #: OpenTelemetry traces of the requests and their SQL statements (`KAITEN_OTEL`, api/tracing.py).
    traces: bool = False
    #: The processes in which each serving process's bots think (`KAITEN_BOT_WORKERS`; one per core).
    bot_workers: int = field(default_factory=lambda: os.cpu_count() or 1)
    #: The most PostgreSQL connections each serving process holds, everything included: its pool and
    #: the connection that listens for appends (`KAITEN_DB_CONNECTIONS`).
    db_connections: int = DEFAULT_CONNECTIONS
    #: The PostgreSQL server itself when `database_url` is a pooler in transaction mode (PgBouncer):
    #: what needs a session (LISTEN, migrations) connects here (`KAITEN_DIRECT_DATABASE_URL`; None:
    #: `database_url` is the server).
    direct_database_url: str | None = None

    @property
    def direct_url(self) -> str:
        """The URL of the database server itself, for whatever needs a session of its own."""
        return self.direct_database_url or self.database_url

    @classmethod
    def from_env(cls) -> Settings:
        rate_limit = os.environ.get("KAITEN_RATE_LIMIT")
        cors = os.environ.get("KAITEN_CORS_ORIGINS", "")
        log_level = (os.environ.get("KAITEN_LOG_LEVEL") or "INFO").upper()
        if log_level not in LOG_LEVELS:
            raise SettingsError(f"KAITEN_LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, not {log_level!r}")
        table_cache = os.environ.get("KAITEN_TABLE_CACHE") or str(DEFAULT_CACHED_TABLES)
        if not table_cache.strip().isdigit():
            raise SettingsError(f"KAITEN_TABLE_CACHE must be a number of games (0: none), not {table_cache!r}")
        database_url = os.environ.get("DATABASE_URL") or DEFAULT_DATABASE_URL
        read_database_url = os.environ.get("KAITEN_READ_DATABASE_URL")
        abandon_after = os.environ.get("KAITEN_ABANDON_AFTER")
        interval = os.environ.get("KAITEN_SCHEDULER_INTERVAL")
        lease = os.environ.get("KAITEN_SCHEDULER_LEASE")
        direct_database_url = os.environ.get("KAITEN_DIRECT_DATABASE_URL")
        connections = os.environ.get("KAITEN_DB_CONNECTIONS") or str(DEFAULT_CONNECTIONS)
        bot_workers = os.environ.get("KAITEN_BOT_WORKERS") or str(os.cpu_count() or 1)
        if not (bot_workers.strip().isdigit() and 1 <= int(bot_workers) <= MAX_BOT_WORKERS):
            raise SettingsError(f"KAITEN_BOT_WORKERS must be a number of processes, 1 to {MAX_BOT_WORKERS}")
        return cls(
            open=parse_auth(os.environ.get("KAITEN_AUTH"), database_set="DATABASE_URL" in os.environ),
            admin_key=parse_admin_key(os.environ.get("KAITEN_ADMIN_KEY")),
            traces=parse_traces(os.environ.get("KAITEN_OTEL")),
            database_url=database_url,
            read_database_url=check_read_replica(database_url, read_database_url) if read_database_url else None,
            abandon_after=parse_duration("KAITEN_ABANDON_AFTER", abandon_after) if abandon_after else None,
            scheduler_interval=(
                parse_duration("KAITEN_SCHEDULER_INTERVAL", interval) if interval else timedelta(seconds=1)
            ),
            scheduler_lease=parse_duration("KAITEN_SCHEDULER_LEASE", lease) if lease else DEFAULT_LEASE,
            rate_limit=parse_rate_limit(rate_limit) if rate_limit else None,
            log_level=log_level,
            cors_origins=tuple(origin.strip() for origin in cors.split(",") if origin.strip()),
            table_cache=int(table_cache),
            webhooks=WebhookOptions.from_env(),
            bot_workers=int(bot_workers),
            db_connections=parse_connections(connections),
            direct_database_url=(check_direct_url(database_url, direct_database_url) if direct_database_url else None),
        )
