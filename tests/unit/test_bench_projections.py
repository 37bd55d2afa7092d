"""bench/projections.py fills its log with finished games: bots move as a serving process's scheduler
makes them move (not in a person's command), beside people who play theirs."""

from __future__ import annotations

import random

from bench.projections import QUICK_BOTS, play_people_game
from kaiten.adapters.memory_store import InMemoryEventStore
from kaiten.adapters.people import InMemoryPeople
from kaiten.adapters.system import SecureIds, SystemClock
from kaiten.services.commands import CreateGame, GetTable, NewSeat
from kaiten.services.games import Games
from tests.bots import bots_move


def in_memory_games() -> Games:
    return Games(InMemoryEventStore(), SystemClock(), SecureIds(), people=InMemoryPeople())


async def test_a_game_of_bots_alone_is_played_to_its_end() -> None:
    games = in_memory_games()
    created = await games.create(
        CreateGame("sushi-go", 3, None, 7, tuple(NewSeat(bot=bot) for bot in (*QUICK_BOTS, "random")))
    )
    await bots_move(games, created.id)
    assert (await games.view(GetTable(created.id))).status == "finished"


async def test_people_beside_bots_play_their_game_to_its_end() -> None:
    games = in_memory_games()
    game_id = await play_people_game(games, "sushi-go", random.Random(3))
    table = await games.view(GetTable(game_id))
    assert table.status == "finished"
    assert {seat.bot for seat in table.table.seats} == {None, "random"}
