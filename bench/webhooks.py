"""What the webhook outbox costs an append, side by side in one run (PostgreSQL).

Each round appends the same number of one-event versions (with the inline summary) to fresh games
three ways, interleaved: with no outbox message, with a `turn` message for a game nobody hooked (the
common case: a command always hands its moments over; nothing is queued), and with one for a game
that has a webhook (one delivery queued in the append). Prints appends per second and the ratios to
the first.

    .venv/bin/python -m bench.webhooks [--database-url postgresql+psycopg://postgres@127.0.0.1:5432/postgres]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
import uuid
from datetime import UTC, datetime

from bench.api import fresh_database
from kaiten.adapters.database import create_engine
from kaiten.adapters.sql_store import SqlEventStore
from kaiten.adapters.webhook_store import SqlWebhookStore
from kaiten.services.ports import GameSummary, NewEvent, OutboxMessage, WebhookRecord

EVENT = NewEvent(type="GameStarted", data=b'{"type":"GameStarted"}', metadata={"seat": 0})


def summary(game_id: str, version: int) -> GameSummary:
    now = datetime.now(UTC)
    return GameSummary(game_id, "sushi-go", "active", version, 2, {}, [], [0], None, {}, now, now)


async def appends_per_second(store: SqlEventStore, webhooks: SqlWebhookStore, kind: str, versions: int) -> float:
    game_id = str(uuid.uuid4())
    if kind == "hooked":
        hook = WebhookRecord(str(uuid.uuid4()), game_id, 0, "http://127.0.0.1:9/", ["turn"], datetime.now(UTC))
        await webhooks.add(hook, "a-secret-of-some-length")
    started = time.perf_counter()
    for version in range(1, versions + 1):
        outbox = [] if kind == "none" else [OutboxMessage("turn", version, b'{"event":"turn"}')]
        await store.append(game_id, version - 1, [EVENT], summary(game_id, version), outbox=outbox)
    return versions / (time.perf_counter() - started)


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--database-url", default="postgresql+psycopg://postgres@127.0.0.1:5432/postgres")
    parser.add_argument("--versions", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    url = await fresh_database(args.database_url, "kaiten_bench_webhooks")
    engine = create_engine(url)
    store, webhooks = SqlEventStore(engine), SqlWebhookStore(engine)
    rates: dict[str, list[float]] = {"none": [], "unhooked": [], "hooked": []}
    try:
        for _ in range(args.rounds):
            for kind in rates:
                rates[kind].append(await appends_per_second(store, webhooks, kind, args.versions))
    finally:
        await engine.dispose()
    base = statistics.median(rates["none"])
    for kind, values in rates.items():
        median = statistics.median(values)
        print(f"{kind:>9}: {median:8.0f} appends/s (median of {args.rounds}), ratio to none {median / base:.2f}")


if __name__ == "__main__":
    asyncio.run(main())
