"""Following a game's log over the in-memory store: the races a live stream must not lose."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import msgspec
import pytest

from kaiten.adapters.memory_store import InMemoryEventStore
from kaiten.adapters.notify import LocalNotifier
from kaiten.adapters.people import InMemoryPeople
from kaiten.adapters.system import SecureIds, SystemClock
from kaiten.services.commands import Act, CreateGame, GetTable, ListEvents, ListLegalCommands, NewSeat
from kaiten.services.games import Games
from kaiten.services.ports import RESYNC, StoredEvent
from kaiten.services.seen import CreatedTable, SeenEvent, SeenEvents
from kaiten.services.streaming import EventStreams, KeepAlive

WAIT_SECONDS = 10
#: Far longer than any test: a keep-alive would mean the stream waited for something that never came.
NO_KEEPALIVE = 600


@pytest.fixture
def notifier() -> LocalNotifier:
    return LocalNotifier()


@pytest.fixture
def games(notifier: LocalNotifier) -> Games:
    return Games(InMemoryEventStore(notifier=notifier), SystemClock(), SecureIds(), people=InMemoryPeople())


async def two_person_game(games: Games) -> CreatedTable:
    return await games.create(CreateGame("sushi-go", 2, None, 5, [NewSeat(name="Alice"), NewSeat(name="Bob")]))


async def play(games: Games, game: CreatedTable, seat: int) -> None:
    token = game.tokens[str(seat)]
    legal = await games.legal_commands(ListLegalCommands(game.id, token))
    await games.act(Act(game.id, token, msgspec.json.encode(legal.commands[0])))


async def take(items: AsyncIterator[SeenEvents | KeepAlive], count: int) -> list[SeenEvent | KeepAlive]:
    """The next `count` events (or keep-alives) of the stream's batches; a stream that has nothing to send
    fails the test instead of hanging it."""
    taken: list[SeenEvent | KeepAlive] = []
    async with asyncio.timeout(WAIT_SECONDS):
        while len(taken) < count:
            item = await anext(items)
            taken.extend([item] if isinstance(item, KeepAlive) else item.events)
    return list(taken)


async def test_appends_between_the_check_and_the_subscription_are_caught_up(games, notifier):
    streams = EventStreams(games.tables, notifier, games.names, NO_KEEPALIVE)
    game = await two_person_game(games)
    alice = game.tokens["0"]
    items = await streams.follow(game.id, alice, game.version)
    assert items is not None
    # The game was checked but nothing subscribed yet: these appends are announced to nobody.
    await play(games, game, 0)
    await play(games, game, 1)
    expected = (await games.events(ListEvents(game.id, after=game.version, limit=100, caller=alice))).events
    assert expected and await take(items, len(expected)) == list(expected)


async def test_a_resync_makes_the_follower_read_what_it_was_not_told_of(games):
    # It hears none of the store's appends, as when their notices were lost.
    elsewhere = LocalNotifier()
    streams = EventStreams(games.tables, elsewhere, games.names, NO_KEEPALIVE)
    game = await two_person_game(games)
    alice = game.tokens["0"]
    items = await streams.follow(game.id, alice, 0)
    assert items is not None
    caught_up = (await games.events(ListEvents(game.id, after=0, limit=100, caller=alice))).events
    # Caught up means subscribed (the subscription comes first).
    assert await take(items, len(caught_up)) == list(caught_up)
    await play(games, game, 0)
    elsewhere.publish(RESYNC)
    expected = (await games.events(ListEvents(game.id, after=game.version, limit=100, caller=alice))).events
    assert expected and await take(items, len(expected)) == list(expected)


class CountingStore(InMemoryEventStore):
    """Counts the events every read returns."""

    events_read = 0

    async def read(self, stream_id: str, after: int = 0, limit: int | None = None) -> list[StoredEvent]:
        stored = await super().read(stream_id, after, limit)
        self.events_read += len(stored)
        return stored


async def test_a_stream_resumed_late_in_a_cached_game_reads_only_what_it_sends(notifier):
    store = CountingStore(notifier=notifier)
    games = Games(store, SystemClock(), SecureIds(), people=InMemoryPeople())
    game = await two_person_game(games)
    for _ in range(5):
        await play(games, game, 0)
        await play(games, game, 1)
    version = (await games.view(GetTable(game.id))).version
    store.events_read = 0
    items = await EventStreams(games.tables, notifier, games.names, NO_KEEPALIVE).follow(game.id, None, version - 2)
    assert items is not None and len(await take(items, 2)) == 2
    assert store.events_read == 2, "the cached table, and the window after the resume point"
