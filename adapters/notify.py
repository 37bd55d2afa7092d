"""Notifiers: telling this process's subscribers, and on PostgreSQL every process's, that streams grew.

On PostgreSQL the event store sends `pg_notify(CHANNEL, '<stream_id>:<version>')` inside the append's
transaction, so the notice is delivered when, and only if, the events commit. Each serving process keeps
one connection of its own LISTENing on CHANNEL and hands what it hears to its subscribers. SQLite has a
single process writing, so its store publishes straight to a LocalNotifier after each commit.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager, suppress

import psycopg
from psycopg.conninfo import make_conninfo
from psycopg.pq.abc import PGconn
from psycopg.rows import TupleRow
from sqlalchemy.engine import URL

from kaiten.adapters.database import async_url
from kaiten.adapters.fanout import DEFAULT_CAPACITY, Fanout, Subscription
from kaiten.services.ports import RESYNC, AppendNotice

log = logging.getLogger("kaiten.notify")

CHANNEL = "kaiten_appends"

#: How the listener's connection is named in pg_stat_activity.
APPLICATION_NAME = "kaiten-notifier"

#: An idle listener checks its connection this often: a peer that vanished without closing the socket
#: would otherwise leave it waiting for notifications that never come.
HEALTH_CHECK_SECONDS = 30.0
HEALTH_CHECK_TIMEOUT_SECONDS = 10.0
CONNECT_TIMEOUT_SECONDS = 10

#: The wait before each reconnection attempt doubles from the first to the last.
RECONNECT_DELAYS_SECONDS = (0.1, 10.0)

#: How long a stopping notifier waits for its cancelled listener, then again once it has closed the
#: listener's connection under it: a stop never waits for a network round trip (a health check, a
#: cancelled LISTEN's cancellation request) or the 30 s idle wait of `notifies()`.
STOP_SECONDS = 2.0


def libpq_conninfo(url: URL) -> str:
    """libpq's connection string for a PostgreSQL URL, read as SQLAlchemy's psycopg dialect reads it: a
    URL naming several hosts (`?host=a:5432&host=b:5433&target_session_attrs=read-write`, a failover
    formation) becomes libpq's `host=a,b port=5432,5433`, which libpq tries in turn. (Rendering the URL
    back to a string would keep only the last `host`, and with its port in it.)"""
    _args, parameters = url.get_dialect()().create_connect_args(url)
    return make_conninfo("", **parameters)


def notice_payload(stream_id: str, version: int) -> str:
    return f"{stream_id}:{version}"


def parse_payload(payload: str) -> AppendNotice:
    stream_id, _, version = payload.rpartition(":")
    if not stream_id or not version.isdigit():
        raise ValueError(f"not a '<stream_id>:<version>' notification: {payload!r}")
    return AppendNotice(stream_id=stream_id, version=int(version))


class LocalNotifier:
    """The notifier of one process (SQLite, in memory): the store publishes each committed append."""

    def __init__(self, capacity: int = DEFAULT_CAPACITY) -> None:
        self._fanout = Fanout(capacity)

    def publish(self, notice: AppendNotice) -> None:
        self._fanout.deliver(notice)

    def subscribe(self) -> AbstractAsyncContextManager[Subscription]:
        return self._fanout.subscribe()

    def subscribe_to(self, stream_id: str) -> AbstractAsyncContextManager[Subscription]:
        return self._fanout.subscribe(stream_id)

    @asynccontextmanager
    async def running(self) -> AsyncIterator[None]:
        """Nothing runs in the background; leaving ends the subscriptions (the process stops serving)."""
        try:
            yield
        finally:
            self._fanout.close_all()

    @property
    def subscribers(self) -> int:
        return self._fanout.subscribers


class PostgresNotifier:
    """Relays the NOTIFYs of every process's appends to this process's subscribers.

    One dedicated connection LISTENs while `running()`; when it drops, the notifier reconnects with a
    growing delay and sends RESYNC to every subscriber, because notifications sent meanwhile are lost.
    """

    def __init__(self, database_url: str, capacity: int = DEFAULT_CAPACITY) -> None:
        url = async_url(database_url)
        if url.get_backend_name() != "postgresql":
            raise ValueError(f"PostgresNotifier needs a PostgreSQL URL, not {url.get_backend_name()}")
        # psycopg connects directly, outside SQLAlchemy's pool, to the host the engines would choose.
        self._conninfo = libpq_conninfo(url)
        self._fanout = Fanout(capacity)
        self._listening = False
        self._connection: psycopg.AsyncConnection[TupleRow] | None = None
        self._stopping = False

    def subscribe(self) -> AbstractAsyncContextManager[Subscription]:
        return self._fanout.subscribe()

    def subscribe_to(self, stream_id: str) -> AbstractAsyncContextManager[Subscription]:
        return self._fanout.subscribe(stream_id)

    @property
    def subscribers(self) -> int:
        return self._fanout.subscribers

    @property
    def listening(self) -> bool:
        return self._listening

    @asynccontextmanager
    async def running(self) -> AsyncIterator[None]:
        """Listen in the background until the block exits, then end every subscription."""
        first_attempt = asyncio.Event()
        self._stopping = False
        listener = asyncio.create_task(self._listen(first_attempt), name="kaiten-notifier")
        try:
            # Serve once the first connection is up, so that no append after startup goes unheard; if the
            # database is down, serve anyway: subscribers get RESYNC once it is back.
            await first_attempt.wait()
            yield
        finally:
            await self._stop(listener)
            self._fanout.close_all()

    async def _stop(self, listener: asyncio.Task[None]) -> None:
        """Cancel the listener and wait for it, at most STOP_SECONDS; if it has not ended by then, close its
        connection under it (whatever it waits on fails at once) and wait as long again, then leave it."""
        self._stopping = True
        listener.cancel()
        await asyncio.wait({listener}, timeout=STOP_SECONDS)
        if not listener.done() and self._connection is not None:
            log.warning("notification listener running %.0fs after its stop: closing its connection", STOP_SECONDS)
            self._connection.pgconn.finish()
            await asyncio.wait({listener}, timeout=STOP_SECONDS)
        if not listener.done():
            log.warning("notification listener did not stop; leaving it behind")
        elif not listener.cancelled() and listener.exception() is not None:
            log.error("notification listener failed as it stopped", exc_info=listener.exception())

    async def _listen(self, first_attempt: asyncio.Event) -> None:
        delay, max_delay = RECONNECT_DELAYS_SECONDS
        while not self._stopping:
            try:
                connection = await psycopg.AsyncConnection.connect(
                    self._conninfo,
                    autocommit=True,
                    connect_timeout=CONNECT_TIMEOUT_SECONDS,
                    application_name=APPLICATION_NAME,
                )
                self._connection = connection
                async with connection:
                    connection.add_notify_handler(self._heard)
                    await connection.execute(f"LISTEN {CHANNEL}")
                    self._listening = True
                    first_attempt.set()
                    # Appends committed while nobody listened were never heard: every subscriber reads again.
                    self._fanout.deliver(RESYNC)
                    delay = RECONNECT_DELAYS_SECONDS[0]
                    await self._relay(connection)
            except (psycopg.Error, OSError, TimeoutError) as error:
                log.warning("notification listener lost its connection (%s); reconnecting in %.1fs", error, delay)
            except Exception:
                # A bug must not silence every live stream of the process for good: log it and go on.
                log.exception("notification listener failed; restarting in %.1fs", delay)
            self._listening = False
            self._connection = None
            first_attempt.set()
            await asyncio.sleep(delay)
            delay = min(delay * 2, max_delay)

    def _heard(self, notification: psycopg.Notify) -> None:
        try:
            notice = parse_payload(notification.payload)
        except ValueError:
            log.warning("ignored a notification on %s: %r", CHANNEL, notification.payload)
            return
        self._fanout.deliver(notice)

    async def _relay(self, connection: psycopg.AsyncConnection[TupleRow]) -> None:
        """Hand over each notification as the connection's socket brings it, and check the connection
        with a query every HEALTH_CHECK_SECONDS (notifications that come meanwhile reach `_heard` too,
        through psycopg). A callback on the socket rather than psycopg's `notifies()`, which sets up a
        wait for each notification (a timer, the socket watched and unwatched, its lock): that was a
        twentieth of a person's command's instructions, one notification a command."""
        loop = asyncio.get_running_loop()
        pgconn = connection.pgconn
        socket = pgconn.socket
        while True:
            # What the last query read past its own answer waits in libpq, not in the socket.
            _hand_over(pgconn)
            lost: asyncio.Future[None] = loop.create_future()
            loop.add_reader(socket, _read_notifications, pgconn, lost)
            try:
                with suppress(TimeoutError):
                    async with asyncio.timeout(HEALTH_CHECK_SECONDS):
                        await lost
            finally:
                loop.remove_reader(socket)
            async with asyncio.timeout(HEALTH_CHECK_TIMEOUT_SECONDS):
                await connection.execute("SELECT 1")


def _read_notifications(pgconn: PGconn, lost: asyncio.Future[None]) -> None:
    """What the socket holds read, and each notification handed to the connection's handlers (psycopg's
    own handler decodes it and calls them); `lost` fails when the connection does."""
    try:
        pgconn.consume_input()
    except psycopg.Error as error:
        if not lost.done():
            lost.set_exception(error)
        return
    _hand_over(pgconn)


def _hand_over(pgconn: PGconn) -> None:
    """Each notification libpq has read, to the connection's handlers."""
    handle = pgconn.notify_handler
    while (notification := pgconn.notifies()) is not None:
        if handle is not None:
            handle(notification)
