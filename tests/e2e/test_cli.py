"""The `kaiten` command line: serve on a fresh SQLite file, migrate, replay and verify a game."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from sqlalchemy import text

from api.bootstrap import bootstrap
from api.cli import main
from services.games import SeatRequest


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_serve_creates_and_migrates_a_sqlite_file_in_the_working_directory(tmp_path: Path):
    port = free_port()
    env = {key: value for key, value in os.environ.items() if key != "DATABASE_URL"}
    server = subprocess.Popen(
        [sys.executable, "-m", "api.cli", "serve", "--port", str(port)],
        cwd=tmp_path,
        env={**env, "PYTHONPATH": str(Path(__file__).resolve().parents[2])},
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                ready = httpx.get(f"http://127.0.0.1:{port}/ready", timeout=1)
                break
            except httpx.TransportError:
                assert server.poll() is None, "kaiten serve exited"
                assert time.monotonic() < deadline, "kaiten serve did not answer within 30 s"
                time.sleep(0.2)
        assert ready.status_code == 200 and ready.json() == {"status": "ready"}
        assert httpx.get(f"http://127.0.0.1:{port}/health").json() == {"status": "ok"}
        created = httpx.post(
            f"http://127.0.0.1:{port}/v1/games",
            json={"game": "sushi-go", "players": 2, "seats": [{"bot": "random"}, {"bot": "greedy"}]},
        )
        assert created.status_code == 201 and created.json()["status"] == "finished"
        assert (tmp_path / "kaiten.sqlite3").exists()
    finally:
        server.terminate()
        server.wait(10)


@pytest.fixture
async def finished_game(database_url: str) -> str:
    services = bootstrap(database_url)
    try:
        seats = [SeatRequest(bot="random"), SeatRequest(bot="greedy"), SeatRequest(name="Ann")]
        created = await services.games.create("sushi-go", 3, None, 5, seats)
        return created.id
    finally:
        await services.close()


def test_replay_verify_agrees_with_the_stored_table(database_url, finished_game, monkeypatch, capsys):
    monkeypatch.setenv("DATABASE_URL", database_url)
    assert main(["migrate"]) == 0
    assert main(["replay", finished_game, "--verify"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["game_id"] == finished_game
    assert report["status"] == "active" and report["drift"] == []


async def set_status(database_url: str, game_id: str, status: str) -> None:
    services = bootstrap(database_url)
    assert services.engine is not None
    async with services.engine.begin() as connection:
        await connection.execute(
            text("UPDATE games SET status = :status WHERE game_id = :id"), {"status": status, "id": game_id}
        )
    await services.close()


def test_replay_verify_finds_a_tampered_table(database_url, finished_game, monkeypatch, capsys):
    asyncio.run(set_status(database_url, finished_game, "finished"))
    monkeypatch.setenv("DATABASE_URL", database_url)
    assert main(["replay", finished_game, "--verify"]) == 1
    assert json.loads(capsys.readouterr().out)["drift"] == ["status"]


def test_replay_of_an_unknown_game_says_so(database_url, monkeypatch, capsys):
    monkeypatch.setenv("DATABASE_URL", database_url)
    assert main(["replay", "00000000-0000-0000-0000-000000000000"]) == 1
    assert "game-not-found" in capsys.readouterr().err
