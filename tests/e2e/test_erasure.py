"""Erasing a player (`DELETE /v1/players/{player_id}`): their id and name leave every answer, read
model and export, and the database itself, while their games stay and replay to the same results."""

from __future__ import annotations

import random
import sqlite3
import subprocess
import uuid
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import make_url

from kaiten.adapters.projections.rebuild import rebuild
from kaiten.adapters.projections.registry import build_projections
from kaiten.api.bootstrap import Services
from kaiten.services.verification import verify_game
from tests.app_client import AppClient
from tests.e2e.apps import app_headers, create_as, new_app_key
from tests.e2e.play import all_events, bearer, bots_owe_nothing, play_randomly, until
from tests.projecting import settle_all

Client = AppClient


async def snapshot(services: Services) -> dict[str, list[tuple[Any, ...]]]:
    """Every read model table of the projections, sorted."""
    assert services.engine is not None
    tables: dict[str, list[tuple[Any, ...]]] = {}
    async with services.engine.connect() as connection:
        for projection in build_projections(services.engine.dialect.name):
            for table in projection.tables:
                rows = (await connection.execute(sa.select(table))).all()
                tables[table.name] = sorted(tuple(map(repr, row)) for row in rows)
    return tables


def database_dump(database_url: str) -> bytes:
    """What an operator's dump of the database holds."""
    url = make_url(database_url)
    if url.get_backend_name() == "sqlite":
        assert url.database is not None
        with sqlite3.connect(url.database) as connection:
            # The write-ahead log is folded into the file, which the test then reads whole, free pages too.
            connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            logical = "\n".join(connection.iterdump()).encode()
        return logical + Path(url.database).read_bytes()
    plain = url.set(drivername="postgresql").render_as_string(hide_password=False)
    dumped = subprocess.run(["pg_dump", "--dbname", plain], capture_output=True, check=True, timeout=120)
    return dumped.stdout


async def test_an_erased_player_leaves_no_trace_and_their_games_replay_as_before(
    closed_client: Client, closed_services: Services, database_url: str
) -> None:
    unique = uuid.uuid4().hex[:8]
    alice_id, alice_name = f"alice-{unique}", f"Alice Liddell {unique}"
    key = await new_app_key(closed_services, f"erasing-{unique}")
    app = app_headers(key)
    seats = [{"name": alice_name, "player_id": alice_id}, {"name": "Bob", "player_id": f"bob-{unique}"}]
    finished = []
    for seed in (1, 2):
        game = await create_as(closed_client, app, "sushi-go", seats, seed=seed)
        finished.append(await play_randomly(closed_client, game, random.Random(seed)))
    private = await create_as(closed_client, app, "sushi-go", seats, seed=3, visibility="private")
    await play_randomly(closed_client, private, random.Random(3))
    running = await create_as(closed_client, app, "sushi-go", [seats[0], {"bot": "greedy"}], seed=4)
    # Its bot picks in the background: the projections are settled and compared once it has.
    await until(closed_client, running["id"], bots_owe_nothing, app)
    await settle_all(closed_services.projection_runners)
    games = [*(game["id"] for game in finished), private["id"], running["id"]]
    results = {
        game_id: (await closed_client.get(f"/v1/games/{game_id}", headers=app)).json()["result"] for game_id in games
    }
    bob_before = (await closed_client.get(f"/v1/players/bob-{unique}/stats", headers=app)).json()
    assert (await closed_client.get(f"/v1/players/{alice_id}/stats", headers=app)).json()["games"]

    assert (await closed_client.delete(f"/v1/players/{alice_id}")).status_code == 401, "a key is needed"
    assert (await closed_client.delete(f"/v1/players/{alice_id}", headers=app)).status_code == 204
    again = await closed_client.delete(f"/v1/players/{alice_id}", headers=app)
    assert (again.status_code, again.json()["code"]) == (404, "player-not-found")
    await settle_all(closed_services.projection_runners)

    for game_id in games:
        table = (await closed_client.get(f"/v1/games/{game_id}", headers=app)).json()
        assert table["seats"][0] == {"seat": 0, "name": "Player 1", "player_id": None, "bot": None, "erased": True}
        assert table["result"] == results[game_id], "the games stay as they were"
        events = await all_events(closed_client, game_id, app)
        assert {"type": "SeatTaken", "seat": 0, "name": "Player 1", "player_id": None, "bot": None, "erased": True} in [
            event["data"] for event in events
        ]
        report = await verify_game(closed_services.games.store, game_id)
        assert (report.problem, report.drift) == (None, []), game_id
    exported = (await closed_client.get(f"/v1/games/{finished[0]['id']}/export", headers=app)).text
    history = (await closed_client.get("/v1/games?limit=100", headers=app)).text
    board = (await closed_client.get("/v1/leaderboard/sushi-go?limit=100", headers=app)).json()
    for answer in (exported, history, str(board)):
        assert alice_id not in answer and alice_name not in answer
    assert [entry["player_id"] for entry in board["players"]] == [f"bob-{unique}"]
    assert (await closed_client.get(f"/v1/players/{alice_id}/stats", headers=app)).json()["games"] == []
    bob_after = (await closed_client.get(f"/v1/players/bob-{unique}/stats", headers=app)).json()
    assert bob_after == bob_before, "nobody else's record changes"
    # The running game plays on: the seat's person is erased, not the seat.
    legal = await closed_client.get(f"/v1/games/{running['id']}/legal-commands", headers=bearer(running["tokens"]["0"]))
    assert legal.status_code == 200

    # A rebuild of the read models from the log gives what the projections hold now.
    incremental = await snapshot(closed_services)
    assert closed_services.engine is not None
    for projection in build_projections(closed_services.engine.dialect.name):
        await rebuild(closed_services.engine, projection)
    assert await snapshot(closed_services) == incremental
    # Nothing of alice is left in the database, while Bob's id, kept beside the same games, is.
    dump = database_dump(database_url)
    assert f"bob-{unique}".encode() in dump
    assert alice_id.encode() not in dump and alice_name.encode() not in dump


async def test_erasing_a_player_leaves_another_apps_player_of_that_id_alone(
    closed_client: Client, closed_services: Services
) -> None:
    unique = uuid.uuid4().hex[:8]
    mine = app_headers(await new_app_key(closed_services, f"mine-{unique}"))
    theirs = app_headers(await new_app_key(closed_services, f"theirs-{unique}"))
    seats = [{"name": "Alice", "player_id": "alice"}, {"bot": "random"}]
    my_game = await create_as(closed_client, mine, "sushi-go", seats, seed=5)
    their_game = await create_as(closed_client, theirs, "sushi-go", seats, seed=5)
    assert (await closed_client.delete("/v1/players/alice", headers=mine)).status_code == 204
    # Their alice is none of my app's: asking to erase her again finds nobody, as for a player never seen.
    again = await closed_client.delete("/v1/players/alice", headers=mine)
    never = await closed_client.delete("/v1/players/nobody-at-all", headers=mine)
    assert again.status_code == never.status_code == 404
    assert {**again.json(), "detail": "", "instance": ""} == {**never.json(), "detail": "", "instance": ""}
    erased = (await closed_client.get(f"/v1/games/{my_game['id']}", headers=mine)).json()
    kept = (await closed_client.get(f"/v1/games/{their_game['id']}", headers=theirs)).json()
    assert (erased["seats"][0]["player_id"], kept["seats"][0]["player_id"]) == (None, "alice")
    assert kept["seats"][0]["name"] == "Alice"
