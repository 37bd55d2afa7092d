"""The Litestar application factory."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, cast

from litestar import Litestar
from litestar.config.compression import CompressionConfig
from litestar.middleware import DefineMiddleware
from litestar.openapi import OpenAPIConfig
from litestar.plugins import PluginProtocol
from litestar.plugins.prometheus import PrometheusConfig
from litestar.types import Middleware

from kaiten.adapters.bot_workers import RequestsInFlight
from kaiten.api.answers import JsonAnswers
from kaiten.api.bootstrap import Services, bootstrap
from kaiten.api.contract.docs import assets_router, render_plugins
from kaiten.api.cors import cors_config
from kaiten.api.dependencies import providers
from kaiten.api.errors import EXCEPTION_HANDLERS
from kaiten.api.metrics import MetricsController, RouteMetrics, watch_pools
from kaiten.api.play import UNCOMPRESSED, play_router
from kaiten.api.principal import Identify
from kaiten.api.rate_limit import Limiter, LimitRequests
from kaiten.api.request_body import KaitenRequest
from kaiten.api.request_log import RequestLog
from kaiten.api.routes.admin import admin_controller
from kaiten.api.routes.catalog import CatalogController
from kaiten.api.routes.games import GamesController
from kaiten.api.routes.history import HISTORY_HANDLERS
from kaiten.api.routes.lobby import LobbyController
from kaiten.api.routes.logs import LogsController
from kaiten.api.routes.operations import health, ready
from kaiten.api.routes.players import PlayersController
from kaiten.api.routes.queues import QueuesController
from kaiten.api.routes.seasons import SeasonsController
from kaiten.api.routes.stream import StreamController
from kaiten.api.routes.webhooks import WebhooksController
from kaiten.api.settings import Settings
from kaiten.api.shutdown import streams_end_on_exit_signal
from kaiten.api.tracing import provider_from_env, request_spans, spans_named_by_route, trace_statements
from kaiten.services.ports import BUILTIN_APP

if TYPE_CHECKING:
    from opentelemetry.sdk.trace import TracerProvider

API_VERSION = "1.0.0"
#: The largest body a route reads, an imported log's aside (413 request-too-large beyond).
MAX_BODY_BYTES = 1_000_000

API_DESCRIPTION = """\
Event-sourced game engine for the Sushi Go family of card games.

**Fair shuffles.** `GameCreated` shows `seed_commitment = sha256(salt + str(seed).encode("ascii"))`
(hex), where `salt` is 16 random bytes drawn by the server for each game. Seed and salt stay secret
while the game runs and are revealed in `GameFinished` (the salt as hex), so anyone can recompute the
commitment and deal the game again. A chosen `seed` deals the same cards whatever the salt. Logs from
before salting show an empty salt: their commitment is the plain hash of the seed.

**Apps and keys.** Each integrating app has keys (`kaiten_app_...`, sent as `Authorization: Bearer`);
its games, players, ratings, history, statistics and webhooks are its own, and another app's answer
404 as if they did not exist. A seat token (`kaiten_seat_...`) acts for its seat; an invitation code
(`kaiten_inv_...`) watches its game and takes a free seat as a guest. A server that needs keys
(`/ready` says `auth: keys`) refuses writes without one (`401 app-key-required`); an open one
(`auth: open`, the embedded default) lets such callers write as its built-in app. Each operation's
`security` and description say which credentials it takes. `erasePlayer` erases a player's id and
name from every answer while their games replay as before.

**Errors** are `application/problem+json` (RFC 9457) with a stable `code`. A request over a rate
limit or an app's quota gets `429` with `Retry-After` (seconds) and the limit's name as `code`
(`rate-limited`, `requests-per-minute`, `games-per-hour`, `open-games`, `imports-per-hour`).

**Browsers.** `KAITEN_CORS_ORIGINS` (comma-separated origins, or `*`) turns CORS on. An
`EventSource` cannot send `Authorization`, and a seat token never goes in a URL: a seat trades its
token for a single-use stream ticket (`createStreamTicket`, valid 60 s) and opens
`streamEvents?ticket=...`, which streams that seat's view.

