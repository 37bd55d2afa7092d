"""Whole games of random bots through the lobby table, for tests that need a finished game's log."""

from __future__ import annotations

from typing import Any

from domain import table as lobby
from domain.chance import Chance
from domain.engine import Game


def bot_game(game: Game, players: int, seed: int) -> tuple[lobby.Table, list[Any]]:
    """The finished table and its whole log; every seat a random bot."""
    log: list[Any] = lobby.create_game(game, players, None, seed)
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
    return {card["slug"] for card in game.catalog()["cards"]}
