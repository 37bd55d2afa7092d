"""The `kaiten` command line: serve on a fresh SQLite file, migrate, replay and verify a game."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import text, update

from kaiten.adapters.schema import games
from kaiten.api.bootstrap import bootstrap
from kaiten.api.cli import main
from kaiten.services.commands import CreateGame, NewSeat
from tests import plain_http
from tests.bots import bots_move
from tests.bots import play_to_the_end as played_to_the_end
from tests.e2e.play import finished
from tests.e2e.servers import free_port


def test_serve_creates_and_migrates_a_sqlite_file_in_the_working_directory(tmp_path: Path):
    """The newcomer's first command: an open server (no key needed) that says so."""
    port = free_port()
    env = {key: value for key, value in os.environ.items() if key not in ("DATABASE_URL", "KAITEN_AUTH")}
    log = (tmp_path / "serve.log").open("w")
    server = subprocess.Popen(
        [sys.executable, "-m", "kaiten.api.cli", "serve", "--port", str(port)],
        cwd=tmp_path,
        env={**env, "PYTHONPATH": str(Path(__file__).resolve().parents[2])},
        stderr=log,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                ready = plain_http.get(f"http://127.0.0.1:{port}/ready", timeout=1)
                break
            except httpx.TransportError:
                assert server.poll() is None, "kaiten serve exited"
                assert time.monotonic() < deadline, "kaiten serve did not answer within 30 s"
                time.sleep(0.2)
        assert ready.status_code == 200 and ready.json() == {"status": "ready", "auth": "open"}
        assert "open: no app key needed" in (tmp_path / "serve.log").read_text()
        assert plain_http.get(f"http://127.0.0.1:{port}/health").json() == {"status": "ok"}
        created = plain_http.post(
            f"http://127.0.0.1:{port}/v1/games",
            json={"game": "sushi-go", "players": 2, "seats": [{"bot": "random"}, {"bot": "greedy"}]},
        )
        assert created.status_code == 201, created.text
        # The bots play their game to its end in the background of the server.
        assert asyncio.run(finished_on(f"http://127.0.0.1:{port}", created.json()["id"]))["status"] == "finished"
        assert (tmp_path / "kaiten.sqlite3").exists()
        # A second server on the same port refuses to start rather than share its connections.
        other = tmp_path / "other"
        other.mkdir()
        second = subprocess.run(
            [sys.executable, "-m", "kaiten.api.cli", "serve", "--port", str(port)],
            cwd=other,
            env={**env, "PYTHONPATH": str(Path(__file__).resolve().parents[2])},
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert second.returncode == 1 and f"cannot listen on 127.0.0.1:{port}" in second.stderr
        assert not (other / "kaiten.sqlite3").exists()
        game = plain_http.get(f"http://127.0.0.1:{port}/v1/games/{created.json()['id']}")
        assert game.status_code == 200, "the first server still serves its games"
    finally:
        server.terminate()
        server.wait(10)
        log.close()


async def finished_on(url: str, game_id: str) -> dict[str, Any]:
    async with plain_http.async_client(base_url=url) as client:
        return await finished(client, game_id)


async def new_game(database_url: str, game: str, seats: list[NewSeat], play_to_the_end: bool) -> str:
    """A game with these seats, its bots' moves made; people play their first legal command until it
    ends, if asked."""
    services = bootstrap(database_url)
    try:
        created = await services.games.create(CreateGame(game, len(seats), None, 5, seats))
        if play_to_the_end:
            await played_to_the_end(services.games, created.id, created.tokens)
        else:
            await bots_move(services.games, created.id)
        return created.id
    finally:
        await services.close()


@pytest.fixture
async def running_game(database_url: str) -> str:
    seats = [NewSeat(bot="random"), NewSeat(bot="greedy"), NewSeat(name="Ann")]
    return await new_game(database_url, "sushi-go", seats, play_to_the_end=False)


@pytest.fixture(
    params=[
        pytest.param(("sushi-go", ["random", "greedy"]), id="sushi-go-bots"),
        pytest.param(("sushi-go-party", [None, "greedy", None]), id="party-people"),
        pytest.param(("spin-some-for-dim-sum", [None, "random"]), id="spin-some-people"),
        pytest.param(("dim-sum-derby", ["greedy", None, "random"]), id="derby-people"),
    ]
)
async def finished_game(request: pytest.FixtureRequest, database_url: str) -> str:
    game, bots = request.param
    seats = [NewSeat(bot=bot) if bot else NewSeat(name=f"P{i}", player_id=f"p{i}") for i, bot in enumerate(bots)]
    return await new_game(database_url, game, seats, play_to_the_end=True)


def test_replay_verify_agrees_with_the_stored_table_of_a_running_game(database_url, running_game, monkeypatch, capsys):
    monkeypatch.setenv("DATABASE_URL", database_url)
    assert main(["migrate"]) == 0
    assert main(["replay", running_game, "--verify"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["game_id"] == running_game
    assert report["status"] == "active" and report["drift"] == []


def test_replay_verify_agrees_with_the_stored_table_of_a_finished_game(
    database_url, finished_game, monkeypatch, capsys
):
    monkeypatch.setenv("DATABASE_URL", database_url)
    assert main(["replay", finished_game, "--verify"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["status"] == "finished" and report["drift"] == []
    assert report["result"]["winners"]


async def set_status(database_url: str, game_id: str, status: str) -> None:
    services = bootstrap(database_url)
    assert services.engine is not None
    async with services.engine.begin() as connection:
        await connection.execute(
            text("UPDATE games SET status = :status WHERE game_id = :id"), {"status": status, "id": game_id}
        )
    await services.close()


async def change_a_score(database_url: str, game_id: str) -> None:
    services = bootstrap(database_url)
    assert services.engine is not None
    summary = await services.games.store.summary(game_id)
    assert summary is not None and summary.result is not None
    result = json.loads(json.dumps(summary.result))
    result["scores"][0]["total"] += 1
    async with services.engine.begin() as connection:
        await connection.execute(update(games).where(games.c.game_id == game_id).values(result=result))
    await services.close()


def test_replay_verify_finds_a_tampered_table(database_url, running_game, monkeypatch, capsys):
    asyncio.run(set_status(database_url, running_game, "finished"))
    monkeypatch.setenv("DATABASE_URL", database_url)
    assert main(["replay", running_game, "--verify"]) == 1
    assert json.loads(capsys.readouterr().out)["drift"] == ["status"]


def test_replay_verify_finds_a_changed_score_of_a_finished_game(database_url, finished_game, monkeypatch, capsys):
    asyncio.run(change_a_score(database_url, finished_game))
    monkeypatch.setenv("DATABASE_URL", database_url)
    assert main(["replay", finished_game, "--verify"]) == 1
    assert json.loads(capsys.readouterr().out)["drift"] == ["result"]


def test_replay_of_an_unknown_game_says_so(database_url, monkeypatch, capsys):
    monkeypatch.setenv("DATABASE_URL", database_url)
    assert main(["replay", "00000000-0000-0000-0000-000000000000"]) == 1
    assert "game-not-found" in capsys.readouterr().err
