"""A seat given back before the game starts (`POST /v1/games/{id}/leave`), through the API (on one
store, `one_store`): the seat is free again, the token that held it holds nothing, the log shows SeatLeft
and nothing secret, the game's log exports and imports (decided again), and the history forgets the
player who left."""

from __future__ import annotations

import random

import pytest

from kaiten.api.bootstrap import Services
from tests.app_client import AppClient
from tests.e2e.play import all_events, bearer, create, play_randomly
from tests.projecting import settle_all

pytestmark = pytest.mark.one_store

Client = AppClient


async def test_a_seat_given_back_is_free_again_and_its_token_holds_nothing(client: Client, services: Services) -> None:
    game = await create(client, "sushi-go", 3, seats=[{"name": "Alice", "player_id": "alice"}, {"name": "Bob"}])
    path, alice = f"/v1/games/{game['id']}", bearer(game["tokens"]["0"])
    left = await client.post(f"{path}/leave", headers=alice)
    assert left.status_code == 204, left.text
    table = (await client.get(path)).json()
    assert table["status"] == "open" and [seat["seat"] for seat in table["seats"]] == [1]
    # The token that held the seat holds nothing any more.
    for again in (await client.post(f"{path}/leave", headers=alice), await client.get(path, headers=alice)):
        assert (again.status_code, again.json()["code"]) == (401, "invalid-token")
    events = await all_events(client, game["id"])
    assert events[-1]["type"] == "SeatLeft" and events[-1]["data"] == {"type": "SeatLeft", "seat": 0}
    assert game["tokens"]["0"] not in str(events) and "token" not in str(events)
    # The freed seat is the next one taken, with a new token; the last seat starts the game.
    carol = await client.post(f"{path}/seats", json={"name": "Carol"})
    assert carol.status_code == 201 and carol.json()["seat"] == 0, carol.text
    assert carol.json()["token"] != game["tokens"]["0"]
    dave = await client.post(f"{path}/seats", json={"name": "Dave"})
    assert dave.json()["seat"] == 2
    table = (await client.get(path, headers=bearer(carol.json()["token"]))).json()
    assert table["status"] == "active" and table["viewer"] == {"seat": 0}
    assert [(seat["seat"], seat["name"]) for seat in table["seats"]] == [(0, "Carol"), (1, "Bob"), (2, "Dave")]
    # Once the game runs, a seat is left by resigning.
    late = await client.post(f"{path}/leave", headers=bearer(game["tokens"]["1"]))
    assert (late.status_code, late.json()["code"]) == (409, "game-started")
    assert late.headers["content-type"].startswith("application/problem+json")
    nobody = await client.post(f"{path}/leave")
    assert (nobody.status_code, nobody.json()["code"]) == (401, "missing-token")
    # Played to the end, the log exports and imports: the rules decide it again, SeatLeft included.
    tokens = {"0": carol.json()["token"], "1": game["tokens"]["1"], "2": dave.json()["token"]}
    await play_randomly(client, {**table, "tokens": tokens}, random.Random(7))
    exported = await client.get(f"{path}/export")
    assert exported.status_code == 200, exported.text
    assert "SeatLeft" in [event["type"] for event in exported.json()["events"]]
    imported = await client.post("/v1/games/import", json=exported.json())
    assert imported.status_code == 201, imported.text
    assert [seat["name"] for seat in imported.json()["seats"]] == ["Carol", "Bob", "Dave"]
    # Alice, who left, played no game: her history does not list it.
    await settle_all(services.projection_runners)
    listed = (await client.get("/v1/games?player_id=alice")).json()["items"]
    assert game["id"] not in {item["id"] for item in listed}
    history = next(item for item in (await client.get("/v1/games")).json()["items"] if item["id"] == game["id"])
    assert [(seat["seat"], seat["name"]) for seat in history["seats"]] == [(0, "Carol"), (1, "Bob"), (2, "Dave")]


async def test_a_forged_seat_left_after_the_start_is_not_imported(client: Client) -> None:
    game = await create(client, "sushi-go", 2, seats=[{"name": "Alice"}, {"bot": "greedy"}])
    await play_randomly(client, game, random.Random(3))
    log = (await client.get(f"/v1/games/{game['id']}/export")).json()
    events = log["events"]
    started = next(i for i, event in enumerate(events) if event["type"] == "GameStarted")
    forged = {**events[started + 1], "type": "SeatLeft", "data": {"seat": 0}, "schema_version": 1}
    refused = await client.post(
        "/v1/games/import", json={**log, "events": [*events[: started + 1], forged, *events[started + 2 :]]}
    )
    assert refused.status_code == 422, refused.text
    assert refused.json()["version"] == started + 2
