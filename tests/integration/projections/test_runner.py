"""The projection runner on SQLite and PostgreSQL: batches with their checkpoint, resuming, failing,
taking turns with another runner, waking on notices, and reporting its lag."""

from __future__ import annotations

import asyncio
import uuid
from collections import Counter

import msgspec
import pytest
import sqlalchemy as sa
from sqlalchemy.exc import OperationalError
from sqlalchemy.ext.asyncio import AsyncEngine

from kaiten.adapters.database import create_engine
from kaiten.adapters.notify import LocalNotifier
from kaiten.adapters.projections.history import HistoryProjection
from kaiten.adapters.projections.log import START, GlobalLog
from kaiten.adapters.projections.rebuild import rebuild
from kaiten.adapters.projections.registry import build_projections
from kaiten.adapters.projections.runner import ProjectionRunner, running
from kaiten.adapters.schema import events, match_history, projection_checkpoints
from kaiten.adapters.sql_store import SqlEventStore
from kaiten.api.bootstrap import bootstrap
from kaiten.services.commands import Act, CreateGame, GetTable, ListLegalCommands, NewSeat
from kaiten.services.ports import BUILTIN_APP, PROJECTED_EVENTS, AppendNotice, NewEvent
from tests.integration.projections.games import bot_games, games_service
from tests.integration.projections.interrupted import Interrupted
from tests.integration.projections.tables import snapshot
from tests.projecting import SETTLE_SECONDS, settle

#: Small batches, so that games straddle batches.
BATCH = 7
#: A batch larger than any log these tests write.
REST_OF_THE_LOG = 100_000


class Broken(OperationalError):
    """The database went away: no event's fault (the batch is applied again, nothing set aside)."""

    def __init__(self) -> None:
        super().__init__("SELECT 1", {}, OSError("connection lost"))


class BreaksMidBatch(Interrupted):
    """A projection that fails after applying its batch, before the checkpoint moves: a crash's effect."""

    async def interrupt(self) -> None:
        raise Broken()


async def count(engine: AsyncEngine, table: sa.Table) -> int:
    async with engine.connect() as connection:
        return (await connection.execute(sa.select(sa.func.count()).select_from(table))).scalar_one()


async def test_catch_up_applies_the_log_and_resumes_after_its_checkpoint(fresh_engine: AsyncEngine) -> None:
    games = games_service(fresh_engine)
    await bot_games(games, 10)
    runner = ProjectionRunner(fresh_engine, HistoryProjection(fresh_engine.dialect.name), batch_size=BATCH)

    first = await settle(runner)
    assert first == await count(fresh_engine, events)
    assert await count(fresh_engine, match_history) == 10
    assert (await runner.lag()).events == 0

    await bot_games(games, 5, seed=100)
    assert (await runner.lag()).events == await count(fresh_engine, events) - first
    assert await settle(runner) == await count(fresh_engine, events) - first
    assert await count(fresh_engine, match_history) == 15
    async with fresh_engine.connect() as connection:
        applied = (await connection.execute(sa.select(projection_checkpoints.c.events))).scalar_one()
    assert applied == await count(fresh_engine, events)


async def test_a_batch_that_fails_midway_leaves_nothing_and_is_applied_again(fresh_engine: AsyncEngine) -> None:
    await bot_games(games_service(fresh_engine), 12)
    for projection in build_projections(fresh_engine.dialect.name):
        runner = ProjectionRunner(fresh_engine, projection, batch_size=BATCH * 20)
        await runner.run_batch()
        before = await snapshot(fresh_engine, projection)
        # The failing batch reads the rest of the log, so that it holds events every projection
        # handles (the last game's end among them) whatever the games' salted deals made of the first.
        failing = ProjectionRunner(fresh_engine, BreaksMidBatch(projection), batch_size=REST_OF_THE_LOG)
        for _ in range(3):
            with pytest.raises(Broken):
                await failing.run_batch()
            assert await snapshot(fresh_engine, projection) == before
        await settle(runner)
        incremental = await snapshot(fresh_engine, projection)
        await rebuild(fresh_engine, projection)
        assert incremental == await snapshot(fresh_engine, projection)


