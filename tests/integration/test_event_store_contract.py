"""The EventStore contract, run against every implementation: in memory, SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from typing import Any

import msgspec
import pytest

from kaiten.adapters.database import create_engine
from kaiten.adapters.memory_store import InMemoryEventStore
from kaiten.adapters.sql_store import SqlEventStore
from kaiten.services.ports import (
    ConcurrencyConflict,
    DuplicateIdempotencyKey,
    EventStore,
    GameSummary,
    NewEvent,
    StoredEvent,
)

START = datetime(2025, 3, 14, 15, 9, 26, 535897, tzinfo=UTC)


class SteppingClock:
    """Each reading is one second after the previous one."""

    def __init__(self) -> None:
        self.current = START

    def now(self) -> datetime:
        self.current += timedelta(seconds=1)
        return self.current


@pytest.fixture(
    params=[
        pytest.param("memory", id="memory"),
        pytest.param("sqlite", id="sqlite"),
        pytest.param("postgres", id="postgres", marks=pytest.mark.postgres),
    ]
)
def store_url(request: pytest.FixtureRequest) -> str | None:
    if request.param == "memory":
        return None
    url: str = request.getfixturevalue(f"{request.param}_url")
    return url


@pytest.fixture
def clock() -> SteppingClock:
    return SteppingClock()


@pytest.fixture
async def store(store_url: str | None, clock: SteppingClock) -> AsyncIterator[EventStore]:
    if store_url is None:
        yield InMemoryEventStore(clock)
        return
    engine = create_engine(store_url)
    try:
        yield SqlEventStore(engine, clock)
    finally:
        await engine.dispose()


def new_stream() -> str:
    # The PostgreSQL database lives for the whole session and events cannot be deleted: every test
    # writes to streams of its own.
    return str(uuid.uuid4())


def event(type_: str, **fields: Any) -> NewEvent:
    return NewEvent(type=type_, data=msgspec.json.encode({"type": type_, **fields}), metadata={"command_id": type_})


def summary(stream_id: str, version: int, **changes: Any) -> GameSummary:
    base = GameSummary(
        game_id=stream_id,
        game="sushi-go",
        status="open",
        version=version,
        players=2,
        options={"rounds": 3},
        seats=[{"seat": 0, "name": "Alice", "player_id": "app-user-17", "bot": None}],
        awaiting=[],
        result=None,
        token_hashes={"0": "ab" * 32},
        created_at=START,
        updated_at=START + timedelta(minutes=version),
    )
    return msgspec.structs.replace(base, **changes)


def versions(events: list[StoredEvent]) -> list[int]:
    return [stored.version for stored in events]


def meaning(stored: StoredEvent) -> tuple[Any, ...]:
    """What must survive storage; data as decoded JSON, since PostgreSQL may reformat the text."""
    return (
        stored.global_position,
        stored.stream_id,
        stored.version,
        stored.type,
        msgspec.json.decode(stored.data),
        stored.metadata,
        stored.recorded_at,
    )


async def test_append_returns_the_stored_events(store: EventStore, clock: SteppingClock) -> None:
    stream = new_stream()
    stored = await store.append(stream, 0, [event("GameCreated", players=2), event("SeatTaken", seat=0)])
    assert versions(stored) == [1, 2]
    assert [e.stream_id for e in stored] == [stream, stream]
    assert [e.type for e in stored] == ["GameCreated", "SeatTaken"]
    assert msgspec.json.decode(stored[0].data) == {"type": "GameCreated", "players": 2}
    assert stored[1].metadata == {"command_id": "SeatTaken"}
    assert stored[0].global_position < stored[1].global_position
    # One append, one moment.
    assert [e.recorded_at for e in stored] == [clock.current, clock.current]


async def test_read_gives_back_what_was_appended(store: EventStore) -> None:
    stream = new_stream()
    first = await store.append(stream, 0, [event("GameCreated"), event("SeatTaken", seat=0)])
    second = await store.append(stream, 2, [event("SeatTaken", seat=1)])
    read = await store.read(stream)
    assert [meaning(e) for e in read] == [meaning(e) for e in first + second]
    assert versions(read) == [1, 2, 3]
    positions = [e.global_position for e in read]
    assert positions == sorted(set(positions))
    assert read[0].recorded_at.tzinfo is not None
    assert read[0].recorded_at.utcoffset() == timedelta(0)


@pytest.mark.parametrize(
    ("after", "limit", "expected"),
    [(0, None, [1, 2, 3, 4]), (2, None, [3, 4]), (0, 2, [1, 2]), (1, 2, [2, 3]), (4, None, []), (1, 0, [])],
)
async def test_read_after_and_limit(store: EventStore, after: int, limit: int | None, expected: list[int]) -> None:
    stream = new_stream()
    await store.append(stream, 0, [event("GameCreated"), event("SeatTaken"), event("SeatTaken")])
    await store.append(stream, 3, [event("GameStarted")])
    assert versions(await store.read(stream, after=after, limit=limit)) == expected


async def test_unknown_stream_reads_empty(store: EventStore) -> None:
    stream = new_stream()
    assert await store.read(stream) == []
    assert await store.read_idempotent(stream, "key") == []
    assert await store.summary(stream) is None


async def test_streams_are_independent(store: EventStore) -> None:
    one, two = new_stream(), new_stream()
    await store.append(one, 0, [event("GameCreated")])
    await store.append(two, 0, [event("GameCreated"), event("SeatTaken")])
    await store.append(one, 1, [event("SeatTaken")])
    assert versions(await store.read(one)) == [1, 2]
    assert versions(await store.read(two)) == [1, 2]
    later = await store.read(one, after=1)
    earlier = await store.read(two)
    assert later[0].global_position > earlier[-1].global_position


@pytest.mark.parametrize("expected_version", [0, 1, 3, 7], ids=["new", "stale", "ahead", "far-ahead"])
async def test_wrong_expected_version_conflicts_and_writes_nothing(store: EventStore, expected_version: int) -> None:
    stream = new_stream()
    await store.append(stream, 0, [event("GameCreated"), event("SeatTaken")], summary(stream, 2))
    with pytest.raises(ConcurrencyConflict) as raised:
        await store.append(stream, expected_version, [event("SeatTaken")], summary(stream, expected_version + 1), "key")
    assert (raised.value.stream_id, raised.value.expected_version) == (stream, expected_version)
    assert versions(await store.read(stream)) == [1, 2]
    assert await store.summary(stream) == summary(stream, 2)
    assert await store.read_idempotent(stream, "key") == []
    # No gap was left and the key is still free: the right version goes through.
    assert versions(await store.append(stream, 2, [event("SeatTaken")], idempotency_key="key")) == [3]


async def test_expected_version_on_a_new_stream_must_be_zero(store: EventStore) -> None:
    stream = new_stream()
    with pytest.raises(ConcurrencyConflict):
        await store.append(stream, 1, [event("SeatTaken")])
    assert await store.read(stream) == []


async def test_duplicate_idempotency_key_writes_nothing(store: EventStore) -> None:
    stream = new_stream()
    await store.append(stream, 0, [event("GameCreated")], summary(stream, 1))
    first = await store.append(stream, 1, [event("CardPicked"), event("CardPicked")], summary(stream, 3), "k1")
    with pytest.raises(DuplicateIdempotencyKey) as raised:
        await store.append(stream, 3, [event("CardPicked")], summary(stream, 4, status="active"), "k1")
    assert (raised.value.stream_id, raised.value.key) == (stream, "k1")
    assert versions(await store.read(stream)) == [1, 2, 3]
    assert await store.summary(stream) == summary(stream, 3)
    # The first answer, for the retry.
    assert [meaning(e) for e in await store.read_idempotent(stream, "k1")] == [meaning(e) for e in first]


async def test_duplicate_idempotency_key_wins_over_a_stale_version(store: EventStore) -> None:
    """A retry arriving after the stream moved on must still find the first answer."""
    stream = new_stream()
    await store.append(stream, 0, [event("GameCreated")], idempotency_key="k1")
    await store.append(stream, 1, [event("SeatTaken")])
    with pytest.raises(DuplicateIdempotencyKey):
        await store.append(stream, 0, [event("GameCreated")], idempotency_key="k1")


async def test_idempotency_keys_belong_to_one_stream(store: EventStore) -> None:
    one, two = new_stream(), new_stream()
    await store.append(one, 0, [event("GameCreated")], idempotency_key="same")
    await store.append(two, 0, [event("GameCreated")], idempotency_key="same")
    assert versions(await store.read_idempotent(two, "same")) == [1]
    assert [e.stream_id for e in await store.read_idempotent(one, "same")] == [one]
    assert await store.read_idempotent(one, "other") == []


async def test_summary_is_upserted_with_each_append(store: EventStore) -> None:
    stream = new_stream()
    created = summary(stream, 1)
    await store.append(stream, 0, [event("GameCreated")], created)
    assert await store.summary(stream) == created
    await store.append(stream, 1, [event("SeatTaken")])
    assert await store.summary(stream) == created
    finished = summary(
        stream,
        4,
        status="finished",
        awaiting=[0, 1],
        seats=[{"seat": 0, "name": "Zoë 🍣", "player_id": None, "bot": "greedy"}],
        result={"scores": [{"seat": 0, "total": 31, "breakdown": {"nigiri": 9}}], "winners": [0]},
        token_hashes={},
        finished_at=START + timedelta(hours=1, microseconds=7),
    )
    await store.append(stream, 2, [event("CardPicked"), event("GameFinished")], finished)
    assert await store.summary(stream) == finished


async def test_a_game_keeps_the_creation_time_of_its_first_summary(store: EventStore) -> None:
    stream = new_stream()
    await store.append(stream, 0, [event("GameCreated")], summary(stream, 1))
    later = summary(stream, 2, created_at=START + timedelta(seconds=5), status="active")
    await store.append(stream, 1, [event("SeatTaken")], later)
    assert await store.summary(stream) == msgspec.structs.replace(later, created_at=START)


async def test_data_round_trips_with_its_meaning(store: EventStore) -> None:
    stream = new_stream()
    fields = {
        "name": "Zoë 🍣 寿司 e\u0301 \u2028",
        "escapes": 'quote " backslash \\ slash / tab \t newline \n',
        "big": 2**70,
        "negative": -(2**63),
        "float": 0.1,
        "nested": {"list": [1, None, True, False, [], {}]},
    }
    metadata = {"actor": "Zoë 寿司", "seat": 3, "causation": None}
    new = NewEvent(type="SeatTaken", data=msgspec.json.encode({"type": "SeatTaken", **fields}), metadata=metadata)
    await store.append(stream, 0, [new])
    (read,) = await store.read(stream)
    assert msgspec.json.decode(read.data) == msgspec.json.decode(new.data)
    assert read.metadata == metadata
    assert read.type == "SeatTaken"


async def test_concurrent_appends_leave_contiguous_versions(store: EventStore) -> None:
    """Writers racing on one stream: every attempt either lands or conflicts, and no version is lost."""
    stream = new_stream()
    await store.append(stream, 0, [event("GameCreated")])
    outcomes: list[str] = []

    async def writer(number: int) -> None:
        for attempt in range(5):
            current = len(await store.read(stream))
            try:
                await store.append(stream, current, [event("CardPicked", writer=number, attempt=attempt)])
            except ConcurrencyConflict:
                outcomes.append("conflict")
            else:
                outcomes.append("appended")

    await asyncio.gather(*(writer(number) for number in range(12)))
    read = await store.read(stream)
    assert len(outcomes) == 60
    assert versions(read) == list(range(1, outcomes.count("appended") + 2))


@pytest.mark.parametrize(
    ("expected_version", "events", "version_of_summary", "game_id"),
    [
        (-1, [event("GameCreated")], None, None),
        (0, [], None, None),
        (0, [event("GameCreated")], 2, None),
        (0, [event("GameCreated")], 1, "another-game"),
    ],
    ids=["negative-version", "no-events", "summary-version", "summary-of-another-game"],
)
async def test_programming_errors_are_refused(
    store: EventStore,
    expected_version: int,
    events: list[NewEvent],
    version_of_summary: int | None,
    game_id: str | None,
) -> None:
    stream = new_stream()
    game_summary = None
    if version_of_summary is not None:
        game_summary = summary(stream, version_of_summary, game_id=game_id or stream)
    with pytest.raises(ValueError):
        await store.append(stream, expected_version, events, game_summary)
    assert await store.read(stream) == []
    assert await store.summary(stream) is None


async def test_negative_limit_is_refused(store: EventStore) -> None:
    with pytest.raises(ValueError):
        await store.read(new_stream(), limit=-1)
