"""Bots' moves made in a test as a serving process's scheduler makes them (services/bot_moves.py):
through `Games.wake`, until the game owes none."""

from __future__ import annotations

import asyncio
import dataclasses
import random
from collections.abc import Mapping

import msgspec

from kaiten.services.bot_moves import BotChoice, ThreadThinker
from kaiten.services.commands import Act, CreateGame, GetTable, ListLegalCommands
from kaiten.services.games import Games
from kaiten.services.seen import CreatedTable

#: More wakes than any game of the catalog needs to be played out by its bots.
MAX_WAKES = 5_000


async def bots_move(games: Games, game_id: str) -> None:
    """Let the game's bots make every move they owe now (a bots-only game: to its end)."""
    for _ in range(MAX_WAKES):
        if not (await games.wake(game_id)).fired:
            return
    raise AssertionError(f"game {game_id}: the bots still owe moves after {MAX_WAKES} wakes")


async def play_to_the_end(
    games: Games, game_id: str, tokens: Mapping[str, str], rng: random.Random | None = None
) -> None:
    """The people of these tokens send legal commands (the first, or random ones) whenever the game
    awaits them, and the bots move in between, until the game is over."""
    for _ in range(MAX_WAKES):
        await bots_move(games, game_id)
        table = await games.view(GetTable(game_id))
        if table.status != "active":
            return
        seat = next(seat for seat in table.awaiting if str(seat) in tokens)
        legal = await games.legal_commands(ListLegalCommands(game_id, tokens[str(seat)]))
        command = legal.commands[0] if rng is None else rng.choice(legal.commands)
        await games.act(Act(game_id, tokens[str(seat)], msgspec.json.encode(command)))
    raise AssertionError(f"game {game_id} is not over after {MAX_WAKES} commands")


async def created_and_played(games: Games, command: CreateGame) -> CreatedTable:
    """A game created and played by its bots as far as they go alone (to the end, when they are all its
    seats): its creation's answer, with the table and version the game then has."""
    created = await games.create(command)
    await bots_move(games, created.id)
    loaded = await games.tables.current(created.id)
    return dataclasses.replace(created, table=loaded.table, version=loaded.version)


class HeldThinker(ThreadThinker):
    """Thinks only once let go, and counts its searches under way at once (one game is played)."""

    def __init__(self) -> None:
        super().__init__()
        self.go = asyncio.Event()
        self.under_way = 0
        self.most_at_once = 0
        self.decisions = 0

    async def choose(self, game_id: str, table: object, seat: int, version: int) -> BotChoice:
        self.under_way += 1
        self.most_at_once = max(self.most_at_once, self.under_way)
        try:
            await self.go.wait()
            self.decisions += 1
            return await super().choose(game_id, table, seat, version)  # type: ignore[arg-type]
        finally:
            self.under_way -= 1
