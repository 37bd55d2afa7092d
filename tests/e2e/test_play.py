"""Whole games through HTTP: random legal play, bots, logs and replays. On one store (`one_store`): the
stores' own behaviour is held by the store contract and the tests that run on both."""

from __future__ import annotations

import random

import pytest

from kaiten.domain.catalog import GAMES
from tests.e2e.play import (
    all_events,
    bearer,
    bots_owe_nothing,
    create,
    finished,
    moved_on,
    play_randomly,
    seats_named,
    until,
)

pytestmark = pytest.mark.one_store

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
async def test_bots_fill_every_seat_and_finish_the_game_in_the_background(client, game):
    players = GAMES[game].min_players
    bots = [{"bot": "greedy" if seat % 2 else "random"} for seat in range(players)]
    response = await client.post("/v1/games", json={"game": game, "players": players, "seats": bots, "seed": 11})
    assert response.status_code == 201, response.text
    created = response.json()
    # The creating request answers once the game is created; the bots play it out after.
    assert created["status"] == "active"
    assert created["tokens"] == {}
    assert [seat["bot"] for seat in created["seats"]] == [b["bot"] for b in bots]
    final = await finished(client, created["id"])
    assert final["status"] == "finished"
    assert len(final["result"]["winners"]) >= 1


async def test_a_person_plays_against_bots_that_move_after_each_answer(client):
    created = await create(client, "sushi-go", 3, seats=[{"name": "Ann"}, {"bot": "greedy"}, {"bot": "random"}])
    assert created["awaiting"] == [0]
    game_id, ann = created["id"], bearer(created["tokens"]["0"])
    legal = (await client.get(f"/v1/games/{game_id}/legal-commands", headers=ann)).json()
    sent = await client.post(f"/v1/games/{game_id}/commands", json=legal["commands"][0], headers=ann)
    assert sent.status_code == 200, sent.text
    # The answer holds Ann's events only (her pick, and the reveal it completes); the bots' picks of
    # the next turn follow in appends of their own.
    answer = sent.json()
    assert seats_named(answer["events"]) == {0} and answer["events"][-1]["version"] == answer["version"]
    moved = await until(client, game_id, lambda table: moved_on(answer["version"])(table) and bots_owe_nothing(table))
    assert moved["awaiting"] == [0]
    after = (await client.get(f"/v1/games/{game_id}/events?after={answer['version']}")).json()["events"]
    assert seats_named(after) == {1, 2}
    final = await play_randomly(client, {**moved, "tokens": created["tokens"]}, random.Random(3))
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

    # The bot picks in the background: once it has, the game awaits the person.
    table = await until(client, game_id, bots_owe_nothing, bearer(first.json()["token"]))
    assert table["status"] == "active"
    assert table["viewer"] == {"seat": 0}
    assert table["seats"][0] == {"seat": 0, "name": "Ann", "player_id": "app-user-17", "bot": None}
    assert table["awaiting"] == [0]

    full = await client.post(f"/v1/games/{game_id}/seats", json={"name": "Late"})
    assert full.status_code == 409 and full.json()["code"] == "game-full"
