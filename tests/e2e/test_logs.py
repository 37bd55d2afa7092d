"""Export and import of a log over REST and the command line (API.md, "Export and import of a log")."""

from __future__ import annotations

import asyncio
import copy
import json
import random
import threading
import uuid
from pathlib import Path
from typing import Any

import msgspec
import pytest

from kaiten.api.bootstrap import bootstrap
from kaiten.api.cli import main
from kaiten.services import logs
from kaiten.services.commands import CreateGame, NewSeat
from kaiten.services.logs import MAX_EVENT_BYTES, MAX_LOG_BYTES, MAX_LOG_EVENTS
from kaiten.services.ports import NewEvent
from tests.bots import created_and_played
from tests.e2e.play import all_events, finished, play_randomly

pytestmark = pytest.mark.one_store

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "0.1.0"
#: One golden log of each game, recorded by kaiten 0.1.0.
GOLDEN_FILES = [
    "sushi-go-4p-humans.json",
    "party-3p-chopsticks-miso-humans.json",
    "spin-some-2p-humans.json",
    "dim-sum-derby-3p-bots.json",
]


def golden(name: str) -> dict[str, Any]:
    document: dict[str, Any] = json.loads((GOLDEN / name).read_text(encoding="utf-8"))
    return document


async def finished_party(client: Any) -> dict[str, Any]:
    body = {"game": "sushi-go-party", "players": 3, "seed": 8, "seats": [{"bot": "random"}] * 3}
    created: dict[str, Any] = (await client.post("/v1/games", json=body)).json()
    table = await finished(client, created["id"])
    assert table["status"] == "finished"
    return table


async def test_a_running_game_is_not_exported(client):
    body = {"game": "sushi-go", "players": 2, "seats": [{"name": "Ann"}, {"bot": "random"}]}
    created = (await client.post("/v1/games", json=body)).json()
    response = await client.get(f"/v1/games/{created['id']}/export")
    assert response.status_code == 409 and response.json()["code"] == "game-not-finished"
    finished = await play_randomly(client, created, random.Random(2))
    exported = (await client.get(f"/v1/games/{finished['id']}/export")).json()
    assert exported["format"] == "kaiten-log/1" and exported["rules_version"] == 2
    assert (await client.get(f"/v1/games/{uuid.uuid4()}/export")).status_code == 404


async def test_an_export_imports_as_a_new_finished_game_with_imported_from(client):
    created = await finished_party(client)
    exported = (await client.get(f"/v1/games/{created['id']}/export")).json()
    assert exported["id"] == created["id"] and exported["game"] == "sushi-go-party"
    assert exported["events"] == await all_events(client, created["id"])
    response = await client.post("/v1/games/import", json=exported)
    assert response.status_code == 201, response.text
    imported = response.json()
    assert response.headers["location"] == f"/v1/games/{imported['id']}"
    assert imported["id"] != created["id"] and imported["imported_from"] == created["id"]
    assert imported["status"] == "finished" and imported["result"] == created["result"]
    assert imported["full_state"] == created["full_state"]
    shown = (await client.get(f"/v1/games/{imported['id']}")).json()
    assert shown["imported_from"] == created["id"]
    assert "imported_from" not in (await client.get(f"/v1/games/{created['id']}")).json()
    again = (await client.get(f"/v1/games/{imported['id']}/export")).json()
    assert [(e["type"], e["data"]) for e in again["events"]] == [(e["type"], e["data"]) for e in exported["events"]]


@pytest.mark.parametrize("name", GOLDEN_FILES)
async def test_a_log_of_kaiten_0_1_0_imports_to_the_same_result(client, name):
    document = golden(name)
    response = await client.post("/v1/games/import", json=document)
    assert response.status_code == 201, response.text
    imported = response.json()
    assert imported["result"] == document["final_view"]["result"]
    assert imported["full_state"] == document["final_view"]["full_state"]
    assert imported["imported_from"] is None
    exported = (await client.get(f"/v1/games/{imported['id']}/export")).json()
    assert exported["rules_version"] == 1


async def test_a_tampered_log_is_refused_with_its_code_and_first_failing_version(client):
    removed = golden(GOLDEN_FILES[0])
    del removed["events"][20]
    response = await client.post("/v1/games/import", json=removed)
    assert response.status_code == 422
    problem = response.json()
    assert (problem["code"], problem["version"]) == ("version-gap", 21)
    assert response.headers["content-type"].startswith("application/problem+json")

    scored = golden(GOLDEN_FILES[0])
    scored["events"][-1]["data"]["result"]["scores"][1]["total"] += 1
    problem = (await client.post("/v1/games/import", json=scored)).json()
    assert (problem["code"], problem["version"]) == ("result-mismatch", len(scored["events"]))

    for body in ([], {"events": "none"}, {"format": "kaiten-log/2", "events": []}):
        response = await client.post("/v1/games/import", json=body)
        assert response.status_code == 422 and response.json()["version"] is None


