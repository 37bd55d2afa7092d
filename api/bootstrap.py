"""The composition root: the one place that wires adapters into services."""

from __future__ import annotations

from contextlib import AsyncExitStack
from dataclasses import dataclass, field, replace
from datetime import timedelta
from typing import cast

from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncEngine

from kaiten.adapters.append_connections import AppendConnections
from kaiten.adapters.apps import InMemoryAppStore, SqlAppStore, SqlGameCounts
from kaiten.adapters.bot_workers import ProcessThinker, RequestsInFlight
from kaiten.adapters.database import (
    DEFAULT_CONNECTIONS,
    POOL_TIMEOUT_SECONDS,
    append_connections,
    append_connections_for,
    create_engine,
    pool_size_for,
)
from kaiten.adapters.deadlines import SqlDeadlines
from kaiten.adapters.migrate import is_migrated
from kaiten.adapters.notify import LocalNotifier, PostgresNotifier
from kaiten.adapters.people import InMemoryPeople, SqlPeople
from kaiten.adapters.player_tokens import InMemoryPlayerTokens, SqlPlayerTokens
from kaiten.adapters.projections.read_models import SqlReadModels
from kaiten.adapters.projections.registry import build_projections, projected_types
from kaiten.adapters.projections.runner import ProjectionRunner, running
from kaiten.adapters.queues import SqlQueueStore
from kaiten.adapters.replica import Replica, ReplicaEventStore, ReplicaReadModels
from kaiten.adapters.seasons import SqlSeasons
from kaiten.adapters.sql_store import SqlEventStore
from kaiten.adapters.stream_tickets import InMemoryStreamTickets, SqlStreamTickets
from kaiten.adapters.system import SecureIds, SystemClock
from kaiten.adapters.webhook_http import HttpWebhookSender
from kaiten.adapters.webhook_store import SqlWebhookStore
from kaiten.api.settings import DEFAULT_WEBHOOKS, WebhookOptions
from kaiten.services.apps import Apps
from kaiten.services.bot_moves import BotLoad, ThreadThinker
from kaiten.services.games import Games
from kaiten.services.history import HistoryQueries
from kaiten.services.matchmaking import Matchmaking
from kaiten.services.players import Players
from kaiten.services.ports import (
    BUILTIN_APP,
    AppStore,
    BotThinker,
    Clock,
    Deadlines,
    EventStore,
    GameCounts,
    IdSource,
    People,
    PlayerFeeds,
    PlayerTokenStore,
    ReadModels,
    RunningNotifier,
    StreamTickets,
)
from kaiten.services.quotas import QuotaCheck
from kaiten.services.scheduler import DEFAULT_LEASE, Scheduler
from kaiten.services.seasons import Seasons
from kaiten.services.stream_tickets import Ticketing
from kaiten.services.streaming import EventStreams
from kaiten.services.table_cache import DEFAULT_CACHED_TABLES
from kaiten.services.webhook_delivery import DeliveryWorker
from kaiten.services.webhooks import Webhooks


@dataclass
class Services:
    games: Games
    streams: EventStreams
    #: Stream tickets, for browsers following a game as a seat.
    tickets: Ticketing
    #: Tells this process (and on PostgreSQL every process) of committed appends.
    notifier: RunningNotifier
    #: The apps that integrate this server, their keys and quotas.
    apps: Apps
    #: Player tokens and each player's feed across games (services/players.py).
    players: Players
    engine: AsyncEngine | None = None
    #: A read replica of `engine` (PostgreSQL streaming replication), for the reads that may lag.
    read_engine: AsyncEngine | None = None
    #: The appends' own connections to `engine`'s database (PostgreSQL).
    appends: AppendConnections | None = None
    #: Match history and statistics, from the catch-up projections' read models (None without a database).
    history: HistoryQueries | None = None
    #: The catch-up projections, run by `start` when `run_projections` is set (a serving process).
    projection_runners: list[ProjectionRunner] = field(default_factory=list)
    run_projections: bool = False
    #: Webhooks (None without a database), and the worker that delivers them, run by `start` when
    #: `run_deliveries` is set (every serving process).
    webhooks: Webhooks | None = None
    delivery_worker: DeliveryWorker | None = None
    run_deliveries: bool = False
    #: Fires due deadlines (turn clocks, abandonment), run by `start` when `run_scheduler` is set.
    scheduler: Scheduler | None = None
    run_scheduler: bool = False
    #: Matchmaking queues (None without a database); their matching loop runs with the scheduler.
    matchmaking: Matchmaking | None = None
    #: The seasons apps define (None without a database).
    seasons: Seasons | None = None
    #: Background parts (listeners, projection runners) started by `start` and stopped by `stop`.
    _background: AsyncExitStack = field(default_factory=AsyncExitStack)

    async def start(self) -> None:
        """Start the background parts of a serving process."""
        await self._background.enter_async_context(self.notifier.running())
        if self.run_projections:
            await self._background.enter_async_context(running(self.projection_runners))
        if self.run_deliveries and self.delivery_worker is not None:
            await self._background.enter_async_context(self.delivery_worker.running())
        if self.run_scheduler and self.scheduler is not None:
            await self._background.enter_async_context(self.scheduler.running())
        if self.run_scheduler and self.matchmaking is not None:
            await self._background.enter_async_context(self.matchmaking.running())

    async def stop(self) -> None:
        await self._background.aclose()
        self._background = AsyncExitStack()

    async def is_ready(self) -> bool:
        """The primary alone: while a read replica is down, its reads go to the primary."""
        if self.engine is None:
            return True
        try:
            return await is_migrated(self.engine)
        except (OSError, SQLAlchemyError):
            return False

    async def close(self) -> None:
        await self.stop()
        await self.games.bots.close()
        if self.appends is not None:
            await self.appends.close()
        for engine in self._engines():
            await engine.dispose()

    def _engines(self) -> list[AsyncEngine]:
        return [engine for engine in (self.engine, self.read_engine) if engine is not None]


