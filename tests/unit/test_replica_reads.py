"""Which copy a read of one game comes from, with a replica that holds the primary's log up to a version.

The replica here is a second in-memory store that is handed the primary's events when the test says:
a lag is a replica that has not been handed the latest ones yet. tests/e2e/test_read_replica.py runs
the same routing against a real PostgreSQL streaming replica.

Most tests read through a process without a table cache: that is how a process reads a game it has not
cached. The last ones read through a process with its cache, which reads a cached game without the replica.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec
import pytest

from kaiten.adapters.memory_store import InMemoryEventStore
from kaiten.adapters.people import InMemoryPeople
from kaiten.adapters.system import SecureIds, SystemClock
from kaiten.api.conditional import seen_version
from kaiten.services.commands import (
    Act,
    CreateGame,
    GetTable,
    ListEvents,
    ListLegalCommands,
    NewSeat,
    ReplayGame,
    Resign,
    TakeSeat,
)
from kaiten.services.errors import ServiceError
from kaiten.services.games import Games
from kaiten.services.logs import export_log
from kaiten.services.ports import NewEvent, StoredEvent
from kaiten.services.replica_reads import ReplicaReads
from tests.bots import created_and_played


class CountingStore(InMemoryEventStore):
    """Counts the reads of whole streams, to tell which copy answered."""

    def __init__(self) -> None:
        super().__init__()
        #: The people kept beside this store's log.
        self.people = InMemoryPeople()
        self.reads = 0

    async def read(self, stream_id: str, after: int = 0, limit: int | None = None) -> list[StoredEvent]:
        self.reads += 1
        return await super().read(stream_id, after, limit)


@pytest.fixture
def primary() -> CountingStore:
    return CountingStore()


@pytest.fixture
def replica() -> CountingStore:
    return CountingStore()


@pytest.fixture
def games(primary: CountingStore, replica: CountingStore) -> Games:
    return Games(primary, SystemClock(), SecureIds(), people=primary.people, replica=replica, cached_tables=0)


@pytest.fixture
def caching(primary: CountingStore, replica: CountingStore) -> Games:
    return Games(primary, SystemClock(), SecureIds(), people=primary.people, replica=replica)


async def replicate(primary: CountingStore, replica: CountingStore, game_id: str, upto: int | None = None) -> None:
    """Hand the replica the primary's events of that game it lacks, up to version `upto` (all: None),
    and the game's summary row when it gets them all."""
    have = len(await InMemoryEventStore.read(replica, game_id))
    stored: Sequence[StoredEvent] = await InMemoryEventStore.read(primary, game_id, after=have)
    missing = [item for item in stored if upto is None or item.version <= upto]
    if missing:
        new = [NewEvent(e.type, e.data, e.metadata, e.schema_version) for e in missing]
        summary = await primary.summary(game_id) if len(missing) == len(stored) else None
        await replica.append(game_id, have, new, summary)


async def two_seats(games: Games):
    return await games.create(CreateGame("sushi-go", 2, None, 3, [NewSeat(name="a"), NewSeat(name="b")]))


async def play(games: Games, game_id: str, token: str, commands: int) -> int:
    """Send that seat's first legal command `commands` times (the other seat's turn too, as needed)."""
    version = 0
    for _ in range(commands):
        legal = await games.legal_commands(ListLegalCommands(game_id, token))
        outcome = await games.act(Act(game_id, token, msgspec.json.encode(legal.commands[0])))
        version = outcome.version
    return version


async def test_a_running_game_read_without_a_seen_version_comes_from_the_primary(games, primary, replica):
    game = await two_seats(games)
    await replicate(primary, replica, game.id)
    replica.reads = primary.reads = 0
    view = await games.view(GetTable(game.id))
    assert view.version == game.version
    # The replica's summary row says the game runs: its log is not read.
    assert (primary.reads, replica.reads) == (1, 0)


async def test_a_replica_that_reached_the_seen_version_answers_though_the_primary_is_ahead(games, primary, replica):
    game = await two_seats(games)
    token = game.tokens["0"]
    await replicate(primary, replica, game.id)
    primary_version = await play(games, game.id, game.tokens["1"], 1)
    assert primary_version > game.version
    primary.reads = 0
    lagging = await games.view(GetTable(game.id, token, seen=game.version))
    assert lagging.version == game.version and primary.reads == 0
    # Having seen the newer version, the caller gets it from the primary: never a step back.
    assert (await games.view(GetTable(game.id, token, seen=primary_version))).version == primary_version
    legal = await games.legal_commands(ListLegalCommands(game.id, token, seen=game.version))
    assert legal.version == game.version


