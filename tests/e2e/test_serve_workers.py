"""`kaiten serve --workers 2` under either HTTP server, on SQLite and on PostgreSQL.

Each request opens a connection of its own, so the workers share the requests; each worker has its
own table cache, and a game played through both must stay whole.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests import plain_http
from tests.e2e.play import bearer, create, until
from tests.e2e.servers import ServerProcess

COMMANDS = 6


@pytest.mark.parametrize("server", ["uvicorn", "granian"])
async def test_two_workers_serve_one_game_on_either_store(server: str, database_url: str, tmp_path: Path) -> None:
    process = ServerProcess(database_url, tmp_path / "server.log", options=["--workers", "2", "--server", server])
    try:
        async with plain_http.async_client(base_url=process.url, timeout=30) as client:
            await process.wait_ready(client)
        seats = [{"name": "a"}, {"bot": "greedy"}]
        async with plain_http.async_client(base_url=process.url, timeout=30) as client:
            game = await create(client, "sushi-go", 2, seats=seats, seed=2)
        token = bearer(game["tokens"]["0"])
        for _ in range(COMMANDS):
            # A fresh connection each time, which either worker may accept.
            async with plain_http.async_client(base_url=process.url, timeout=30) as client:
                # The seat's next pick waits for the bot's (made in the background, by either worker).
                await until(client, game["id"], lambda table: 0 in table["awaiting"])
            async with plain_http.async_client(base_url=process.url, timeout=30) as client:
                legal = await client.get(f"/v1/games/{game['id']}/legal-commands", headers=token)
                assert legal.status_code == 200, legal.text
            async with plain_http.async_client(base_url=process.url, timeout=30) as client:
                command = legal.json()["commands"][0]
                sent = await client.post(f"/v1/games/{game['id']}/commands", json=command, headers=token)
                assert sent.status_code == 200, sent.text
        async with plain_http.async_client(base_url=process.url, timeout=30) as client:
            page = (await client.get(f"/v1/games/{game['id']}/events", headers=token)).json()
        assert [event["version"] for event in page["events"]] == list(range(1, page["last_version"] + 1))
        picks = [event for event in page["events"] if event["type"] == "CardPicked" and event["data"]["seat"] == 0]
        assert len(picks) == COMMANDS
    finally:
        process.stop()
