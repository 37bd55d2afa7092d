"""The PettingZoo environments pass PettingZoo's own API and seed tests, and play kaiten's rules."""

from __future__ import annotations

import random
from collections.abc import Hashable
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, seed_test

from kaiten.domain.catalog import GAMES
from kaiten.domain.chance import Chance
from kaiten.domain.dim_sum_derby import commands as derby_commands
from kaiten.domain.spin_some.commands import Rotate, Take
from kaiten.domain.sushi_go_party import commands as party_commands
from kaiten.environments.games import dim_sum_derby as derby
from kaiten.environments.games import get_spec, sushi_go
from kaiten.environments.games import sushi_go_party as party
from kaiten.environments.match import Match
from kaiten.environments.pettingzoo_env import env, parallel_env
from tests.unit.environments.cases import CASES, SIMULTANEOUS

#: Enough cycles for a whole game of every game (the tests stop at its end).
CYCLES = 400

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


@pytest.mark.parametrize(("game", "players"), CASES)
def test_api(game: str, players: int) -> None:
    api_test(env(game, players), num_cycles=CYCLES)


@pytest.mark.parametrize(("game", "players"), CASES)
def test_seed(game: str, players: int) -> None:
    seed_test(lambda: env(game, players), num_cycles=CYCLES)


@pytest.mark.parametrize(("game", "players"), [case for case in CASES if case[0] in SIMULTANEOUS])
def test_parallel_api(game: str, players: int) -> None:
    parallel_api_test(parallel_env(game, players), num_cycles=CYCLES)


def test_a_seed_deals_what_kaitens_chance_deals() -> None:
    table = env("sushi-go", 3)
    table.reset(seed=7)
    spec = get_spec("sushi-go")
    expected, _ = Match.start(spec, 3, GAMES["sushi-go"].options_type(), Chance(7, 0))
    assert table.match is not None and table.match.state == expected.state
    table.reset(seed=8)
    assert table.match.state != expected.state


def random_game(game: str, players: int, seed: int) -> Any:
    """Yield (environment, agent, observation) at every decision of a game of random legal actions."""
    table = env(game, players)
    table.reset(seed=seed)
    rng = random.Random(seed)
    for agent in table.agent_iter():
        observation, _, terminated, _, _ = table.last()
        if terminated:
            table.step(None)
            continue
        yield table, agent, observation
        table.step(rng.choice(np.flatnonzero(observation["action_mask"]).tolist()))


@pytest.mark.parametrize(("game", "players"), CASES)
def test_legal_actions_and_commands_match_one_to_one(game: str, players: int) -> None:
    spec = get_spec(game)
    for table, agent, observation in random_game(game, players, seed=3):
        match = table.match
        seat = table.seat_of[agent]
        mask = set(np.flatnonzero(observation["action_mask"]).tolist())
        commands = GAMES[game].legal_commands(match.state, seat)
        # Every legal command has an action, and each legal action is one of them ...
        assert set(spec.actions_of(match.state, seat, commands)) == mask
        # ... whose command maps back to it.
        for action in mask:
            assert match.command(seat, action) in commands
            assert spec.actions_of(match.state, seat, [match.command(seat, action)]) == [action]
        assert observation["observation"].shape == (spec.observation_size(players),)
        # A seat the game does not await has no legal action.
        for other in set(range(players)) - set(match.awaiting()):
            assert not table.observe(f"player_{other}")["action_mask"].any()


