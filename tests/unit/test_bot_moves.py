"""Bots' moves off the request path (services/bot_moves.py): a person's command appends only its own
events, the bots' moves are made by `Games.wake`, and their thinking is bounded per app and per server."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import msgspec
import pytest

from kaiten.adapters.deadlines import InMemoryDeadlines
from kaiten.adapters.memory_store import InMemoryEventStore
from kaiten.adapters.people import InMemoryPeople
from kaiten.adapters.system import SecureIds
from kaiten.services.bot_moves import BUSY_RETRY_SECONDS, BotChoice, BotLoad, ThreadThinker
from kaiten.services.commands import Act, CreateGame, GetTable, ListLegalCommands, NewSeat
from kaiten.services.games import Games
from kaiten.services.playing import Decided
from kaiten.services.ports import BUILTIN_APP
from kaiten.services.quotas import QuotaExceeded
from kaiten.services.scheduler import DEFAULT_LEASE, Scheduler
from tests.bots import FixedClock, HeldThinker, bots_move, pick_beside_the_held_search


class CountingThinker(ThreadThinker):
    """Thinks as the server's workers do, and says how often, and at what CPU cost."""

    def __init__(self, cpu_seconds: float = 0.0) -> None:
        super().__init__()
        self.decisions = 0
        self.cpu_seconds = cpu_seconds

    async def choose(self, game_id: str, table: object, seat: int, version: int) -> BotChoice:
        choice = await super().choose(game_id, table, seat, version)  # type: ignore[arg-type]
        self.decisions += 1
        return msgspec.structs.replace(choice, cpu_seconds=self.cpu_seconds)


def games_with(thinker: ThreadThinker, clock: FixedClock, quota: int | None = None) -> Games:
    async def quota_of(_app_id: str) -> int | None:
        return quota

    load = BotLoad(thinker.workers, clock.now, quota_of=quota_of)
    # The store records events at the same time the use cases see, so their wake times agree with it.
    store = InMemoryEventStore(clock=clock)
    return Games(store, clock, SecureIds(), people=InMemoryPeople(), bots=thinker, bot_load=load)


async def test_a_persons_command_appends_only_its_own_events_and_the_bots_move_when_woken() -> None:
    thinker = CountingThinker()
    games = games_with(thinker, FixedClock())
    created = await games.create(
        CreateGame("sushi-go", 3, None, 7, [NewSeat(name="Ann"), *[NewSeat(bot="greedy")] * 2])
    )
    assert thinker.decisions == 0, "creating the game made no bot think"
    assert (await games.view(GetTable(created.id))).awaiting == (0, 1, 2)
    await bots_move(games, created.id)
    assert thinker.decisions == 2
    before = await games.view(GetTable(created.id))
    assert before.awaiting == (0,)

    legal = await games.legal_commands(ListLegalCommands(created.id, created.tokens["0"]))
    outcome = await games.act(Act(created.id, created.tokens["0"], msgspec.json.encode(legal.commands[0])))
    stored = await games.store.read(created.id)
    mine = [event for event in stored if event.version > before.version]
    assert outcome.version == stored[-1].version, "the answer's version is the person's append"
    assert all(not event.metadata.get("bot") for event in mine), "no bot moved inside the person's command"
    assert thinker.decisions == 2

    assert (await games.wake(created.id)).fired
    after = await games.store.read(created.id)
    bots = [event for event in after if event.version > outcome.version]
    assert bots and all(event.metadata.get("bot") for event in bots)
    assert {msgspec.json.decode(event.data)["seat"] for event in bots if event.type == "CardPicked"} == {1, 2}


async def test_bots_whose_app_spent_its_cpu_quota_wait_until_the_minute_is_over() -> None:
    clock = FixedClock()
    games = games_with(CountingThinker(cpu_seconds=0.6), clock, quota=1)
    created = await games.create(CreateGame("sushi-go", 2, None, 7, [NewSeat(bot="random"), NewSeat(bot="random")]))
    assert (await games.wake(created.id)).fired, "0 of the app's 1 CPU second spent: both bots think"

    paused = await games.wake(created.id)
    assert not paused.fired, "1.2 s spent: the bots wait"
    assert paused.wake_at == clock.at + timedelta(minutes=1)
    with pytest.raises(QuotaExceeded) as refused:
        await games.create(CreateGame("sushi-go", 2, None, 8, [NewSeat(name="Ann"), NewSeat(bot="random")]))
    assert (refused.value.code, refused.value.retry_after) == ("bot-cpu-seconds-per-minute", 61)
    people_only = await games.create(CreateGame("sushi-go", 2, None, 9, [NewSeat(name="Ann"), NewSeat(name="Bo")]))
    assert people_only.status == "active", "games of people only draw on no bot quota"

    clock.at += timedelta(minutes=1)
    assert (await games.wake(created.id)).fired, "a minute later the bots think again"


