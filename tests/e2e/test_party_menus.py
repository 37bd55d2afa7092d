"""Sushi Go Party! through the API with every way of choosing a menu, played to the end. (Every
suggested menu is played to its end through the services: tests/unit/sushi_go_party/test_menus_played.py;
the route that takes a menu is the same for all.)"""

from __future__ import annotations

import random

import pytest

from kaiten.domain.sushi_go_party.options import MODES
from tests.e2e.play import create, play_randomly


@pytest.fixture
def database_url(sqlite_url: str) -> str:
    # The menus are about the game, not the store: the generic play tests cover PostgreSQL.
    return sqlite_url


@pytest.mark.parametrize("mode", MODES)
async def test_every_way_of_choosing_the_menu_plays_to_the_end(client, mode):
    created = await create(client, "sushi-go-party", 4, seed=4, options={"menu": mode, "pass_both_ways": True})
    final = await play_randomly(client, created, random.Random(mode))
    assert final["status"] == "finished"


async def test_the_player_count_restrictions_are_a_clear_422(client):
    async def refused(players: int, menu: object) -> str:
        body = {"game": "sushi-go-party", "players": players, "options": {"menu": menu}}
        response = await client.post("/v1/games", json=body)
        assert response.status_code == 422, response.text
        return str(response.json()["code"])

    assert await refused(8, "dinner-for-two") == "menu-not-for-player-count"
    with_menu_card = {"roll": "maki", "appetizers": ["tempura", "sashimi", "eel"], "specials": ["menu", "tea"]}
    assert await refused(7, {**with_menu_card, "dessert": "pudding"}) == "card-not-for-player-count"
    with_spoon = {"roll": "maki", "appetizers": ["tempura", "sashimi", "eel"], "specials": ["spoon", "tea"]}
    assert await refused(2, {**with_spoon, "dessert": "pudding"}) == "card-not-for-player-count"
    assert await refused(4, "all-you-can-eat") == "unknown-menu"
