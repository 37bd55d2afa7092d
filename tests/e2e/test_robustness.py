"""Bad input gets a 4xx problem+json with a stable code, and never changes a game."""

from __future__ import annotations

import uuid

import pytest

from tests.e2e.play import bearer, create


def assert_problem(response, status: int, code: str) -> None:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    body = response.json()
    assert body["code"] == code
    assert body["status"] == status
    assert body["title"] and body["detail"]


@pytest.fixture
async def game(client):
    return await create(client, "sushi-go", 2, seed=1)


async def hand_of(client, game, seat: int) -> list[int]:
    table = (await client.get(f"/v1/games/{game['id']}", headers=bearer(game["tokens"][str(seat)]))).json()
    return table["state"]["hand"]


async def version_of(client, game) -> int:
    return (await client.get(f"/v1/games/{game['id']}")).json()["version"]


async def test_malformed_json_is_a_400(client, game):
    response = await client.post(
        f"/v1/games/{game['id']}/commands",
        content=b'{"type": "pick", "cards": [1',
        headers={**bearer(game["tokens"]["0"]), "content-type": "application/json"},
    )
    assert_problem(response, 400, "malformed-request")
    malformed_create = await client.post("/v1/games", content=b"{", headers={"content-type": "application/json"})
    assert_problem(malformed_create, 400, "malformed-request")


async def test_unknown_game_and_bad_player_count(client):
    assert_problem(await client.post("/v1/games", json={"game": "chess", "players": 2}), 422, "unknown-game")
    assert_problem(await client.post("/v1/games", json={"game": "sushi-go", "players": 6}), 422, "invalid-player-count")
    assert_problem(
        await client.post("/v1/games", json={"game": "sushi-go", "players": "four"}), 400, "malformed-request"
    )
    assert_problem(await client.get("/v1/catalog/chess"), 404, "unknown-game")
    assert_problem(await client.get(f"/v1/games/{uuid.uuid4()}"), 404, "game-not-found")
    assert_problem(await client.get("/v1/games/not-a-uuid"), 404, "game-not-found")


async def test_unknown_card_and_illegal_commands_are_422_and_change_nothing(client, game):
    headers = bearer(game["tokens"]["0"])
    before = await version_of(client, game)
    url = f"/v1/games/{game['id']}/commands"
    assert_problem(await client.post(url, json={"type": "pick", "cards": [999]}, headers=headers), 422, "unknown-card")
    other_hand = await hand_of(client, game, 1)
    not_mine = {"type": "pick", "cards": [other_hand[0]]}
    assert_problem(await client.post(url, json=not_mine, headers=headers), 422, "card-not-in-hand")
    two = {"type": "pick", "cards": (await hand_of(client, game, 0))[:2]}
    assert_problem(await client.post(url, json=two, headers=headers), 422, "no-chopsticks")
    assert_problem(await client.post(url, json={"type": "fly"}, headers=headers), 422, "invalid-command")
    assert await version_of(client, game) == before


async def test_tokens_missing_wrong_or_from_another_game(client, game):
    url = f"/v1/games/{game['id']}/commands"
    command = {"type": "pick", "cards": [(await hand_of(client, game, 0))[0]]}
    assert_problem(await client.post(url, json=command), 401, "missing-token")
    assert_problem(await client.post(url, json=command, headers=bearer("nope")), 401, "invalid-token")
    assert_problem(await client.post(url, json=command, headers={"Authorization": "Basic abc"}), 401, "invalid-token")
    other = await create(client, "sushi-go", 2, seed=2)
    assert_problem(await client.post(url, json=command, headers=bearer(other["tokens"]["0"])), 401, "invalid-token")
    assert_problem(
        await client.get(f"/v1/games/{game['id']}/legal-commands", headers=bearer(other["tokens"]["0"])),
        401,
        "invalid-token",
    )


async def test_acting_out_of_turn_is_a_409(client, game):
    headers = bearer(game["tokens"]["0"])
    url = f"/v1/games/{game['id']}/commands"
    hand = await hand_of(client, game, 0)
    assert (await client.post(url, json={"type": "pick", "cards": [hand[0]]}, headers=headers)).status_code == 200
    again = await client.post(url, json={"type": "pick", "cards": [hand[1]]}, headers=headers)
    assert_problem(again, 409, "not-your-turn")


async def test_stale_if_match_is_a_409_version_conflict(client, game):
    headers = bearer(game["tokens"]["0"])
    url = f"/v1/games/{game['id']}/commands"
    version = await version_of(client, game)
    command = {"type": "pick", "cards": [(await hand_of(client, game, 0))[0]]}
    stale = await client.post(url, json=command, headers={**headers, "If-Match": f'"{version - 1}"'})
    assert_problem(stale, 409, "version-conflict")
    assert_problem(
        await client.post(url, json=command, headers={**headers, "If-Match": "soon"}), 422, "invalid-if-match"
    )
    fresh = await client.post(url, json=command, headers={**headers, "If-Match": f'"{version}"'})
    assert fresh.status_code == 200


async def test_a_repeated_idempotency_key_returns_the_first_answer_and_changes_nothing(client, game):
    headers = {**bearer(game["tokens"]["0"]), "Idempotency-Key": "pick-1"}
    url = f"/v1/games/{game['id']}/commands"
    hand = await hand_of(client, game, 0)
    first = await client.post(url, json={"type": "pick", "cards": [hand[0]]}, headers=headers)
    assert first.status_code == 200
    version = await version_of(client, game)
    again = await client.post(url, json={"type": "pick", "cards": [hand[0]]}, headers=headers)
    assert again.status_code == 200
    assert again.json() == first.json()
    assert await version_of(client, game) == version
    different = await client.post(url, json={"type": "pick", "cards": [hand[1]]}, headers=headers)
    assert_problem(different, 409, "idempotency-key-reused")


async def test_replay_and_event_pages_out_of_range(client, game):
    version = await version_of(client, game)
    assert_problem(await client.get(f"/v1/games/{game['id']}/replay?at={version + 1}"), 404, "version-out-of-range")
    assert_problem(await client.get(f"/v1/games/{game['id']}/replay?at=0"), 400, "malformed-request")
    assert_problem(await client.get(f"/v1/games/{game['id']}/events?limit=100000"), 400, "malformed-request")
    assert (await client.get(f"/v1/games/{game['id']}/replay?at={version}")).status_code == 200


async def test_bad_seats(client):
    game = (await client.post("/v1/games", json={"game": "sushi-go", "players": 2})).json()
    url = f"/v1/games/{game['id']}/seats"
    assert_problem(await client.post(url, json={"bot": "deep-blue"}), 422, "unknown-bot")
    assert_problem(await client.post(url, json={}), 422, "invalid-seat")
    assert_problem(await client.post(url, json={"name": ""}), 400, "malformed-request")
    assert_problem(await client.post(url, json={"name": "x", "colour": "red"}), 400, "malformed-request")
    assert_problem(await client.post(url, json={"name": "nul\u0000"}), 400, "malformed-request")
    assert_problem(await client.post(url, json={"name": "Ann", "player_id": "a\nb"}), 400, "malformed-request")
    too_many = {"game": "sushi-go", "players": 2, "seats": [{"name": "a"}, {"name": "b"}, {"name": "c"}]}
    assert_problem(await client.post("/v1/games", json=too_many), 422, "too-many-seats")


async def test_unknown_routes_and_methods_are_problems_too(client):
    assert_problem(await client.get("/v1/nothing-here"), 404, "not-found")
    response = await client.delete("/v1/catalog")
    assert response.status_code == 405
    assert response.headers["content-type"].startswith("application/problem+json")