def bootstrap(
    database_url: str,
    *,
    read_database_url: str | None = None,
    direct_database_url: str | None = None,
    connections: int = DEFAULT_CONNECTIONS,
    connection_wait: float = POOL_TIMEOUT_SECONDS,
    run_projections: bool = False,
    run_deliveries: bool = False,
    webhooks: WebhookOptions = DEFAULT_WEBHOOKS,
    run_scheduler: bool = False,
    clock: Clock | None = None,
    ids: IdSource | None = None,
    abandon_after: timedelta | None = None,
    scheduler_interval: timedelta = timedelta(seconds=1),
    scheduler_lease: timedelta = DEFAULT_LEASE,
    cached_tables: int = DEFAULT_CACHED_TABLES,
    open_app: str | None = BUILTIN_APP,
    bot_workers: int | None = None,
    requests_in_flight: RequestsInFlight | None = None,
) -> Services:
    """Services over that database; `open_app` is the app callers without a key write as (None: every
    write needs an app key; services/access.py). `run_projections` makes `start` run the catch-up projections and
    `run_deliveries` the webhook delivery worker and `run_scheduler` the deadlines' scheduler (a
    serving process runs all three). With `read_database_url` (a PostgreSQL read replica of it) the
    history, the statistics and the reads of one game that may lag (services/replica_reads.py) go to
    the replica. `cached_tables` bounds the games whose tables this process keeps in memory.
    On PostgreSQL the process holds at most `connections` connections to the database: the one that
    LISTENs for appends, the appends' own (a third of the others) and a pool of the rest, for which
    requests and background loops wait up to `connection_wait` seconds (a replica gets a pool of all
    but the listening one). With `direct_database_url` (the
    server itself), `database_url` (and the replica's) are poolers in transaction mode (PgBouncer):
    the LISTEN goes to the server directly and no statement is prepared through them.
    Bots think in `bot_workers` processes (a serving process), or in a thread when None (tests); their
    searches pause while `requests_in_flight` (the serving process's request log counts) says a
    request waits for its answer.
    The clock and the source of ids are the system's unless others are given (tests)."""
    direct_url = direct_database_url or database_url
    pooler = direct_url != database_url
    engine = create_engine(
        database_url,
        pool_size=pool_size_for(database_url, connections, appends=True),
        pool_timeout=connection_wait,
        pooler=pooler,
    )
    read_engine = (
        None
        if read_database_url is None
        else create_engine(
            read_database_url,
            pool_size=pool_size_for(read_database_url, connections),
            pool_timeout=connection_wait,
            pooler=pooler,
        )
    )
    if read_engine is not None and {engine.dialect.name, read_engine.dialect.name} != {"postgresql"}:
        raise ValueError("a read replica needs PostgreSQL, for the primary and the replica")
    projections = build_projections(engine.dialect.name)
    projected = projected_types(projections)
    notifier: RunningNotifier
    appends: AppendConnections | None = None
    if engine.dialect.name == "postgresql":
        # A LISTEN needs a session of its own: through a pooler in transaction mode it would hear nothing.
        notifier = PostgresNotifier(direct_url)
        appends = append_connections(engine, append_connections_for(connections), connection_wait, pooler)
        store = SqlEventStore(engine, clock=clock, projected=projected, appends=appends)
    else:
        local = LocalNotifier()
        notifier, store = local, SqlEventStore(engine, clock=clock, notifier=local, projected=projected)
    webhook_store, sender = SqlWebhookStore(engine), HttpWebhookSender(allow_private=webhooks.allow_private)
    replica: EventStore | None = None
    read_models: ReadModels = SqlReadModels(engine)
    if read_engine is not None:
        health = Replica()
        replica = ReplicaEventStore(SqlEventStore(read_engine), store, health)
        read_models = ReplicaReadModels(SqlReadModels(read_engine), read_models, health)
    services = _services(
        store,
        notifier,
        SqlStreamTickets(engine),
        clock,
        ids,
        people=SqlPeople(engine),
        app_store=SqlAppStore(engine),
        player_tokens=SqlPlayerTokens(engine),
        feeds=store,
        counts=SqlGameCounts(engine),
        open_app=open_app,
        engine=engine,
        replica=replica,
        deadlines=SqlDeadlines(engine),
        abandon_after=abandon_after,
        scheduler_interval=scheduler_interval,
        scheduler_lease=scheduler_lease,
        cached_tables=cached_tables,
        bots=None if bot_workers is None else ProcessThinker(bot_workers, requests_in_flight),
    )
    season_store = SqlSeasons(engine)
    return replace(
        services,
        read_engine=read_engine,
        appends=appends,
        history=HistoryQueries(read_models, services.games.names, season_store),
        seasons=Seasons(season_store, clock or SystemClock(), open_app),
        projection_runners=[ProjectionRunner(engine, projection, notifier=notifier) for projection in projections],
        run_projections=run_projections,
        webhooks=Webhooks(
            services.games.tables, webhook_store, sender, clock or SystemClock(), services.games.people, open_app
        ),
        delivery_worker=DeliveryWorker(
            webhook_store,
            sender,
            clock or SystemClock(),
            notifier,
            first_retry_seconds=webhooks.first_retry_seconds,
            keep_for=webhooks.keep_for,
        ),
        run_deliveries=run_deliveries,
        run_scheduler=run_scheduler,
        matchmaking=Matchmaking(
            SqlQueueStore(engine),
            services.games.seats,
            services.games.people,
            read_models,
            clock or SystemClock(),
            services.games.ids,
            open_app,
            lease=scheduler_lease,
            interval_seconds=scheduler_interval.total_seconds(),
        ),
    )


