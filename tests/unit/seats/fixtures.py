"""Games over the in-memory store with a clock that tests move by hand, and their scheduler."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import msgspec

from kaiten.adapters.deadlines import InMemoryDeadlines
from kaiten.adapters.memory_store import InMemoryEventStore
from kaiten.adapters.people import InMemoryPeople
from kaiten.adapters.system import SecureIds
from kaiten.services.commands import Act, CreateGame, GetTable, ListLegalCommands, NewSeat
from kaiten.services.games import Games
from kaiten.services.scheduler import Scheduler
from kaiten.services.seen import CreatedTable

START = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
#: More rounds of the scheduler than the bots of any game of the catalog need to play it out.
MAX_ROUNDS = 5000


class FakeClock:
    def __init__(self) -> None:
        self.at = START

    def now(self) -> datetime:
        return self.at

    def advance(self, seconds: float) -> None:
        self.at += timedelta(seconds=seconds)


@dataclass
class Server:
    clock: FakeClock
    store: InMemoryEventStore
    games: Games
    scheduler: Scheduler

    async def create(self, clock: dict[str, Any] | None, seats: list[NewSeat], game: str = "sushi-go") -> CreatedTable:
        options = None if clock is None else {"clock": clock}
        return await self.games.create(CreateGame(game, len(seats), options, 3, tuple(seats)))

    async def move(self, game_id: str, token: str, idempotency_key: str | None = None) -> int:
        """The seat's first legal command; the version after it."""
        legal = await self.games.legal_commands(ListLegalCommands(game_id, token))
        body = msgspec.json.encode(legal.commands[0])
        outcome = await self.games.act(Act(game_id, token, body, idempotency_key=idempotency_key))
        return outcome.version

    async def bots(self) -> None:
        """The scheduler's rounds until nothing is due: the moves the bots owe are made."""
        for _ in range(MAX_ROUNDS):
            if not await self.scheduler.run_once():
                return
        raise AssertionError(f"still due after {MAX_ROUNDS} rounds of the scheduler")

    async def types(self, game_id: str, after: int = 0) -> list[str]:
        return [event.type for event in await self.store.read(game_id, after)]


def server(abandon_after: timedelta | None = None, restarting: Server | None = None) -> Server:
    """A fresh server, or one serving the database of another (a restart with other settings)."""
    clock = FakeClock() if restarting is None else restarting.clock
    store = InMemoryEventStore(clock=clock) if restarting is None else restarting.store
    people = InMemoryPeople() if restarting is None else restarting.games.people
    games = Games(store, clock, SecureIds(), abandon_after, people=people)
    return Server(clock, store, games, Scheduler(InMemoryDeadlines(store), games, clock))


PEOPLE = [NewSeat(name="Ann", player_id="ann"), NewSeat(name="Bo", player_id="bo")]


async def play_out(s: Server, game_id: str, tokens: dict[str, str]) -> None:
    """The people who still hold these seats play their first legal command until the game ends."""
    while True:
        await s.bots()
        view = await s.games.view(GetTable(game_id))
        if view.status != "active":
            return
        seat = next(seat for seat in view.awaiting if str(seat) in tokens)
        await s.move(game_id, tokens[str(seat)])
