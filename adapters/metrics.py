"""Figures read as Prometheus scrapes: the database's backlogs and this process's connection pools.

The backlogs (webhook deliveries pending, deadlines due) are rows every process shares, counted with
one query per scrape: each process reports the same figure, so a dashboard takes their `max`, not their
sum. The pools are each process's own: a dashboard sums them."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import datetime

import sqlalchemy as sa
from prometheus_client import REGISTRY, Gauge
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector
from sqlalchemy.ext.asyncio import AsyncEngine
from sqlalchemy.pool import QueuePool

from kaiten.adapters.append_connections import AppendConnections
from kaiten.adapters.database import for_reads
from kaiten.adapters.deadlines import OWED
from kaiten.adapters.schema import webhook_deliveries

WEBHOOKS_PENDING = Gauge(
    "kaiten_webhook_deliveries_pending",
    "Webhook deliveries neither delivered nor given up yet, in the whole database (the same on every process)",
)
WEBHOOKS_OLDEST = Gauge(
    "kaiten_webhook_oldest_pending_seconds",
    "Age of the oldest webhook delivery neither delivered nor given up (0: none), in the whole database",
)
DEADLINES_DUE = Gauge(
    "kaiten_deadlines_due",
    "Games whose deadline is due and not acted on yet: bot moves owed (due at once) and turn clocks run out, "
    "in the whole database (the same on every process)",
)

_PENDING = sa.select(sa.func.count(), sa.func.min(webhook_deliveries.c.created_at)).where(
    webhook_deliveries.c.status == "pending"
)


async def measure_backlogs(engine: AsyncEngine, now: datetime) -> None:
    """Set the backlog gauges from the database (two counts, on one pooled connection)."""
    async with for_reads(engine).connect() as connection:
        pending, oldest = (await connection.execute(_PENDING)).one()
        due = (await connection.execute(OWED, {"now": now})).scalar_one()
    WEBHOOKS_PENDING.set(pending)
    WEBHOOKS_OLDEST.set(0 if oldest is None else max(0.0, (now - oldest).total_seconds()))
    DEADLINES_DUE.set(due)


class Pools(Collector):
    """The pools this process serves with, by role (`primary`, `replica`: its engines'; `appends`: the
    appends' own connections): how many connections are checked out now, and how many the pool holds
    at most (it never opens more)."""

    def __init__(self) -> None:
        self._pools: dict[int, tuple[str, AsyncEngine | AppendConnections]] = {}

    def watch(self, role: str, pool: AsyncEngine | AppendConnections) -> Callable[[], None]:
        """Report the engine's pool, or the appends' connections, under `role` until the function
        returned is called."""
        self._pools[id(pool)] = (role, pool)

        def unwatch() -> None:
            self._pools.pop(id(pool), None)

        return unwatch

    def collect(self) -> Iterator[GaugeMetricFamily]:
        checked_out = GaugeMetricFamily(
            "kaiten_db_pool_checked_out", "Pooled database connections in use now, by pool", labels=["pool"]
        )
        size = GaugeMetricFamily(
            "kaiten_db_pool_size",
            "Database connections a pool holds at most (it opens no more), by pool",
            labels=["pool"],
        )
        totals: dict[str, tuple[int, int]] = {}
        for role, watched in list(self._pools.values()):
            used, held = totals.get(role, (0, 0))
            if isinstance(watched, AppendConnections):
                totals[role] = (used + watched.in_use, held + watched.size)
            elif isinstance(watched.pool, QueuePool):
                totals[role] = (used + watched.pool.checkedout(), held + watched.pool.size())
        for role, (used, held) in sorted(totals.items()):
            checked_out.add_metric([role], used)
            size.add_metric([role], held)
        yield checked_out
        yield size


#: The one collector of the process's pools, in the registry the metrics route exposes.
POOLS = Pools()
REGISTRY.register(POOLS)