async def test_two_runners_of_one_projection_take_turns_and_apply_each_event_once(
    fresh_engine: AsyncEngine, own_database_url: str
) -> None:
    """Two serving processes: each runner has its own connection pool."""
    games = games_service(fresh_engine)
    other_engine = create_engine(own_database_url)
    try:
        pairs = [
            (ProjectionRunner(fresh_engine, p, batch_size=BATCH), ProjectionRunner(other_engine, p, batch_size=BATCH))
            for p in build_projections(fresh_engine.dialect.name)
        ]

        read: Counter[ProjectionRunner] = Counter()

        async def until_caught_up(runner: ProjectionRunner) -> None:
            while (await runner.lag()).events:
                read[runner] += await runner.catch_up()

        for round_ in range(3):
            await bot_games(games, 6, seed=round_ * 10)
            await asyncio.gather(*(until_caught_up(runner) for pair in pairs for runner in pair))
        assert all(read[runner] for pair in pairs for runner in pair), "both runners applied batches"
        for first, _ in pairs:
            together = await snapshot(fresh_engine, first.projection)
            await rebuild(fresh_engine, first.projection)
            assert together == await snapshot(fresh_engine, first.projection)
    finally:
        await other_engine.dispose()


async def test_a_notice_of_projected_events_wakes_the_runner_long_before_its_next_poll(
    fresh_engine: AsyncEngine,
) -> None:
    games = games_service(fresh_engine)
    notifier = LocalNotifier()
    runner = ProjectionRunner(
        fresh_engine, HistoryProjection(fresh_engine.dialect.name), notifier=notifier, poll_seconds=3600
    )

    async def history_has(games_count: int) -> None:
        while await count(fresh_engine, match_history) < games_count:
            await asyncio.sleep(0.01)

    await bot_games(games, 1)
    async with notifier.running(), running([runner]):
        # Its append is noticed too, as every such append is: on a shared server another session's
        # open transaction may hold its events back from the runner's first read, and unnoticed they
        # would then wait for the hourly poll.
        async with asyncio.timeout(10):
            while not notifier.subscribers:
                await asyncio.sleep(0.01)
        notifier.publish(PROJECTED_EVENTS)
        await asyncio.wait_for(history_has(1), 10)
        # The runner now waits for a notice; only one can wake it before the hour is up.
        await bot_games(games, 1, seed=1)
        notifier.publish(PROJECTED_EVENTS)
        await asyncio.wait_for(history_has(2), 10)


async def whole_log_readable(engine: AsyncEngine) -> None:
    """Waits until a reader of the log can read every event appended so far."""
    log = GlobalLog(engine.dialect.name)
    async with asyncio.timeout(SETTLE_SECONDS):
        while True:
            async with engine.connect() as connection:
                readable = len(await log.read(connection, START, REST_OF_THE_LOG))
            if readable == await count(engine, events):
                return
            await asyncio.sleep(0.02)


async def test_a_games_own_notice_leaves_the_runner_to_its_poll(fresh_engine: AsyncEngine) -> None:
    """A game's picks move no projection: the runner does not read the log after each of them."""
    games = games_service(fresh_engine)
    notifier = LocalNotifier()
    runner = ProjectionRunner(
        fresh_engine, HistoryProjection(fresh_engine.dialect.name), notifier=notifier, poll_seconds=3600
    )
    await bot_games(games, 1)
    # Else the first catch-up could stop short of the game's end, which another test's open transaction
    # held back (PostgreSQL), and the runner would not look again before its poll, an hour away.
    await whole_log_readable(fresh_engine)
    async with notifier.running(), running([runner]):
        # Its first catch-up reads the first game to its end (the game's row comes with the game's
        # creation: not a sign of the end); from then on the runner waits to be woken.
        async with asyncio.timeout(10):
            while (await runner.lag()).events > 0:
                await asyncio.sleep(0.01)
        read = await count(fresh_engine, events)
        assert await count(fresh_engine, match_history) == 1
        [game_id] = await bot_games(games, 1, seed=1)
        notifier.publish(AppendNotice(stream_id=game_id, version=1))
        # Woken, the runner would read the game at once (the test above): a while without it is long.
        await asyncio.sleep(0.5)
        assert await count(fresh_engine, match_history) == 1
        assert (await runner.lag()).events == await count(fresh_engine, events) - read


