"""Following a game's log over the in-memory store: the races a live stream must not lose."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import msgspec
import pytest

from adapters.memory_store import InMemoryEventStore
from adapters.notify import LocalNotifier
from adapters.system import SecureIds, SystemClock
from services.commands import Act, CreateGame, NewSeat
from services.games import Games
from services.ports import RESYNC
from services.streaming import EventStreams, KeepAlive
from services.views import CreatedGame, EventView

WAIT_SECONDS = 10
#: Far longer than any test: a keep-alive would mean the stream waited for something that never came.
NO_KEEPALIVE = 600


@pytest.fixture
def notifier() -> LocalNotifier:
    return LocalNotifier()


@pytest.fixture
def games(notifier: LocalNotifier) -> Games:
    return Games(InMemoryEventStore(notifier=notifier), SystemClock(), SecureIds())


async def two_person_game(games: Games) -> CreatedGame:
    return await games.create(CreateGame("sushi-go", 2, None, 5, [NewSeat(name="Alice"), NewSeat(name="Bob")]))


async def play(games: Games, game: CreatedGame, seat: int) -> None:
    token = game.tokens[str(seat)]
    legal = await games.legal_commands(game.id, token)
    await games.act(Act(game.id, token, msgspec.json.encode(legal.commands[0])))


async def take(items: AsyncIterator[EventView | KeepAlive], count: int) -> list[EventView | KeepAlive]:
    """The next `count` items; a stream that has nothing to send fails the test instead of hanging it."""
    async with asyncio.timeout(WAIT_SECONDS):
        return [await anext(items) for _ in range(count)]


async def test_appends_between_the_check_and_the_subscription_are_caught_up(games, notifier):
    streams = EventStreams(games.store, notifier, NO_KEEPALIVE)
    game = await two_person_game(games)
    alice = game.tokens["0"]
    items = await streams.follow(game.id, alice, game.version)
    assert items is not None
    # The game was checked but nothing subscribed yet: these appends are announced to nobody.
    await play(games, game, 0)
    await play(games, game, 1)
    expected = (await games.events(game.id, alice, game.version, 100)).events
    assert expected and await take(items, len(expected)) == expected


async def test_a_resync_makes_the_follower_read_what_it_was_not_told_of(games):
    # It hears none of the store's appends, as when their notices were lost.
    elsewhere = LocalNotifier()
    streams = EventStreams(games.store, elsewhere, NO_KEEPALIVE)
    game = await two_person_game(games)
    alice = game.tokens["0"]
    items = await streams.follow(game.id, alice, 0)
    assert items is not None
    caught_up = (await games.events(game.id, alice, 0, 100)).events
    # Caught up means subscribed (the subscription comes first).
    assert await take(items, len(caught_up)) == caught_up
    await play(games, game, 0)
    elsewhere.publish(RESYNC)
    expected = (await games.events(game.id, alice, game.version, 100)).events
    assert expected and await take(items, len(expected)) == expected
