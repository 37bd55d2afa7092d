"""The registry of games the engine knows, by id, and what their bots are."""

from __future__ import annotations

from domain.dim_sum_derby.game import DIM_SUM_DERBY
from domain.engine import Game, RuleViolation
from domain.spin_some.game import SPIN_SOME_FOR_DIM_SUM
from domain.sushi_go.game import SUSHI_GO
from domain.sushi_go_party.game import SUSHI_GO_PARTY

GAMES: dict[str, Game] = {game.id: game for game in (SUSHI_GO, SUSHI_GO_PARTY, SPIN_SOME_FOR_DIM_SUM, DIM_SUM_DERBY)}


def get_game(game_id: str) -> Game:
    try:
        return GAMES[game_id]
    except KeyError:
        raise RuleViolation("unknown-game", f"no game {game_id!r}; the catalog has {sorted(GAMES)}") from None


#: What each bot name stands for, in every game that has it: (display name, description).
BOT_DESCRIPTIONS: dict[str, tuple[str, str]] = {
    "random": ("Random", "Any legal command, uniformly at random."),
    "greedy": ("Greedy", "The command that looks best right now, by a hand-written estimate of its worth."),
    "mcts": (
        "MCTS",
        "Information-set Monte Carlo tree search: it deals the cards it cannot see in many ways and plays "
        "each deal out with greedy players; never peeks; about 200 ms a decision.",
    ),
    "mcts:strong": ("MCTS (strong)", "The same search with five times the budget: well under a second a decision."),
}
