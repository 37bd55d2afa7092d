"""Deadline rows: written by the append that sets them, claimed once, moved back by a claim's lease;
the same contract in memory, on SQLite and on PostgreSQL."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator
from datetime import timedelta

import pytest

from kaiten.adapters.database import create_engine
from kaiten.adapters.deadlines import InMemoryDeadlines, SqlDeadlines
from kaiten.adapters.memory_store import InMemoryEventStore
from kaiten.adapters.sql_store import SqlEventStore
from kaiten.services.ports import ConcurrencyConflict, Deadlines, EventStore
from tests.integration.test_event_store_contract import START, event, summary

LEASE = timedelta(seconds=30)
#: Far later than any deadline another test of the session (on the same database) writes.
LATER = START + timedelta(days=3650)


@pytest.fixture(
    params=[
        pytest.param("memory", id="memory"),
        pytest.param("sqlite", id="sqlite"),
        pytest.param("postgres", id="postgres", marks=pytest.mark.postgres),
    ]
)
async def stores(request: pytest.FixtureRequest) -> AsyncIterator[tuple[EventStore, Deadlines]]:
    if request.param == "memory":
        store = InMemoryEventStore()
        yield store, InMemoryDeadlines(store)
        return
    engine = create_engine(request.getfixturevalue(f"{request.param}_url"))
    try:
        yield SqlEventStore(engine), SqlDeadlines(engine)
    finally:
        await engine.dispose()


async def test_an_append_sets_replaces_and_removes_its_games_deadline(stores: tuple[EventStore, Deadlines]) -> None:
    store, deadlines = stores
    game = str(uuid.uuid4())
    due = LATER + timedelta(seconds=5)
    await store.append(game, 0, [event("GameCreated")], summary(game, 1, wake_at=due))
    assert (await store.summary(game)).wake_at == due  # type: ignore[union-attr]
    assert game not in await deadlines.claim(due - timedelta(seconds=1), LEASE, 100)
    assert game in await deadlines.claim(due, LEASE, 100)
    assert game not in await deadlines.claim(due + timedelta(seconds=29), LEASE, 100), "claimed for its lease"
    assert game in await deadlines.claim(due + timedelta(seconds=30), LEASE, 100), "claimed again after it"
    later = due + timedelta(minutes=5)
    await store.append(game, 1, [event("SeatTaken")], summary(game, 2, wake_at=later))
    assert game not in await deadlines.claim(later - timedelta(seconds=1), LEASE, 100)
    await store.append(game, 2, [event("SeatTaken")], summary(game, 3, wake_at=None))
    assert game not in await deadlines.claim(later + timedelta(days=1), LEASE, 100)


async def test_a_refused_append_leaves_the_deadline_alone(stores: tuple[EventStore, Deadlines]) -> None:
    store, deadlines = stores
    game = str(uuid.uuid4())
    due = LATER + timedelta(hours=1)
    await store.append(game, 0, [event("GameCreated")], summary(game, 1, wake_at=due))
    with pytest.raises(ConcurrencyConflict):
        await store.append(game, 0, [event("GameCreated")], summary(game, 1, wake_at=None))
    assert game in await deadlines.claim(due, LEASE, 100)


async def test_reschedule_moves_only_the_version_it_names(stores: tuple[EventStore, Deadlines]) -> None:
    store, deadlines = stores
    game = str(uuid.uuid4())
    due = LATER + timedelta(hours=2)
    await store.append(game, 0, [event("GameCreated")], summary(game, 1, wake_at=due))
    await deadlines.reschedule(game, 0, due + timedelta(days=1))
    await deadlines.reschedule(game, 1, due + timedelta(minutes=1))
    assert game not in await deadlines.claim(due, LEASE, 100)
    assert game in await deadlines.claim(due + timedelta(minutes=1), LEASE, 100)
    await deadlines.reschedule(game, 1, None)
    assert game not in await deadlines.claim(due + timedelta(days=2), LEASE, 100)


async def test_a_claim_given_back_is_due_again_unless_the_game_moved_since(
    stores: tuple[EventStore, Deadlines],
) -> None:
    store, deadlines = stores
    given_back, moved = str(uuid.uuid4()), str(uuid.uuid4())
    due = LATER + timedelta(hours=3)
    for game in (given_back, moved):
        await store.append(game, 0, [event("GameCreated")], summary(game, 1, wake_at=due))
    assert {given_back, moved} <= set(await deadlines.claim(due, LEASE, 100))
    # The process acted on `moved` before it stopped: the append wrote the game's next deadline.
    await store.append(moved, 1, [event("SeatTaken")], summary(moved, 2, wake_at=due + timedelta(minutes=5)))
    for game in (given_back, moved):
        await deadlines.release(game, due + LEASE)
    again = await deadlines.claim(due + timedelta(seconds=1), LEASE, 100)
    assert given_back in again and moved not in again


async def test_an_append_to_a_claimed_game_leaves_the_claim_to_the_process_that_holds_it(
    stores: tuple[EventStore, Deadlines],
) -> None:
    """A person's pick while the bot thinks makes the game due at once: no scheduler claims it again
    (and searches the same decision beside the first) before the claim is given back."""
    store, deadlines = stores
    game = str(uuid.uuid4())
    due = LATER + timedelta(hours=4)
    await store.append(game, 0, [event("GameCreated")], summary(game, 1, wake_at=due))
    assert game in await deadlines.claim(due, LEASE, 100)
    await store.append(game, 1, [event("CardPicked")], summary(game, 2, wake_at=due))
    soon = due + timedelta(seconds=1)
    assert game not in await deadlines.claim(soon, LEASE, 100), "claimed again while the first claim lasts"
    await deadlines.release(game, due + LEASE)
    assert game in await deadlines.claim(soon, LEASE, 100), "given back, the game is due as the append left it"


async def test_a_claim_that_ran_out_is_not_given_back_by_its_first_holder(stores: tuple[EventStore, Deadlines]) -> None:
    store, deadlines = stores
    game = str(uuid.uuid4())
    due = LATER + timedelta(hours=5)
    await store.append(game, 0, [event("GameCreated")], summary(game, 1, wake_at=due))
    assert game in await deadlines.claim(due, LEASE, 100)
    assert game in await deadlines.claim(due + LEASE, LEASE, 100), "the first claim ran out: another process's"
    await deadlines.release(game, due + LEASE)
    assert game not in await deadlines.claim(due + LEASE + timedelta(seconds=1), LEASE, 100)
    await deadlines.release(game, due + 2 * LEASE)
    assert game in await deadlines.claim(due + LEASE + timedelta(seconds=1), LEASE, 100)


async def test_owed_counts_the_due_games_nobody_acts_on(own_database_url: str) -> None:
    """Counting looks at every game, so it gets a database of its own."""
    engine = create_engine(own_database_url)
    try:
        store, deadlines = SqlEventStore(engine), SqlDeadlines(engine)
        games = [str(uuid.uuid4()) for _ in range(3)]
        for game in games:
            await store.append(game, 0, [event("GameCreated")], summary(game, 1, wake_at=START))
        assert await deadlines.owed(START) == 3
        [claimed] = await deadlines.claim(START, LEASE, 1)
        await store.append(claimed, 1, [event("CardPicked")], summary(claimed, 2, wake_at=START))
        assert await deadlines.owed(START) == 2, "a claimed game is acted on, even made due again"
        assert await deadlines.owed(START + LEASE) == 3, "its claim ran out"
        await deadlines.release(claimed, START + LEASE)
        assert await deadlines.owed(START) == 3
    finally:
        await engine.dispose()


@pytest.mark.postgres
async def test_claims_at_once_on_postgresql_never_share_a_game(postgres_url: str) -> None:
    engine = create_engine(postgres_url)
    try:
        store, deadlines = SqlEventStore(engine), SqlDeadlines(engine)
        due = LATER + timedelta(days=1)
        games = [str(uuid.uuid4()) for _ in range(12)]
        for game in games:
            await store.append(game, 0, [event("GameCreated")], summary(game, 1, wake_at=due))
        claims = await asyncio.gather(*(deadlines.claim(due, LEASE, 3) for _ in range(8)))
        claimed = [game for claim in claims for game in claim if game in games]
        assert sorted(claimed) == sorted(games)
    finally:
        await engine.dispose()


async def test_games_without_a_deadline_are_adopted_once_with_their_version(own_database_url: str) -> None:
    """Adopting looks at every game, so it gets a database of its own."""
    engine = create_engine(own_database_url)
    try:
        store, deadlines = SqlEventStore(engine), SqlDeadlines(engine)
        playing, scheduled, over = (str(uuid.uuid4()) for _ in range(3))
        await store.append(playing, 0, [event("GameCreated")], summary(playing, 1))
        await store.append(playing, 1, [event("GameStarted")], summary(playing, 2, status="active"))
        await store.append(scheduled, 0, [event("GameCreated")], summary(scheduled, 1, wake_at=LATER))
        await store.append(over, 0, [event("GameCreated")], summary(over, 1, status="abandoned"))
        assert await deadlines.adopt(START) == 1
        assert await deadlines.adopt(START) == 0, "once"
        assert await deadlines.claim(START, LEASE, 100) == [playing]
        # Adopted at the game's version: the wake that follows can move it.
        await deadlines.reschedule(playing, 2, LATER + timedelta(days=1))
        assert playing not in await deadlines.claim(LATER, LEASE, 100)
    finally:
        await engine.dispose()
