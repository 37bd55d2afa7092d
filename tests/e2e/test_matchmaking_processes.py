"""Matchmaking across processes (issue 29 §2): 100 simulated players join a queue through two `kaiten
serve` processes on one PostgreSQL database and leave at random, while one process is killed with
SIGKILL and started again. In the end every player who stayed is in exactly one game (the one their
entry names, at the seat it names), nobody who left is in any, no game exists twice or without its
entries, and nobody waits while a compatible game could start among those who wait."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa

from kaiten.adapters.database import create_engine
from kaiten.adapters.schema import games, queue_entries, queue_matches, queues
from kaiten.domain.matchmaking import Waiting, form_games
from tests import plain_http
from tests.e2e.servers import ServerProcess

pytestmark = pytest.mark.postgres

PLAYERS = 100
QUEUE = "/v1/queues/sushi-go/entries"
#: Requests in flight at once, over both servers.
IN_FLIGHT = 8
#: Most ranges meet others at once; six-player tables fill slowly, so that leaves find players waiting.
RANGES = [(2, 2), (2, 3), (2, 4), (3, 4), (4, 4), (3, 5), (5, 5), (6, 6)]
#: The whole test stays well under 30 s on a loaded machine.
SETTLE_SECONDS = 15


@pytest.fixture(autouse=True)
def quick_rounds(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KAITEN_SCHEDULER_INTERVAL", "0.2")
    monkeypatch.setenv("KAITEN_SCHEDULER_LEASE", "3")


class Cluster:
    """Two servers; a request goes to the one its player uses, or to the other while that one is down."""

    def __init__(self, url: str, log_dir: Path) -> None:
        self.url, self.log_dir = url, log_dir
        self.servers = [ServerProcess(url, log_dir / f"server-{number}.log") for number in range(2)]
        self.restarts = 0
        #: The requests in flight at once, as a pool of clients would send them.
        self.in_flight = asyncio.Semaphore(IN_FLIGHT)

    async def ready(self, client: httpx.AsyncClient) -> None:
        await asyncio.gather(*(server.wait_ready(client) for server in self.servers))

    def kill_and_restart(self, number: int) -> ServerProcess:
        self.servers[number].kill()
        self.restarts += 1
        self.servers[number] = ServerProcess(self.url, self.log_dir / f"server-{number}-{self.restarts}.log")
        return self.servers[number]

    async def request(self, client: httpx.AsyncClient, prefer: int, method: str, path: str, **extra: Any) -> Any:
        for attempt in range(100):
            server = self.servers[(prefer + attempt) % 2]
            try:
                async with self.in_flight:
                    response = await client.request(method, f"{server.url}{path}", timeout=20, **extra)
            except httpx.TransportError:
                await asyncio.sleep(0.1)
                continue
            # While one server restarts, the other may have no database connection free in time: the
            # request is sent again (a join with its key), as the problem's Retry-After says.
            if response.status_code != 503:
                return response
            await asyncio.sleep(0.2)
        raise AssertionError(f"no server answered {method} {path}")

    def close(self) -> None:
        for server in self.servers:
            server.process.kill()


async def a_player(cluster: Cluster, client: httpx.AsyncClient, number: int, rng: random.Random) -> None:
    """Join through one server; a third of the players try to leave a moment later."""
    low, high = rng.choice(RANGES)
    await asyncio.sleep(rng.uniform(0, 4))
    body = {"player_id": f"player-{number}", "min_players": low, "max_players": high}
    # A join whose server was killed under it may have been kept: sent again with its key, it answers
    # the entry kept, never a second one.
    key = {"Idempotency-Key": f"join-{number}"}
    joined = await cluster.request(client, number % 2, "POST", QUEUE, json=body, headers=key)
    assert joined.status_code == 201, joined.text
    if rng.random() < 0.35:
        await asyncio.sleep(rng.uniform(0, 0.3))
        left = await cluster.request(client, number + 1, "DELETE", f"{QUEUE}/{joined.json()['id']}")
        assert left.status_code in (204, 409), left.text
        if left.status_code == 409:
            assert left.json()["code"] == "queue-entry-matched"


async def test_a_hundred_players_on_two_servers_land_in_one_game_each(own_postgres_url: str, tmp_path: Path) -> None:
    rng = random.Random(29)
    cluster = Cluster(own_postgres_url, tmp_path)
    engine = create_engine(own_postgres_url)
    try:
        async with plain_http.async_client() as client:
            await cluster.ready(client)
            players = [asyncio.create_task(a_player(cluster, client, number, rng)) for number in range(PLAYERS)]
            await asyncio.sleep(1.5)
            # Killed in the middle of whatever it did (joins, matching, creating games), and started again.
            restarted = cluster.kill_and_restart(1)
            await asyncio.gather(*players)
            await restarted.wait_ready(client)
            entries, matches = await settled(engine)
            await check(cluster, client, engine, entries, matches)
    finally:
        cluster.close()
        await engine.dispose()


async def settled(engine: Any) -> tuple[list[Any], list[Any]]:
    """The entries and formed games once every formed game exists and no queue is due."""
    async with asyncio.timeout(SETTLE_SECONDS):
        while True:
            async with engine.connect() as connection:
                pending = (
                    await connection.execute(
                        sa.select(sa.func.count()).select_from(queue_matches).where(queue_matches.c.due_at.is_not(None))
                    )
                ).scalar_one()
                due = (
                    await connection.execute(
                        sa.select(sa.func.count()).select_from(queues).where(queues.c.due_at.is_not(None))
                    )
                ).scalar_one()
                if not pending and not due:
                    entries = (await connection.execute(sa.select(queue_entries))).all()
                    matches = (await connection.execute(sa.select(queue_matches))).all()
                    return list(entries), list(matches)
            await asyncio.sleep(0.2)


async def check(
    cluster: Cluster, client: httpx.AsyncClient, engine: Any, entries: list[Any], matches: list[Any]
) -> None:
    by_player: dict[str, list[Any]] = {}
    for entry in entries:
        by_player.setdefault(entry.player_id, []).append(entry)
    assert len(by_player) == PLAYERS
    assert all(len(mine) == 1 for mine in by_player.values()), "nobody has two entries"
    matched = [entry for entry in entries if entry.status == "matched"]
    waiting = [entry for entry in entries if entry.status == "waiting"]
    left = [entry for entry in entries if entry.status == "left"]
    assert matched and left, (len(matched), len(left), len(waiting))
    async with engine.connect() as connection:
        created = {game_id for (game_id,) in await connection.execute(sa.select(games.c.game_id))}
    formed = {match.game_id for match in matches}
    assert created == formed, "every formed game exists, once, and no other"
    assert {entry.game_id for entry in matched} == formed
    seated: dict[str, str] = {}
    for match in matches:
        table = (await cluster.request(client, 0, "GET", f"/v1/games/{match.game_id}")).json()
        mine = sorted((entry for entry in matched if entry.game_id == match.game_id), key=lambda entry: entry.seat)
        assert len(table["seats"]) == match.players == len(mine), table
        assert [(seat["seat"], seat["player_id"]) for seat in table["seats"]] == [
            (entry.seat, entry.player_id) for entry in mine
        ]
        assert all(entry.min_players <= match.players <= entry.max_players for entry in mine)
        for entry in mine:
            assert entry.player_id not in seated, f"{entry.player_id} in two games"
            seated[entry.player_id] = match.game_id
        # The seat's token in the entry plays that seat.
        token = mine[-1].seat_token
        legal = await cluster.request(
            client, 1, "GET", f"/v1/games/{match.game_id}/legal-commands", headers={"Authorization": f"Bearer {token}"}
        )
        assert legal.status_code == 200, legal.text
    assert not {entry.player_id for entry in left} & set(seated), "a player who left was seated"
    still = [
        Waiting(entry.entry_id, entry.player_id, entry.min_players, entry.max_players)
        for entry in sorted(waiting, key=lambda entry: (entry.joined_at, entry.entry_id))
    ]
    assert form_games(still, 2, 6) == [], "players wait while a compatible game could start"
