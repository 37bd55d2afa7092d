"""Match history, statistics and leaderboards through HTTP, on SQLite and PostgreSQL.

The projections are caught up explicitly before each read (a serving process runs them in the
background, which the last test shows), and every number is checked against the finished games'
results and public logs as the games endpoints show them.
"""

from __future__ import annotations

import asyncio
import random
from collections import Counter, defaultdict
from collections.abc import AsyncIterator
from typing import Any

import msgspec
import pytest

from kaiten.adapters.memory_store import InMemoryEventStore
from kaiten.api.app import create_app
from kaiten.api.bootstrap import Services, bootstrap, bootstrap_with_store
from kaiten.domain.catalog import GAMES
from kaiten.services.codec import codec_for
from tests.app_client import AppClient
from tests.e2e.play import all_events
from tests.integration.projections.games import bot_games, people_game
from tests.projecting import settle_all

Client = AppClient

#: The people at the tables of each catalog game (None: a seat without a player_id).
TABLES = (["ann", "bob", None], ["cy", "ann", "bob"])


@pytest.fixture
async def services(own_database_url: str) -> AsyncIterator[Services]:
    """Services over a database of their own, whose projections read the whole log: this module's games
    only. Their games' bots are moved by the tests (tests/bots.py, through `Games.wake` as a scheduler
    does): no scheduler runs, whose wakes of the same games would contend with the tests' own."""
    built = bootstrap(own_database_url)
    try:
        # The engine's first connection, made before the client's event loop starts (tests/e2e/serving.py).
        await built.is_ready()
        yield built
    finally:
        await built.close()


async def project(services: Services) -> None:
    await settle_all(services.projection_runners)


async def get(client: Client, url: str) -> Any:
    response = await client.get(url)
    assert response.status_code == 200, response.text
    return response.json()


async def expected_picks(client: Client, game_id: str) -> Counter[str]:
    """The cards picked in a finished game, from its public log and the game's own `picks`."""
    codec = None
    picks: Counter[str] = Counter()
    for event in await all_events(client, game_id):
        data = msgspec.json.encode({**event["data"], "type": event["type"]})
        if codec is None:
            codec = codec_for(event["data"]["game"])
        picks.update(
            slug for _, slug in codec.game.picks(codec.decode_event(event["type"], event["schema_version"], data))
        )
    return picks


async def test_history_and_statistics_agree_with_the_finished_games_of_every_catalog_game(
    services: Services, client: Client
) -> None:
    rng = random.Random(5)
    finished: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for game in sorted(GAMES):
        for players in TABLES:
            game_id = await people_game(services.games, game, players, rng)
            finished[game].append(await get(client, f"/v1/games/{game_id}"))
    await bot_games(services.games, len(GAMES))
    await project(services)

    player_games: dict[tuple[str, str], list[int]] = defaultdict(list)
    player_wins: Counter[tuple[str, str]] = Counter()
    for game, tables in finished.items():
        bots_too = (await get(client, f"/v1/games?game={game}&status=finished&limit=100"))["items"]
        listed = {item["id"]: item for item in bots_too}
        for table in tables:
            assert listed[table["id"]]["scores"] == table["result"]["scores"]
            assert listed[table["id"]]["winners"] == table["result"]["winners"]
        tables = [await get(client, f"/v1/games/{item['id']}") for item in bots_too]
        assert len(tables) == len(TABLES) + 1

        scores = [score for table in tables for score in table["result"]["scores"]]
        seats: Counter[tuple[int, int]] = Counter()
        wins: Counter[tuple[int, int]] = Counter()
        categories: Counter[str] = Counter()
        picks: Counter[str] = Counter()
        for table in tables:
            result = table["result"]
            for score in result["scores"]:
                seats[len(table["seats"]), score["seat"]] += 1
                wins[len(table["seats"]), score["seat"]] += score["seat"] in result["winners"]
                categories.update(score["breakdown"])
            picks += await expected_picks(client, table["id"])
            for seat in table["seats"]:
                if seat["player_id"] is not None:
                    player_games[seat["player_id"], game].append(result["scores"][seat["seat"]]["total"])
                    player_wins[seat["player_id"], game] += seat["seat"] in result["winners"]

        stats = await get(client, f"/v1/stats/{game}")
        assert stats["games"] == len(tables)
        assert stats["player_games"] == len(scores)
        assert stats["mean_score"] == pytest.approx(sum(s["total"] for s in scores) / len(scores))
        winning = [table["result"]["scores"][table["result"]["winners"][0]]["total"] for table in tables]
        assert stats["mean_winning_score"] == pytest.approx(sum(winning) / len(tables))
        assert {d["score"]: d["seats"] for d in stats["score_distribution"]} == Counter(s["total"] for s in scores)
        assert {(s["players"], s["seat"]): (s["games"], s["wins"]) for s in stats["win_rate_by_seat"]} == {
            key: (seats[key], wins[key]) for key in seats
        }
        assert {c["category"]: c["points"] for c in stats["points_per_category"]} == categories
        assert {card["slug"]: card["picks"] for card in stats["pick_rates"]} == picks
        assert sum(card["pick_rate"] for card in stats["pick_rates"]) == pytest.approx(1)

    for player_id in ("ann", "bob", "cy"):
        answer = await get(client, f"/v1/players/{player_id}/stats")
        assert answer["player_id"] == player_id
        assert [entry["game"] for entry in answer["games"]] == sorted(GAMES)
        for entry in answer["games"]:
            totals = player_games[player_id, entry["game"]]
            assert entry["played"] == len(totals)
            assert entry["wins"] == player_wins[player_id, entry["game"]]
            assert entry["win_rate"] == pytest.approx(entry["wins"] / entry["played"])
            assert entry["mean_score"] == pytest.approx(sum(totals) / len(totals))
            assert entry["best_score"] == max(totals)
            assert entry["rated_games"] == entry["played"]

    for game in GAMES:
        board = await get(client, f"/v1/leaderboard/{game}?limit=10")
        assert sorted(entry["player_id"] for entry in board["players"]) == ["ann", "bob", "cy"]
        ratings = [entry["rating"] for entry in board["players"]]
        assert ratings == sorted(ratings, reverse=True)
        assert [entry["rank"] for entry in board["players"]] == [1, 2, 3]


