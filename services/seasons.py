"""Seasons an app defines (issue 29 §3): a named window of time in which its players are rated anew.

Every finished game of the app whose end falls in a season's window (from `starts_at`, before
`ends_at`) is rated again in the season, from a new player's rating, beside the all-time rating; the
statistics projection keeps those ratings, and rebuilds them from the log like the rest
(adapters/projections/statistics.py). A season is defined once and never changes: the same definition
sent again is answered as it stands (a retry), another under the same id is refused. Its window may
lie in the past: the projection counts the games already finished in it from the log.
"""

from __future__ import annotations

import re
from datetime import datetime

import msgspec

from kaiten.services.access import Credential, namespace_of, writing_app
from kaiten.services.errors import ServiceError
from kaiten.services.ports import Clock, SeasonRecord, SeasonStore
from kaiten.services.text_rules import cleaned

MAX_SEASON_ID = 64
MAX_SEASON_NAME = 100
#: Seasons one app may define: every finished game is checked against its app's seasons.
MAX_SEASONS = 200
#: A season's id stands in URLs and query strings as it is.
_SEASON_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")


class Season(msgspec.Struct, frozen=True):
    id: str
    name: str
    starts_at: datetime
    ends_at: datetime
    created_at: datetime

    @classmethod
    def of(cls, record: SeasonRecord) -> Season:
        return cls(record.season_id, record.name, record.starts_at, record.ends_at, record.created_at)


class SeasonList(msgspec.Struct, frozen=True):
    #: Latest start first.
    seasons: list[Season]


class DefineSeason(msgspec.Struct, frozen=True):
    season_id: str
    name: str
    starts_at: datetime
    ends_at: datetime
    caller: Credential = None


def check_season_id(season_id: str) -> str:
    if len(season_id) > MAX_SEASON_ID or not _SEASON_ID.fullmatch(season_id):
        raise ServiceError(
            "invalid",
            "invalid-season-id",
            f"a season's id takes 1..{MAX_SEASON_ID} letters, digits, '.', '_' or '-', starting with a letter or "
            "a digit",
        )
    return season_id


def season_not_found(season_id: str) -> ServiceError:
    return ServiceError("not-found", "season-not-found", f"no season {season_id[:MAX_SEASON_ID]!r}")


class Seasons:
    def __init__(self, store: SeasonStore, clock: Clock, open_app: str | None) -> None:
        self.store = store
        self.clock = clock
        #: The app callers without a key act as (None: defining a season needs an app key).
        self.open_app = open_app

    async def define(self, command: DefineSeason) -> tuple[Season, bool]:
        """The season as defined, and whether this call defined it (False: it stood already)."""
        app_id = writing_app(command.caller, self.open_app)
        season_id = check_season_id(command.season_id)
        name = cleaned(command.name, MAX_SEASON_NAME)
        if name is None:
            raise ServiceError(
                "invalid", "invalid-season-name", f"a season's name takes 1..{MAX_SEASON_NAME} printable characters"
            )
        if command.starts_at.tzinfo is None or command.ends_at.tzinfo is None:
            raise ServiceError("invalid", "invalid-season-window", "starts_at and ends_at need a time zone")
        if command.starts_at >= command.ends_at:
            raise ServiceError("invalid", "invalid-season-window", "a season ends after it starts")
        wanted = SeasonRecord(app_id, season_id, name, command.starts_at, command.ends_at, self.clock.now())
        try:
            stored, added = await self.store.add(wanted, MAX_SEASONS)
        except LookupError:
            raise ServiceError(
                "too-many", "too-many-seasons", f"an app defines at most {MAX_SEASONS} seasons"
            ) from None
        if not added and (stored.name, stored.starts_at, stored.ends_at) != (name, wanted.starts_at, wanted.ends_at):
            raise ServiceError(
                "conflict", "season-exists", f"season {season_id!r} is defined otherwise; a season never changes"
            )
        return Season.of(stored), added

    async def get(self, season_id: str, caller: Credential = None) -> Season:
        app_id = namespace_of(caller).app_id
        record = await self.store.get(app_id, check_season_id(season_id))
        if record is None:
            raise season_not_found(season_id)
        return Season.of(record)

    async def of_app(self, caller: Credential = None) -> SeasonList:
        return SeasonList([Season.of(record) for record in await self.store.of_app(namespace_of(caller).app_id)])