async def test_a_game_the_replica_does_not_hold_yet_is_read_from_the_primary(games, primary, replica):
    game = await two_seats(games)
    assert (await games.view(GetTable(game.id, seen=1))).version == game.version
    page = await games.events(ListEvents(game.id, after=0, limit=10))
    assert page.version == game.version


async def test_a_token_the_replica_has_not_seen_taken_is_checked_on_the_primary(games, primary, replica):
    game = await games.create(CreateGame("sushi-go", 2, None, 3, [NewSeat(name="a")]))
    await replicate(primary, replica, game.id)
    seat = await games.take_seat(TakeSeat(game.id, NewSeat(name="b")))
    assert seat.token is not None
    view = await games.view(GetTable(game.id, seat.token, seen=1))
    assert view.seat == 1 and view.version > game.version


async def test_events_pages_and_replays_come_from_a_replica_that_reached_them(games, primary, replica):
    game = await two_seats(games)
    await replicate(primary, replica, game.id, upto=2)
    primary.reads = 0
    page = await games.events(ListEvents(game.id, after=1, limit=10))
    assert page.version == 2 and [event.stored.version for event in page.events] == [2]
    assert (await games.replay(ReplayGame(game.id, 2))).version == 2
    assert primary.reads == 0
    # Past what the replica holds, the primary answers, and a replay within the log is no error.
    assert (await games.events(ListEvents(game.id, after=3, limit=10))).version == game.version
    assert (await games.replay(ReplayGame(game.id, game.version))).version == game.version
    # Each loads the game from the primary: the page is cut from the log read to load it, and the
    # replay reads its window there once the replica's falls short.
    assert primary.reads == 3


async def test_a_game_seen_finished_is_read_from_the_replica_alone(games, primary, replica):
    created = await created_and_played(games, CreateGame("sushi-go", 2, None, 3, [NewSeat(bot="random")] * 2))
    assert created.status == "finished"
    await replicate(primary, replica, created.id)
    primary.reads = replica.reads = 0
    # Not known finished yet: the primary answers, as for any game read with no version named.
    assert (await games.view(GetTable(created.id))).status == "finished"
    assert (primary.reads, replica.reads) == (1, 0)
    assert (await games.view(GetTable(created.id))).status == "finished"
    assert (await export_log(games, created.id, None)).game_id == created.id
    assert (await games.events(ListEvents(created.id, after=0, limit=5))).version == created.version
    # The table, the export, and the events page's game (its page cut from that log): all from the
    # replica.
    assert (primary.reads, replica.reads) == (1, 3)


async def test_a_game_the_replica_answered_finished_is_known_finished(games, primary, replica):
    created = await created_and_played(games, CreateGame("sushi-go", 2, None, 3, [NewSeat(bot="random")] * 2))
    await replicate(primary, replica, created.id)
    await games.replay(ReplayGame(created.id, 2))
    primary.reads = 0
    assert (await games.view(GetTable(created.id))).status == "finished"
    assert primary.reads == 0


async def test_an_abandoned_game_is_over_and_read_from_the_replica_alone(games, primary, replica):
    created = await games.create(CreateGame("sushi-go", 2, None, 3, [NewSeat(name="a"), NewSeat(bot="random")]))
    await games.resign(Resign(created.id, created.tokens["0"]))
    assert (await games.view(GetTable(created.id))).status == "abandoned"
    await replicate(primary, replica, created.id)
    last = (await primary.summary(created.id)).version
    primary.reads = 0
    assert (await games.view(GetTable(created.id))).status == "abandoned"
    assert (await games.events(ListEvents(created.id, after=0, limit=5))).version == last
    assert primary.reads == 0


