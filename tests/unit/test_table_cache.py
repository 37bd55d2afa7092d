"""The table cache: two `Games` over one store stand for two serving processes, each with its cache."""

from __future__ import annotations

import msgspec
import pytest

from kaiten.adapters.memory_store import InMemoryEventStore
from kaiten.adapters.people import InMemoryPeople
from kaiten.adapters.system import SecureIds, SystemClock
from kaiten.api.settings import Settings, SettingsError
from kaiten.domain.engine import RuleViolation
from kaiten.services.commands import (
    Act,
    CreateGame,
    GetTable,
    ListEvents,
    ListLegalCommands,
    NewSeat,
    ReplayGame,
    TakeSeat,
)
from kaiten.services.errors import ServiceError
from kaiten.services.games import Games
from kaiten.services.lru import Lru
from kaiten.services.ports import StoredEvent
from kaiten.services.table_cache import DEFAULT_CACHED_TABLES, REPLAY_POINT_EVERY
from tests.bots import created_and_played


class CountingStore(InMemoryEventStore):
    """Counts the events each read returns, and the reads."""

    def __init__(self) -> None:
        super().__init__()
        #: The people kept beside this store's log.
        self.people = InMemoryPeople()
        self.reads: list[int] = []

    async def read(self, stream_id: str, after: int = 0, limit: int | None = None) -> list[StoredEvent]:
        stored = await super().read(stream_id, after, limit)
        self.reads.append(len(stored))
        return stored


@pytest.fixture
def store() -> CountingStore:
    return CountingStore()


def process(store: CountingStore, cached_tables: int = 100) -> Games:
    return Games(store, SystemClock(), SecureIds(), people=store.people, cached_tables=cached_tables)


async def two_humans(games: Games, seats: int = 2):
    return await games.create(CreateGame("sushi-go", 2, None, 3, [NewSeat(name=f"p{i}") for i in range(seats)]))


async def play(games: Games, game_id: str, token: str) -> int:
    legal = await games.legal_commands(ListLegalCommands(game_id, token))
    return (await games.act(Act(game_id, token, msgspec.json.encode(legal.commands[0])))).version


async def test_a_cached_read_asks_only_for_the_events_after_its_version(store):
    games = process(store)
    game = await two_humans(games)
    await play(games, game.id, game.tokens["0"])
    store.reads.clear()
    view = await games.view(GetTable(game.id))
    assert store.reads == [0]
    assert view.version == game.version + 1


async def test_a_command_on_a_cached_table_appends_without_reading(store):
    games = process(store)
    game = await two_humans(games)
    await games.view(GetTable(game.id, game.tokens["0"]))
    legal = await games.legal_commands(ListLegalCommands(game.id, game.tokens["0"]))
    store.reads.clear()
    await games.act(Act(game.id, game.tokens["0"], msgspec.json.encode(legal.commands[0])))
    assert store.reads == []


async def test_each_process_sees_and_builds_on_what_the_other_appended(store):
    first, second = process(store), process(store)
    game = await two_humans(first)
    for turn in range(12):
        games = (first, second)[turn % 2]
        seat = (await games.view(GetTable(game.id))).awaiting[0]
        await play(games, game.id, game.tokens[str(seat)])
    uncached = await process(store, cached_tables=0).view(GetTable(game.id))
    assert await first.view(GetTable(game.id)) == await second.view(GetTable(game.id)) == uncached
    picks = [e for e in await store.read(game.id) if e.type == "CardPicked"]
    assert len(picks) == 12


async def test_a_stale_table_loses_the_append_and_the_command_is_decided_again(store):
    first, second = process(store), process(store)
    game = await two_humans(first)
    await second.view(GetTable(game.id))  # the second process caches the table now
    version = await play(first, game.id, game.tokens["0"])  # and is behind from here on
    legal = await first.legal_commands(ListLegalCommands(game.id, game.tokens["1"]))
    outcome = await second.act(Act(game.id, game.tokens["1"], msgspec.json.encode(legal.commands[0])))
    assert outcome.events[0].stored.version == version + 1
    assert [e.version for e in await store.read(game.id)] == list(range(1, outcome.version + 1))


async def test_a_refusal_decided_on_a_stale_table_is_checked_against_the_log(store):
    first, second = process(store), process(store)
    game = await two_humans(first)
    await second.view(GetTable(game.id))
    # Both seats pick: the turn passes and the hands rotate, which the second process has not seen.
    for seat in ("0", "1"):
        await play(first, game.id, game.tokens[seat])
    legal = await first.legal_commands(ListLegalCommands(game.id, game.tokens["0"]))
    outcome = await second.act(Act(game.id, game.tokens["0"], msgspec.json.encode(legal.commands[0])))
    assert outcome.version > game.version + 2


async def test_a_refusal_stands_when_the_table_was_current(store):
    games = process(store)
    game = await two_humans(games)
    body = msgspec.json.encode({"type": "PickCard", "card": "no-such-card"})
    with pytest.raises(RuleViolation):
        await games.act(Act(game.id, game.tokens["0"], body))
    assert (await games.view(GetTable(game.id))).version == game.version


async def test_a_token_of_a_seat_taken_in_another_process_is_known(store):
    first, second = process(store), process(store)
    game = await two_humans(first, seats=1)
    await second.view(GetTable(game.id))
    granted = await first.take_seat(TakeSeat(game.id, NewSeat(name="late")))
    assert granted.token is not None
    view = await second.view(GetTable(game.id, granted.token))
    assert view.seat == 1
    assert await play(second, game.id, granted.token) > view.version