async def test_a_server_that_owes_too_many_bot_moves_refuses_new_games_with_bots() -> None:
    owed = 0

    async def owed_now() -> int:
        return owed

    load = BotLoad(2, FixedClock().now, owed=owed_now)
    await load.before_bot_game(BUILTIN_APP)
    owed = load.max_owed - 1
    await load.before_bot_game(BUILTIN_APP)
    owed = load.max_owed
    with pytest.raises(QuotaExceeded) as refused:
        await load.before_bot_game(BUILTIN_APP)
    assert (refused.value.code, refused.value.retry_after) == ("bots-busy", BUSY_RETRY_SECONDS)


class StuckThinker(ThreadThinker):
    """A search that never ends: the server stops while its bots think."""

    def __init__(self) -> None:
        super().__init__()
        self.thinking = asyncio.Event()

    async def choose(self, game_id: str, table: object, seat: int, version: int) -> BotChoice:
        self.thinking.set()
        await asyncio.Event().wait()
        raise AssertionError("never decided")


async def test_a_server_that_stops_while_its_bots_think_gives_their_games_back_at_once() -> None:
    """Another process makes the moves now, rather than once the stopped server's claim runs out."""
    clock, thinker = FixedClock(), StuckThinker()
    games = games_with(thinker, clock)
    assert isinstance(games.store, InMemoryEventStore)
    deadlines = InMemoryDeadlines(games.store)
    created = await games.create(CreateGame("sushi-go", 2, None, 7, [NewSeat(bot="greedy")] * 2))
    scheduler = Scheduler(deadlines, games, clock)
    async with scheduler.running():
        async with asyncio.timeout(10):
            await thinker.thinking.wait()
        assert await deadlines.claim(clock.now(), DEFAULT_LEASE, 10) == [], "claimed while the bots think"
    assert await deadlines.claim(clock.now(), DEFAULT_LEASE, 10) == [created.id]


async def test_a_persons_pick_while_the_bot_thinks_starts_no_second_search_for_the_game() -> None:
    """A person's append gives the game a deadline due at once (the bot still owes its pick), and nudges
    the scheduler: the game stays claimed by the wake under way, and no second search begins beside it
    (two workers on one decision, of which at most one could be appended)."""
    clock, thinker = FixedClock(), HeldThinker()
    games = games_with(thinker, clock)
    assert isinstance(games.store, InMemoryEventStore)
    scheduler = Scheduler(InMemoryDeadlines(games.store), games, clock)
    games.on_bots_owed = scheduler.nudge
    created = await games.create(CreateGame("sushi-go", 2, None, 7, [NewSeat(name="Ann"), NewSeat(bot="greedy")]))
    async with scheduler.running():
        async with asyncio.timeout(10):
            while not thinker.under_way:
                await asyncio.sleep(0.001)
        await pick_beside_the_held_search(thinker, games, created, watch=0.2)


async def test_a_bots_choice_stands_only_among_the_very_commands_it_was_made_among() -> None:
    """What a wake whose append lost keeps of its bots' choices (`Playing._bot_moves`'s `decided`)."""
    thinker = CountingThinker()
    games = games_with(thinker, FixedClock())
    created = await games.create(CreateGame("sushi-go", 2, None, 7, [NewSeat(name="Ann"), NewSeat(bot="greedy")]))
    loaded, _ = await games.writer.tables.known(created.id)
    stale = BotChoice(command=None, cpu_seconds=0.0)

    legal = await games.legal_commands(ListLegalCommands(created.id, created.tokens["0"]))
    after_ann = (await games.act(Act(created.id, created.tokens["0"], msgspec.json.encode(legal.commands[0])))).version
    await games.wake(created.id)  # the bot picks too: a new turn, new hands
    assert thinker.decisions == 1
    newer, _ = await games.writer.tables.known(created.id)
    assert newer.version > after_ann

    decided = {1: Decided(table=loaded.table, choice=stale)}
    await games.playing._bot_moves(newer, newer.table, newer.version, decided)
    assert thinker.decisions == 2, "made among other commands: the bot thought again"
    assert decided[1].choice is not stale and decided[1].table is newer.table

    kept = dict(decided)
    events, _ = await games.playing._bot_moves(newer, newer.table, newer.version, kept)
    assert thinker.decisions == 2, "made among the same commands: it stands"
    assert kept == decided and events
