"""Leaderboards a page at a time, by display name, and a player's rating history, through HTTP on
SQLite and PostgreSQL (issue 29 §3).

Games between two new players each leave their winners tied with one another, and their losers too:
the pages must still give every player exactly once, in one order.
"""

from __future__ import annotations

import base64
import itertools
import random
import uuid
from collections.abc import AsyncIterator
from typing import Any

import msgspec
import pytest

from kaiten.api.bootstrap import Services
from tests.app_client import AppClient
from tests.e2e.apps import app_headers, create_as, new_app_key
from tests.e2e.play import play_randomly
from tests.integration.projections.games import people_game
from tests.projecting import settle_all

Client = AppClient

GAME = "sushi-go"
#: Pairs of new players, one game each.
PAIRS = 5


@pytest.fixture
async def services(own_services: Services) -> AsyncIterator[Services]:
    """This module's games only: the leaderboards hold the players seated here."""
    yield own_services


async def get(client: Client, url: str) -> Any:
    response = await client.get(url)
    assert response.status_code == 200, response.text
    return response.json()


async def pages(client: Client, url: str, limit: int) -> list[dict[str, Any]]:
    """Every page of a paged answer, following `next_cursor` to the end."""
    answers = [await get(client, f"{url}?limit={limit}")]
    while answers[-1]["next_cursor"] is not None:
        answers.append(await get(client, f"{url}?limit={limit}&cursor={answers[-1]['next_cursor']}"))
    return answers


def cursor_of(value: object) -> str:
    return base64.urlsafe_b64encode(msgspec.json.encode(value)).rstrip(b"=").decode()


async def test_leaderboard_pages_give_every_player_once_in_order_through_ties(
    services: Services, client: Client
) -> None:
    rng = random.Random(29)
    for pair in range(PAIRS):
        await people_game(services.games, GAME, [f"p{pair}a", f"p{pair}b"], rng)
    await settle_all(services.projection_runners)

    whole = await get(client, f"/v1/leaderboard/{GAME}?limit=100")
    assert whole["next_cursor"] is None
    players = whole["players"]
    assert len(players) == 2 * PAIRS
    ratings = [entry["rating"] for entry in players]
    assert ratings == sorted(ratings, reverse=True)
    assert len(set(ratings)) < len(ratings), "the games made ties"
    assert [entry["rank"] for entry in players] == list(range(1, 2 * PAIRS + 1))
    # Each row names its player as they sat down (people_game names them "person 0", "person 1").
    assert all(entry["display_name"] == entry["name"] and entry["name"].startswith("person ") for entry in players)

    for limit in (1, 3, 4, 2 * PAIRS):
        answers = await pages(client, f"/v1/leaderboard/{GAME}", limit)
        assert [len(answer["players"]) for answer in answers[:-1]] == [limit] * (len(answers) - 1)
        assert [entry for answer in answers for entry in answer["players"]] == players, limit

    # An erased player leaves the board: the pages close up over them and the ranks count on.
    erased = players[3]["player_id"]
    assert (await client.delete(f"/v1/players/{erased}")).status_code == 204
    await settle_all(services.projection_runners)
    kept = [entry for entry in players if entry["player_id"] != erased]
    for limit in (1, 3):
        shown = [
            entry for answer in await pages(client, f"/v1/leaderboard/{GAME}", limit) for entry in answer["players"]
        ]
        assert [entry["player_id"] for entry in shown] == [entry["player_id"] for entry in kept]
        assert [entry["rank"] for entry in shown] == list(range(1, len(kept) + 1))


#: A cursor whose rating is no number a board holds.
INFINITE = base64.urlsafe_b64encode(b'[1e999,"x",3]').decode().rstrip("=")
BAD_LEADERBOARD_REQUESTS = [
    (f"/v1/leaderboard/{GAME}?cursor=not-a-cursor", 422, "invalid-cursor"),
    (f"/v1/leaderboard/{GAME}?cursor=WzEsMl0", 422, "invalid-cursor"),
    (f"/v1/leaderboard/{GAME}?cursor={cursor_of([1.5, 'x', 0])}", 422, "invalid-cursor"),
    (f"/v1/leaderboard/{GAME}?cursor={cursor_of([1.5, '', 3])}", 422, "invalid-cursor"),
    (f"/v1/leaderboard/{GAME}?cursor={cursor_of(['1.5', 'x', 3])}", 422, "invalid-cursor"),
    (f"/v1/leaderboard/{GAME}?cursor={INFINITE}", 422, "invalid-cursor"),
    (f"/v1/leaderboard/{GAME}?cursor={'A' * 401}", 400, "malformed-request"),
    (f"/v1/leaderboard/{GAME}?cursor=a%2Bb", 422, "invalid-cursor"),
    (f"/v1/leaderboard/{GAME}?limit=0", 400, "malformed-request"),
    (f"/v1/leaderboard/{GAME}?limit=101", 400, "malformed-request"),
    (f"/v1/leaderboard/{GAME}?limit=ten", 400, "malformed-request"),
]


async def test_bad_cursors_and_limits_are_problems_with_a_code(client: Client) -> None:
    for url, status, code in BAD_LEADERBOARD_REQUESTS:
        response = await client.get(url)
        assert response.status_code == status, (url, response.text)
        assert response.headers["content-type"].startswith("application/problem+json")
        assert response.json()["code"] == code, url