async def test_if_match_is_compared_with_the_log_not_with_a_stale_table(store):
    first, second = process(store), process(store)
    game = await two_humans(first)
    await second.view(GetTable(game.id))
    version = await play(first, game.id, game.tokens["0"])
    legal = await first.legal_commands(ListLegalCommands(game.id, game.tokens["1"]))
    body = msgspec.json.encode(legal.commands[0])
    outcome = await second.act(Act(game.id, game.tokens["1"], body, if_match=version))
    assert outcome.events[0].stored.version == version + 1
    with pytest.raises(ServiceError) as raised:
        await first.act(Act(game.id, game.tokens["1"], body, if_match=version))
    assert raised.value.code == "version-conflict"


async def test_replay_folds_from_the_nearest_point_kept(store):
    games = process(store)
    game = await created_and_played(games, CreateGame("sushi-go", 2, None, 5, [NewSeat(bot="random")] * 2))
    assert game.version >= 3 * REPLAY_POINT_EVERY
    fresh = process(store, cached_tables=0)
    at = game.version - 3
    first = await games.replay(ReplayGame(game.id, at))
    store.reads.clear()
    again = await games.replay(ReplayGame(game.id, at - 1))
    assert max(store.reads) <= REPLAY_POINT_EVERY
    assert first == await fresh.replay(ReplayGame(game.id, at))
    assert again == await fresh.replay(ReplayGame(game.id, at - 1))
    for version in (1, REPLAY_POINT_EVERY, REPLAY_POINT_EVERY + 1, game.version):
        assert await games.replay(ReplayGame(game.id, version)) == await fresh.replay(ReplayGame(game.id, version))


async def test_an_events_page_reads_only_the_page(store):
    games = process(store)
    game = await created_and_played(games, CreateGame("sushi-go", 2, None, 5, [NewSeat(bot="random")] * 2))
    await games.view(GetTable(game.id))
    store.reads.clear()
    page = await games.events(ListEvents(game.id, after=10, limit=5))
    assert [event.stored.version for event in page.events] == [11, 12, 13, 14, 15]
    # The game is over (bots only): its cached table needs no events after it, and only the page is read.
    assert store.reads == [5]
    whole = await process(store, 0).events(ListEvents(game.id, after=10, limit=5))
    assert page == whole


async def test_an_events_page_of_a_game_not_cached_is_cut_from_the_log_read_to_load_it(store):
    """With no cache (or a game not in it yet), the game is loaded from its whole log: the page is a
    part of that log, not a second read."""
    games = process(store)
    game = await created_and_played(games, CreateGame("sushi-go", 2, None, 5, [NewSeat(bot="random")] * 2))
    for cached_tables in (0, 100):
        uncached = process(store, cached_tables)
        store.reads.clear()
        page = await uncached.events(ListEvents(game.id, after=10, limit=5))
        assert store.reads == [game.version]
        assert page == await games.events(ListEvents(game.id, after=10, limit=5))
        assert [event.stored.version for event in page.events] == [11, 12, 13, 14, 15]
    last = await process(store, 0).events(ListEvents(game.id, after=game.version - 2, limit=5))
    assert [event.stored.version for event in last.events] == [game.version - 1, game.version]
    assert (await process(store, 0).events(ListEvents(game.id, after=game.version, limit=5))).events == ()


def test_the_cache_forgets_the_least_recently_used_beyond_its_capacity():
    cache: Lru[str, int] = Lru(2)
    cache.put("a", 1)
    cache.put("b", 2)
    assert cache.get("a") == 1
    cache.put("c", 3)
    assert (cache.get("a"), cache.get("b"), cache.get("c"), len(cache)) == (1, None, 3, 2)
    none: Lru[str, int] = Lru(0)
    none.put("a", 1)
    assert none.get("a") is None


async def test_a_process_keeps_at_most_its_setting_of_tables(store):
    games = process(store, cached_tables=3)
    for _ in range(5):
        await two_humans(games)
    assert len(games.tables) == 3


def test_the_setting_bounds_the_cache_and_refuses_what_is_no_number(monkeypatch):
    monkeypatch.setenv("KAITEN_TABLE_CACHE", "25")
    assert Settings.from_env().table_cache == 25
    monkeypatch.setenv("KAITEN_TABLE_CACHE", "0")
    assert Settings.from_env().table_cache == 0
    monkeypatch.delenv("KAITEN_TABLE_CACHE")
    assert Settings.from_env().table_cache == DEFAULT_CACHED_TABLES
    monkeypatch.setenv("KAITEN_TABLE_CACHE", "lots")
    with pytest.raises(SettingsError, match="KAITEN_TABLE_CACHE"):
        Settings.from_env()


async def test_cached_clocks_are_the_clocks_a_fold_of_the_log_works_out(store):
    # The store stamps its own time on appends, a moment after the use case's clock: the cache keeps
    # the clocks as of the stamped time, as a fold of the log does.
    first, second = process(store), process(store)
    options = {"clock": {"turn_seconds": 60, "bank_seconds": 30}}
    game = await first.create(CreateGame("sushi-go", 2, options, 3, [NewSeat(name="a"), NewSeat(name="b")]))

    async def deadlines(games: Games) -> object:
        return (await games.view(GetTable(game.id))).deadlines

    fresh = await deadlines(process(store, 0))
    assert fresh and await deadlines(first) == fresh
    await play(first, game.id, game.tokens["0"])
    assert await deadlines(first) == await deadlines(process(store, 0))
    # The other process folds the events it missed into its cached table, clocks included.
    await deadlines(second)
    await play(first, game.id, game.tokens["1"])
    assert await deadlines(second) == await deadlines(process(store, 0)) != fresh
