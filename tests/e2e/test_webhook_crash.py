"""A `kaiten serve` killed with SIGKILL loses no webhook delivery: the outbox was written with the
events, and the next process sends what is left, in order (SQLite and PostgreSQL)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from sqlalchemy.ext.asyncio import create_async_engine

from kaiten.adapters.schema import webhook_deliveries
from tests import plain_http
from tests.e2e.play import turn_came
from tests.e2e.servers import ServerProcess
from tests.e2e.webhook_receiver import Receiver, person_against_a_bot, pick, register

PICKS = 4


async def next_turn(client: httpx.AsyncClient, game: dict[str, Any]) -> int:
    """Alice picks; the version at which her next turn came (the bot picks in the background, before
    or after her: the hands pass at her pick or at the bot's)."""
    return await turn_came(client, game["id"], 0, await pick(client, game))


async def queued_versions(database_url: str, game_id: str) -> list[int]:
    engine = create_async_engine(database_url)
    try:
        async with engine.connect() as connection:
            query = (
                sa.select(webhook_deliveries.c.version)
                .where(webhook_deliveries.c.game_id == game_id)
                .order_by(webhook_deliveries.c.version)
            )
            return list((await connection.execute(query)).scalars())
    finally:
        await engine.dispose()


async def end_leases(database_url: str, game_id: str) -> None:
    """Let the leases of a killed process's claims run out now rather than in 30 s (a process killed
    mid-attempt holds its delivery that long; tests/integration/test_webhook_store.py covers it)."""
    engine = create_async_engine(database_url)
    try:
        async with engine.begin() as connection:
            ended = sa.update(webhook_deliveries).where(webhook_deliveries.c.game_id == game_id)
            await connection.execute(ended.values(claimed_until=None))
    finally:
        await engine.dispose()


async def test_deliveries_survive_a_sigkill_of_the_sender(
    database_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("KAITEN_WEBHOOK_ALLOW_PRIVATE", "1")
    monkeypatch.setenv("KAITEN_WEBHOOK_RETRY_SECONDS", "0.2")
    receiver = Receiver()  # down while the first server runs: everything stays in its outbox
    first = ServerProcess(database_url, tmp_path / "first.log")
    try:
        async with plain_http.async_client(base_url=first.url, timeout=10) as client:
            await first.wait_ready(client)
            game = await person_against_a_bot(client)
            await register(client, game, receiver.url)
            versions = [await next_turn(client, game) for _ in range(PICKS)]
    finally:
        first.kill()
    assert await queued_versions(database_url, game["id"]) == versions
    await end_leases(database_url, game["id"])
    await receiver.start()
    second = ServerProcess(database_url, tmp_path / "second.log")
    try:
        async with plain_http.async_client(base_url=second.url, timeout=10) as client:
            await second.wait_ready(client)
            payloads = await receiver.wait_for(PICKS, game_id=game["id"])
    finally:
        second.kill()
        await receiver.stop()
    assert [payload["version"] for payload in payloads] == versions
    assert {payload["game_id"] for payload in payloads} == {game["id"]}