async def test_a_log_longer_than_any_game_is_refused_by_its_length(client):
    """The issue's reproduction: 100,000 SeatClaimed events (7 MB) were read, folded and stored."""
    document = golden(GOLDEN_FILES[0])
    claimed = {"version": 0, "type": "SeatClaimed", "schema_version": 1, "data": {"seat": 0}}
    document["events"] += [{**claimed, "version": version} for version in range(len(document["events"]) + 1, 100_001)]
    response = await client.post("/v1/games/import", json=document)
    assert response.status_code == 422
    assert (response.json()["code"], response.json()["version"]) == ("too-many-events", None)


async def test_a_body_larger_than_the_longest_log_is_a_413_before_it_is_read(client):
    body = b'{"events": ["' + b"x" * MAX_LOG_BYTES + b'"]}'
    response = await client.post("/v1/games/import", content=body, headers={"Content-Type": "application/json"})
    assert response.status_code == 413
    assert response.headers["content-type"].startswith("application/problem+json")
    assert response.json()["code"] == "request-too-large"
    # Other bodies are small: a game's creation refuses what import would read.
    response = await client.post("/v1/games", content=body[:2_000_000], headers={"Content-Type": "application/json"})
    assert (response.status_code, response.json()["code"]) == (413, "request-too-large")


async def test_the_event_loop_runs_others_while_a_log_is_checked(services, monkeypatch):
    """The issue's reproduction: /health stalled for seconds while a long log was read. Checking is
    work for a thread; this check waits until the loop has run another coroutine, which it could
    not do if the check held the loop."""
    loop_ran = threading.Event()
    check = logs.check_log

    def waiting_check(document: Any) -> Any:
        assert loop_ran.wait(10), "the event loop ran nothing else while a log was being checked"
        return check(document)

    async def other_work() -> None:
        loop_ran.set()

    monkeypatch.setattr(logs, "check_log", waiting_check)
    importing = asyncio.create_task(logs.import_log(services.games, golden(GOLDEN_FILES[1]), None))
    await asyncio.sleep(0.05)
    await other_work()
    view, _ = await importing
    assert view.status == "finished"


async def test_what_kaiten_exports_it_imports_longest_names_and_largest_table_alike(client):
    """Eight seats whose names and player ids are as long as allowed, in four-byte characters."""
    seats = [{"name": "\U0001d11e" * 99 + str(seat), "player_id": "\U0001d11e" * 199 + str(seat)} for seat in range(8)]
    body = {"game": "sushi-go-party", "players": 8, "seats": seats}
    created = (await client.post("/v1/games", json=body)).json()
    finished = await play_randomly(client, created, random.Random(5))
    response = await client.get(f"/v1/games/{finished['id']}/export")
    exported = response.json()
    assert max(len(msgspec.json.encode(event)) for event in exported["events"]) <= MAX_EVENT_BYTES
    assert len(exported["events"]) <= MAX_LOG_EVENTS
    imported = await client.post("/v1/games/import", json=exported)
    assert imported.status_code == 201, imported.text
    assert imported.json()["result"] == finished["result"]


@pytest.mark.parametrize(
    ("where", "value", "code"),
    [
        ("recorded_at", "2026-01-01T00:00:00\u0000Z", "invalid-text"),
        ("name", "Ann\u0000", "invalid-text"),
        ("player_id", "ann\u0000", "invalid-text"),
        ("salt", "zz", "seed-mismatch"),
    ],
)
async def test_odd_strings_in_a_log_are_refused_not_a_server_error(client, where, value, code):
    """The issue's reproductions: each answered 500 (PostgreSQL's jsonb refuses NUL; "zz" is no hex)."""
    document = golden("../0.1.0-4363b1c/sushi-go-4p-humans.json")
    events = document["events"]
    if where == "recorded_at":
        events[3]["recorded_at"] = value
    elif where == "salt":
        events[0]["data"]["salt"] = events[-1]["data"]["salt"] = value
    else:
        seated = next(event for event in events if event["type"] == "SeatTaken" and event["data"].get("name"))
        seated["data"][where] = value
    response = await client.post("/v1/games/import", json=document)
    assert response.status_code == 422, response.text
    assert response.json()["code"] == code


# --- the command line -----------------------------------------------------------------------------