**Lobby.** A `private` game (`visibility` at creation) is listed to its app alone and answers 404 to
anybody holding none of its credentials (a seat token, a live invitation code, the app's key); its
free seats are taken with an invitation code (`createInvitation`, by any seated person; revocable).
`createRematch` turns a finished game into a new one with the same game, options and seats.

**Webhooks.** A seat registers a URL (`createWebhook`) and kaiten POSTs `turn` and `finished`
moments to it, signed (`Kaiten-Signature: t=<unix seconds>,v1=<HMAC-SHA256 of "<t>.<delivery id>.<body>">`;
a receiver refuses a time more than 300 s from its clock and deduplicates on `X-Kaiten-Delivery`), at
least once, in version order, from an outbox written with the events. URLs whose host resolves to
anything but the public internet are refused, when registered and on every connection;
`KAITEN_WEBHOOK_ALLOW_PRIVATE=1` lifts that (tests); `KAITEN_WEBHOOK_RETRY_SECONDS` sets the first
retry's scale.

**Caches.** Answers under `/v1` are `Cache-Control: private` and `Vary: Authorization, Origin`; a
game's reads carry an entity tag made of their version and a digest of the answer, so no cache
hands one viewer's answer to another.

**Operators.** `KAITEN_RATE_LIMIT` (e.g. `600/minute`; unset: no limit) limits the requests of each
principal: an app (with its own `requests_per_minute` quota when set), a seat whose token is sent, else
the caller's address. Each serving process counts requests on its own, so N processes admit up to N
times the limit; the apps' game quotas are counted in the database. `KAITEN_ADMIN_KEY` turns on the
admin API (`/v1/admin/apps`). `KAITEN_LOG_LEVEL` (`DEBUG`, `INFO`, `WARNING`,
`ERROR`; default `INFO`) sets the level of the JSON log lines; each request writes one, with its
`X-Request-ID` (kept when the client sends one, else made), and every response carries that header.

**Read replicas.** With `KAITEN_READ_DATABASE_URL` (a PostgreSQL streaming replica of the primary), the
match history, statistics and leaderboards, and the reads of one game that need not be the newest,
come from the replica: a game the serving process has seen finished, or a game the replica has
replayed up to the version the caller says it has seen (`min_version`, an entity tag in
`If-None-Match`, an events page's `after`, a replay's `at`). Any other read, like `getTable` right
after a command, comes from the primary: pass the command's `version` as `min_version` to let a
replica answer once it has it.
"""


def create_app(
    services: Services | None = None, settings: Settings | None = None, tracer_provider: TracerProvider | None = None
) -> Litestar:
    """An app over the given services, or over services built from settings when it starts. With
    traces on (`settings.traces`), spans go to `tracer_provider`, else to one the `OTEL_*` variables
    configure (api/tracing.py)."""
    configured = settings or Settings.from_env()
    # Counted by the request log, read by the bot workers of the services built here (services handed
    # in think in threads, in this process).
    in_flight = RequestsInFlight() if services is None else None
    traces = tracer_provider if tracer_provider is not None or not configured.traces else provider_from_env()

    @asynccontextmanager
    async def lifespan(app: Litestar) -> AsyncIterator[None]:
        owned = services is None
        # A serving process that builds its own services also runs the catch-up projections and the
        # deadlines' scheduler. Services handed in are the app's state from its creation (below).
        running = (
            bootstrap(
                configured.database_url,
                read_database_url=configured.read_database_url,
                direct_database_url=configured.direct_database_url,
                connections=configured.db_connections,
                run_projections=True,
                run_deliveries=True,
                webhooks=configured.webhooks,
                run_scheduler=True,
                abandon_after=configured.abandon_after,
                scheduler_interval=configured.scheduler_interval,
                scheduler_lease=configured.scheduler_lease,
                cached_tables=configured.table_cache,
                open_app=BUILTIN_APP if configured.open else None,
                bot_workers=configured.bot_workers,
                requests_in_flight=in_flight,
            )
            if owned
            else cast(Services, app.state.services)
        )
        app.state.services = running
        unwatch = watch_pools(running)
        untrace = None if traces is None else trace_statements([running.engine, running.read_engine], traces)
        await running.start()
        try:
            with streams_end_on_exit_signal(running):
                yield
        finally:
            unwatch()
            if untrace is not None:
                untrace()
            if traces is not None and tracer_provider is None:
                traces.shutdown()
            # Services handed in belong to the caller, who closes them; background parts stop here.
            await (running.close() if owned else running.stop())

    metrics = PrometheusConfig(app_name="kaiten", prefix="kaiten", group_path=True, middleware_class=RouteMetrics)
    plugins: list[PluginProtocol] = [] if traces is None else [request_spans(traces)]
    middleware: list[Middleware] = [
        *([] if traces is None else [spans_named_by_route]),
        metrics.middleware,
        Identify,
        DefineMiddleware(LimitRequests, limiter=Limiter(configured.rate_limit)),
    ]
    app = Litestar(
        route_handlers=[
            admin_controller(configured.admin_key),
            CatalogController,
            GamesController,
            LobbyController,
            LogsController,
            StreamController,
            WebhooksController,
            PlayersController,
            QueuesController,
            SeasonsController,
            *HISTORY_HANDLERS,
            health,
            ready,
            MetricsController,
            assets_router(),
            play_router(),
        ],
        # Called at requests, once `app` below is made.
        dependencies=providers(lambda: app.state),
        exception_handlers=EXCEPTION_HANDLERS,
        lifespan=[lifespan],
        middleware=middleware,
        plugins=plugins,
        request_class=KaitenRequest,
        response_class=JsonAnswers,
        # The serving process's logging is kaiten's (api/logging_setup.py): JSON lines, not Litestar's format.
        logging_config=None,
        # Every body but an imported log's (api/routes/logs.py) is a few kilobytes at most.
        request_max_body_size=MAX_BODY_BYTES,
        cors_config=cors_config(configured.cors_origins) if configured.cors_origins else None,
        # The web client (api/play.py) is gzip-compressed for clients that accept it; every other route
        # opts out (an event stream must reach its client as it is written, not buffered).
        compression_config=CompressionConfig(backend="gzip", gzip_compress_level=6, exclude_opt_key=UNCOMPRESSED),
        opt={UNCOMPRESSED: True},
        openapi_config=OpenAPIConfig(
            title="kaiten",
            version=API_VERSION,
            description=API_DESCRIPTION,
            path="/schema",
            render_plugins=render_plugins(),
        ),
    )
    # Around the router (and CORS), not a route's middleware: requests that match no route are logged
    # too, and every answer says how caches may keep it.
    app.asgi_handler = RequestLog(app.asgi_handler, in_flight)
    if services is not None:
        # Whoever handed them in may hand in others before the app's next start: the tests serve each
        # test's services with one app (its creation is 0.13 s of CPU, most of an in-process test's).
        app.state.services = services
    return app
