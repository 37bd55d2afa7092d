"""The games and player counts every environment test covers: 2 (3 for Dim Sum Derby) and the maximum."""

from __future__ import annotations

from kaiten.domain.catalog import GAMES

CASES: list[tuple[str, int]] = [
    (game_id, players)
    for game_id, game in sorted(GAMES.items())
    for players in sorted({max(2, game.min_players), game.max_players})
]
SIMULTANEOUS = {"sushi-go", "sushi-go-party"}