async def test_the_memory_of_finished_games_is_bounded_and_keeps_the_latest(primary, replica):
    reads = ReplicaReads(primary, replica, remembered=2)
    games = Games(primary, SystemClock(), SecureIds(), people=primary.people, replica=replica)
    bots = [NewSeat(bot="random"), NewSeat(bot="random")]
    ids = [(await created_and_played(games, CreateGame("sushi-go", 2, None, seed, bots))).id for seed in range(3)]
    for game_id in ids:
        await replicate(primary, replica, game_id)
        await reads.load(game_id)
    assert [reads.known_finished(game_id) for game_id in ids] == [False, True, True]
    # A game not finished is never remembered, and without a replica nothing is.
    running = await two_seats(games)
    await reads.load(running.id)
    assert not reads.known_finished(running.id)
    alone = ReplicaReads(primary, None)
    await alone.load(ids[0])
    assert not alone.known_finished(ids[0])


async def test_a_game_finished_on_the_primary_only_is_exported_from_the_primary(games, primary, replica):
    created = await created_and_played(games, CreateGame("sushi-go", 2, None, 3, [NewSeat(bot="random")] * 2))
    await replicate(primary, replica, created.id, upto=created.version - 1)
    exported = await export_log(games, created.id, None)
    assert len(exported.events) == created.version


async def test_refusals_still_come_from_the_primary(games, primary, replica):
    game = await two_seats(games)
    await replicate(primary, replica, game.id)
    with pytest.raises(ServiceError) as refused:
        await games.view(GetTable(game.id, "not-a-token", seen=1))
    assert refused.value.code == "invalid-token"
    with pytest.raises(ServiceError) as refused:
        await games.view(GetTable("6a1f1f6e-1c7b-4a57-9b8b-2f0f5a0c6f10"))
    assert refused.value.code == "game-not-found"


async def test_a_cached_game_that_is_over_is_read_with_no_query(caching, primary, replica):
    created = await created_and_played(caching, CreateGame("sushi-go", 2, None, 3, [NewSeat(bot="random")] * 2))
    await replicate(primary, replica, created.id)
    primary.reads = replica.reads = 0
    assert (await caching.view(GetTable(created.id))).status == "finished"
    assert (await caching.view(GetTable(created.id, seen=created.version))).version == created.version
    assert (primary.reads, replica.reads) == (0, 0)
    # Only the windows of an events page and a replay are read, and the replica holds them.
    page = await caching.events(ListEvents(created.id, after=0, limit=3))
    assert [event.stored.version for event in page.events] == [1, 2, 3]
    assert (await caching.replay(ReplayGame(created.id, 4))).version == 4
    assert (primary.reads, replica.reads) == (0, 2)
    # The cache tells the replica reads the game is over: its export reads the replica's log.
    assert len((await export_log(caching, created.id, None)).events) == created.version
    assert (primary.reads, replica.reads) == (0, 3)


async def test_a_cached_running_game_reads_its_newest_events_from_the_primary(caching, primary, replica):
    game = await two_seats(caching)
    await replicate(primary, replica, game.id)
    other = Games(primary, SystemClock(), SecureIds(), people=primary.people)
    moved = await play(other, game.id, game.tokens["1"], 1)
    primary.reads = replica.reads = 0
    # Though the replica reached the version the caller has seen, the cached table asks the primary
    # for the events after it: one small read, and the caller gets the newest version.
    view = await caching.view(GetTable(game.id, game.tokens["0"], seen=game.version))
    assert view.version == moved
    assert (primary.reads, replica.reads) == (1, 0)


async def test_a_game_not_cached_is_loaded_through_the_replica_then_cached(caching, primary, replica):
    game = await two_seats(Games(primary, SystemClock(), SecureIds(), people=primary.people))
    await replicate(primary, replica, game.id)
    primary.reads = replica.reads = 0
    assert (await caching.view(GetTable(game.id, game.tokens["0"], seen=game.version))).version == game.version
    assert (primary.reads, replica.reads) == (0, 1)
    assert (await caching.view(GetTable(game.id, game.tokens["0"], seen=game.version))).version == game.version
    assert (primary.reads, replica.reads) == (1, 1)


@pytest.mark.parametrize(
    ("if_none_match", "min_version", "seen"),
    [
        (None, None, None),
        ("*", None, None),
        ('"7"', None, 7),
        ('W/"3", "12", "x"', None, 12),
        ('"4"', 9, 9),
        ('"11"', 9, 11),
        (None, 2, 2),
    ],
)
def test_the_version_a_caller_has_seen_is_the_newest_it_names(
    if_none_match: str | None, min_version: int | None, seen: int | None
) -> None:
    assert seen_version(if_none_match, min_version) == seen
