"""Bots' moves made in a test as a serving process's scheduler makes them (services/bot_moves.py):
through `Games.wake`, until the game owes none."""

from __future__ import annotations

import asyncio
import dataclasses
import random
from collections.abc import Mapping
from datetime import UTC, datetime

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


class FixedClock:
    """Time that moves only when a test moves it: a claim's lease never runs out by itself."""

    def __init__(self) -> None:
        self.at = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)

    def now(self) -> datetime:
        return self.at


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


async def pick_beside_the_held_search(thinker: HeldThinker, games: Games, created: CreatedTable, watch: float) -> None:
    """Seat 0, a person, picks while the bot of seat 1 thinks (held by `thinker`, under way): no second
    search of that decision may begin within `watch` seconds. Then the search goes on and the game is
    played until seat 0 alone is awaited. The search under way was decided before the pick, so its
    append failed; its choice, among the cards the bot still holds, was appended as it stood, without
    a second search; then the next turn's was made."""
    legal = await games.legal_commands(ListLegalCommands(created.id, created.tokens["0"]))
    await games.act(Act(created.id, created.tokens["0"], msgspec.json.encode(legal.commands[0])))
    await asyncio.sleep(watch)
    assert thinker.most_at_once == 1, "a second search of the decision began beside the first"
    thinker.go.set()
    async with asyncio.timeout(20):
        while (await games.view(GetTable(created.id))).awaiting != (0,) or thinker.under_way:
            await asyncio.sleep(0.005)
    assert thinker.most_at_once == 1
    assert thinker.decisions == 2
    picks = [event for event in await games.store.read(created.id) if event.type == "CardPicked"]
    assert [msgspec.json.decode(event.data)["seat"] for event in picks] == [0, 1, 1]
