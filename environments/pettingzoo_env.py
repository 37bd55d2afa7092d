"""PettingZoo environments for every game: `env(game, players)` (AEC) and, for the games whose picks are
simultaneous (Sushi Go!, Sushi Go Party!), `parallel_env(game, players)`. Both take the game's
creation `options`, `render_mode`, and what an illegal action does (`illegal_action`,
`illegal_reward`).

- Agents are `player_0` .. `player_{n-1}` (seat i).
- Each observation is `{"observation": float32 vector, "action_mask": int8 vector}`: the seat's own
  view encoded as described in the game's module under `games/`, and a 1 for each legal action.
  A seat the game does not await has an all-zero mask.
- Actions are `Discrete(n)` over the game's fixed action space (`games/<game>.py`).
- **An illegal action** (one the mask does not allow, or no action for a seat that must act) raises
  `ValueError` and plays nothing (`illegal_action="raise"`, the default). With
  `illegal_action="penalty"` it ends the game instead, as PettingZoo's classic environments do: every
  agent is terminated, the agent that acted illegally gets `illegal_reward` (default: minus the game's
  utility bound, below any score difference the game can end with) and an info
  `{"illegal_action": action}`, the others 0; nothing is played. That lets tests and learners that
  sample without the mask (PettingZoo's `parallel_seed_test`) run.
- **Rewards** come once, when the game ends: each seat's final total minus the mean of the other
  seats' totals (so they sum to zero); 0 before.
- Turn order (AEC): the lowest awaited seat acts next. Simultaneous picks are sent one seat at a time;
  a pick is hidden from the others until every seat has picked, exactly as in the service.
- Parallel: each `step` plays the commands of every awaited seat (all seats at a pick; one seat at a
  Party bonus action) and ignores the actions of the other agents.
- `reset(seed=s)` draws from kaiten's `Chance(s, version)`, `version` the number of the game's events
  so far (from its setup), so a seed reproduces a game of this environment; `reset()` draws a fresh
  seed. It is not the deal of a service game created with seed `s`: the service draws from its chance
  key (the seed hashed with the game's secret salt) and counts the lobby's events in the version.
- `render()` returns (render_mode "ansi") or prints ("human") the whole table as text.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, Literal

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv

from kaiten.domain.chance import Chance
from kaiten.domain.lobby import parse_options
from kaiten.environments.games import get_spec
from kaiten.environments.match import Match
from kaiten.environments.spec import GameSpec

#: No observed number (counts, scores, sizes) comes near this.
OBSERVATION_BOUND = 1000.0
Observation = dict[str, np.ndarray[Any, Any]]
#: What an illegal action does: raise ValueError, or end the game with a penalty for the agent.
IllegalAction = Literal["raise", "penalty"]


class _Table:
    """What both APIs share: the game, its spaces, the match in progress, observations and render."""

    def __init__(
        self,
        game: str,
        players: int,
        options: Mapping[str, Any] | None,
        render_mode: str | None,
        illegal_action: IllegalAction,
        illegal_reward: float | None,
    ) -> None:
        spec = get_spec(game)
        if not spec.game.min_players <= players <= spec.game.max_players:
            raise ValueError(
                f"{spec.game.name} takes {spec.game.min_players} to {spec.game.max_players} players, not {players}"
            )
        if render_mode not in (None, "human", "ansi"):
            raise ValueError(f"render_mode must be None, 'human' or 'ansi', not {render_mode!r}")
        if illegal_action not in ("raise", "penalty"):
            raise ValueError(f"illegal_action must be 'raise' or 'penalty', not {illegal_action!r}")
        self.spec: GameSpec = spec
        self.illegal_action = illegal_action
        self.illegal_reward = -spec.utility_bound if illegal_reward is None else float(illegal_reward)
        self.players = players
        self.game_options = parse_options(spec.game, options, players)
        self.render_mode = render_mode
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        self.seat_of = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        actions = self.action_count = len(spec.actions(players))
        observation = spaces.Box(
            -OBSERVATION_BOUND, OBSERVATION_BOUND, (spec.observation_size(players),), dtype=np.float32
        )
        mask = spaces.Box(0, 1, (actions,), dtype=np.int8)
        self.observation_spaces = {
            agent: spaces.Dict({"observation": observation, "action_mask": mask}) for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(actions) for agent in self.possible_agents}
        self.game_seed = 0
        self.match: Match | None = None
        #: One for every game this environment deals (an environment is used from one thread).
        self._observer = spec.observer(players)

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def _deal(self, seed: int | None) -> Match:
        self.game_seed = random.SystemRandom().getrandbits(63) if seed is None else seed
        match, _ = Match.start(self.spec, self.players, self.game_options, Chance(self.game_seed, 0), self._observer)
        self.match = match
        return match

    def _play(self, seat: int, command: Any) -> None:
        assert self.match is not None
        self.match.play(seat, command, Chance(self.game_seed, self.match.version))

    def _command(self, seat: int, action: int | None) -> Any:
        """The command behind the seat's action; None for an illegal action under penalties (ValueError
        otherwise)."""
        assert self.match is not None, "reset() the environment first"
        try:
            if action is None:
                raise ValueError(f"{self.possible_agents[seat]} must act: None is no action")
            return self.match.command(seat, int(action))
        except ValueError:
            if self.illegal_action == "raise":
                raise
            return None

    def _observe(self, agent: str) -> Observation:
        match = self.match
        assert match is not None, "reset() the environment first"
        seat = self.seat_of[agent]
        # Set in a bytearray and handed to numpy without a copy: cheaper than numpy's fancy indexing
        # for a few legal actions. A seat the game does not await has no legal command.
        mask = bytearray(self.action_count)
        for action in match.legal_actions(seat):
            mask[action] = 1
        return {"observation": self._observer(match.state, seat), "action_mask": np.frombuffer(mask, np.int8)}

    def render(self) -> str | None:
        if self.render_mode is None or self.match is None:
            return None
        text = self.spec.render(self.match.state)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        self.match = None


class KaitenAECEnv(_Table, AECEnv[str, Observation, int | None]):
    """One game as an AEC environment: the lowest awaited seat acts next."""

    metadata = {"render_modes": ["human", "ansi"], "name": "kaiten_v0", "is_parallelizable": False}

    def __init__(
        self,
        game: str,
        players: int,
        options: Mapping[str, Any] | None = None,
        render_mode: str | None = None,
        illegal_action: IllegalAction = "raise",
        illegal_reward: float | None = None,
    ) -> None:
        _Table.__init__(self, game, players, options, render_mode, illegal_action, illegal_reward)
        AECEnv.__init__(self)
        self.metadata = {**self.metadata, "name": f"kaiten_{game.replace('-', '_')}_v0"}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        match = self._deal(seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[match.awaiting()[0]]

    # Without a frame in between: `last()` calls it at every step.
    observe = _Table._observe

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        match = self.match
        assert match is not None
        seat = self.seat_of[agent]
        command = self._command(seat, action)
        self._cumulative_rewards[agent] = 0.0
        if command is None:
            # The game ends: the agent that acted illegally pays, nothing is played.
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self.rewards[agent] = self.illegal_reward
            self.terminations = dict.fromkeys(self.agents, True)
            self.infos[agent] = {**self.infos[agent], "illegal_action": action}
            self._accumulate_rewards()
            return
        match.play(seat, command, Chance(self.game_seed, match.version))
        if match.result() is None:
            # Rewards are all zero until the end, as reset() left them: nothing to set or add.
            self.agent_selection = self.possible_agents[match.awaiting()[0]]
        else:
            self.rewards = dict(zip(self.possible_agents, match.score_differences(), strict=True))
            self.terminations = dict.fromkeys(self.agents, True)
            self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()


class KaitenParallelEnv(_Table, ParallelEnv[str, Observation, int]):
    """A game with simultaneous picks as a Parallel environment: one step per decision point."""

    metadata = {"render_modes": ["human", "ansi"], "name": "kaiten_parallel_v0"}

    def __init__(
        self,
        game: str,
        players: int,
        options: Mapping[str, Any] | None = None,
        render_mode: str | None = None,
        illegal_action: IllegalAction = "raise",
        illegal_reward: float | None = None,
    ) -> None:
        _Table.__init__(self, game, players, options, render_mode, illegal_action, illegal_reward)
        if not self.spec.simultaneous:
            raise ValueError(f"{self.spec.game.name} has no simultaneous picks: use the AEC env()")
        self.metadata = {**self.metadata, "name": f"kaiten_{game.replace('-', '_')}_parallel_v0"}
        self.agents: list[str] = []

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Observation], dict[str, dict[str, Any]]]:
        self._deal(seed)
        self.agents = list(self.possible_agents)
        return {agent: self._observe(agent) for agent in self.agents}, {agent: {} for agent in self.agents}

    def step(
        self, actions: dict[str, int]
    ) -> tuple[
        dict[str, Observation],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, dict[str, Any]],
    ]:
        match = self.match
        assert match is not None, "reset() the environment first"
        # Every awaited seat's command is read off the same state: picks do not see each other. All
        # are checked before any is played.
        agents = self.agents
        infos: dict[str, dict[str, Any]] = {agent: {} for agent in agents}
        commands = []
        for seat in match.awaiting():
            agent = self.possible_agents[seat]
            command = self._command(seat, actions.get(agent))
            if command is None:
                infos[agent] = {"illegal_action": actions.get(agent)}
            commands.append((seat, command))
        if any(command is None for _, command in commands):
            # The game ends: the agents that acted illegally pay, nothing is played.
            over = True
            rewards = {agent: self.illegal_reward if infos[agent] else 0.0 for agent in agents}
        else:
            for seat, command in commands:
                self._play(seat, command)
            over = match.result() is not None
            rewards = dict(zip(self.possible_agents, match.score_differences(), strict=True))
        observations = {agent: self._observe(agent) for agent in agents}
        terminations = dict.fromkeys(agents, over)
        truncations = dict.fromkeys(agents, False)
        if over:
            self.agents = []
        if self.render_mode == "human":
            self.render()
        return observations, {agent: rewards[agent] for agent in agents}, terminations, truncations, infos


def env(
    game: str,
    players: int,
    options: Mapping[str, Any] | None = None,
    render_mode: str | None = None,
    illegal_action: IllegalAction = "raise",
    illegal_reward: float | None = None,
) -> KaitenAECEnv:
    """The AEC environment of a game (`sushi-go`, `sushi-go-party`, `spin-some-for-dim-sum`, `dim-sum-derby`)."""
    return KaitenAECEnv(game, players, options, render_mode, illegal_action, illegal_reward)


def parallel_env(
    game: str,
    players: int,
    options: Mapping[str, Any] | None = None,
    render_mode: str | None = None,
    illegal_action: IllegalAction = "raise",
    illegal_reward: float | None = None,
) -> KaitenParallelEnv:
    """The Parallel environment of a game with simultaneous picks (`sushi-go`, `sushi-go-party`)."""
    return KaitenParallelEnv(game, players, options, render_mode, illegal_action, illegal_reward)
