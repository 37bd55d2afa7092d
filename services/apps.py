"""Apps: the services that integrate kaiten. Each has keys (`kaiten_app_<id>_<secret>`, shown once,
kept as SHA-256), owns what it makes, and has quotas (services/quotas.py).

A key is found by its id and checked by comparing hashes in constant time. A serving process keeps
what it read of a key for `KEYS_SECONDS`, so a revoked key stops working on every process within it;
a rotated key keeps working until its grace period ends, then never.
"""

from __future__ import annotations

import hmac
import re
import time
from collections.abc import Callable
from datetime import datetime, timedelta

import msgspec

from kaiten.services.access import AppCaller
from kaiten.services.errors import ServiceError
from kaiten.services.lru import Lru
from kaiten.services.ports import AppRecord, AppStore, Clock, IdSource, KeyRecord, Quotas
from kaiten.services.secrets import hash_secret

KEY_PREFIX = "kaiten_app_"
#: How long a process trusts what it read of a key: a revoked key stops working within it everywhere.
KEYS_SECONDS = 0.5
#: Keys (and unknown key ids) a process remembers.
KEPT_KEYS = 10_000
#: How long a rotated key keeps working by default, so that an app can roll the new one out, and at most.
DEFAULT_GRACE = timedelta(hours=24)
MAX_GRACE = timedelta(days=30)
BUILTIN_NAME = "built-in"
#: Letters, digits, and . _ - between them: a name fits a command line and a URL as it is.
_NAME = re.compile(r"^[A-Za-z0-9](?:[A-Za-z0-9._-]{0,62}[A-Za-z0-9])?$")
_KEY = re.compile(r"^kaiten_app_([0-9a-f]{16})_[A-Za-z0-9_-]{20,100}$")


class KeyView(msgspec.Struct, frozen=True):
    id: str
    created_at: datetime
    #: Until when a rotated key keeps working (null: until it is rotated or revoked).
    expires_at: datetime | None
    revoked_at: datetime | None


class AppView(msgspec.Struct, frozen=True):
    id: str
    name: str
    created_at: datetime
    quotas: Quotas
    #: The app's keys, oldest first (never the keys themselves).
    keys: list[KeyView]


class IssuedKey(msgspec.Struct, frozen=True):
    """A new key: `key` is shown only now (kaiten keeps its hash)."""

    app: AppView
    key: str


class AppList(msgspec.Struct, frozen=True):
    apps: list[AppView]


def check_app_name(name: str) -> str:
    if not _NAME.match(name):
        raise ServiceError(
            "invalid",
            "invalid-app-name",
            "an app's name is 1-64 letters, digits, '.', '_' or '-', starting and ending with a letter or digit",
        )
    return name


def is_app_key(secret: str) -> bool:
    """Whether a bearer secret is meant as an app key (seat tokens and other secrets look otherwise)."""
    return secret.startswith(KEY_PREFIX)


class Apps:
    def __init__(
        self,
        store: AppStore,
        ids: IdSource,
        clock: Clock,
        keep_seconds: float = KEYS_SECONDS,
        now: Callable[[], float] = time.monotonic,
    ) -> None:
        self.store = store
        self.ids = ids
        self.clock = clock
        self._keep_seconds = keep_seconds
        self._now = now
        self._keys: Lru[str, tuple[float, KeyRecord | None]] = Lru(KEPT_KEYS)
        self._quotas: Lru[str, tuple[float, Quotas]] = Lru(KEPT_KEYS)

    # --- the apps' administration (the CLI and the admin API) --------------------------------

    async def create(self, name: str, quotas: Quotas | None = None) -> IssuedKey:
        app = AppRecord(
            app_id=self.ids.game_id(), name=check_app_name(name), created_at=self.clock.now(), quotas=quotas or Quotas()
        )
        if not await self.store.add_app(app):
            raise ServiceError("conflict", "app-exists", f"there is an app named {name!r} already")
        return await self._issue(app, retire_others_at=None)

    async def list(self) -> AppList:
        return AppList(apps=[await self._view(app) for app in await self.store.apps()])

    async def get(self, name: str) -> AppView:
        return await self._view(await self._named(name))

    async def rotate(self, name: str, grace: timedelta = DEFAULT_GRACE) -> IssuedKey:
        """A new key for the app; its other keys keep working for `grace`, then never."""
        if not timedelta(0) <= grace <= MAX_GRACE:
            raise ServiceError("invalid", "invalid-grace", f"a grace period is 0 to {MAX_GRACE.days} days")
        app = await self._named(name)
        return await self._issue(app, retire_others_at=self.clock.now() + grace)

    async def revoke(self, name: str) -> AppView:
        """Every key of the app stops working now (on every process within KEYS_SECONDS)."""
        app = await self._named(name)
        await self.store.revoke_keys(app.app_id, self.clock.now())
        return await self._view(app)

    async def set_quotas(self, name: str, quotas: Quotas) -> AppView:
        app = await self._named(name)
        await self.store.set_quotas(app.app_id, quotas)
        self._quotas.put(app.app_id, (self._now(), quotas))
        return await self._view(msgspec.structs.replace(app, quotas=quotas))

    async def _issue(self, app: AppRecord, retire_others_at: datetime | None) -> IssuedKey:
        key_id = self.ids.key_id()
        key = self.ids.token(f"app_{key_id}")  # kaiten_app_<key id>_<secret>
        record = KeyRecord(key_id=key_id, app_id=app.app_id, key_hash=hash_secret(key), created_at=self.clock.now())
        await self.store.add_key(record, retire_others_at)
        return IssuedKey(app=await self._view(app), key=key)

    async def _named(self, name: str) -> AppRecord:
        app = await self.store.app_named(name)
        if app is None:
            raise ServiceError("not-found", "app-not-found", f"no app named {name!r}")
        return app

    async def _view(self, app: AppRecord) -> AppView:
        keys = [
            KeyView(id=key.key_id, created_at=key.created_at, expires_at=key.expires_at, revoked_at=key.revoked_at)
            for key in await self.store.keys(app.app_id)
        ]
        return AppView(id=app.app_id, name=app.name, created_at=app.created_at, quotas=app.quotas, keys=keys)

    # --- serving: keys and quotas as every request needs them ----------------------------------

    async def authenticate(self, key: str) -> AppCaller:
        """The app whose key this is, if the key works now; 401 `invalid-app-key` otherwise."""
        match = _KEY.match(key)
        record = None if match is None else await self._key(match.group(1))
        # Compared even when no record was found, so that the time taken tells nothing.
        expected = record.key_hash if record is not None else hash_secret("")
        matches = hmac.compare_digest(hash_secret(key), expected)
        if record is None or not matches or not record.valid_at(self.clock.now()):
            raise ServiceError("unauthorized", "invalid-app-key", "this app key is unknown, revoked or expired")
        return AppCaller(app_id=record.app_id)

    async def quotas_of(self, app_id: str) -> Quotas:
        kept = self._quotas.get(app_id)
        if kept is not None and self._now() - kept[0] < self._keep_seconds:
            return kept[1]
        app = await self.store.app(app_id)
        quotas = Quotas() if app is None else app.quotas
        self._quotas.put(app_id, (self._now(), quotas))
        return quotas

    async def _key(self, key_id: str) -> KeyRecord | None:
        kept = self._keys.get(key_id)
        if kept is not None and self._now() - kept[0] < self._keep_seconds:
            return kept[1]
        record = await self.store.key(key_id)
        self._keys.put(key_id, (self._now(), record))
        return record
