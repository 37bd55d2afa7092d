"""`kaiten export GAME_ID [-o FILE]` and `kaiten import FILE`: a finished game's log, through the
composition root, with the checks of `POST /v1/games/import` (services/logs.py)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import msgspec

from kaiten.api.bootstrap import bootstrap
from kaiten.api.cli import backup as backup_cli
from kaiten.api.cli.service import run_service
from kaiten.api.contract.presenting import log_document, table_view
from kaiten.api.settings import Settings
from kaiten.services.access import AppCaller
from kaiten.services.apps import BUILTIN_NAME
from kaiten.services.loading import check_game_id
from kaiten.services.logs import export_log, import_log
from kaiten.services.ports import BUILTIN_APP


def add_commands(commands: Any) -> None:
    export = commands.add_parser("export", help="write a finished game's log (the format of GET /export)")
    export.add_argument("game_id", nargs="?")
    export.add_argument("-o", "--output", type=Path, help="the file to write (default: standard output)")
    export.set_defaults(run=run_export)

    imported = commands.add_parser("import", help="check a finished game's log and store it as a new game")
    imported.add_argument("file", type=Path, nargs="?", help="an export, or an object whose events are a game's log")
    imported.add_argument(
        "--app", default=BUILTIN_NAME, help=f"the app the game is imported for (default {BUILTIN_NAME})"
    )
    imported.set_defaults(run=run_import)
    backup_cli.add_arguments(export, imported)


async def _export(database_url: str, game_id: str) -> bytes:
    """As the game's own app sees it: whoever runs the command line holds the database."""
    services = bootstrap(database_url)
    try:
        summary = await services.games.store.summary(check_game_id(game_id))
        owner = AppCaller(summary.app_id if summary is not None else BUILTIN_APP)
        return msgspec.json.encode(log_document(await export_log(services.games, game_id, owner)))
    finally:
        await services.close()


async def _import(database_url: str, document: Any, app_name: str) -> bytes:
    services = bootstrap(database_url)
    try:
        app = await services.apps.get(app_name)
        view, _ = await import_log(services.games, document, AppCaller(app.id))
        return msgspec.json.encode(table_view(view))
    finally:
        await services.close()


def run_export(args: argparse.Namespace) -> int:
    if args.all or args.game_id is None:
        return backup_cli.run_export_all(args) if args.all else _usage("export GAME_ID, or export --all")
    document = run_service(_export(Settings.from_env().direct_url, args.game_id))
    if document is None:
        return 1
    if args.output is None:
        sys.stdout.write(document.decode() + "\n")
    else:
        args.output.write_bytes(document + b"\n")
        print(f"kaiten: wrote {args.output}", file=sys.stderr)
    return 0


def _usage(what: str) -> int:
    print(f"kaiten: {what}", file=sys.stderr)
    return 2


def run_import(args: argparse.Namespace) -> int:
    if args.all or args.file is None:
        return backup_cli.run_import_all(args) if args.all else _usage("import FILE, or import --all [FILE]")
    try:
        document = json.loads(args.file.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        print(f"kaiten: cannot read {args.file}: {error}", file=sys.stderr)
        return 1
    view = run_service(_import(Settings.from_env().direct_url, document, args.app))
    if view is None:
        return 1
    sys.stdout.write(view.decode() + "\n")
    return 0
