"""The rules fixes of the newest rules versions, through REST: new games get them.

The Party games are played by random bots with seeds chosen so that the fixed rule comes up (a seat
playing two miso soups in one turn while nobody else plays one; a takeout box flipping a pudding); the
tests check that it does, so a changed seed or bot cannot make them pass vacuously.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.play import all_events, finished

pytestmark = pytest.mark.one_store

MISO_MENU = {
    "roll": "maki",
    "appetizers": ["miso-soup", "tempura", "sashimi"],
    "specials": ["chopsticks", "wasabi"],
    "dessert": "pudding",
}
BOX_MENU = {**MISO_MENU, "specials": ["takeout-box", "wasabi"]}
BOTS = [{"bot": "random"}] * 3


async def create(client: Any, body: dict[str, Any]) -> dict[str, Any]:
    response = await client.post("/v1/games", json=body)
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


async def slugs_by_id(client: Any, game: str) -> dict[int, str]:
    catalog = (await client.get(f"/v1/catalog/{game}")).json()
    return {card: entry["slug"] for entry in catalog["details"]["cards"] for card in entry["ids"]}


def turns(events: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """The events of each turn, from its reveal to the hands passed (or the round scored)."""
    found: list[list[dict[str, Any]]] = []
    for event in events:
        if event["type"] == "CardsRevealed":
            found.append([])
        if found:
            found[-1].append(event)
    return found


async def test_sushi_go_takes_six_players_dealt_eight_cards(client):
    created = await create(client, {"game": "sushi-go", "players": 6, "seed": 12, "seats": [{"bot": "greedy"}] * 6})
    final = await finished(client, created["id"])
    assert final["status"] == "finished" and len(final["result"]["scores"]) == 6
    events = await all_events(client, created["id"])
    assert events[0]["data"]["rules_version"] == 2
    dealt = [event["data"] for event in events if event["type"] == "HandsDealt"]
    assert [(deal["hand_size"], len(deal["hands"])) for deal in dealt] == [(8, 6)] * 3


async def test_dim_sum_derby_parks_the_kitchen_cart_left_of_the_first_player(client):
    seats = [{"name": "ann"}, {"name": "bo"}, {"name": "cy"}]
    created = await create(
        client, {"game": "dim-sum-derby", "players": 3, "options": {"first_player": 1}, "seats": seats}
    )
    carts = [(cart["slot"], cart["seat"]) for cart in created["state"]["carts"]]
    # Slot 0 is the first player's (seat 1); the Kitchen comes next, before the second player (seat 2).
    assert carts == [(0, 1), (1, None), (2, 2), (3, 0)]


async def party_bot_game(
    client: Any, menu: dict[str, Any], seed: int
) -> tuple[dict[str, Any], dict[int, str], list[dict[str, Any]]]:
    """A finished Party game of three random bots, a deal chosen by its seed (and a salt of zeros): its
    table, the slug of each card id, its log."""
    body = {
        "game": "sushi-go-party",
        "players": 3,
        "options": {"menu": menu},
        "seed": seed,
        "salt": "00" * 16,
        "seats": BOTS,
    }
    created = await finished(client, (await create(client, body))["id"])
    assert created["status"] == "finished"
    return created, await slugs_by_id(client, "sushi-go-party"), await all_events(client, created["id"])


async def test_party_one_players_two_miso_soups_do_not_clash(client):
    _, slug, events = await party_bot_game(client, MISO_MENU, 27)
    lone_pairs = 0
    for turn in turns(events):
        reveal = turn[0]["data"]
        misos = [seat for seat, card in enumerate(reveal["cards"]) if slug[card] == "miso-soup"]
        misos += [
            e["data"]["seat"] for e in turn if e["type"] == "ChopsticksUsed" and slug[e["data"]["card"]] == "miso-soup"
        ]
        clashed = [e for e in turn if e["type"] == "MisoClashed"]
        if len(set(misos)) > 1:
            assert clashed, turn
        elif len(misos) > 1:
            lone_pairs += 1
            assert not clashed, turn
    assert lone_pairs >= 1, "the seed no longer plays two miso soups of one seat in a turn"


async def test_party_takeout_box_may_flip_a_dessert(client):
    created, slug, events = await party_bot_game(client, BOX_MENU, 25)
    flipped = [
        (event["data"]["seat"], card)
        for event in events
        if event["type"] == "CardsFlipped"
        for card in event["data"]["cards"]
        if slug[card] == "pudding"
    ]
    assert flipped, "the seed no longer flips a pudding"
    fridges = created["full_state"]["fridges"]
    # A flipped dessert is no dessert: it never reaches its owner's fridge.
    for seat, card in flipped:
        assert card not in [kept for kept, _ in fridges[seat]]
