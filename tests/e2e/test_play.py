"""Whole games through HTTP on SQLite and PostgreSQL: random legal play, bots, logs and replays."""

from __future__ import annotations

import random

import pytest

from domain.catalog import GAMES
from tests.e2e.play import all_events, bearer, create, play_randomly

#: The player counts each game's issue asks to see played through the API (every game: both ends).
REQUESTED_COUNTS = {"sushi-go-party": (3, 5), "spin-some-for-dim-sum": (4,)}
PLAYER_COUNTS = [
    (game.id, n)
    for game in GAMES.values()
    for n in sorted({game.min_players, game.max_players, *REQUESTED_COUNTS.get(game.id, ())})
]


@pytest.mark.parametrize(("game", "players"), PLAYER_COUNTS)
async def test_random_legal_play_finishes_and_the_log_replays_to_the_final_table(client, game, players):
    created = await create(client, game, players, seed=players)
    final = await play_randomly(client, created, random.Random(players))
    game_id = final["id"]

    spectator = (await client.get(f"/v1/games/{game_id}")).json()
    replayed = (await client.get(f"/v1/games/{game_id}/replay?at={final['version']}")).json()
    assert replayed == spectator
    assert spectator["status"] == "finished" and spectator["awaiting"] == []

    events = await all_events(client, game_id)
    assert [event["version"] for event in events] == list(range(1, final["version"] + 1))
    assert events[0]["type"] == "GameCreated" and events[0]["data"]["seed"] == players
    assert events[-1]["type"] == "GameFinished"

    result = spectator["result"]
    assert sorted(result["ranking"]) == list(range(players))
    for score in result["scores"]:
        assert score["total"] == sum(score["breakdown"].values())


@pytest.mark.parametrize("game", list(GAMES))
async def test_bots_fill_every_seat_and_finish_the_game_in_the_creating_request(client, game):
    players = GAMES[game].min_players
    bots = [{"bot": "greedy" if seat % 2 else "random"} for seat in range(players)]
    created = await create(client, game, players, seats=bots, seed=11)
    assert created["status"] == "finished"
    assert created["tokens"] == {}
    assert [seat["bot"] for seat in created["seats"]] == [b["bot"] for b in bots]
    assert len(created["result"]["winners"]) >= 1


async def test_a_person_plays_against_bots_that_answer_in_the_same_request(client):
    created = await create(client, "sushi-go", 3, seats=[{"name": "Ann"}, {"bot": "greedy"}, {"bot": "random"}])
    assert created["awaiting"] == [0]
    final = await play_randomly(client, created, random.Random(3))
    assert final["status"] == "finished"


async def test_seats_taken_one_by_one_start_the_game_when_the_last_is_taken(client):
    response = await client.post("/v1/games", json={"game": "sushi-go", "players": 2, "seed": 5})
    assert response.status_code == 201
    game_id = response.json()["id"]
    assert response.json()["status"] == "open" and response.json()["state"] is None

    first = await client.post(f"/v1/games/{game_id}/seats", json={"name": "Ann", "player_id": "app-user-17"})
    assert first.status_code == 201
    assert first.json()["seat"] == 0 and len(first.json()["token"]) >= 32
    second = await client.post(f"/v1/games/{game_id}/seats", json={"bot": "greedy"})
    assert second.status_code == 201 and second.json() == {"seat": 1}

    table = (await client.get(f"/v1/games/{game_id}", headers=bearer(first.json()["token"]))).json()
    assert table["status"] == "active"
    assert table["viewer"] == {"seat": 0}
    assert table["seats"][0] == {"seat": 0, "name": "Ann", "player_id": "app-user-17", "bot": None}
    assert table["awaiting"] == [0]

    full = await client.post(f"/v1/games/{game_id}/seats", json={"name": "Late"})
    assert full.status_code == 409 and full.json()["code"] == "game-full"