def documented_key(game: str, state: Any, seat: int, command: Any) -> Hashable:
    """The key of a command's action as the game's module documents it, for the commands whose action
    the module works out by arithmetic (the others go through the module's own `_key`)."""
    kind = type(command)
    if game == "sushi-go":
        return tuple(sushi_go.KIND[card] for card in command.cards)
    if game == "spin-some-for-dim-sum":
        return ("take",) if kind is Take else ("rotate" if kind is Rotate else "return-bun", command.steps)
    if game == "sushi-go-party" and kind is party_commands.Pick:
        call = 0 if command.call is None else party.CALLS.index(party._tableau_slug(state, seat, command.call))
        return ("pick", party.SLUG_INDEX[party.SLUG[command.card]], call)
    if game == "dim-sum-derby":
        simple = {derby_commands.Rotate: "rotate", derby_commands.Serve: "serve", derby_commands.Cycle: "cycle"}
        if kind in simple or kind is derby_commands.DrawDerby:
            return (simple.get(kind, "draw-derby"),)
        if kind is derby_commands.Eat:
            return ("eat", state.table.index(command.dish))
        if kind is derby_commands.DiscardDerby:
            return ("discard-derby", derby.DERBY_KIND[command.card])
    return get_spec(game)._key(state, seat, command)  # type: ignore[attr-defined]


@pytest.mark.parametrize(("game", "players"), CASES)
def test_each_legal_command_has_the_action_of_its_documented_key(game: str, players: int) -> None:
    spec = get_spec(game)
    keys = spec.actions(players).keys
    for table, agent, _ in random_game(game, players, seed=4):
        match = table.match
        seat = table.seat_of[agent]
        commands = GAMES[game].legal_commands(match.state, seat)
        for command, action in zip(commands, spec.actions_of(match.state, seat, commands), strict=True):
            assert keys[action] == documented_key(game, match.state, seat, command)


@pytest.mark.parametrize(("game", "players"), CASES)
def test_rewards_come_at_the_end_as_score_differences(game: str, players: int) -> None:
    table = env(game, players)
    table.reset(seed=5)
    rng = np.random.default_rng(5)
    earned = dict.fromkeys(table.possible_agents, 0.0)
    for agent in table.agent_iter():
        observation, reward, terminated, _, _ = table.last()
        earned[agent] += reward
        if terminated:
            table.step(None)
            continue
        assert reward == 0.0
        table.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    result = table.match.result()
    assert result is not None
    totals = {f"player_{score.seat}": score.total for score in result.scores}
    for agent, total in totals.items():
        others = [other for name, other in totals.items() if name != agent]
        assert earned[agent] == pytest.approx(total - sum(others) / len(others))
    assert sum(earned.values()) == pytest.approx(0.0)


def test_an_illegal_action_is_refused() -> None:
    table = env("spin-some-for-dim-sum", 2)
    table.reset(seed=1)
    observation = table.observe(table.agent_selection)
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match="not legal"):
        table.step(illegal)


@pytest.mark.parametrize("game", sorted(SIMULTANEOUS))
def test_a_hidden_pick_changes_nothing_another_seat_observes(game: str) -> None:
    observations = []
    for choice in (0, -1):
        table = env(game, 3)
        table.reset(seed=11)
        first = table.agent_selection
        legal = np.flatnonzero(table.observe(first)["action_mask"])
        assert len(legal) > 1
        table.step(int(legal[choice]))
        assert table.agent_selection != first
        observations.append(table.observe(table.agent_selection)["observation"])
    assert np.array_equal(observations[0], observations[1])


def test_refusals() -> None:
    with pytest.raises(ValueError, match="players"):
        env("dim-sum-derby", 2)
    with pytest.raises(ValueError, match="simultaneous"):
        parallel_env("spin-some-for-dim-sum", 2)
    with pytest.raises(ValueError, match="no environment"):
        env("go-fish", 2)


def test_render_shows_the_table_as_text() -> None:
    table = env("dim-sum-derby", 3, render_mode="ansi")
    table.reset(seed=2)
    text = table.render()
    assert isinstance(text, str) and "seat 2" in text and "cart" in text


def test_party_options_reach_the_game() -> None:
    table = env("sushi-go-party", 4, options={"menu": "master-menu"})
    table.reset(seed=1)
    assert table.match is not None and table.match.state.menu.id == "master-menu"


# --- illegal actions: raised, or a penalty that ends the game ----------------------------------------

#: One case per game: 2 players (Dim Sum Derby 3).
SMALLEST = [(game, players) for game, players in CASES if players == min(p for g, p in CASES if g == game)]


