"""Filling a log with finished games, by bots alone and by people with a player_id (and bots)."""

from __future__ import annotations

import random
from collections.abc import Sequence

import msgspec
from sqlalchemy.ext.asyncio import AsyncEngine

from kaiten.adapters.people import SqlPeople
from kaiten.adapters.sql_store import SqlEventStore
from kaiten.adapters.system import SecureIds, SystemClock
from kaiten.domain.catalog import GAMES
from kaiten.services.commands import Act, CreateGame, GetTable, ListLegalCommands, NewSeat
from kaiten.services.games import Games
from tests.bots import bots_move

#: Far more commands than any game of the catalog needs.
MAX_COMMANDS = 5000


def games_service(engine: AsyncEngine) -> Games:
    return Games(SqlEventStore(engine), SystemClock(), SecureIds(), people=SqlPeople(engine))


async def bot_games(games: Games, count: int, seed: int = 0) -> list[str]:
    """`count` games of bots only, taking the catalog's games in turn, played to their end."""
    ids = []
    catalog = sorted(GAMES.values(), key=lambda game: game.id)
    for index in range(count):
        game = catalog[index % len(catalog)]
        seats = [NewSeat(bot="random" if seat % 2 else next(iter(game.bots))) for seat in range(game.min_players)]
        created = await games.create(CreateGame(game.id, game.min_players, None, seed + index, seats))
        await bots_move(games, created.id)
        ids.append(created.id)
    return ids


async def people_game(games: Games, game_id: str, player_ids: Sequence[str | None], rng: random.Random) -> str:
    """A game of these people (None: a seat without a player_id) and bots in the other seats, played
    to the end with random legal commands; its id."""
    game = GAMES[game_id]
    players = max(game.min_players, len(player_ids))
    seats = [NewSeat(name=f"person {i}", player_id=player_id) for i, player_id in enumerate(player_ids)]
    seats += [NewSeat(bot="random") for _ in range(players - len(seats))]
    created = await games.create(CreateGame(game_id, players, None, rng.randrange(2**32), seats))
    for _ in range(MAX_COMMANDS):
        await bots_move(games, created.id)
        table = await games.view(GetTable(created.id))
        if table.status == "finished":
            return created.id
        seat = rng.choice(table.awaiting)
        token = created.tokens[str(seat)]
        legal = await games.legal_commands(ListLegalCommands(created.id, token))
        await games.act(Act(created.id, token, msgspec.json.encode(rng.choice(legal.commands))))
    raise AssertionError(f"game {created.id} did not finish within {MAX_COMMANDS} commands")
