"""Seasons an app defines and their leaderboards (issue 29 §3), through HTTP on SQLite and PostgreSQL.

A season's ratings are those of its games alone, whether the season was defined before its games
were projected or after (then the projection counts them from the log), and a rebuild of the
statistics projection from the log gives the same boards.
"""

from __future__ import annotations

import random
import uuid
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from kaiten.adapters.projections.rebuild import rebuild
from kaiten.api.bootstrap import Services
from kaiten.services.seasons import MAX_SEASONS
from tests.app_client import AppClient
from tests.e2e.apps import app_headers, new_app_key
from tests.integration.projections.games import people_game
from tests.projecting import settle_all

Client = AppClient

GAME = "sushi-go"
DAY = timedelta(days=1)


@pytest.fixture
async def services(own_services: Services) -> AsyncIterator[Services]:
    """This module's games only: the boards hold the players seated here."""
    yield own_services


def window(starts_at: datetime, ends_at: datetime, **extra: Any) -> dict[str, Any]:
    return {"starts_at": starts_at.isoformat(), "ends_at": ends_at.isoformat(), **extra}


async def define(client: Client, season_id: str, body: dict[str, Any], headers: dict[str, str] | None = None) -> Any:
    response = await client.put(f"/v1/seasons/{season_id}", json=body, headers=headers or {})
    assert response.status_code == 201, response.text
    assert response.headers["location"] == f"/v1/seasons/{season_id}"
    return response.json()


async def board(client: Client, season: str | None = None, headers: dict[str, str] | None = None) -> list[Any]:
    url = f"/v1/leaderboard/{GAME}?limit=100" + ("" if season is None else f"&season={season}")
    response = await client.get(url, headers=headers or {})
    assert response.status_code == 200, response.text
    answer = response.json()
    assert answer["season"] == season and answer["next_cursor"] is None
    players: list[Any] = answer["players"]
    return players


def ratings(entries: list[Any]) -> list[Any]:
    return [{key: value for key, value in entry.items() if key not in ("name", "display_name")} for entry in entries]


def by_player(entries: list[Any]) -> dict[str, Any]:
    return {entry["player_id"]: entry for entry in entries}


async def test_a_seasons_board_rates_its_games_alone_however_late_it_was_defined(
    services: Services, client: Client
) -> None:
    rng = random.Random(3)
    for _ in range(2):
        await people_game(services.games, GAME, ["ann", "bob"], rng)
    await settle_all(services.projection_runners)
    all_time_then = await board(client)
    assert set(by_player(all_time_then)) == {"ann", "bob"}

    middle = datetime.now(UTC)
    # Defined after its games were projected: the projection counts them from the log.
    await define(client, "early", window(middle - DAY, middle))
    # Defined before its games were played.
    await define(client, "late", window(middle, middle + DAY, name="Late season"))
    for table in (["cy", "ann"], ["cy", "dee"]):
        await people_game(services.games, GAME, table, rng)
    await settle_all(services.projection_runners)

    # Names are the ones players last sat down with (Ann's has changed since), the ratings as they were.
    assert ratings(await board(client, "early")) == ratings(all_time_then), "the early games alone"
    late = by_player(await board(client, "late"))
    assert set(late) == {"ann", "cy", "dee"}
    assert {player: entry["played"] for player, entry in late.items()} == {"ann": 1, "cy": 2, "dee": 1}
    all_time = by_player(await board(client))
    assert set(all_time) == {"ann", "bob", "cy", "dee"}
    assert all_time["ann"]["played"] == 3
    # Ann starts the season anew: her season rating is one game's, not three games'.
    assert late["ann"]["rated_games"] == 1 and late["ann"]["sigma"] > all_time["ann"]["sigma"]

    boards = {season: await board(client, season) for season in (None, "early", "late")}
    statistics = next(runner.projection for runner in services.projection_runners if runner.name == "statistics")
    assert services.engine is not None
    await rebuild(services.engine, statistics)
    assert {season: await board(client, season) for season in boards} == boards, "the log rebuilds every board"


