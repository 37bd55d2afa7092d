"""Whole games of random bots through the lobby table, for tests that need a finished game's log."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import msgspec

from kaiten.domain import lobby
from kaiten.domain.chance import Chance
from kaiten.domain.engine import Game


def bot_game(game: Game, players: int, seed: int) -> tuple[lobby.Table, list[Any]]:
    """The finished table and its whole log; every seat a random bot."""
    log: list[Any] = lobby.create_game(game, players, None, seed, salt=bytes(16))
    table = lobby.replay(game, log)
    for _ in range(players):
        decision = lobby.take_seat(game, table, Chance(seed, len(log)), bot="random")
        log.extend(decision.events)
        table = decision.table
    decision = lobby.run_bots(game, table, len(log))
    log.extend(decision.events)
    assert decision.table.status == "finished"
    return decision.table, log


def catalog_slugs(game: Game) -> set[str]:
    return {card["slug"] for card in msgspec.to_builtins(game.catalog())["cards"]}


def new_table(
    game: Game, seed: int, bots: Sequence[str], options: dict[str, Any] | None = None
) -> tuple[lobby.Table, list[Any]]:
    """Create a table, seat the bots, and return it with its log so far."""
    events: list[Any] = lobby.create_game(game, len(bots), options, seed, salt=bytes(16))
    table = lobby.replay(game, events)
    for bot in bots:
        decision = lobby.take_seat(game, table, Chance(seed, len(events) + 1), bot=bot)
        events.extend(decision.events)
        table = decision.table
    return table, events


def step(game: Game, table: lobby.Table, events: list[Any], seed: int, rng: random.Random) -> lobby.Decision:
    """Let the awaited bot act once; append the events to the log."""
    seat = lobby.next_bot_seat(game, table)
    assert seat is not None
    command = lobby.bot_command(game, table, seat, Chance.from_rng(rng))
    decision = lobby.act(game, table, seat, command, Chance(seed, len(events) + 1))
    events.extend(decision.events)
    return decision


def play(
    game: Game, seed: int, bots: Sequence[str], options: dict[str, Any] | None = None
) -> tuple[lobby.Table, list[Any]]:
    """A whole game, one bot step at a time, with its log."""
    table, events = new_table(game, seed, bots, options)
    rng = random.Random(seed)
    while table.status == "active":
        table = step(game, table, events, seed, rng).table
    return table, events
