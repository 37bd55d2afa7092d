"""Bots think off the request path (services/bot_moves.py), on real `kaiten serve` processes: a game
of strong bots answers its creation at once and never stalls the server, and a bot's move owed when
its server is killed is made by another server, once."""

from __future__ import annotations

import asyncio
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests import plain_http
from tests.e2e.play import all_events, finished, moved_on, until
from tests.e2e.servers import OPEN, ServerProcess, started

#: A request to a server that serves while its bots think answers in milliseconds; one that waits
#: behind a bot (the reproduction: 106 s) does not answer in this.
ANSWER_SECONDS = 10
#: A killed server's bot workers look for their parent every second.
WORKERS_END_SECONDS = 10
STRONG_BOTS = [{"bot": "mcts:strong"}, {"bot": "mcts:strong"}]


async def create_game(client: httpx.AsyncClient, seats: list[dict[str, Any]], seed: int) -> dict[str, Any]:
    body = {"game": "sushi-go", "players": len(seats), "seats": seats, "seed": seed}
    response = await client.post("/v1/games", json=body)
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


async def test_a_game_of_strong_bots_answers_at_once_and_the_server_keeps_answering(tmp_path: Path) -> None:
    """The issue's reproduction, on the embedded default (SQLite, one process)."""
    server = ServerProcess(f"sqlite:///{tmp_path / 'kaiten.sqlite3'}", tmp_path / "server.log", environment=OPEN)
    try:
        async with plain_http.async_client(base_url=server.url, timeout=ANSWER_SECONDS) as client:
            await server.wait_ready(client)
            created = await create_game(client, STRONG_BOTS, seed=1)
            assert created["status"] == "active"
            assert created["awaiting"] == [0, 1], "both bots owe their first pick: none was made in the request"
            assert not [event for event in await all_events(client, created["id"]) if event["type"] == "CardPicked"]

            # While the bots think, the server answers: its health, and the table as it moves on.
            for _ in range(10):
                assert (await client.get("/health")).status_code == 200
                table = await client.get(f"/v1/games/{created['id']}")
                assert table.status_code == 200
                await asyncio.sleep(0.2)
            moved = await until(client, created["id"], moved_on(created["version"]))
            assert moved["status"] == "active"
    finally:
        server.kill()


def children(pid: int) -> list[int]:
    """The processes whose parent is `pid` (Linux's /proc)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue  # the process ended meanwhile
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


def zombie(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True


def picks_by_seat(events: list[dict[str, Any]]) -> Counter[int]:
    return Counter(event["data"]["seat"] for event in events if event["type"] == "CardPicked")


@pytest.mark.postgres
async def test_bot_moves_owed_by_a_killed_server_are_made_by_another_once(
    own_postgres_url: str, tmp_path: Path
) -> None:
    """SIGKILL one of two servers on one database while its bots think: the other makes their moves
    once the killed server's claims run out, and no move is lost or made twice."""
    environment = {**OPEN, "KAITEN_SCHEDULER_LEASE": "2s", "KAITEN_SCHEDULER_INTERVAL": "0.2s"}
    first = ServerProcess(own_postgres_url, tmp_path / "first.log", environment=environment)
    second = None
    try:
        async with plain_http.async_client(base_url=first.url, timeout=ANSWER_SECONDS) as through_first:
            await first.wait_ready(through_first)
            # A person against a strong bot, whose first pick takes the killed server a while; and games
            # of quick bots, under way when it dies.
            strong = await create_game(through_first, [{"name": "Ann"}, {"bot": "mcts:strong"}], seed=2)
            quick = [
                await create_game(through_first, [{"bot": "random"}, {"bot": "greedy"}], seed=seed)
                for seed in range(3, 5)
            ]
            await asyncio.sleep(0.3)
            workers = children(first.process.pid)
            assert workers, "the server's bots think in worker processes"
            first.kill()

        # The killed server's workers end with it rather than wait for work forever.
        async with asyncio.timeout(WORKERS_END_SECONDS):
            while any(Path(f"/proc/{pid}").exists() and not zombie(pid) for pid in workers):
                await asyncio.sleep(0.1)

        second = ServerProcess(own_postgres_url, tmp_path / "second.log", environment=environment)
        async with plain_http.async_client(base_url=second.url, timeout=ANSWER_SECONDS) as through_second:
            await second.wait_ready(through_second)
            for game in quick:
                table = await finished(through_second, game["id"])
                assert table["status"] == "finished"
                events = await all_events(through_second, game["id"])
                assert [event["version"] for event in events] == list(range(1, len(events) + 1))
                # Two seats, 3 rounds of 10 cards: 9 picks each a round (the last card is passed on).
                assert picks_by_seat(events) == {0: 27, 1: 27}

            bot_moved = await until(through_second, strong["id"], lambda table: table["awaiting"] == [0])
            assert bot_moved["status"] == "active"
            assert picks_by_seat(await all_events(through_second, strong["id"])) == {1: 1}
    finally:
        first.kill()
        if second is not None:
            second.kill()


@pytest.mark.postgres
async def test_two_servers_on_one_database_play_bots_games_to_their_end(own_postgres_url: str, tmp_path: Path) -> None:
    with started(own_postgres_url, tmp_path, 2) as servers:
        async with plain_http.async_client(timeout=ANSWER_SECONDS) as client:
            await asyncio.gather(*(server.wait_ready(client) for server in servers))
        clients = [plain_http.async_client(base_url=server.url, timeout=ANSWER_SECONDS) for server in servers]
        try:
            games = [
                await create_game(clients[seed % 2], [{"bot": "random"}, {"bot": "greedy"}, {"bot": "random"}], seed)
                for seed in range(4)
            ]
            for number, game in enumerate(games):
                # Read through the server that did not create it.
                table = await finished(clients[(number + 1) % 2], game["id"])
                assert table["status"] == "finished"
                events = await all_events(clients[number % 2], game["id"])
                assert [event["version"] for event in events] == list(range(1, len(events) + 1))
                # Three seats, 3 rounds of 9 cards: 8 picks each a round.
                assert picks_by_seat(events) == {0: 24, 1: 24, 2: 24}
        finally:
            for client in clients:
                await client.aclose()
