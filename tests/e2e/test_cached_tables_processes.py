"""Two `kaiten serve` processes, each with its table cache, playing the same games on one PostgreSQL.

Commands and reads of one game alternate between the servers, and both seats send at once through
different servers, so each server keeps deciding on a table the other has moved past. The guarded
append must make that safe: the log stays contiguous, no seat plays twice in a turn, and both servers
end up showing exactly the table a fresh fold of the log gives.
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

import httpx
import pytest

from kaiten.api.bootstrap import bootstrap
from kaiten.services.commands import GetTable
from tests import plain_http
from tests.e2e.play import bearer, create
from tests.e2e.servers import ServerProcess

pytestmark = pytest.mark.postgres


async def send(client: httpx.AsyncClient, game_id: str, token: str, command: dict[str, Any]) -> None:
    sent = await client.post(f"/v1/games/{game_id}/commands", json=command, headers=bearer(token))
    # Sushi Go! seats pick at the same time and the hands pass only once both picked, so the other
    # seat's command cannot make this one illegal: any refusal is a stale table's mistake.
    assert sent.status_code == 200, sent.text


async def test_two_servers_interleave_commands_and_reads_on_the_same_game(
    servers: list[ServerProcess], postgres_url: str
) -> None:
    rng = random.Random(11)
    clients = [plain_http.async_client(base_url=server.url, timeout=30) for server in servers]
    try:
        game: dict[str, Any] = await create(clients[0], "sushi-go", 2, seats=[{"name": "a"}, {"name": "b"}], seed=4)
        tokens = game["tokens"]
        # Both servers cache the table now; every command below leaves one of them behind.
        for client in clients:
            assert (await client.get(f"/v1/games/{game['id']}")).status_code == 200
        for _ in range(200):
            # The servers that send have often not read since the hands last passed: they decide on
            # a table the other server moved past.
            reader = rng.choice(clients)
            table = (await reader.get(f"/v1/games/{game['id']}")).json()
            if table["status"] == "finished":
                break
            commands = []
            for seat in table["awaiting"]:
                legal = await reader.get(f"/v1/games/{game['id']}/legal-commands", headers=bearer(tokens[str(seat)]))
                commands.append((tokens[str(seat)], legal.json()["commands"][0]))
            await asyncio.gather(*(send(rng.choice(clients), game["id"], token, body) for token, body in commands))
        views = [
            (await client.get(f"/v1/games/{game['id']}", headers=bearer(tokens["0"]))).json() for client in clients
        ]
        assert views[0] == views[1]
        assert views[0]["status"] == "finished"
        pages = [(await client.get(f"/v1/games/{game['id']}/events?after=3&limit=7")).json() for client in clients]
        assert pages[0] == pages[1]
        assert [event["version"] for event in pages[0]["events"]] == list(range(4, 11))
    finally:
        for client in clients:
            await client.aclose()

    services = bootstrap(postgres_url, cached_tables=0)
    try:
        stored = await services.games.store.read(game["id"])
        assert [event.version for event in stored] == list(range(1, len(stored) + 1))
        picks = [event.metadata["seat"] for event in stored if event.type == "CardPicked"]
        # Two seats, 3 rounds of 10 turns, the last card of each round passed on by itself.
        assert sorted(picks) == sorted([0, 1] * 3 * 9)
        fresh = await services.games.view(GetTable(game["id"], tokens["0"]))
        assert fresh.version == views[0]["version"]
        assert fresh.view is not None and fresh.table.result is not None
    finally:
        await services.close()
