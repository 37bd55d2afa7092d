"""The OpenSpiel games pass OpenSpiel's random simulation test, and OpenSpiel's own searches play them."""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

from adapters.environments.openspiel_game import GAME_CLASSES, KaitenState, short_name
from domain.spin_some.state import SpinState, top
from tests.unit.environments.cases import CASES, SIMULTANEOUS

#: Few simulations and short rollouts: the point is a whole game played by the search, quickly.
SIMULATIONS = 6
ROLLOUT_LENGTH = 30


def load(game: str, players: int, **params: Any) -> Any:
    return pyspiel.load_game(short_name(game), {"players": players, **params})


def test_every_game_is_registered() -> None:
    registered = set(pyspiel.registered_names())
    assert {short_name(game) for game in GAME_CLASSES} <= registered


@pytest.mark.parametrize(("game", "players"), CASES)
def test_random_simulations(game: str, players: int) -> None:
    pyspiel.random_sim_test(load(game, players), num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize(("game", "players"), CASES)
def test_dynamics_follow_the_rules(game: str, players: int) -> None:
    loaded = load(game, players)
    dynamics = loaded.get_type().dynamics
    expected = pyspiel.GameType.Dynamics.SIMULTANEOUS if game in SIMULTANEOUS else pyspiel.GameType.Dynamics.SEQUENTIAL
    assert dynamics == expected
    state = loaded.new_initial_state()
    assert state.is_chance_node()
    state.apply_action(0)
    assert state.is_simultaneous_node() == (game in SIMULTANEOUS)


def play_with_search(game: str, players: int) -> Any:
    """Seat 0 searches (IS-MCTS where it can run, else MCTS); the others play uniformly at random."""
    random_state = np.random.RandomState(1)
    loaded = load(game, players)
    evaluator = mcts.RandomRolloutEvaluator(random_state=random_state, max_length=ROLLOUT_LENGTH)
    if game in SIMULTANEOUS:
        # OpenSpiel's searches need sequential moves: its own transformation takes the picks in turn.
        loaded = pyspiel.convert_to_turn_based(loaded)
    if game == "spin-some-for-dim-sum":
        bot: Any = ismcts.ISMCTSBot(loaded, evaluator, 2.0, SIMULATIONS, random_state=random_state)
    else:
        bot = mcts.MCTSBot(loaded, 2.0, SIMULATIONS, evaluator, random_state=random_state, solve=False)
    state = loaded.new_initial_state()
    searched = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(random_state.choice(outcomes, p=probabilities)))
        elif state.current_player() == 0:
            state.apply_action(int(bot.step(state)))
            searched += 1
        else:
            state.apply_action(int(random_state.choice(state.legal_actions())))
    assert searched > 0
    return state


@pytest.mark.parametrize("game", sorted(GAME_CLASSES))
def test_openspiels_search_plays_a_whole_game(game: str) -> None:
    players = 3 if game == "dim-sum-derby" else 2
    state = play_with_search(game, players)
    returns = state.returns()
    assert len(returns) == players and sum(returns) == pytest.approx(0.0)


def play_until_decision(state: KaitenState, moves: int, random_state: np.random.RandomState) -> KaitenState:
    for _ in range(moves):
        if state.is_chance_node():
            state.apply_action(int(random_state.randint(len(state.chance_outcomes()))))
        state.apply_action(int(random_state.choice(state.legal_actions())))
    while state.is_chance_node():
        state.apply_action(0)
    return state


def test_spin_some_resampling_keeps_what_the_seat_knows_and_redeals_the_rest() -> None:
    state = play_until_decision(load("spin-some-for-dim-sum", 3).new_initial_state(), 5, np.random.RandomState(2))
    seat = state.current_player()
    samples = [state.resample_from_infostate(seat, pyspiel.UniformProbabilitySampler(0.0, 1.0)) for _ in range(5)]
    original = state.match.state
    assert isinstance(original, SpinState)
    for sample in samples:
        assert sample.information_state_string(seat) == state.information_state_string(seat)
        assert sample.legal_actions() == state.legal_actions()
        resampled = sample.match.state
        assert [top(resampled, b) for b in range(6)] == [top(original, b) for b in range(6)]
        assert sorted(card for pile in resampled.piles for card in pile) == sorted(
            card for pile in original.piles for card in pile
        )
    assert any(sample.match.state.piles != original.piles for sample in samples)
    # The original is untouched.
    assert state.match.state is original


def test_derby_does_not_pretend_to_resample() -> None:
    state = play_until_decision(load("dim-sum-derby", 3).new_initial_state(), 1, np.random.RandomState(3))
    with pytest.raises(NotImplementedError):
        state.resample_from_infostate(state.current_player(), pyspiel.UniformProbabilitySampler(0.0, 1.0))


def test_information_states_are_what_each_seat_saw() -> None:
    state = load("sushi-go", 2).new_initial_state()
    state.apply_action(5)
    own, other = state.information_state_string(0), state.information_state_string(1)
    # Each seat sees its own hand and not the other's.
    assert own != other
    assert '"hands":[[' in own and '"hands":[null,[' in other
    assert state.information_state_tensor(0) == pytest.approx(list(state.observation_tensor(0)))
    assert len(state.observation_tensor(1)) == load("sushi-go", 2).observation_tensor_size()


def test_a_chance_outcome_and_a_seed_reproduce_a_game() -> None:
    def dealt(seed: int, outcome: int) -> str:
        state = load("sushi-go", 3, seed=seed).new_initial_state()
        state.apply_action(outcome)
        return str(state)

    assert dealt(0, 3) == dealt(0, 3)
    assert dealt(0, 3) != dealt(0, 4)
    assert dealt(0, 3) != dealt(1, 3)


def test_serialized_states_come_back_equal() -> None:
    loaded = load("dim-sum-derby", 4)
    state = play_until_decision(loaded.new_initial_state(), 12, np.random.RandomState(4))
    again = loaded.deserialize_state(state.serialize())
    assert str(again) == str(state)
    assert again.information_state_string(1) == state.information_state_string(1)
