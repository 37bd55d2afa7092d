"""What a player's feed hears of (services/players.feed_items), on the in-memory store: seats taken one
at a time, guests, a resignation, an abandoned game, a seat given back and taken again."""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from kaiten.adapters.memory_store import InMemoryEventStore
from kaiten.adapters.people import InMemoryPeople
from kaiten.adapters.system import SecureIds, SystemClock
from kaiten.services.access import AppCaller
from kaiten.services.commands import CreateGame, LeaveSeat, NewSeat, Resign, TakeSeat
from kaiten.services.games import Games
from kaiten.services.ports import BUILTIN_APP, StoredFeedItem

APP = AppCaller(app_id=BUILTIN_APP)


def games_in_memory() -> tuple[Games, InMemoryEventStore]:
    store = InMemoryEventStore()
    return Games(store, SystemClock(), SecureIds(), people=InMemoryPeople(), open_app=BUILTIN_APP), store


async def feed_of(games: Games, store: InMemoryEventStore, player_id: str) -> list[StoredFeedItem]:
    person = await games.people.of_player(BUILTIN_APP, player_id)
    assert person is not None
    return await store.feed(person.person_id, 0, 100)


def kinds(items: Sequence[StoredFeedItem]) -> list[str]:
    return [item.kind for item in items]


async def test_seats_taken_one_at_a_time_invite_then_start_and_guests_hear_nothing() -> None:
    games, store = games_in_memory()
    created = await games.create(CreateGame("sushi-go", 3, seats=(NewSeat(name="Ann", player_id="ann"),), caller=APP))
    assert kinds(await feed_of(games, store, "ann")) == ["invitation"]
    await games.take_seat(TakeSeat(created.id, NewSeat(name="Guest"), caller=APP))
    assert kinds(await feed_of(games, store, "ann")) == ["invitation"]
    await games.take_seat(TakeSeat(created.id, NewSeat(name="Bo", player_id="bo"), caller=APP))
    # The last seat starts the game: everyone seated by player_id hears it, and their turn.
    assert kinds(await feed_of(games, store, "ann")) == ["invitation", "game-started", "your-turn"]
    assert kinds(await feed_of(games, store, "bo")) == ["invitation", "game-started", "your-turn"]
    # The guest is nobody's player: only the two players have feeds.
    assert len(store.feeds) == 2
    items = await feed_of(games, store, "bo")
    assert [msgspec.json.decode(item.body)["seat"] for item in items] == [2, 2, 2]
    assert [item.seq for item in items] == [1, 2, 3]


async def test_a_resigned_player_hears_no_turn_and_an_abandoned_game_ends_for_everyone() -> None:
    games, store = games_in_memory()
    seats = (NewSeat(name="Ann", player_id="ann"), NewSeat(name="Bo", player_id="bo"), NewSeat(bot="random"))
    created = await games.create(CreateGame("sushi-go", 3, seats=seats, caller=APP))
    await games.resign(Resign(created.id, created.tokens["0"]))
    # A bot plays Ann's seat now: she hears of no turn of it; Bo is still awaited (no new turn).
    assert kinds(await feed_of(games, store, "ann")) == ["invitation", "game-started", "your-turn"]
    assert kinds(await feed_of(games, store, "bo")) == ["invitation", "game-started", "your-turn"]
    await games.resign(Resign(created.id, created.tokens["1"]))
    # Nobody is left: the game is abandoned, and both hear it is over, with no winners.
    for player in ("ann", "bo"):
        items = await feed_of(games, store, player)
        assert kinds(items)[-1] == "game-finished", kinds(items)
        finished = msgspec.json.decode(items[-1].body)
        assert (finished["status"], finished["winners"]) == ("abandoned", [])


async def test_a_seat_given_back_and_taken_again_is_a_new_invitation() -> None:
    games, store = games_in_memory()
    created = await games.create(CreateGame("sushi-go", 3, seats=(NewSeat(name="Ann", player_id="ann"),), caller=APP))
    await games.leave(LeaveSeat(created.id, created.tokens["0"]))
    await games.take_seat(TakeSeat(created.id, NewSeat(name="Ann", player_id="ann"), caller=APP))
    assert kinds(await feed_of(games, store, "ann")) == ["invitation", "invitation"]
