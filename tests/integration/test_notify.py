"""Notifiers: appends are announced when they commit and never when they roll back, to every subscriber
(in memory and on SQLite through the LocalNotifier, on PostgreSQL through LISTEN/NOTIFY).

Absence is never awaited with a timer: a notice that must not come is shown missing by the one that
comes after it, since notices arrive in commit order. Every wait is bounded, so a lost notice fails
the test instead of hanging it.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator, Collection
from dataclasses import dataclass
from datetime import UTC, datetime

import msgspec
import psycopg
import pytest
import sqlalchemy as sa
from psycopg.rows import TupleRow
from sqlalchemy.ext.asyncio import AsyncEngine

from kaiten.adapters import notify
from kaiten.adapters.database import create_engine
from kaiten.adapters.memory_store import InMemoryEventStore
from kaiten.adapters.notify import LocalNotifier, PostgresNotifier, notice_payload, parse_payload
from kaiten.adapters.sql_store import SqlEventStore
from kaiten.adapters.webhook_store import SqlWebhookStore
from kaiten.services.ports import (
    DELIVERIES_QUEUED,
    PROJECTED_EVENTS,
    RESYNC,
    AppendNotice,
    ConcurrencyConflict,
    DuplicateIdempotencyKey,
    EventStore,
    NewEvent,
    OutboxMessage,
    WebhookRecord,
)

#: Small, so that a subscriber overflows after a few appends.
CAPACITY = 4
#: Only ever reached when a notice is lost: the test then fails instead of hanging.
WAIT_SECONDS = 10


@dataclass
class Notified:
    store: EventStore
    notifier: LocalNotifier | PostgresNotifier
    #: The store's database (None in memory).
    engine: AsyncEngine | None = None


@pytest.fixture(
    params=[
        pytest.param("memory", id="memory"),
        pytest.param("sqlite", id="sqlite"),
        pytest.param("postgres", id="postgres", marks=pytest.mark.postgres),
    ]
)
async def notified(request: pytest.FixtureRequest) -> AsyncIterator[Notified]:
    """A store and the notifier that hears its appends, running."""
    if request.param == "memory":
        local = LocalNotifier(CAPACITY)
        async with local.running():
            yield Notified(InMemoryEventStore(notifier=local), local)
        return
    url: str = request.getfixturevalue(f"{request.param}_url")
    engine = create_engine(url)
    notifier: LocalNotifier | PostgresNotifier
    if request.param == "postgres":
        notifier = PostgresNotifier(url, CAPACITY)
        store = SqlEventStore(engine)
    else:
        notifier = LocalNotifier(CAPACITY)
        store = SqlEventStore(engine, notifier=notifier)
    try:
        async with notifier.running():
            yield Notified(store, notifier, engine)
    finally:
        await engine.dispose()


def new_stream() -> str:
    return str(uuid.uuid4())


def event(type_: str) -> NewEvent:
    return NewEvent(type=type_, data=msgspec.json.encode({"type": type_}))


async def next_notice(notices: AsyncIterator[AppendNotice], streams: Collection[str] | None = None) -> AppendNotice:
    """The next notice (of one of `streams`, when given: the PostgreSQL database is shared by the session)."""
    async with asyncio.timeout(WAIT_SECONDS):
        async for notice in notices:
            if streams is None or notice.stream_id in streams or notice == RESYNC:
                return notice
    raise AssertionError("the subscription ended")


async def test_a_committed_append_is_announced_with_its_last_version_and_is_readable(notified: Notified) -> None:
    stream = new_stream()
    async with notified.notifier.subscribe_to(stream) as notices:
        await notified.store.append(stream, 0, [event("GameCreated"), event("SeatTaken")])
        assert await next_notice(notices) == AppendNotice(stream, 2)
        # Heard means committed: whoever reads on hearing it finds the events.
        assert [e.version for e in await notified.store.read(stream)] == [1, 2]
        await notified.store.append(stream, 2, [event("SeatTaken")])
        assert await next_notice(notices) == AppendNotice(stream, 3)


@pytest.mark.parametrize("notified", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)], indirect=True)
async def test_an_append_that_queues_webhook_deliveries_says_so_after_its_own_notice(notified: Notified) -> None:
    """The delivery workers wake on that notice alone, not after every append (most queue nothing)."""
    assert notified.engine is not None
    hooked, unhooked = new_stream(), new_stream()

    def turn(version: int, moment: str = "turn") -> list[OutboxMessage]:
        return [OutboxMessage(event=moment, version=version, body=b"{}")]

    heard = {hooked, unhooked, DELIVERIES_QUEUED.stream_id}
    async with notified.notifier.subscribe() as notices:
        # Subscribed first and heard before going on: on PostgreSQL the notice of an append committed
        # just before subscribing may still be on its way to the listener, and be relayed after.
        await notified.store.append(hooked, 0, [event("GameCreated")])
        assert await next_notice(notices, heard) == AppendNotice(hooked, 1)
        hook = WebhookRecord(str(uuid.uuid4()), hooked, 0, "http://127.0.0.1/hook", ["turn"], datetime.now(UTC))
        await SqlWebhookStore(notified.engine).add(hook, "secret-of-sixteen-chars")
        await notified.store.append(unhooked, 0, [event("GameCreated")], outbox=turn(1))  # nobody hooked it
        await notified.store.append(hooked, 1, [event("SeatTaken")], outbox=turn(2, "finished"))  # not hooked
        await notified.store.append(hooked, 2, [event("SeatTaken")])
        # Notices come in commit order (read a few at a time: the subscription holds CAPACITY): no
        # DELIVERIES_QUEUED among the first three is its absence.
        assert [await next_notice(notices, heard) for _ in range(3)] == [
            AppendNotice(unhooked, 1),
            AppendNotice(hooked, 2),
            AppendNotice(hooked, 3),
        ]
        await notified.store.append(hooked, 3, [event("SeatTaken")], outbox=turn(4))
        await notified.store.append(unhooked, 1, [event("SeatTaken")])
        assert [await next_notice(notices, heard) for _ in range(3)] == [
            AppendNotice(hooked, 4),
            DELIVERIES_QUEUED,
            AppendNotice(unhooked, 2),
        ]


@pytest.mark.parametrize("notified", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)], indirect=True)
async def test_an_append_of_events_the_projections_apply_says_so_beside_its_own_notice(notified: Notified) -> None:
    """The catch-up projections wake on that notice alone, not after every pick of every game."""
    assert notified.engine is not None
    store = SqlEventStore(
        notified.engine,
        notifier=notified.notifier if isinstance(notified.notifier, LocalNotifier) else None,
        projected={"GameCreated", "GameFinished"},
    )
    stream = new_stream()
    heard = {stream, PROJECTED_EVENTS.stream_id}
    async with notified.notifier.subscribe() as notices:
        await store.append(stream, 0, [event("GameCreated")])
        assert {await next_notice(notices, heard) for _ in range(2)} == {AppendNotice(stream, 1), PROJECTED_EVENTS}
        await store.append(stream, 1, [event("PickMade"), event("PickMade")])
        await store.append(stream, 3, [event("PickMade"), event("GameFinished")])
        # In commit order: nothing beside the picks' own notice, then both (in either order) for the end.
        assert await next_notice(notices, heard) == AppendNotice(stream, 3)
        assert {await next_notice(notices, heard) for _ in range(2)} == {AppendNotice(stream, 5), PROJECTED_EVENTS}
        await store.append(stream, 5, [event("PickMade")])
        assert await next_notice(notices, heard) == AppendNotice(stream, 6)


async def test_appends_that_fail_announce_nothing(notified: Notified) -> None:
    failing, later = new_stream(), new_stream()
    async with notified.notifier.subscribe() as notices:
        # Heard before going on, so that no notice of it can be on its way while the others fail.
        await notified.store.append(failing, 0, [event("GameCreated")], idempotency_key="once")
        assert await next_notice(notices, {failing, later}) == AppendNotice(failing, 1)
        with pytest.raises(ConcurrencyConflict):
            await notified.store.append(failing, 0, [event("GameCreated")])
        # The events go in (on PostgreSQL with their NOTIFY) before the key is refused: it all rolls back.
        with pytest.raises(DuplicateIdempotencyKey):
            await notified.store.append(failing, 1, [event("SeatTaken")], idempotency_key="once")
        await notified.store.append(later, 0, [event("GameCreated")])
        assert await next_notice(notices, {failing, later}) == AppendNotice(later, 1)


async def test_every_subscriber_hears_the_appends_it_follows(notified: Notified) -> None:
    one, two = new_stream(), new_stream()
    notifier = notified.notifier
    async with (
        notifier.subscribe() as first,
        notifier.subscribe() as second,
        notifier.subscribe_to(one) as follows_one,
        notifier.subscribe_to(two) as follows_two,
    ):
        await notified.store.append(one, 0, [event("GameCreated")])
        await notified.store.append(two, 0, [event("GameCreated")])
        both = {one, two}
        for everything in (first, second):
            assert await next_notice(everything, both) == AppendNotice(one, 1)
            assert await next_notice(everything, both) == AppendNotice(two, 1)
        assert await next_notice(follows_one) == AppendNotice(one, 1)
        # Its first notice is the later append: it never heard of the other stream.
        assert await next_notice(follows_two) == AppendNotice(two, 1)


async def test_a_slow_subscriber_is_told_to_resync_and_holds_up_nobody(notified: Notified) -> None:
    stream = new_stream()
    notifier = notified.notifier
    async with notifier.subscribe_to(stream) as slow, notifier.subscribe_to(stream) as fast:
        for version in range(1, 2 * CAPACITY + 2):
            await notified.store.append(stream, version - 1, [event("SeatTaken")])
            assert await next_notice(fast) == AppendNotice(stream, version)
        # Each overflow replaced what it held with RESYNC: 1..4, then RESYNC 6 7 8, then RESYNC alone.
        assert await next_notice(slow) == RESYNC
        await notified.store.append(stream, 2 * CAPACITY + 1, [event("SeatTaken")])
        assert await next_notice(slow) == AppendNotice(stream, 2 * CAPACITY + 2)


def test_payloads_round_trip_and_foreign_ones_are_refused() -> None:
    stream = new_stream()
    assert parse_payload(notice_payload(stream, 42)) == AppendNotice(stream, 42)
    for foreign in ("", "hello", f"{stream}:", f"{stream}:x", ":3"):
        with pytest.raises(ValueError):
            parse_payload(foreign)


async def test_subscriptions_end_when_the_notifier_stops_and_leave_nothing_behind() -> None:
    notifier = LocalNotifier()
    async with notifier.running(), notifier.subscribe() as everything, notifier.subscribe_to(new_stream()) as one:
        assert notifier.subscribers == 2
    assert [notice async for notice in everything] == []
    assert [notice async for notice in one] == []
    assert notifier.subscribers == 0


@pytest.mark.postgres
async def test_the_listener_reconnects_and_tells_subscribers_to_resync(postgres_url: str) -> None:
    notifier = PostgresNotifier(postgres_url)
    engine = create_engine(postgres_url)
    store = SqlEventStore(engine)
    stream = new_stream()
    try:
        async with notifier.running(), notifier.subscribe_to(stream) as notices:
            async with engine.connect() as connection:
                terminated = await connection.scalar(
                    sa.text(
                        "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
                        " WHERE application_name = 'kaiten-notifier' AND datname = current_database()"
                    )
                )
            assert terminated == 1
            # Appends committed while it was away were never heard: it says so once it listens again.
            assert await next_notice(notices) == RESYNC
            await store.append(stream, 0, [event("GameCreated")])
            assert await next_notice(notices) == AppendNotice(stream, 1)
    finally:
        await engine.dispose()


@pytest.mark.postgres
async def test_no_notice_is_lost_across_the_listeners_health_checks(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The listener stops watching its socket for each check's query: what comes meanwhile is heard too,
    # and so is what that query read past its own answer.
    monkeypatch.setattr(notify, "HEALTH_CHECK_SECONDS", 0.002)
    notifier = PostgresNotifier(postgres_url)
    engine = create_engine(postgres_url)
    store = SqlEventStore(engine)
    streams = [new_stream() for _ in range(4)]
    appends = 30

    async def hear_them_all(notices: AsyncIterator[AppendNotice]) -> list[AppendNotice]:
        return [await next_notice(notices, streams) for _ in range(appends * len(streams))]

    try:
        async with notifier.running(), notifier.subscribe() as notices:
            hearing = asyncio.create_task(hear_them_all(notices))
            for version in range(1, appends + 1):
                await asyncio.gather(*(store.append(stream, version - 1, [event("Picked")]) for stream in streams))
            heard = await hearing
    finally:
        await engine.dispose()
    assert RESYNC not in heard
    for stream in streams:
        assert [notice.version for notice in heard if notice.stream_id == stream] == list(range(1, appends + 1))


async def test_a_listener_whose_database_is_down_lets_the_server_start_and_stop() -> None:
    # Port 1 refuses connections at once: the listener keeps retrying in the background.
    notifier = PostgresNotifier("postgresql+psycopg://postgres@127.0.0.1:1/kaiten")
    async with notifier.running(), notifier.subscribe() as notices:
        assert not notifier.listening
    assert [notice async for notice in notices] == []


@pytest.mark.postgres
async def test_a_listener_that_ignores_its_cancellation_still_lets_the_notifier_stop(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Whatever keeps the listener from ending when cancelled (a wait that swallows the cancellation, a
    # round trip to a server that does not answer), the stop closes its connection under it and returns.
    # The listener swallows the stop's cancellation only, so the test's own timeout can still end it.
    swallowed = 0

    async def stubborn_relay(connection: psycopg.AsyncConnection[TupleRow]) -> None:
        nonlocal swallowed
        while True:
            try:
                await connection.execute("SELECT pg_sleep(30)")
            except asyncio.CancelledError:
                swallowed += 1
                if swallowed > 1:
                    raise

    notifier = PostgresNotifier(postgres_url)
    monkeypatch.setattr(notifier, "_relay", stubborn_relay)
    monkeypatch.setattr(notify, "STOP_SECONDS", 0.5)
    async with asyncio.timeout(WAIT_SECONDS):
        async with notifier.running():
            assert notifier.listening
    assert swallowed == 1
    assert not notifier.listening
