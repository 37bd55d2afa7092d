"""The registry of games the engine knows, by id."""

from __future__ import annotations

from domain.engine import Game, RuleViolation
from domain.sushi_go.game import SUSHI_GO

GAMES: dict[str, Game] = {game.id: game for game in (SUSHI_GO,)}


def get_game(game_id: str) -> Game:
    try:
        return GAMES[game_id]
    except KeyError:
        raise RuleViolation("unknown-game", f"no game {game_id!r}; the catalog has {sorted(GAMES)}") from None
