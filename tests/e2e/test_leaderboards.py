"""Leaderboards a page at a time, by display name, and a player's rating history, through HTTP on
SQLite and PostgreSQL (issue 29 §3).

Games between two new players each leave their winners tied with one another, and their losers too:
the pages must still give every player exactly once, in one order.
"""

from __future__ import annotations

import base64
import random
from collections.abc import AsyncIterator
from typing import Any

import msgspec
import pytest
from litestar.testing import AsyncTestClient

from api.bootstrap import Services
from tests.integration.projections.games import people_game
from tests.projecting import settle_all

Client = AsyncTestClient  # type: ignore[type-arg]

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
