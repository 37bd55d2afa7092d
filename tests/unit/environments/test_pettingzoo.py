"""The PettingZoo environments pass PettingZoo's own API and seed tests, and play kaiten's rules."""

from __future__ import annotations

import random
from collections.abc import Hashable
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test, seed_test

from adapters.environments.games import dim_sum_derby as derby
from adapters.environments.games import get_spec, sushi_go
from adapters.environments.games import sushi_go_party as party
from adapters.environments.match import Match
from adapters.environments.pettingzoo_env import env, parallel_env
from domain.catalog import GAMES
from domain.chance import Chance
from domain.dim_sum_derby import commands as derby_commands
from domain.spin_some.commands import Rotate, Take
from domain.sushi_go_party import commands as party_commands
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
