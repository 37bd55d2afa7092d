"""`kaiten serve`, `kaiten migrate`, `kaiten replay` and `kaiten openapi`."""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import socket
import sys
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, TypeVar

import msgspec

from kaiten.adapters.migrate import upgrade_sync
from kaiten.api.logging_setup import configure_logging, logging_config
from kaiten.api.parent_death import WORKER_OF
from kaiten.api.settings import Settings
from kaiten.services.errors import ServiceError

T = TypeVar("T")

log = logging.getLogger("kaiten.serve")

OPENAPI_PATH = Path("openapi/openapi.json")
ASGI_APP = "kaiten.api.asgi:app"
SERVERS = ("uvicorn", "granian")
#: Picked by bench/api.py's figures (bench/README.md).
DEFAULT_SERVER = "granian"

#: On shutdown uvicorn waits for open responses before the app's own shutdown, which is what ends the
#: event streams (they never finish by themselves): past this many seconds it cancels what is left.
GRACEFUL_SHUTDOWN_SECONDS = 5


def add_commands(commands: Any) -> None:
    serve = commands.add_parser("serve", help="migrate the database, then serve the REST API")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--workers", type=int, default=1, help="serving processes (each with its own table cache)")
    serve.add_argument(
        "--server",
        choices=SERVERS,
        default=DEFAULT_SERVER,
        help=f"the HTTP server (default {DEFAULT_SERVER}; see bench/README.md for how they compare)",
    )
    serve.set_defaults(run=run_serve)

    migrate = commands.add_parser("migrate", help="bring the database schema up to date")
    migrate.set_defaults(run=run_migrate)

    replay = commands.add_parser("replay", help="rebuild a game from its log")
    replay.add_argument("game_id")
    replay.add_argument(
        "--verify",
        action="store_true",
        help="check the log as an import would and compare with the stored table; exit 1 on a problem or drift",
    )
    replay.set_defaults(run=run_replay)

    openapi = commands.add_parser("openapi", help="write the OpenAPI document")
    openapi.add_argument("--output", type=Path, default=OPENAPI_PATH)
    openapi.set_defaults(run=run_openapi)


def run_serve(args: argparse.Namespace) -> int:
    settings = Settings.from_env()
    # From the first line on, as the workers will log: one JSON object per line on stderr.
    configure_logging(settings.log_level)
    address = f"{args.host}:{args.port}"
    taken = _listening_refused(args.host, args.port)
    if taken is not None:
        log.error(
            "cannot listen on %s: %s (is another server running there? stop it, or choose another --port)",
            address,
            taken.strerror or taken,
            extra={"fields": {"address": address}},
        )
        return 1
    upgrade_sync(settings.direct_url)
    database = _safe_url(settings.database_url)
    workers = f"{args.workers} worker{'s' if args.workers > 1 else ''}"
    log.info(
        "serving %s on http://%s with %s (%s)",
        database,
        address,
        args.server,
        workers,
        extra={"fields": {"database": database, "address": address, "server": args.server, "workers": args.workers}},
    )
    level, message = auth_line(settings, "DATABASE_URL" in os.environ)
    log.log(level, message, extra={"fields": {"auth": "open" if settings.open else "keys"}})
    if args.server == "granian":
        _serve_with_granian(args.host, args.port, args.workers, settings.log_level)
    else:
        _serve_with_uvicorn(args.host, args.port, args.workers, settings.log_level)
    return 0


def auth_line(settings: Settings, database_set: bool) -> tuple[int, str]:
    """What start-up says of keys, in one line: open servers say so, loudly where a database was set."""
    if not settings.open:
        return logging.INFO, "app keys required (create one with `kaiten apps create NAME`)"
    if database_set:
        return logging.WARNING, "KAITEN_AUTH=open: callers without an app key write as the built-in app"
    return logging.INFO, "open: no app key needed, everything belongs to the built-in app (set DATABASE_URL for keys)"


