"""Bad input gets a 4xx problem+json with a stable code, and never changes a game."""

from __future__ import annotations

import uuid

import pytest

from tests.e2e.play import bearer, create
from tests.e2e.sse import refused_stream

pytestmark = pytest.mark.one_store


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
    return [card["id"] for card in table["state"]["hand"]]


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
    assert_problem(await client.post("/v1/games", json={"game": "sushi-go", "players": 7}), 422, "invalid-player-count")
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


def deeply_nested(depth: int) -> str:
    return "[" * depth + "]" * depth


@pytest.mark.parametrize("depth", [65, 1000, 100_000])
async def test_json_nested_deeper_than_any_body_needs_is_a_400(client, game, caplog, depth):
    nested = deeply_nested(depth)
    bodies = {
        "/v1/catalog/sushi-go/score": '{"players":[{"cards":[]}],"end_of_game":true,"x":' + nested + "}",
        "/v1/games": '{"game":"sushi-go","players":2,"options":' + nested + "}",
        f"/v1/games/{game['id']}/commands": '{"type":"pick","cards":' + nested + "}",
    }
    for url, body in bodies.items():
        response = await client.post(
            url, content=body, headers={**bearer(game["tokens"]["0"]), "content-type": "application/json"}
        )
        assert_problem(response, 400, "malformed-request")
        assert "deeper than 64" in response.json()["detail"]
    assert not [record for record in caplog.records if record.exc_info], "a refused body logged a traceback"


async def test_json_nested_as_deep_as_allowed_is_read(client):
    body = '{"players":[{"cards":[]}],"end_of_game":true,"x":' + deeply_nested(63) + "}"
    response = await client.post(
        "/v1/catalog/sushi-go/score", content=body, headers={"content-type": "application/json"}
    )
    assert response.status_code == 200, response.text


async def test_brackets_inside_strings_do_not_count_as_nesting(client):
    name = "[" * 90
    body = '{"game":"sushi-go","players":2,"seats":[{"name":"' + name + '"}]}'
    response = await client.post("/v1/games", content=body, headers={"content-type": "application/json"})
    assert response.status_code == 201, response.text
    assert response.json()["seats"][0]["name"] == name


async def test_a_body_that_is_not_utf8_is_a_400(client, caplog):
    body = b'{"game":"sushi-go","players":2,"seats":[{"name":"\xff\xfe"}]}'
    response = await client.post("/v1/games", content=body, headers={"content-type": "application/json"})
    assert_problem(response, 400, "malformed-request")
    assert "UTF-8" in response.json()["detail"]
    assert not [record for record in caplog.records if record.exc_info]


@pytest.mark.parametrize(
    "url",
    [
        "/v1/games?player_id=%00",
        "/v1/players/a%00b/stats",
        "/v1/games?game=%00",
        "/v1/stats/%00",
        "/v1/games?cursor=%00",
    ],
)
async def test_a_nul_character_in_a_query_or_path_is_a_4xx(client, url):
    response = await client.get(url)
    assert 400 <= response.status_code < 500, response.text
    assert response.headers["content-type"].startswith("application/problem+json")


async def test_a_cursor_naming_no_game_id_is_refused(client):
    forged = "WyIyMDI2LTExLTMwVDA5OjAwOjAwWiIsImFcdTAwMDBiIl0"  # ["2026-11-30T09:00:00Z", "a\u0000b"]
    assert_problem(await client.get(f"/v1/games?cursor={forged}"), 422, "invalid-cursor")


async def test_a_405_says_which_methods_are_allowed(client, game):
    response = await client.delete(f"/v1/games/{game['id']}")
    assert_problem(response, 405, "method-not-allowed")
    assert set(response.headers["allow"].replace(" ", "").split(",")) == {"GET", "OPTIONS"}


async def test_a_400_never_echoes_unbounded_input(client, game):
    huge = "9" * 5000
    response = await client.get(f"/v1/games/{game['id']}/events", params={"after": huge})
    assert_problem(response, 400, "malformed-request")
    assert len(response.text) < 1000 and huge[:400] not in response.text
    assert response.json()["errors"][0]["field"] == "after"


async def test_validation_problems_name_each_field_in_plain_words(client, game):
    response = await client.get(f"/v1/games/{game['id']}/events?after=abc&limit=0")
    assert_problem(response, 400, "malformed-request")
    errors = response.json()["errors"]
    assert [error["field"] for error in errors] == ["after", "limit"]
    assert all("<" not in error["message"] and "`" not in error["message"] for error in errors)
    nested = await client.post("/v1/games", json={"game": "sushi-go", "players": 2, "seats": [{"name": 5}]})
    assert nested.json()["errors"] == [{"field": "seats[0].name", "message": "Expected str | null, got int"}]


@pytest.mark.parametrize(("path", "methods"), [("", {"GET", "POST"}), ("/{id}/webhooks", {"GET", "POST"})])
async def test_options_lists_every_method_of_a_path_two_handlers_share(client, game, path, methods):
    response = await client.options("/v1/games" + path.format(id=game["id"]))
    assert response.status_code == 204
    assert set(response.headers["allow"].replace(" ", "").split(",")) == {*methods, "OPTIONS"}


#: Python refuses to read an int of more than 4,300 digits (sys.get_int_max_str_digits).
HUGE = "9" * 4301


@pytest.mark.parametrize("tag", [f'"{HUGE}"', HUGE, f'W/"{HUGE}"', f'"1", "{HUGE}"'])
async def test_a_version_of_more_digits_than_python_reads_is_no_server_error(client, game, tag):
    """The issue's reproductions: each of these headers answered 500."""
    seat = bearer(game["tokens"]["0"])
    for path in (f"/v1/games/{game['id']}", f"/v1/games/{game['id']}/legal-commands"):
        response = await client.get(path, headers={**seat, "If-None-Match": tag})
        assert response.status_code == 200, response.text
    hand = await hand_of(client, game, 0)
    response = await client.post(
        f"/v1/games/{game['id']}/commands",
        json={"type": "pick", "cards": hand[:1]},
        headers={**seat, "If-Match": tag},
    )
    assert_problem(response, 422, "invalid-if-match")
    assert await version_of(client, game) == game["version"]


async def test_a_last_event_id_of_more_digits_than_python_reads_is_refused(client):
    finished = await create(client, "sushi-go", 2, seats=[{"bot": "random"}] * 2, seed=5)
    response = await refused_stream(client, f"/v1/games/{finished['id']}/events/stream", {"Last-Event-ID": HUGE})
    assert_problem(response, 422, "invalid-last-event-id")