async def test_seasons_are_defined_once_listed_and_refused_with_a_code(services: Services, client: Client) -> None:
    now = datetime.now(UTC)
    body = window(now, now + DAY, name="Winter")
    season = await define(client, "2026-winter", body)
    assert season == {
        "id": "2026-winter",
        "name": "Winter",
        "starts_at": season["starts_at"],
        "ends_at": season["ends_at"],
        "created_at": season["created_at"],
    }
    assert datetime.fromisoformat(season["starts_at"]) == now
    # The same definition again is a retry: answered as it stands.
    again = await client.put("/v1/seasons/2026-winter", json=body)
    assert (again.status_code, again.json()) == (200, season)
    assert (await client.get("/v1/seasons/2026-winter")).json() == season
    await define(client, "2027", window(now + DAY, now + 2 * DAY))
    listed = (await client.get("/v1/seasons")).json()["seasons"]
    assert [item["id"] for item in listed] == ["2027", "2026-winter"]
    assert listed[0]["name"] == "2027", "a season's name is its id unless given"
    assert await board(client, "2027") == []

    refusals = [
        ("PUT", "/v1/seasons/2026-winter", window(now, now + 2 * DAY, name="Winter"), 409, "season-exists"),
        ("PUT", "/v1/seasons/2026-winter", window(now, now + DAY, name="Summer"), 409, "season-exists"),
        ("PUT", "/v1/seasons/-dash", body, 422, "invalid-season-id"),
        ("PUT", "/v1/seasons/a%20b", body, 422, "invalid-season-id"),
        ("PUT", f"/v1/seasons/{'s' * 65}", body, 400, "malformed-request"),
        ("PUT", "/v1/seasons/backwards", window(now, now - DAY), 422, "invalid-season-window"),
        ("PUT", "/v1/seasons/empty", window(now, now), 422, "invalid-season-window"),
        (
            "PUT",
            "/v1/seasons/naive",
            {"starts_at": "2026-12-01T00:00:00", "ends_at": "2027-01-01T00:00:00"},
            400,
            "malformed-request",
        ),
        ("PUT", "/v1/seasons/extra", {**body, "rules": "mine"}, 400, "malformed-request"),
        ("PUT", "/v1/seasons/number", {**body, "starts_at": 0}, 400, "malformed-request"),
        ("PUT", "/v1/seasons/no-day", {**body, "starts_at": "2026-02-30T00:00:00Z"}, 422, "invalid-season-window"),
        ("PUT", "/v1/seasons/unnamed", {**body, "name": ""}, 400, "malformed-request"),
        ("GET", "/v1/seasons/nowhere", None, 404, "season-not-found"),
        ("GET", f"/v1/leaderboard/{GAME}?season=nowhere", None, 404, "season-not-found"),
        ("GET", f"/v1/leaderboard/{GAME}?season=a%00b", None, 422, "invalid-season-id"),
        ("GET", f"/v1/leaderboard/{GAME}?season={'s' * 65}", None, 400, "malformed-request"),
    ]
    for method, url, json, status, code in refusals:
        response = await client.request(method, url, json=json)
        assert response.status_code == status, (url, response.text)
        assert response.headers["content-type"].startswith("application/problem+json"), url
        if code is not None:
            assert response.json()["code"] == code, url
    assert [item["id"] for item in (await client.get("/v1/seasons")).json()["seasons"]] == ["2027", "2026-winter"]


async def test_an_app_sees_and_defines_its_own_seasons_alone(closed_client: Client, closed_services: Services) -> None:
    unique = uuid.uuid4().hex[:8]
    mine = app_headers(await new_app_key(closed_services, f"seasons-mine-{unique}"))
    theirs = app_headers(await new_app_key(closed_services, f"seasons-theirs-{unique}"))
    now = datetime.now(UTC)
    await define(closed_client, "spring", window(now, now + DAY), mine)
    # The same id is another app's own season.
    await define(closed_client, "spring", window(now + DAY, now + 2 * DAY), theirs)
    for headers, other in ((mine, theirs), (theirs, mine)):
        seen = (await closed_client.get("/v1/seasons/spring", headers=headers)).json()
        assert seen == (await closed_client.get("/v1/seasons", headers=headers)).json()["seasons"][0]
        assert seen != (await closed_client.get("/v1/seasons/spring", headers=other)).json()

    missing = await closed_client.get(f"/v1/leaderboard/{GAME}?season=spring")
    assert (missing.status_code, missing.json()["code"]) == (404, "season-not-found")
    unkeyed = await closed_client.put("/v1/seasons/open", json=window(now, now + DAY))
    assert (unkeyed.status_code, unkeyed.json()["code"]) == (401, "app-key-required")

    token = await closed_client.post("/v1/players/ann/tokens", headers=mine)
    assert token.status_code == 201, token.text
    player = app_headers(token.json()["token"])
    refused = await closed_client.put("/v1/seasons/mine", json=window(now, now + DAY), headers=player)
    assert (refused.status_code, refused.json()["code"]) == (403, "player-token-refused")


async def test_an_app_defines_a_bounded_number_of_seasons(closed_client: Client, closed_services: Services) -> None:
    headers = app_headers(await new_app_key(closed_services, f"seasons-many-{uuid.uuid4().hex[:8]}"))
    start = datetime(2030, 1, 1, tzinfo=UTC)
    for number in range(MAX_SEASONS):
        await define(closed_client, f"s{number}", window(start + number * DAY, start + (number + 1) * DAY), headers)
    body = window(start, start + DAY)
    more = await closed_client.put("/v1/seasons/one-more", json=body, headers=headers)
    assert (more.status_code, more.json()["code"]) == (429, "too-many-seasons")
    retried = await closed_client.put("/v1/seasons/s0", json=body, headers=headers)
    assert retried.status_code == 200, "a retry of a season defined is answered still"
