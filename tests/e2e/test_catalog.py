"""The catalog and its scoring calculator."""

from __future__ import annotations

import pytest

from kaiten.domain.catalog import GAMES

pytestmark = pytest.mark.one_store


async def test_the_catalog_lists_every_game_with_its_player_range_and_default_options(client):
    body = (await client.get("/v1/catalog")).json()
    listed = {game["id"]: game for game in body["games"]}
    assert set(listed) == set(GAMES)
    assert listed["sushi-go"]["min_players"] == 2 and listed["sushi-go"]["max_players"] == 6
    for game in listed.values():
        bots = {bot["id"]: bot for bot in game["bots"]}
        assert set(bots) == {"random", "greedy", "mcts", "mcts:strong"}
        assert bots["mcts:strong"]["name"] == "MCTS (strong)"
    for game_id in GAMES:
        entry = (await client.get(f"/v1/catalog/{game_id}")).json()
        assert entry["id"] == game_id
        assert entry["option_schema"]
        assert entry["details"]["cards"]
        assert entry["rules_version"] == listed[game_id]["rules_version"] == GAMES[game_id].rules_version
        assert [version["version"] for version in entry["rules_versions"]] == list(range(1, entry["rules_version"] + 1))
        assert all(version["changes"] for version in entry["rules_versions"])


async def test_the_catalog_says_what_a_decision_of_each_bot_costs(client):
    """CPU milliseconds a decision on the reference machine, as measured: each game's `bot_costs`."""
    listed = {game["id"]: game for game in (await client.get("/v1/catalog")).json()["games"]}
    for game_id, game in GAMES.items():
        entry = (await client.get(f"/v1/catalog/{game_id}")).json()
        for bots in (listed[game_id]["bots"], entry["bots"]):
            assert [bot["id"] for bot in bots] == list(game.bots)
            for bot in bots:
                measured = game.bot_costs[bot["id"]]
                counts = range(game.min_players, game.max_players + 1)
                assert bot["cpu_ms_by_players"] == [{"players": n, "cpu_ms": measured[n]} for n in counts]
                assert bot["cpu_ms"] == max(measured[n] for n in counts) > 0
        costs = {bot["id"]: bot["cpu_ms"] for bot in entry["bots"]}
        assert costs["random"] < costs["greedy"] < costs["mcts"] < costs["mcts:strong"]


async def test_the_catalog_shows_the_current_rules_version_and_what_each_changed(client):
    listed = {game["id"]: game for game in (await client.get("/v1/catalog")).json()["games"]}
    assert {game: entry["rules_version"] for game, entry in listed.items()} == {
        "sushi-go": 2,
        "sushi-go-party": 2,
        "spin-some-for-dim-sum": 1,
        "dim-sum-derby": 2,
    }
    derby = (await client.get("/v1/catalog/dim-sum-derby")).json()
    assert "left of the first player" in derby["rules_versions"][1]["changes"][0]
    sushi_go = (await client.get("/v1/catalog/sushi-go")).json()
    assert sushi_go["details"]["deal"]["6"] == 8


async def test_the_calculator_scores_the_rules_worked_examples(client):
    body = {
        "players": [
            {"cards": ["wasabi", "squid-nigiri", "egg-nigiri"]},
            {"cards": ["egg-nigiri", "wasabi", "squid-nigiri", "egg-nigiri"]},
        ],
        "end_of_game": False,
    }
    response = await client.post("/v1/catalog/sushi-go/score", json=body)
    assert response.status_code == 200, response.text
    totals = [player["total"] for player in response.json()["players"]]
    assert totals == [10, 11]


async def test_the_calculator_refuses_unknown_cards(client):
    response = await client.post("/v1/catalog/sushi-go/score", json={"players": [{"cards": ["pizza"]}]})
    assert response.status_code == 422
    assert response.json()["code"] == "unknown-card"
