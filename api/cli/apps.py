"""`kaiten apps create|list|rotate|revoke|quotas`: the apps that integrate this server, and their keys.

A new key is printed once, alone on standard output (so that `KEY=$(kaiten apps create shop)` keeps
it), and `list` prints the apps there; what the other commands say of an app goes to standard error.
The admin API (api/routes/admin.py) does the same over HTTP.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import Any, TextIO, TypeVar

import msgspec

from kaiten.adapters.apps import SqlAppStore
from kaiten.adapters.database import create_engine
from kaiten.adapters.migrate import upgrade_sync
from kaiten.adapters.system import SecureIds, SystemClock
from kaiten.api.settings import Settings, SettingsError, parse_duration
from kaiten.services.apps import Apps, AppView, IssuedKey
from kaiten.services.errors import ServiceError
from kaiten.services.ports import Quotas

T = TypeVar("T")
QUOTAS = tuple(msgspec.structs.fields(Quotas))


def add_commands(commands: Any) -> None:
    apps = commands.add_parser("apps", help="create, list, rotate and revoke the apps that use this server")
    actions = apps.add_subparsers(dest="action", required=True)

    create = actions.add_parser("create", help="a new app and its first key (printed once)")
    create.add_argument("name")
    _quota_options(create)
    create.set_defaults(run=run_create)

    listing = actions.add_parser("list", help="every app, its keys' ids and its quotas")
    listing.set_defaults(run=run_list)

    rotate = actions.add_parser("rotate", help="a new key (printed once); the old ones work for the grace period")
    rotate.add_argument("name")
    rotate.add_argument("--grace", default="24h", help="how long the app's other keys keep working (default 24h)")
    rotate.set_defaults(run=run_rotate)

    revoke = actions.add_parser("revoke", help="every key of the app stops working now")
    revoke.add_argument("name")
    revoke.set_defaults(run=run_revoke)

    quotas = actions.add_parser("quotas", help="set the app's quotas (`none`: no limit)")
    quotas.add_argument("name")
    _quota_options(quotas)
    quotas.set_defaults(run=run_quotas)


def _quota_options(parser: argparse.ArgumentParser) -> None:
    for field in QUOTAS:
        parser.add_argument(f"--{field.name.replace('_', '-')}", metavar="N", help="a number, or none")


def _quotas(args: argparse.Namespace, base: Quotas) -> Quotas:
    given: dict[str, int | None] = {}
    for field in QUOTAS:
        value = getattr(args, field.name)
        if value is None:
            continue
        if value.lower() == "none":
            given[field.name] = None
        elif value.isascii() and value.isdigit():
            # ASCII digits alone: str.isdigit() also takes digits int() refuses (superscripts).
            given[field.name] = int(value)
        else:
            raise SettingsError(f"--{field.name.replace('_', '-')} takes a number or none, not {value!r}")
    return msgspec.structs.replace(base, **given)


def _with_apps(action: Callable[[Apps], Awaitable[T]]) -> T | None:
    settings = Settings.from_env()
    upgrade_sync(settings.direct_url)

    async def run() -> T:
        engine = create_engine(settings.direct_url)
        try:
            return await action(Apps(SqlAppStore(engine), SecureIds(), SystemClock()))
        finally:
            await engine.dispose()

    try:
        return asyncio.run(run())
    except ServiceError as error:
        print(f"kaiten: {error.code}: {error.message}", file=sys.stderr)
        return None


def _issued(issued: IssuedKey | None) -> int:
    if issued is None:
        return 1
    _describe(issued.app)
    print(
        "kaiten: the key below is shown only now: keep it secret (send it as `Authorization: Bearer ...`)",
        file=sys.stderr,
    )
    print(issued.key)
    return 0


def _describe(app: AppView, out: TextIO | None = None) -> None:
    """To standard error unless told: the one of the moment, not the one there was at import."""
    out = sys.stderr if out is None else out
    limits = msgspec.to_builtins(app.quotas).items()
    quotas = ", ".join(f"{name}={value}" for name, value in limits if value is not None) or "no quotas"
    working = [key for key in app.keys if key.revoked_at is None]
    print(f"{app.name}  id {app.id}  created {app.created_at:%Y-%m-%d %H:%M}  {quotas}", file=out)
    for key in working:
        until = "" if key.expires_at is None else f", works until {key.expires_at:%Y-%m-%d %H:%M:%S} UTC"
        print(f"  key {key.id} created {key.created_at:%Y-%m-%d %H:%M}{until}", file=out)


def run_create(args: argparse.Namespace) -> int:
    return _issued(_with_apps(lambda apps: apps.create(args.name, _quotas(args, Quotas()))))


def run_list(args: argparse.Namespace) -> int:
    listed = _with_apps(lambda apps: apps.list())
    if listed is None:
        return 1
    for app in listed.apps:
        _describe(app, sys.stdout)
    return 0


def run_rotate(args: argparse.Namespace) -> int:
    grace = timedelta(0) if args.grace in ("0", "0s") else parse_duration("--grace", args.grace)
    return _issued(_with_apps(lambda apps: apps.rotate(args.name, grace)))


def run_revoke(args: argparse.Namespace) -> int:
    revoked = _with_apps(lambda apps: apps.revoke(args.name))
    if revoked is None:
        return 1
    print(f"kaiten: every key of {revoked.name} is revoked", file=sys.stderr)
    return 0


def run_quotas(args: argparse.Namespace) -> int:
    async def set_quotas(apps: Apps) -> AppView:
        return await apps.set_quotas(args.name, _quotas(args, (await apps.get(args.name)).quotas))

    changed = _with_apps(set_quotas)
    if changed is None:
        return 1
    _describe(changed)
    return 0
