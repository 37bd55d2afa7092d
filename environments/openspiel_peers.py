"""OpenSpiel's IS-MCTS as a bot of `kaiten tournament`: a peer's search to measure kaiten's `mcts` by.

Bot names: `openspiel:ismcts` (150 ms of CPU time a decision, about what `mcts` spends: BOTS.md),
`openspiel:ismcts@<ms>ms` for another time budget, `openspiel:ismcts@<n>sims` for a number of
simulations. Only a count of simulations replays the same games for the same seed: how many
simulations fit in a time budget depends on the machine and its load.

**What runs** is OpenSpiel's own `ISMCTSBot` (`open_spiel.python.algorithms.ismcts`), unchanged but
for stopping when its time is up: UCT over information sets, one random rollout per simulation
(`RandomRolloutEvaluator`), the move visited most. IS-MCTS needs sequential dynamics and a state that
resamples, and here it has both in all four games: Spin Some and Derby are sequential, and the
drafting games are searched in their turn-based form (`turn_based=true`, see `openspiel_game`), in
which the picks are the same hidden picks taken one seat after another. OpenSpiel's own
`convert_to_turn_based` cannot resample, so its MCTS would be the fallback; it is needed nowhere (and
it would search the one state it is handed as if every card were face up).

**What it sees**: like every kaiten bot, only its seat's view and legal commands. It deals a full state
from the view with the game's sampler (`domain/<game>/sampler.py`, kaiten's `mcts` deals with the
same), hands that to the search, which resamples it at every simulation, and plays the command
behind the action chosen. Other seats' nodes are keyed by what they saw since the deal, so their
action sets vary between samples (`allow_inconsistent_action_sets`).

**UCT's constant**: OpenSpiel's examples use about 2 for returns in [-1, 1]; returns here are score
differences, so it is scaled per game to a quarter of the greedy bot's mean score in BOTS.md (the
scale kaiten's `mcts` measures a lead by).

Randomness: the search, its rollouts and its resampling draw from one numpy generator seeded from the
bot's `Chance`.
"""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from functools import cache
from typing import Any

import numpy as np
from open_spiel.python.algorithms import ismcts, mcts

from kaiten.domain.chance import Chance
from kaiten.domain.engine import AnyGame, Bot
from kaiten.environments.openspiel_game import GAME_CLASSES, SAMPLERS, KaitenGame, KaitenState

NAME = re.compile(r"openspiel:ismcts(?:@(?P<amount>[1-9][0-9]*)(?P<unit>ms|sims))?")
DEFAULT_MILLISECONDS = 150
UCT_C = {"sushi-go": 14.0, "sushi-go-party": 17.0, "spin-some-for-dim-sum": 5.0, "dim-sum-derby": 1.5}


class OpenSpielPeers:
    """The `BotRegistry` of OpenSpiel's searches (stateless, so it travels to worker processes)."""

    def bot(self, game: AnyGame, name: str) -> Bot | None:
        match = NAME.fullmatch(name)
        if match is None or game.id not in GAME_CLASSES:
            return None
        amount = int(match["amount"] or DEFAULT_MILLISECONDS)
        if match["unit"] == "sims":
            return IsmctsPeer(game.id, simulations=amount, seconds=None)
        return IsmctsPeer(game.id, simulations=None, seconds=amount / 1000)

    def names(self) -> Sequence[str]:
        return ("openspiel:ismcts", "openspiel:ismcts@<ms>ms", "openspiel:ismcts@<n>sims")


#: The search's own model of chance: each draw one node of 64 outcomes, a coarse sample of the deals
#: that costs a rollout one chance node a draw rather than eight (the search draws from a state it
#: dealt itself, with a seed of its own: it learns nothing of the real game's chance from it).
SEARCH_CHANCE = {"chance_outcomes": 64, "chance_nodes": 1}


@cache
def search_game(game_id: str, players: int) -> KaitenGame:
    """The game the search plays: sequential (the drafting games' turn-based form)."""
    cls = GAME_CLASSES[game_id]
    return cls({"players": players, **SEARCH_CHANCE, **({"turn_based": True} if cls.spec.simultaneous else {})})


class IsmctsPeer:
    """One decision of OpenSpiel's IS-MCTS from a seat's view."""

    __slots__ = ("game_id", "seconds", "simulations")

    def __init__(self, game_id: str, *, simulations: int | None, seconds: float | None) -> None:
        self.game_id = game_id
        self.simulations = simulations
        self.seconds = seconds

    def choose(self, view: Any, commands: Sequence[Any], chance: Chance) -> Any:
        if len(commands) == 1:
            return commands[0]
        sampler = SAMPLERS[self.game_id]
        seat = sampler.seat(view)
        dealt = sampler.sample(view, chance)
        game = search_game(self.game_id, dealt.players)
        state = game.state_from(dealt, seat, chance)
        random_state = np.random.RandomState(chance.rng.getrandbits(32))
        search = _Search(
            game,
            mcts.RandomRolloutEvaluator(random_state=random_state),
            UCT_C[self.game_id],
            self.simulations or 2**31,
            random_state=random_state,
            allow_inconsistent_action_sets=True,
            seconds=self.seconds,
        )
        search.set_resampler(lambda resampled, player: resampled.resample_from_infostate(player, random_state.uniform))
        action = int(search.step(state))
        match = state.match
        assert match is not None
        # The real commands, read on the deal: what tells their actions apart is in the seat's view.
        return commands[game.spec.actions_of(match.state, seat, commands).index(action)]


class _OutOfTime(Exception):
    pass


class _Search(ismcts.ISMCTSBot):
    """OpenSpiel's IS-MCTS, stopped when `seconds` of CPU time are spent (it counts only simulations).

    The deadline is checked before each simulation's resampling, so at least two simulations run."""

    def __init__(self, *args: Any, seconds: float | None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._seconds = seconds
        self._deadline = 0.0
        self._done = 0

    def run_search(self, state: KaitenState) -> list[tuple[int, float]]:
        self._deadline = time.process_time() + (self._seconds or 0.0)
        self._done = 0
        try:
            policy: list[tuple[int, float]] = super().run_search(state)
        except _OutOfTime:
            # What OpenSpiel's search does once its simulations are done.
            node = self.filter_illegals(self._root_node, state.legal_actions())
            return list(self.get_final_policy(state, node))
        return policy

    def sample_root_state(self, state: KaitenState) -> KaitenState:
        if self._seconds is not None and self._done >= 2 and time.process_time() >= self._deadline:
            raise _OutOfTime
        self._done += 1
        sampled: KaitenState = super().sample_root_state(state)
        return sampled