@pytest.mark.parametrize(("game", "players"), [case for case in CASES if case[0] in SIMULTANEOUS])
def test_parallel_seed_with_penalties(game: str, players: int) -> None:
    # PettingZoo's parallel seed test samples actions without the mask.
    parallel_seed_test(lambda: parallel_env(game, players, illegal_action="penalty"), num_cycles=CYCLES)


@pytest.mark.parametrize("game", sorted(SIMULTANEOUS))
def test_parallel_seed_without_penalties_raises(game: str) -> None:
    with pytest.raises(ValueError, match="not legal"):
        parallel_seed_test(lambda: parallel_env(game, 2), num_cycles=CYCLES)


@pytest.mark.parametrize(("game", "players"), SMALLEST)
def test_api_and_seed_with_penalties(game: str, players: int) -> None:
    api_test(env(game, players, illegal_action="penalty"), num_cycles=CYCLES)
    seed_test(lambda: env(game, players, illegal_action="penalty"), num_cycles=CYCLES)


def unmasked_game(table: Any, seed: int) -> tuple[dict[str, float], dict[str, dict[str, Any]]]:
    """An AEC game of actions sampled without the mask: each agent's rewards and last infos."""
    table.reset(seed=seed)
    for agent in table.possible_agents:
        table.action_space(agent).seed(seed)
    earned = dict.fromkeys(table.possible_agents, 0.0)
    infos: dict[str, dict[str, Any]] = {}
    for agent in table.agent_iter():
        _, reward, terminated, truncated, info = table.last()
        earned[agent] += reward
        infos[agent] = info
        table.step(None if terminated or truncated else table.action_space(agent).sample())
    return earned, infos


@pytest.mark.parametrize(("game", "players"), SMALLEST)
def test_an_illegal_action_ends_the_game_with_a_penalty(game: str, players: int) -> None:
    table = env(game, players, illegal_action="penalty")
    earned, infos = unmasked_game(table, seed=3)
    assert table.agents == []
    offenders = [agent for agent, info in infos.items() if "illegal_action" in info]
    assert len(offenders) == 1
    penalty = -get_spec(game).utility_bound
    assert earned == {agent: penalty if agent in offenders else 0.0 for agent in table.possible_agents}
    # The game itself was not played on.
    assert table.match is not None and table.match.result() is None


def test_the_penalty_is_a_choice() -> None:
    table = env("sushi-go", 2, illegal_action="penalty", illegal_reward=-1.0)
    earned, _ = unmasked_game(table, seed=4)
    assert sorted(earned.values()) == [-1.0, 0.0]
    with pytest.raises(ValueError, match="illegal_action"):
        env("sushi-go", 2, illegal_action="ignore")


@pytest.mark.parametrize("game", sorted(SIMULTANEOUS))
def test_parallel_illegal_actions_end_the_game_with_penalties(game: str) -> None:
    table = parallel_env(game, 3, illegal_action="penalty", illegal_reward=-7.0)
    observations, _ = table.reset(seed=2)
    actions = {}
    for agent, observation in observations.items():
        legal = np.flatnonzero(observation["action_mask"])
        actions[agent] = int(legal[0])
    illegal = np.flatnonzero(observations["player_1"]["action_mask"] == 0)
    actions["player_1"] = int(illegal[0])
    before = table.match.state
    _, rewards, terminations, truncations, infos = table.step(actions)
    assert rewards == {"player_0": 0.0, "player_1": -7.0, "player_2": 0.0}
    assert all(terminations.values()) and not any(truncations.values())
    assert infos["player_1"] == {"illegal_action": actions["player_1"]} and infos["player_0"] == {}
    assert table.agents == [] and table.match.state is before
    # By default the step is refused, and nothing is played.
    table = parallel_env(game, 3)
    table.reset(seed=2)
    before = table.match.state
    with pytest.raises(ValueError, match="not legal"):
        table.step(actions)
    assert table.match.state is before