async def _finished_game(database_url: str) -> str:
    services = bootstrap(database_url)
    try:
        created = await created_and_played(
            services.games, CreateGame("sushi-go-party", 3, None, 8, [NewSeat(bot="random")] * 3)
        )
        assert created.status == "finished"
        return created.id
    finally:
        await services.close()


async def _store_as_written(database_url: str, document: dict[str, Any]) -> str:
    """A stored log that the checks refuse, written as it is (as an old kaiten could have written it)."""
    services = bootstrap(database_url)
    game_id = str(uuid.uuid4())
    rows = [
        NewEvent(
            type=event["type"],
            data=msgspec.json.encode({"type": event["type"], **event["data"]}),
            metadata={},
            schema_version=event.get("schema_version", 1),
        )
        for event in document["events"]
    ]
    try:
        await services.games.store.append(game_id, 0, rows)
    finally:
        await services.close()
    return game_id


def test_kaiten_export_import_and_replay_verify(database_url, tmp_path, monkeypatch, capsys):
    game_id = asyncio.run(_finished_game(database_url))
    monkeypatch.setenv("DATABASE_URL", database_url)
    out = tmp_path / "log.json"
    assert main(["export", game_id, "-o", str(out)]) == 0
    assert json.loads(out.read_text())["id"] == game_id
    capsys.readouterr()
    assert main(["import", str(out)]) == 0
    imported = json.loads(capsys.readouterr().out)
    assert imported["imported_from"] == game_id and imported["status"] == "finished"
    assert main(["replay", imported["id"], "--verify"]) == 0
    assert json.loads(capsys.readouterr().out)["problem"] is None

    tampered = copy.deepcopy(golden(GOLDEN_FILES[0]))
    tampered["events"][-1]["data"]["result"]["scores"][0]["total"] += 1
    out.write_text(json.dumps(tampered))
    assert main(["import", str(out)]) == 1
    assert "result-mismatch" in capsys.readouterr().err
    assert main(["export", str(uuid.uuid4())]) == 1

    stored = asyncio.run(_store_as_written(database_url, tampered))
    capsys.readouterr()
    assert main(["replay", stored, "--verify"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["problem"]["code"] == "result-mismatch"
    assert report["problem"]["version"] == len(tampered["events"])


async def test_imports_win_nobody_a_game_nor_a_rating(closed_client, closed_services):
    """The issue's reproductions: importing one export five more times took its player from 1 to 6
    wins, and a log with its player_id edited put mallory on the leaderboard. kaiten did not see an
    imported game played: it counts in no statistics and no rating."""
    from tests.e2e.apps import app_headers, create_as, new_app_key
    from tests.projecting import settle_all

    unique = uuid.uuid4().hex[:8]
    app = app_headers(await new_app_key(closed_services, f"importer-{unique}"))
    seats = [{"name": "Ann", "player_id": "ann"}, {"name": "Bo", "player_id": "bo"}]
    game = await create_as(closed_client, app, "sushi-go", seats, seed=5)
    finished = await play_randomly(closed_client, game, random.Random(5))
    winner = finished["seats"][finished["result"]["winners"][0]]["player_id"]
    await settle_all(closed_services.projection_runners)
    before = (await closed_client.get(f"/v1/players/{winner}/stats", headers=app)).json()
    board = (await closed_client.get("/v1/leaderboard/sushi-go", headers=app)).json()
    exported = (await closed_client.get(f"/v1/games/{game['id']}/export", headers=app)).json()
    assert (await closed_client.post("/v1/games/import", json=exported)).status_code == 401, "a key is needed"
    first = await closed_client.post("/v1/games/import", json=exported, headers=app)
    assert first.status_code == 201, first.text
    for _ in range(4):
        again = await closed_client.post("/v1/games/import", json=exported, headers=app)
        assert (again.status_code, again.json()["id"]) == (200, first.json()["id"]), "the same log is one game"
    forged = copy.deepcopy(exported)
    for event in forged["events"]:
        if event["type"] == "SeatTaken" and event["data"]["player_id"] == winner:
            event["data"]["player_id"] = "mallory"
    assert (await closed_client.post("/v1/games/import", json=forged, headers=app)).status_code == 201
    await settle_all(closed_services.projection_runners)
    assert (await closed_client.get(f"/v1/players/{winner}/stats", headers=app)).json() == before
    assert (await closed_client.get("/v1/players/mallory/stats", headers=app)).json()["games"] == []
    assert (await closed_client.get("/v1/leaderboard/sushi-go", headers=app)).json() == board
    # The imported games are the app's own records all the same: listed, and replayable.
    listed = (await closed_client.get("/v1/games?limit=100", headers=app)).json()["items"]
    assert len(listed) == 3
