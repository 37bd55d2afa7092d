"""`kaiten projections run|rebuild|status`: the catch-up projections outside `kaiten serve`."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import signal
import sys
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from sqlalchemy.ext.asyncio import AsyncEngine

from kaiten.adapters.database import create_engine, pool_size_for
from kaiten.adapters.migrate import upgrade_sync
from kaiten.adapters.notify import PostgresNotifier
from kaiten.adapters.projections.rebuild import Progress, rebuild
from kaiten.adapters.projections.registry import PROJECTIONS, build_projections
from kaiten.adapters.projections.runner import ProjectionRunner, running
from kaiten.api.settings import Settings

PROGRESS_WIDTH = 30


def add_commands(commands: Any) -> None:
    projections = commands.add_parser("projections", help="run, rebuild or inspect the catch-up projections")
    actions = projections.add_subparsers(dest="action", required=True)
    names = sorted(PROJECTIONS)

    run = actions.add_parser("run", help="apply the log to the read models as it grows, until stopped")
    run.add_argument("names", nargs="*", metavar="NAME", help=f"of {names} (default: all)")
    run.set_defaults(run=run_projections)

    rebuild_parser = actions.add_parser("rebuild", help="recreate read models from the whole log")
    rebuild_parser.add_argument("name", nargs="?", choices=names, help="the projection (default: all)")
    rebuild_parser.add_argument("--batch-size", type=int, default=5000, help="events per transaction")
    rebuild_parser.set_defaults(run=run_rebuild)

    status = actions.add_parser("status", help="how far each projection is behind the log, and what it set aside")
    status.set_defaults(run=run_status)

    retry = actions.add_parser("retry", help="apply the events a projection set aside again (after a fix)")
    retry.add_argument("name", nargs="?", choices=names, help="the projection (default: all)")
    retry.set_defaults(run=run_retry)


@asynccontextmanager
async def _engine() -> AsyncIterator[AsyncEngine]:
    # Past a pooler (KAITEN_DIRECT_DATABASE_URL), within the process's budget (KAITEN_DB_CONNECTIONS).
    settings = Settings.from_env()
    engine = create_engine(settings.direct_url, pool_size=pool_size_for(settings.direct_url, settings.db_connections))
    try:
        yield engine
    finally:
        await engine.dispose()


def run_projections(args: argparse.Namespace) -> int:
    unknown = sorted(set(args.names) - set(PROJECTIONS))
    if unknown:
        print(f"kaiten: no projection {unknown}; there are {sorted(PROJECTIONS)}", file=sys.stderr)
        return 2
    database_url = Settings.from_env().direct_url
    upgrade_sync(database_url)
    asyncio.run(_run(database_url, args.names or None))
    return 0


async def _run(database_url: str, names: list[str] | None) -> None:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop.set)
    async with _engine() as engine, contextlib.AsyncExitStack() as stack:
        notifier = None
        if engine.dialect.name == "postgresql":
            # SQLite has no cross-process notices: this process then polls.
            notifier = PostgresNotifier(database_url)
            await stack.enter_async_context(notifier.running())
        runners = [
            ProjectionRunner(engine, projection, notifier=notifier)
            for projection in build_projections(engine.dialect.name, names)
        ]
        await stack.enter_async_context(running(runners))
        print(f"kaiten: running projections {[runner.name for runner in runners]}", file=sys.stderr)
        await stop.wait()


def run_rebuild(args: argparse.Namespace) -> int:
    upgrade_sync(Settings.from_env().direct_url)
    asyncio.run(_rebuild([args.name] if args.name else None, args.batch_size))
    return 0


async def _rebuild(names: list[str] | None, batch_size: int) -> None:
    async with _engine() as engine:
        for projection in build_projections(engine.dialect.name, names):
            started = time.perf_counter()
            applied = await rebuild(engine, projection, batch_size=batch_size, progress=progress_bar(projection.name))
            elapsed = time.perf_counter() - started
            print(file=sys.stderr)
            print(
                f"kaiten: rebuilt {projection.name} from {applied:,} events in {elapsed:.1f} s "
                f"({applied / elapsed:,.0f} events/s)",
                file=sys.stderr,
            )


def progress_bar(name: str) -> Progress:
    started = time.perf_counter()

    def show(done: int, total: int) -> None:
        total = max(total, done)
        fraction = done / total if total else 1.0
        filled = int(PROGRESS_WIDTH * fraction)
        rate = done / max(time.perf_counter() - started, 1e-9)
        bar = "#" * filled + "." * (PROGRESS_WIDTH - filled)
        line = f"\r{name:<10} [{bar}] {fraction:6.1%}  {done:,}/{total:,} events  {rate:,.0f}/s"
        print(line, end="", file=sys.stderr, flush=True)

    return show


def run_status(args: argparse.Namespace) -> int:
    asyncio.run(_status())
    return 0


async def _status() -> None:
    async with _engine() as engine:
        for projection in build_projections(engine.dialect.name):
            runner = ProjectionRunner(engine, projection)
            lag, aside = await runner.lag(), await runner.quarantined()
            print(
                f"{projection.name:<10} behind by {lag.events:,} events, oldest {lag.seconds:.1f} s old; "
                f"{aside:,} set aside (kaiten projections retry)"
            )


def run_retry(args: argparse.Namespace) -> int:
    upgrade_sync(Settings.from_env().direct_url)
    asyncio.run(_retry([args.name] if args.name else None))
    return 0


async def _retry(names: list[str] | None) -> None:
    async with _engine() as engine:
        for projection in build_projections(engine.dialect.name, names):
            applied, kept = await ProjectionRunner(engine, projection).retry()
            print(f"{projection.name:<10} applied {applied:,} events set aside; {kept:,} still set aside")
