"""Clocks, resigning and abandoned games through HTTP: the routes, the scheduler firing a real
(1-second) deadline, and what history and statistics make of it all. On one store (`one_store`): the
deadlines' store runs on both in tests/integration/test_deadlines.py."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import pytest

from kaiten.api.bootstrap import Services
from tests.app_client import AppClient
from tests.e2e.play import MAX_COMMANDS, bearer, bots_owe_nothing, create, moved_on, seats_named, until
from tests.e2e.sse import refused_stream
from tests.projecting import settle_all

pytestmark = pytest.mark.one_store

Client = AppClient


@pytest.fixture
def services(own_services: Services) -> Services:
    """The projections read the whole log: this module's games only."""
    return own_services


async def play_out(client: Client, game: dict[str, Any], seats: list[str]) -> dict[str, Any]:
    """The people of these seats send their first legal command until the game ends (a seat taken
    over by a bot moves in the background: they wait for its moves)."""
    view = (await client.get(f"/v1/games/{game['id']}")).json()
    for _ in range(MAX_COMMANDS):
        if view["status"] != "active":
            return view
        people = [str(seat) for seat in view["awaiting"] if str(seat) in seats]
        if not people:
            view = await until(client, game["id"], moved_on(view["version"]))
            continue
        headers = bearer(game["tokens"][people[0]])
        legal = (await client.get(f"/v1/games/{game['id']}/legal-commands", headers=headers)).json()
        sent = await client.post(f"/v1/games/{game['id']}/commands", json=legal["commands"][0], headers=headers)
        assert sent.status_code == 200, sent.text
        view = (await client.get(f"/v1/games/{game['id']}")).json()
    raise AssertionError(f"game {game['id']} did not finish within {MAX_COMMANDS} commands")


async def test_a_leaver_ranks_last_and_only_their_loss_is_counted(client: Client, services: Services) -> None:
    seats = [{"name": name, "player_id": name} for name in ("ann", "bob", "cy")]
    game = await create(client, "sushi-go", 3, seats=seats, seed=5)
    resigned = await client.post(f"/v1/games/{game['id']}/resign", headers=bearer(game["tokens"]["0"]))
    assert resigned.status_code == 200, resigned.text
    assert [event["type"] for event in resigned.json()["events"][:2]] == ["SeatResigned", "SeatTakenOver"]
    again = await client.post(f"/v1/games/{game['id']}/resign", headers=bearer(game["tokens"]["0"]))
    assert (again.status_code, again.json()["code"]) == (409, "seat-resigned")
    final = await play_out(client, game, ["1", "2"])
    assert final["result"]["ranking"][-1] == 0
    assert final["seats"][0] == {
        "seat": 0,
        "name": "ann",
        "player_id": "ann",
        "bot": None,
        "resigned": True,
        "taken_over_by": "greedy",
    }

    keyed = await create(client, "sushi-go", 3, seats=[{"name": name} for name in ("eve", "fay", "gus")])
    headers = {**bearer(keyed["tokens"]["0"]), "Idempotency-Key": "eve-leaves"}
    first, retried = [await client.post(f"/v1/games/{keyed['id']}/resign", headers=headers) for _ in range(2)]
    assert (first.status_code, retried.status_code) == (200, 200), retried.text
    assert retried.json() == first.json(), "a retry answers the first answer"

    alone = await create(client, "sushi-go", 2, seats=[{"name": "dee", "player_id": "dee"}, {"bot": "greedy"}])
    left = await client.post(f"/v1/games/{alone['id']}/resign", headers=bearer(alone["tokens"]["0"]))
    assert [event["type"] for event in left.json()["events"]] == ["SeatResigned", "GameAbandoned"]
    # Abandoned is over: a stream that has every event has nothing left to follow.
    ended = await refused_stream(client, f"/v1/games/{alone['id']}/events/stream?after={left.json()['version']}")
    assert ended.status_code == 204

    await settle_all(services.projection_runners)
    abandoned = (await client.get("/v1/games?status=abandoned")).json()["items"]
    assert [item["id"] for item in abandoned] == [alone["id"]]
    finished = (await client.get("/v1/games?status=finished")).json()["items"]
    assert finished[0]["seats"][0]["resigned"] is True
    ann = (await client.get("/v1/players/ann/stats")).json()["games"][0]
    bob = (await client.get("/v1/players/bob/stats")).json()["games"][0]
    assert (ann["played"], ann["wins"], ann["resigned"]) == (1, 0, 1)
    assert bob["resigned"] == 0 and bob["rated_games"] == 1
    game_stats = (await client.get("/v1/stats/sushi-go")).json()
    assert (game_stats["games"], game_stats["resigned_seats"]) == (1, 1), "abandoned games are not counted"
    assert (await client.get("/v1/players/dee/stats")).json()["games"] == [], "abandoned games count nowhere"


async def test_a_clock_runs_out_and_the_scheduler_moves_for_the_seat(client: Client, services: Services) -> None:
    refused = await client.post("/v1/games", json={"game": "sushi-go", "players": 2, "options": {"clock": "soon"}})
    assert (refused.status_code, refused.json()["code"]) == (422, "invalid-options")
    clock = {"turn_seconds": 1, "on_timeout": "skip"}
    game = await create(client, "sushi-go", 2, seats=[{"name": "ann"}, {"bot": "greedy"}], options={"clock": clock})
    assert game["options"]["clock"] == {"turn_seconds": 1, "bank_seconds": 0, "on_timeout": "skip"}
    due = datetime.fromisoformat(game["awaiting_until"]["0"])
    assert services.scheduler is not None
    assert await services.scheduler.run_once() == 0, "nothing is due before the clock runs out"
    # The serving process's scheduler fires the deadline once it is due, and the bot's move follows.
    await until(client, game["id"], lambda table: moved_on(game["version"])(table) and bots_owe_nothing(table))
    events = (await client.get(f"/v1/games/{game['id']}/events?after={game['version']}")).json()["events"]
    assert events[0]["type"] == "TurnTimedOut"
    assert events[0]["data"] == {"type": "TurnTimedOut", "seat": 0, "at": events[0]["data"]["at"]}
    assert datetime.fromisoformat(events[0]["data"]["at"]) >= due, "not before the clock ran out"
    assert 1 in seats_named(events[1:]), "the bot's move follows"
    assert await services.scheduler.run_once() == 0, "the deadline fired once"
