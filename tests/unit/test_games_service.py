"""The game use cases over the in-memory store, with stores that lose races on purpose."""

from __future__ import annotations

from collections.abc import Sequence

import msgspec
import pytest

from kaiten.adapters.memory_store import InMemoryEventStore
from kaiten.adapters.people import InMemoryPeople
from kaiten.adapters.system import SecureIds, SystemClock
from kaiten.services.commands import Act, CreateGame, GetTable, ListLegalCommands, NewSeat, ReplayGame
from kaiten.services.errors import ServiceError
from kaiten.services.games import Games
from kaiten.services.ports import ConcurrencyConflict, FeedItem, GameSummary, NewEvent, OutboxMessage, StoredEvent
from tests.bots import play_to_the_end


class LosingStore(InMemoryEventStore):
    """Loses the next `losses` appends to a writer that got there first."""

    def __init__(self) -> None:
        super().__init__()
        self.losses = 0
        self.appends = 0

    async def append(
        self,
        stream_id: str,
        expected_version: int,
        events: Sequence[NewEvent],
        summary: GameSummary | None = None,
        idempotency_key: str | None = None,
        outbox: Sequence[OutboxMessage] = (),
        feed: Sequence[FeedItem] = (),
    ) -> list[StoredEvent]:
        self.appends += 1
        if self.losses:
            self.losses -= 1
            raise ConcurrencyConflict(stream_id, expected_version)
        return await super().append(stream_id, expected_version, events, summary, idempotency_key, outbox, feed)


@pytest.fixture
def store() -> LosingStore:
    return LosingStore()


@pytest.fixture
def games(store: LosingStore) -> Games:
    return Games(store, SystemClock(), SecureIds(), people=InMemoryPeople())


async def new_game(games: Games):
    return await games.create(CreateGame("sushi-go", 2, None, 3, [NewSeat(name="a"), NewSeat(name="b")]))


async def first_legal(games: Games, game_id: str, token: str) -> bytes:
    legal = await games.legal_commands(ListLegalCommands(game_id, token))
    return msgspec.json.encode(legal.commands[0])


async def test_a_lost_race_is_retried_by_deciding_again(games, store):
    game = await new_game(games)
    body = await first_legal(games, game.id, game.tokens["0"])
    store.losses = 3
    outcome = await games.act(Act(game.id, game.tokens["0"], body))
    assert outcome.version == game.version + 1
    assert store.appends == 1 + 4


async def test_a_client_pinning_the_version_gets_the_conflict_instead(games, store):
    game = await new_game(games)
    body = await first_legal(games, game.id, game.tokens["0"])
    store.losses = 1
    with pytest.raises(ServiceError) as raised:
        await games.act(Act(game.id, game.tokens["0"], body, if_match=game.version))
    assert raised.value.code == "version-conflict"
    assert (await games.view(GetTable(game.id))).version == game.version


async def test_endless_contention_gives_up_with_a_retryable_error(games, store):
    game = await new_game(games)
    body = await first_legal(games, game.id, game.tokens["0"])
    store.losses = 1000
    with pytest.raises(ServiceError) as raised:
        await games.act(Act(game.id, game.tokens["0"], body))
    assert (raised.value.kind, raised.value.code) == ("unavailable", "too-much-contention")


async def test_a_duplicate_that_loses_the_race_answers_with_the_winners_events(games, store):
    game = await new_game(games)
    token = game.tokens["0"]
    body = await first_legal(games, game.id, token)
    original = store.append

    async def duplicate_wins_first(*args, **kwargs):
        # The other request with the same key commits while this one decides.
        store.append = original  # type: ignore[method-assign]
        await games.act(Act(game.id, token, body, idempotency_key="k"))
        return await original(*args, **kwargs)

    store.append = duplicate_wins_first  # type: ignore[method-assign]
    outcome = await games.act(Act(game.id, token, body, idempotency_key="k"))
    assert outcome.version == game.version + 1
    assert len(await store.read(game.id)) == game.version + 1


async def test_seat_tokens_are_stored_only_as_hashes(games, store):
    game = await new_game(games)
    stored = await store.read(game.id)
    for token in game.tokens.values():
        assert len(token) >= 32
        assert all(token.encode() not in event.data for event in stored)
        assert all(token not in str(event.metadata) for event in stored)
    summary = await store.summary(game.id)
    assert summary is not None and set(summary.token_hashes) == {"0", "1"}


async def test_a_game_that_is_over_is_replayed_as_any_seat_saw_it(games):
    game = await games.create(CreateGame("sushi-go", 2, None, 3, [NewSeat(name="a"), NewSeat(bot="random")]))
    with pytest.raises(ServiceError) as running:
        await games.replay(ReplayGame(game.id, 5, as_seat=1))
    assert running.value.code == "seat-not-yours"
    mine = await games.replay(ReplayGame(game.id, 5, game.tokens["0"], as_seat=0))
    assert mine.seat == 0, "a seat's own view needs no end"
    await play_to_the_end(games, game.id, game.tokens)
    bot = await games.replay(ReplayGame(game.id, 5, as_seat=1))
    spectator = await games.replay(ReplayGame(game.id, 5))
    assert bot.seat == 1 and spectator.seat is None
    assert bot.view.hand and not spectator.view.hand, "the bot's hand, which a spectator never saw"
    as_seat_0 = await games.replay(ReplayGame(game.id, 5, as_seat=0))
    assert as_seat_0.view.hand == mine.view.hand, "the same hand its person saw then"
    with pytest.raises(ServiceError) as bad:
        await games.replay(ReplayGame(game.id, 5, as_seat=2))
    assert bad.value.code == "invalid-seat"
