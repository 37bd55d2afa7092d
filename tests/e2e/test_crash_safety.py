"""A server killed with SIGKILL while clients send commands loses nothing and doubles nothing.

Clients play several games at once through one `kaiten serve`, every command with an idempotency
key. The server is killed mid-traffic and a new one started on the same database. Then every
command the first server acknowledged is in the log exactly once, a retry of its key answers the
same version and events, and `kaiten replay --verify` finds every stored table true to its log.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from sqlalchemy.ext.asyncio import create_async_engine

from kaiten.adapters.schema import events
from kaiten.api.cli import main
from tests import plain_http
from tests.e2e.play import bearer, create
from tests.e2e.servers import ServerProcess

pytestmark = pytest.mark.postgres

GAMES = 4
#: Acknowledged commands to wait for before the kill: enough traffic that some is in flight.
ACKNOWLEDGED_BEFORE_KILL = 40
TIMEOUT = httpx.Timeout(10.0)


class Acknowledged:
    def __init__(self) -> None:
        #: (game id, key) → (the command, the seat's token, the answer).
        self.answers: dict[tuple[str, str], tuple[dict[str, Any], str, dict[str, Any]]] = {}
        self.enough = asyncio.Event()

    def add(self, game_id: str, key: str, command: dict[str, Any], token: str, answer: dict[str, Any]) -> None:
        self.answers[game_id, key] = (command, token, answer)
        if len(self.answers) >= ACKNOWLEDGED_BEFORE_KILL:
            self.enough.set()


async def play_until_the_server_dies(
    client: httpx.AsyncClient, game: dict[str, Any], acknowledged: Acknowledged, rng: random.Random
) -> None:
    """Both seats play legal commands, each with a key of its own, until a request fails."""
    for turn in range(10_000):
        seat = str(rng.choice([0, 1]))
        token = game["tokens"][seat]
        try:
            legal = await client.get(f"/v1/games/{game['id']}/legal-commands", headers=bearer(token))
            if not legal.json()["commands"]:
                continue
            command = rng.choice(legal.json()["commands"])
            key = f"{game['id']}-{seat}-{turn}"
            headers = {**bearer(token), "Idempotency-Key": key}
            sent = await client.post(f"/v1/games/{game['id']}/commands", json=command, headers=headers)
        except httpx.TransportError:
            return
        assert sent.status_code == 200, sent.text
        acknowledged.add(game["id"], key, command, token, sent.json())


async def rows_by_key(database_url: str, game_id: str) -> dict[str, list[int]]:
    engine = create_async_engine(database_url)
    try:
        async with engine.connect() as connection:
            query = sa.select(events.c.idempotency_key, events.c.version).where(events.c.stream_id == game_id)
            rows = (await connection.execute(query.order_by(events.c.version))).all()
    finally:
        await engine.dispose()
    versions: dict[str, list[int]] = {}
    for key, version in rows:
        if key is not None:
            versions.setdefault(key, []).append(version)
    return versions


async def test_a_killed_server_loses_and_doubles_no_acknowledged_command(postgres_url, tmp_path: Path, monkeypatch):
    first = ServerProcess(postgres_url, tmp_path / "first.log")
    try:
        async with plain_http.async_client(base_url=first.url, timeout=TIMEOUT) as client:
            await first.wait_ready(client)
            seats = [{"name": "Ann"}, {"name": "Bo"}]
            games = [await create(client, "sushi-go-party", 2, seats=seats, seed=n) for n in range(GAMES)]
            acknowledged = Acknowledged()
            players = [
                asyncio.create_task(play_until_the_server_dies(client, game, acknowledged, random.Random(n)))
                for n, game in enumerate(games)
            ]
            await asyncio.wait_for(acknowledged.enough.wait(), 60)
            first.kill()
            await asyncio.wait_for(asyncio.gather(*players), 30)
    finally:
        first.kill()

    second = ServerProcess(postgres_url, tmp_path / "second.log", port=first.port)
    try:
        async with plain_http.async_client(base_url=second.url, timeout=TIMEOUT) as client:
            await second.wait_ready(client)
            for (game_id, key), (command, token, answer) in acknowledged.answers.items():
                retry = await client.post(
                    f"/v1/games/{game_id}/commands",
                    json=command,
                    headers={**bearer(token), "Idempotency-Key": key},
                )
                assert retry.status_code == 200, retry.text
                assert retry.json() == answer
            for game in games:
                stored = await rows_by_key(postgres_url, game["id"])
                for (game_id, key), (_, _, answer) in acknowledged.answers.items():
                    if game_id == game["id"]:
                        written = [event["version"] for event in answer["events"]]
                        # Exactly once: the key's rows are the versions acknowledged, and only those.
                        assert stored[key][-1] == answer["version"] and set(written) <= set(stored[key])
                        assert len(stored[key]) == len(set(stored[key]))
    finally:
        second.stop()

    monkeypatch.setenv("DATABASE_URL", postgres_url)
    for game in games:
        assert await asyncio.to_thread(main, ["replay", game["id"], "--verify"]) == 0
    assert len(acknowledged.answers) >= ACKNOWLEDGED_BEFORE_KILL
