"""The per-game parts of the environments (action spaces, observation encodings, text), by game id."""

from __future__ import annotations

from kaiten.environments.games import dim_sum_derby, spin_some, sushi_go, sushi_go_party
from kaiten.environments.spec import GameSpec

SPECS: dict[str, GameSpec] = {
    spec.game.id: spec for spec in (sushi_go.SPEC, sushi_go_party.SPEC, spin_some.SPEC, dim_sum_derby.SPEC)
}


def get_spec(game_id: str) -> GameSpec:
    try:
        return SPECS[game_id]
    except KeyError:
        raise ValueError(f"no environment for game {game_id!r}; try one of {sorted(SPECS)}") from None