def bootstrap_with_store(
    store: EventStore,
    notifier: RunningNotifier | None = None,
    *,
    clock: Clock | None = None,
    ids: IdSource | None = None,
    deadlines: Deadlines | None = None,
    abandon_after: timedelta | None = None,
    open_app: str | None = BUILTIN_APP,
) -> Services:
    """Services over a given store (the in-memory one in unit tests, with people and apps in memory);
    live streams hear of appends through `notifier`, which the store must publish to. With the
    store's `deadlines`, the services have a scheduler (which tests run step by step)."""
    return _services(
        store,
        notifier or LocalNotifier(),
        InMemoryStreamTickets(),
        clock,
        ids,
        people=InMemoryPeople(),
        app_store=InMemoryAppStore(),
        player_tokens=InMemoryPlayerTokens(),
        # The stores kept in memory and in a database keep the players' feeds their appends write.
        feeds=cast(PlayerFeeds, store),
        open_app=open_app,
        deadlines=deadlines,
        abandon_after=abandon_after,
    )


def _services(
    store: EventStore,
    notifier: RunningNotifier,
    tickets: StreamTickets,
    clock: Clock | None,
    ids: IdSource | None,
    *,
    people: People,
    app_store: AppStore,
    player_tokens: PlayerTokenStore,
    feeds: PlayerFeeds,
    open_app: str | None,
    counts: GameCounts | None = None,
    engine: AsyncEngine | None = None,
    replica: EventStore | None = None,
    deadlines: Deadlines | None = None,
    abandon_after: timedelta | None = None,
    scheduler_interval: timedelta = timedelta(seconds=1),
    scheduler_lease: timedelta = DEFAULT_LEASE,
    cached_tables: int = DEFAULT_CACHED_TABLES,
    bots: BotThinker | None = None,
) -> Services:
    clock = clock or SystemClock()
    ids = ids or SecureIds()
    apps = Apps(app_store, ids, clock)
    quotas = None if counts is None else QuotaCheck(apps, counts, clock)
    bots = bots or ThreadThinker()

    async def bot_cpu_quota(app_id: str) -> int | None:
        return (await apps.quotas_of(app_id)).bot_cpu_seconds_per_minute

    async def owed() -> int:
        return 0 if deadlines is None else await deadlines.owed(clock.now())

    games = Games(
        store,
        clock,
        ids,
        abandon_after,
        people=people,
        open_app=open_app,
        quotas=quotas,
        replica=replica,
        cached_tables=cached_tables,
        bots=bots,
        bot_load=BotLoad(bots.workers, clock.now, owed, bot_cpu_quota),
    )
    scheduler = (
        None
        if deadlines is None
        else Scheduler(deadlines, games, clock, scheduler_interval.total_seconds(), scheduler_lease)
    )
    if scheduler is not None:
        games.on_bots_owed = scheduler.nudge
    return Services(
        games=games,
        scheduler=scheduler,
        streams=EventStreams(games.tables, notifier, games.names),
        tickets=Ticketing(games.tables, tickets, clock, ids),
        notifier=notifier,
        apps=apps,
        players=Players(player_tokens, feeds, people, games.names, notifier, tickets, ids, clock, open_app),
        engine=engine,
    )
