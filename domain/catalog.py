"""The registry of games the engine knows, by id, and what their bots are."""

from __future__ import annotations

from kaiten.domain.dim_sum_derby.game import DIM_SUM_DERBY
from kaiten.domain.engine import AnyGame, RuleViolation
from kaiten.domain.spin_some.game import SPIN_SOME_FOR_DIM_SUM
from kaiten.domain.sushi_go.game import SUSHI_GO
from kaiten.domain.sushi_go_party.game import SUSHI_GO_PARTY

GAMES: dict[str, AnyGame] = {game.id: game for game in (SUSHI_GO, SUSHI_GO_PARTY, SPIN_SOME_FOR_DIM_SUM, DIM_SUM_DERBY)}


def get_game(game_id: str) -> AnyGame:
    try:
        return GAMES[game_id]
    except KeyError:
        raise RuleViolation("unknown-game", f"no game {game_id!r}; the catalog has {sorted(GAMES)}") from None


#: How people call each bot (a bot's description is its factory's docstring).
BOT_NAMES: dict[str, str] = {"random": "Random", "greedy": "Greedy", "mcts": "MCTS", "mcts:strong": "MCTS (strong)"}


def package_of(game: AnyGame) -> str:
    """The dotted name of the game's package (its view type lives in the package's `view` module)."""
    return game.view_type.__module__.rpartition(".")[0]
