"""The real `kaiten serve`, under each HTTP server it offers, writes nothing but JSON lines: the
start-up lines, the migrations', the server's own, and one per request with its id, duration, game
and seat (once Litestar's plain-text format took their place and all of that was lost)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from kaiten.api.cli.service import SERVERS
from tests import plain_http
from tests.e2e.servers import ServerProcess


@pytest.mark.parametrize("server", SERVERS)
async def test_every_line_kaiten_serve_writes_is_json_with_the_requests_fields(tmp_path: Path, server: str) -> None:
    process = ServerProcess(
        f"sqlite+aiosqlite:///{tmp_path / 'kaiten.sqlite3'}", tmp_path / "server.log", options=["--server", server]
    )
    try:
        async with plain_http.async_client(base_url=process.url) as client:
            await process.wait_ready(client)
            body = {"game": "sushi-go", "players": 2, "seats": [{"name": "Ann"}, {"bot": "greedy"}]}
            game = (await client.post("/v1/games", json=body, headers={"X-Request-ID": "tour-1"})).json()
            seat = {"Authorization": f"Bearer {game['tokens']['0']}"}
            legal = (await client.get(f"/v1/games/{game['id']}/legal-commands", headers=seat)).json()
            sent = await client.post(f"/v1/games/{game['id']}/commands", json=legal["commands"][0], headers=seat)
            assert sent.status_code == 200, sent.text
            assert (await client.get("/v1/nowhere")).status_code == 404
    finally:
        process.stop()
    lines = process.log.read_text(encoding="utf-8").splitlines()
    parsed: list[dict[str, Any]] = []
    for line in lines:
        try:
            parsed.append(json.loads(line))
        except json.JSONDecodeError:
            pytest.fail(f"not a JSON line: {line!r}")
    assert all({"time", "level", "logger", "message"} <= set(item) for item in parsed)
    assert any(item["logger"] == "kaiten.serve" and item.get("server") == server for item in parsed)
    requests = [item for item in parsed if item["logger"] == "kaiten.request"]
    created = next(item for item in requests if item["request_id"] == "tour-1")
    assert (created["method"], created["route"], created["status"]) == ("POST", "/v1/games", 201)
    command = next(item for item in requests if item["route"] == "/v1/games/{game_id}/commands")
    assert (command["game_id"], command["seat"], command["status"]) == (game["id"], 0, 200)
    assert all(isinstance(item["duration_ms"], float | int) and item["request_id"] for item in requests)
    assert any(item["route"] is None and item["status"] == 404 for item in requests)
