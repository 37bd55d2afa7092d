"""Seasons an app defines (services/seasons.py), whose ratings the leaderboard shows with `season`."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

import msgspec
from litestar import Controller, Response, get, put
from litestar.di import NamedDependency
from litestar.params import JSONBody, PathParameter

from kaiten.api.auth import credential
from kaiten.api.request_body import KaitenRequest
from kaiten.api.routes.allow import options_allowing
from kaiten.services.errors import ServiceError
from kaiten.services.seasons import (
    MAX_SEASON_ID,
    MAX_SEASON_NAME,
    MAX_SEASONS,
    DefineSeason,
    Season,
    SeasonList,
    Seasons,
)
from kaiten.services.text_rules import PRINTABLE

SeasonsDep = NamedDependency[Seasons]
#: Stated in the schema, checked by the service (whose refusal has its own code).
SEASON_ID_PATTERN = "^[A-Za-z0-9][A-Za-z0-9._-]*$"
SeasonId = Annotated[
    str,
    PathParameter(
        description="The app's id for the season, as it chose it (`2026-winter`)",
        max_length=MAX_SEASON_ID,
        schema_extra={"pattern": SEASON_ID_PATTERN},
    ),
]
#: RFC 3339, with its offset. A string checked here rather than a `datetime`: Litestar decodes bodies
#: leniently, and would take a number for seconds since 1970.
Moment = Annotated[
    str,
    msgspec.Meta(
        pattern=r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?(Z|[+-]\d{2}:\d{2})$",
        extra_json_schema={"format": "date-time"},
    ),
]


def moment(text: str, name: str) -> datetime:
    try:
        return datetime.fromisoformat(text)
    except ValueError:
        raise ServiceError("invalid", "invalid-season-window", f"{name} is no date and time") from None


class DefineSeasonRequest(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A season: the finished games whose end falls from `starts_at`, before `ends_at`."""

    starts_at: Moment
    ends_at: Moment
    #: What to show for the season (default: its id).
    name: Annotated[str, msgspec.Meta(min_length=1, max_length=MAX_SEASON_NAME, pattern=PRINTABLE)] | None = None


DEFINE_DESCRIPTION = f"""\
With the app's key (on an open server, without one, for the built-in app). Every finished game of
the app whose end falls in the window (from `starts_at`, before `ends_at`; RFC 3339 times with an
offset) is rated again in the season, where every player starts as a new player, beside the
all-time rating: `getLeaderboard` with `season` shows them. The window may lie in the past (the
games already finished in it are counted from the log) or ahead. A season never changes: the same
definition sent again answers 200 with the season as it stands (a retry is safe), another under the
same id 409 `season-exists`. An app defines at most {MAX_SEASONS} seasons (429 `too-many-seasons`).
Ratings in a season trail the log by the projections' lag, as the all-time ones do.
"""


class SeasonsController(Controller):
    path = "/v1/seasons"
    tags = ["history"]

    allowed_on_season = options_allowing("GET", "PUT", path="/{season_id:str}")

    @put(
        "/{season_id:str}",
        operation_id="defineSeason",
        summary="Define a season: a window of time in which the app's players are rated anew",
        description=DEFINE_DESCRIPTION,
        status_code=201,
    )
    async def define(
        self, seasons: SeasonsDep, request: KaitenRequest, season_id: SeasonId, data: JSONBody[DefineSeasonRequest]
    ) -> Response[Season]:
        season, added = await seasons.define(
            DefineSeason(
                season_id=season_id,
                name=data.name or season_id,
                starts_at=moment(data.starts_at, "starts_at"),
                ends_at=moment(data.ends_at, "ends_at"),
                caller=credential(request),
            )
        )
        return Response(season, status_code=201 if added else 200, headers={"Location": f"/v1/seasons/{season.id}"})

    @get(
        "/{season_id:str}",
        operation_id="getSeason",
        summary="A season the app defined",
        description="The caller's app's (without a key, the built-in app's); another app's season answers 404.",
    )
    async def get_season(self, seasons: SeasonsDep, request: KaitenRequest, season_id: SeasonId) -> Season:
        return await seasons.get(season_id, credential(request))

    @get(
        "/",
        operation_id="listSeasons",
        summary="The seasons the app defined, latest start first",
        description="The caller's app's (without a key, the built-in app's).",
    )
    async def list_seasons(self, seasons: SeasonsDep, request: KaitenRequest) -> SeasonList:
        return await seasons.of_app(credential(request))