async def test_a_players_rating_history_chains_game_by_game_and_pages_newest_first(
    services: Services, client: Client
) -> None:
    rng = random.Random(7)
    played = []
    for table in (["ann", "bob"], ["bob", "ann", None], ["ann", "cy"], ["bob", "cy"]):
        played.append((table, await people_game(services.games, GAME, table, rng)))
    # A game against bots alone moves nobody's rating.
    await people_game(services.games, GAME, ["ann", None], rng)
    await settle_all(services.projection_runners)

    history = await get(client, f"/v1/players/ann/ratings/{GAME}?limit=100")
    assert history["player_id"] == "ann" and history["game"] == GAME and history["next_cursor"] is None
    items = history["items"]
    assert [item["game_id"] for item in items] == [game_id for table, game_id in played if "ann" in table][::-1]
    assert [item["rated_game"] for item in items] == [3, 2, 1]
    for newer, older in itertools.pairwise(items):
        assert newer["rating_before"] == older["rating_after"]
        assert newer["finished_at"] >= older["finished_at"]
    assert items[-1]["rating_before"] == pytest.approx(0.0), "a new player's conservative rating"
    stats = (await get(client, "/v1/players/ann/stats"))["games"]
    now = next(entry for entry in stats if entry["game"] == GAME)
    assert (items[0]["rating_after"], items[0]["mu"], items[0]["sigma"]) == (now["rating"], now["mu"], now["sigma"])
    for item in items:
        table = await get(client, f"/v1/games/{item['game_id']}")
        assert table["status"] == "finished"

    answers = await pages(client, f"/v1/players/ann/ratings/{GAME}", 1)
    assert [item for answer in answers for item in answer["items"]] == items
    assert len(answers) == 3

    nobody = await get(client, f"/v1/players/nobody/ratings/{GAME}")
    assert nobody == {"player_id": "nobody", "game": GAME, "items": [], "next_cursor": None}
    assert (await get(client, "/v1/players/ann/ratings/dim-sum-derby"))["items"] == []


BAD_HISTORY_REQUESTS = [
    (f"/v1/players/ann/ratings/{GAME}?cursor=not-a-cursor", 422, "invalid-cursor"),
    (f"/v1/players/ann/ratings/{GAME}?cursor={cursor_of(0)}", 422, "invalid-cursor"),
    (f"/v1/players/ann/ratings/{GAME}?cursor={cursor_of(1.5)}", 422, "invalid-cursor"),
    (f"/v1/players/ann/ratings/{GAME}?cursor={cursor_of([1.5, 'x', 3])}", 422, "invalid-cursor"),
    (f"/v1/players/ann/ratings/{GAME}?limit=0", 400, "malformed-request"),
    (f"/v1/players/ann/ratings/{GAME}?limit=101", 400, "malformed-request"),
    ("/v1/players/ann/ratings/chess", 404, "unknown-game"),
    (f"/v1/players/{'x' * 201}/ratings/{GAME}", 400, "malformed-request"),
]


async def test_bad_rating_history_requests_are_problems_with_a_code(client: Client) -> None:
    for url, status, code in BAD_HISTORY_REQUESTS:
        response = await client.get(url)
        assert response.status_code == status, (url, response.text)
        assert response.headers["content-type"].startswith("application/problem+json")
        assert response.json()["code"] == code, url


async def test_another_apps_players_never_show_on_a_board_or_in_a_rating_history(
    closed_client: Client, closed_services: Services
) -> None:
    unique = uuid.uuid4().hex[:8]
    ann, bob = f"ann-{unique}", f"bob-{unique}"
    mine = app_headers(await new_app_key(closed_services, f"boards-mine-{unique}"))
    theirs = app_headers(await new_app_key(closed_services, f"boards-theirs-{unique}"))
    played: dict[str, list[str]] = {"mine": [], "theirs": []}
    # The same player ids in both apps: two different players each. One of my games is private.
    for who, headers, seeds in (("mine", mine, (1, 2, 3)), ("theirs", theirs, (4,))):
        for seed in seeds:
            seats = [{"name": f"{who} Ann", "player_id": ann}, {"name": f"{who} Bob", "player_id": bob}]
            extra = {"visibility": "private"} if seed == 3 else {}
            created = await create_as(closed_client, headers, GAME, seats, seed=seed, **extra)
            await play_randomly(closed_client, created, random.Random(seed))
            played[who].append(created["id"])
    await settle_all(closed_services.projection_runners)

    async def answer(url: str, headers: dict[str, str]) -> Any:
        response = await closed_client.get(url, headers=headers)
        assert response.status_code == 200, response.text
        return response.json()

    for who, headers in (("mine", mine), ("theirs", theirs)):
        history = await answer(f"/v1/players/{ann}/ratings/{GAME}?limit=100", headers)
        assert [item["game_id"] for item in history["items"]] == played[who][::-1], who
        board = await answer(f"/v1/leaderboard/{GAME}?limit=100", headers)
        assert {entry["display_name"] for entry in board["players"]} == {f"{who} Ann", f"{who} Bob"}, who
        # A page at a time, too, and from a cursor the other app was given.
        first = await answer(f"/v1/leaderboard/{GAME}?limit=1", headers)
        other = mine if headers is theirs else theirs
        after = await answer(f"/v1/leaderboard/{GAME}?limit=100&cursor={first['next_cursor']}", other)
        assert all(not entry["display_name"].startswith(who) for entry in after["players"]), who
    # Without a key: the built-in app's public games, which hold neither app's players.
    assert (await answer(f"/v1/players/{ann}/ratings/{GAME}", {}))["items"] == []
    public = await answer(f"/v1/leaderboard/{GAME}?limit=100", {})
    assert not {ann, bob} & {entry["player_id"] for entry in public["players"]}