async def test_pages_run_newest_first_and_a_cursor_holds_its_place_while_games_are_created(
    services: Services, client: Client
) -> None:
    async def create_open_games(count: int) -> list[str]:
        ids = []
        for _ in range(count):
            response = await client.post("/v1/games", json={"game": "sushi-go", "players": 3})
            ids.append(response.json()["id"])
        return ids

    created = await create_open_games(7)
    await project(services)
    first = await get(client, "/v1/games?limit=3")
    assert [item["id"] for item in first["items"]] == created[::-1][:3]
    assert all(item["status"] == "open" and item["scores"] is None for item in first["items"])

    newer = await create_open_games(2)
    await project(services)
    second = await get(client, f"/v1/games?limit=3&cursor={first['next_cursor']}")
    assert [item["id"] for item in second["items"]] == created[::-1][3:6]
    last = await get(client, f"/v1/games?limit=3&cursor={second['next_cursor']}")
    assert [item["id"] for item in last["items"]] == created[:1]
    assert last["next_cursor"] is None
    assert [item["id"] for item in (await get(client, "/v1/games?limit=2"))["items"]] == newer[::-1]


async def test_filters_combine_game_status_and_player(services: Services, client: Client) -> None:
    rng = random.Random(3)
    ann_party = await people_game(services.games, "sushi-go-party", ["ann", "bob"], rng)
    ann_derby = await people_game(services.games, "dim-sum-derby", ["ann", None], rng)
    bob_open = await client.post(
        "/v1/games", json={"game": "sushi-go", "players": 2, "seats": [{"name": "Bob", "player_id": "bob"}]}
    )
    await bot_games(services.games, 2)
    await project(services)

    async def listed(query: str) -> list[str]:
        return [item["id"] for item in (await get(client, f"/v1/games?{query}"))["items"]]

    assert await listed("player_id=ann") == [ann_derby, ann_party]
    assert await listed("player_id=ann&game=dim-sum-derby") == [ann_derby]
    assert await listed("player_id=bob") == [bob_open.json()["id"], ann_party]
    assert await listed("player_id=bob&status=open") == [bob_open.json()["id"]]
    assert await listed("player_id=bob&status=finished&game=sushi-go-party") == [ann_party]
    assert await listed("status=open") == [bob_open.json()["id"]]
    assert len(await listed("status=finished")) == 4
    assert await listed("player_id=nobody") == []


BAD_REQUESTS = [
    ("/v1/games?cursor=not-a-cursor", 422, "invalid-cursor"),
    ("/v1/games?cursor=WzEsMl0", 422, "invalid-cursor"),
    ("/v1/games?game=chess", 422, "unknown-game"),
    ("/v1/games?status=paused", 400, "malformed-request"),
    ("/v1/games?limit=0", 400, "malformed-request"),
    ("/v1/games?limit=101", 400, "malformed-request"),
    (f"/v1/games?player_id={'x' * 201}", 400, "malformed-request"),
    ("/v1/stats/chess", 404, "unknown-game"),
    ("/v1/leaderboard/chess", 404, "unknown-game"),
    ("/v1/leaderboard/sushi-go?limit=0", 400, "malformed-request"),
]


async def test_bad_requests_are_problems_with_a_code(client: Client) -> None:
    for url, status, code in BAD_REQUESTS:
        response = await client.get(url)
        assert response.status_code == status, (url, response.text)
        assert response.headers["content-type"].startswith("application/problem+json")
        assert response.json()["code"] == code, url


async def test_a_player_or_game_without_finished_games_has_empty_statistics(client: Client) -> None:
    assert await get(client, "/v1/players/nobody/stats") == {"player_id": "nobody", "games": []}
    stats = await get(client, "/v1/stats/sushi-go")
    assert stats["games"] == 0 and stats["mean_score"] is None and stats["pick_rates"] == []
    assert (await get(client, "/v1/leaderboard/sushi-go"))["players"] == []


async def test_a_server_without_a_database_answers_that_it_keeps_no_history() -> None:
    async with AppClient(app=create_app(bootstrap_with_store(InMemoryEventStore()))) as client:
        for url in ("/v1/games", "/v1/players/ann/stats", "/v1/stats/sushi-go", "/v1/leaderboard/sushi-go"):
            response = await client.get(url)
            assert response.status_code == 503 and response.json()["code"] == "history-unavailable", url


async def test_a_serving_app_projects_new_games_in_the_background(services: Services) -> None:
    services.run_projections = True
    async with AppClient(app=create_app(services)) as client:
        created = await client.post("/v1/games", json={"game": "spin-some-for-dim-sum", "players": 2})
        game_id = created.json()["id"]

        async def listed() -> None:
            while not (await get(client, "/v1/games"))["items"]:
                await asyncio.sleep(0.02)

        await asyncio.wait_for(listed(), 10)
        assert (await get(client, "/v1/games"))["items"][0]["id"] == game_id