def _listening_refused(host: str, port: int) -> OSError | None:
    """Why nothing can listen at the address (another process listens there), else None. granian
    listens with SO_REUSEPORT: without this check a second server on a taken port would start and
    take half the connections of the first, whatever database each of them serves."""
    try:
        addresses = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except OSError as error:
        return error
    for family, kind, protocol, _, address in addresses:
        with socket.socket(family, kind, protocol) as probe:
            # As servers do: a port whose last connections are still closing (TIME_WAIT) is free.
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                probe.bind(address)
            except OSError as error:
                return error
    return None


def _serve_with_uvicorn(host: str, port: int, workers: int, level: str) -> None:
    import uvicorn

    uvicorn.run(
        ASGI_APP,
        host=host,
        port=port,
        workers=workers,
        log_level="warning",
        log_config=logging_config(level),
        # kaiten writes its own request log (api/request_log.py), one JSON line per request.
        access_log=False,
        timeout_graceful_shutdown=GRACEFUL_SHUTDOWN_SECONDS,
    )


def _serve_with_granian(host: str, port: int, workers: int, level: str) -> None:
    from granian import Granian
    from granian.constants import Interfaces
    from granian.log import LogLevels

    # granian serves from child processes: they must not outlive this one (api/parent_death.py).
    os.environ[WORKER_OF] = str(os.getpid())
    Granian(
        ASGI_APP,
        address=host,
        port=port,
        interface=Interfaces.ASGI,
        workers=workers,
        websockets=False,
        log_level=LogLevels.warning,
        log_dictconfig=logging_config(level),
        # kaiten writes its own request log (api/request_log.py), one JSON line per request.
        log_access=False,
        workers_kill_timeout=GRACEFUL_SHUTDOWN_SECONDS,
    ).serve()


def run_migrate(args: argparse.Namespace) -> int:
    settings = Settings.from_env()
    upgrade_sync(settings.direct_url)
    print(f"kaiten: {_safe_url(settings.direct_url)} is migrated", file=sys.stderr)
    return 0


def run_replay(args: argparse.Namespace) -> int:
    from kaiten.api.cli.replay_check import replay_game

    report = run_service(replay_game(Settings.from_env().direct_url, args.game_id))
    if report is None:
        return 1
    print(json.dumps(msgspec.to_builtins(report), indent=2, default=str))
    if args.verify and report.problem is not None:
        problem = report.problem
        print(f"kaiten: the log fails at version {problem['version']}: {problem['code']}", file=sys.stderr)
        return 1
    if args.verify and report.drift:
        print(f"kaiten: the stored table differs from the log in {sorted(report.drift)}", file=sys.stderr)
        return 1
    return 0


def run_service(coroutine: Coroutine[Any, Any, T]) -> T | None:
    """Run a use case; when it refuses (a ServiceError), say why on stderr and answer None."""
    try:
        return asyncio.run(coroutine)
    except ServiceError as error:
        where = getattr(error, "version", None)
        at = "" if where is None else f" (version {where})"
        print(f"kaiten: {error.code}{at}: {error.message}", file=sys.stderr)
        return None


def run_openapi(args: argparse.Namespace) -> int:
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(openapi_document())
    print(f"kaiten: wrote {args.output}", file=sys.stderr)
    return 0


def openapi_document() -> str:
    from kaiten.adapters.memory_store import InMemoryEventStore
    from kaiten.api.app import create_app
    from kaiten.api.bootstrap import bootstrap_with_store
    from kaiten.api.contract.document import typed_document

    app = create_app(bootstrap_with_store(InMemoryEventStore()))
    return json.dumps(typed_document(app.openapi_schema.to_schema()), indent=2, sort_keys=True) + "\n"


def _safe_url(url: str) -> str:
    """The URL without its password, for logs."""
    scheme, sep, rest = url.partition("://")
    if "@" in rest:
        credentials, _, host = rest.rpartition("@")
        user = credentials.split(":", 1)[0]
        return f"{scheme}{sep}{user}:***@{host}"
    return url