async def test_a_serving_process_tells_its_projections_of_a_games_start_and_end_alone(database_url: str) -> None:
    """bootstrap gives its store the types its projections apply: a game's creation and its last
    pick say so beside their own notices, the picks between do not."""
    services = bootstrap(database_url, open_app=BUILTIN_APP)
    games = services.games
    try:
        await services.start()
        heard = list[AppendNotice]()
        async with services.notifier.subscribe() as notices:
            created = await games.create(CreateGame("sushi-go", 2, seats=(NewSeat(name="a"), NewSeat(name="b"))))

            async def until(notice: AppendNotice) -> None:
                async with asyncio.timeout(10):
                    async for one in notices:
                        if one == notice:
                            return
                        if one.stream_id in (created.id, PROJECTED_EVENTS.stream_id):
                            heard.append(one)

            version = created.version
            while (await games.view(GetTable(created.id))).status != "finished":
                for token in created.tokens.values():
                    legal = await games.legal_commands(ListLegalCommands(created.id, token))
                    if legal.commands:
                        body = msgspec.json.encode(legal.commands[0])
                        version = (await games.act(Act(created.id, token, body))).version
            # Notices come in commit order: whatever the game's last append sent comes before this one's.
            sentinel = str(uuid.uuid4())
            local = services.notifier if isinstance(services.notifier, LocalNotifier) else None
            assert services.engine is not None
            await SqlEventStore(services.engine, notifier=local).append(sentinel, 0, [NewEvent("Sentinel", b"{}")])
            await until(AppendNotice(sentinel, 1))
        # Each append's notices come together, in either order: the first and the last append's two.
        assert set(heard[:2]) == {AppendNotice(created.id, created.version), PROJECTED_EVENTS}
        assert set(heard[-2:]) == {AppendNotice(created.id, version), PROJECTED_EVENTS}
        assert PROJECTED_EVENTS not in heard[2:-2]
        assert len(heard[2:-2]) > 10
    finally:
        await services.close()


async def test_lag_is_the_events_not_applied_yet_and_the_age_of_the_oldest(fresh_engine: AsyncEngine) -> None:
    runner = ProjectionRunner(fresh_engine, HistoryProjection(fresh_engine.dialect.name))
    assert (await runner.lag()).events == 0
    assert (await runner.lag()).seconds == 0
    await bot_games(games_service(fresh_engine), 2)
    await asyncio.sleep(0.05)
    lag = await runner.lag()
    assert lag.events == await count(fresh_engine, events)
    assert lag.seconds > 0
    await settle(runner)
    assert await runner.lag() == type(lag)(events=0, seconds=0.0)


@pytest.mark.postgres
async def test_events_held_back_by_an_open_transaction_are_read_soon_after_it_ends(
    fresh_postgres_engine: AsyncEngine,
) -> None:
    """A notice can come before its events are readable (PostgreSQL reads the log only below the
    oldest open transaction, in any database of the cluster): the runner keeps looking often, and
    reads them soon after that transaction ends however long it was open."""
    fresh_engine = fresh_postgres_engine
    games = games_service(fresh_engine)
    notifier = LocalNotifier()
    runner = ProjectionRunner(
        fresh_engine, HistoryProjection(fresh_engine.dialect.name), notifier=notifier, poll_seconds=3600
    )
    async with notifier.running(), running([runner]), fresh_engine.connect() as holder:
        # An open transaction with an id: every event committed after it stays below the horizon.
        await holder.execute(sa.text("SELECT pg_current_xact_id()"))
        await bot_games(games, 1)
        notifier.publish(PROJECTED_EVENTS)
        # Long enough that a wait doubling without bound would next look seconds after the end.
        await asyncio.sleep(7)
        assert await count(fresh_engine, match_history) == 0
        await holder.rollback()
        async with asyncio.timeout(3):
            while await count(fresh_engine, match_history) < 1:
                await asyncio.sleep(0.01)
