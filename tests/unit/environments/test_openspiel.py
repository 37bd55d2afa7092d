"""The OpenSpiel games pass OpenSpiel's random simulation test, and OpenSpiel's own searches play them."""

from __future__ import annotations

import json
import pickle
from collections.abc import Iterator
from typing import Any

import msgspec
import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts
from open_spiel.python.observation import make_observation

from kaiten.domain.chance import Chance
from kaiten.domain.lobby import parse_options
from kaiten.environments.match import Match
from kaiten.environments.openspiel_game import GAME_CLASSES, KaitenState, short_name
from tests.unit.environments.cases import CASES, SIMULTANEOUS
from tests.unit.environments.layouts import LAYOUTS

#: Few simulations and short rollouts: the point is a whole game played by the search, quickly.
SIMULATIONS = 6
ROLLOUT_LENGTH = 30


def load(game: str, players: int, **params: Any) -> Any:
    return pyspiel.load_game(short_name(game), {"players": players, **params})


def deal(loaded: Any, outcomes: Iterator[int]) -> Any:
    """The state at the first decision, the setup's chance nodes given these outcomes."""
    state = loaded.new_initial_state()
    while state.is_chance_node():
        state.apply_action(next(outcomes))
    return state


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
    state = deal(loaded, iter(range(100)))
    assert state.is_simultaneous_node() == (game in SIMULTANEOUS)


@pytest.mark.parametrize(("game", "players"), CASES)
def test_an_observation_without_private_information_is_the_spectators_view_from_the_seat(
    game: str, players: int
) -> None:
    loaded = load(game, players)
    public = pyspiel.IIGObservationType(
        perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.NONE
    )
    observation = make_observation(loaded, public)
    state = deal(loaded, iter(range(100)))
    match = state.match
    for seat in range(players):
        observation.set_from(state, seat)
        expected = LAYOUTS[game](match.view(None), seat, players)
        assert np.array_equal(observation.tensor, np.array(expected, np.float32))


@pytest.mark.parametrize(("game", "players"), [case for case in CASES if case[0] in SIMULTANEOUS])
def test_the_drafting_games_turn_based_form_is_a_sequential_game(game: str, players: int) -> None:
    loaded = load(game, players, turn_based=True)
    assert loaded.get_type().dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    pyspiel.random_sim_test(loaded, num_sims=1, serialize=True, verbose=False)


def play_with_search(game: str, players: int, search: str) -> Any:
    """Seat 0 searches; the others play uniformly at random. IS-MCTS needs sequential moves and a state
    that resamples: it plays the drafting games' turn-based form; MCTS plays OpenSpiel's transformation."""
    random_state = np.random.RandomState(1)
    evaluator = mcts.RandomRolloutEvaluator(random_state=random_state, max_length=ROLLOUT_LENGTH)
    if search == "ismcts":
        loaded = load(game, players, **({"turn_based": True} if game in SIMULTANEOUS else {}))
        bot: Any = ismcts.ISMCTSBot(
            loaded, evaluator, 2.0, SIMULATIONS, random_state=random_state, allow_inconsistent_action_sets=True
        )
    else:
        loaded = pyspiel.convert_to_turn_based(load(game, players))
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


@pytest.mark.parametrize(
    ("game", "search"),
    [(game, "ismcts") for game in sorted(GAME_CLASSES)] + [(game, "mcts") for game in sorted(SIMULTANEOUS)],
)
def test_openspiels_search_plays_a_whole_game(game: str, search: str) -> None:
    players = 3 if game == "dim-sum-derby" else 2
    state = play_with_search(game, players, search)
    returns = state.returns()
    assert len(returns) == players and sum(returns) == pytest.approx(0.0)


def play_until_decision(state: KaitenState, moves: int, random_state: np.random.RandomState) -> KaitenState:
    """The state after `moves` random decisions (chance outcomes at random too), at a decision."""
    while moves or state.is_chance_node():
        if state.is_chance_node():
            state.apply_action(int(random_state.randint(len(state.chance_outcomes()))))
            continue
        if state.is_simultaneous_node():
            players = range(state.num_players())
            state.apply_actions([int(random_state.choice(state.legal_actions(seat))) for seat in players])
        else:
            state.apply_action(int(random_state.choice(state.legal_actions())))
        moves -= 1
    return state


#: Every game and player count, the drafting games in both forms (simultaneous and turn-based).
RESAMPLING = [(game, players, False) for game, players in CASES] + [
    (game, players, True) for game, players in CASES if game in SIMULTANEOUS
]


def cards(game: str, dealt: Any) -> list[int]:
    """Every card of a game state, wherever it lies (sorted)."""
    places: list[Any]
    if game == "sushi-go":
        places = [dealt.deck, *dealt.hands, *dealt.tableaus, *dealt.puddings, dealt.discards]
    elif game == "sushi-go-party":
        places = [dealt.deck, dealt.dessert_pile, *dealt.hands, dealt.discard, dealt.drawn]
        places += [[entry[0] for entry in tableau] for tableau in dealt.tableaus]
        places += [[card for card, _ in fridge] for fridge in dealt.fridges]
    elif game == "spin-some-for-dim-sum":
        places = [pile[depth:] for pile, depth in zip(dealt.piles, dealt.depth, strict=True)] + list(dealt.menus)
    else:
        # Derby's card kinds are numbered apart: tell dishes, yen cards and Derby cards from each other.
        dishes = [*dealt.carts, *dealt.dish_discards, dealt.table]
        places = [[("dish", card) for card in place] for place in dishes]
        places += [[("yen", card) for card in place] for place in (*dealt.yen, *dealt.yen_decks)]
        places += [
            [("derby", card) for card in place] for place in (*dealt.hands, dealt.derby_deck, dealt.derby_discard)
        ]
    return sorted(card for place in places for card in place)


def seats_to_play(state: KaitenState) -> list[int]:
    if state.is_simultaneous_node():
        return list(range(state.num_players()))
    return [state.current_player()]


def decisions(game: str, players: int, turn_based: bool, random_state: np.random.RandomState) -> Iterator[KaitenState]:
    """The decisions of one game played at random, in order."""
    params = {"turn_based": True} if turn_based else {}
    state = load(game, players, **params).new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(int(random_state.randint(len(state.chance_outcomes()))))
            continue
        yield state
        if state.is_simultaneous_node():
            state.apply_actions([int(random_state.choice(state.legal_actions(seat))) for seat in range(players)])
        else:
            state.apply_action(int(random_state.choice(state.legal_actions())))


@pytest.mark.parametrize(("game", "players", "turn_based"), RESAMPLING)
def test_resampling_keeps_what_the_seat_knows_and_redeals_the_rest(game: str, players: int, turn_based: bool) -> None:
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    redealt = 0
    for at, state in enumerate(decisions(game, players, turn_based, np.random.RandomState(5))):
        if at % 5:
            continue
        original = state.match.state
        before = str(state)
        for seat in seats_to_play(state):
            samples = [state.resample_from_infostate(seat, sampler) for _ in range(4)]
            for sample in samples:
                assert sample.current_player() == state.current_player()
                assert sample.information_state_string(seat) == state.information_state_string(seat)
                assert sample.information_state_tensor(seat) == state.information_state_tensor(seat)
                assert sample.observation_tensor(seat) == state.observation_tensor(seat)
                assert sample.legal_actions(seat) == state.legal_actions(seat)
                assert cards(game, sample.match.state) == cards(game, original)
            dealt = {msgspec.json.encode(sample.match.state) for sample in samples}
            redealt += len(dealt) > 1
        # The original is untouched.
        assert state.match.state is original and str(state) == before
    # Something is always hidden from a seat in these games: its draws differ.
    assert redealt > 0


def test_a_resampled_state_plays_on_to_the_end() -> None:
    state = next(iter(decisions("dim-sum-derby", 3, False, np.random.RandomState(6))))
    sample = state.resample_from_infostate(state.current_player(), pyspiel.UniformProbabilitySampler(0.0, 1.0))
    random_state = np.random.RandomState(7)
    while not sample.is_terminal():
        outcomes = [outcome for outcome, _ in sample.chance_outcomes()] if sample.is_chance_node() else None
        sample.apply_action(int(random_state.choice(outcomes or sample.legal_actions())))
    assert sum(sample.returns()) == pytest.approx(0.0)


def test_other_seats_see_the_public_log_in_a_resampled_state() -> None:
    state = next(iter(decisions("dim-sum-derby", 3, False, np.random.RandomState(6))))
    seat = state.current_player()
    other = (seat + 1) % 3
    sample = state.resample_from_infostate(seat, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert sample.information_state_string(other) == state.information_log(None)
    assert sample.information_state_string(other) != state.information_state_string(other)


def test_information_states_are_what_each_seat_saw() -> None:
    state = deal(load("sushi-go", 2), iter(range(5, 100)))
    own, other = state.information_state_string(0), state.information_state_string(1)
    # Each seat sees its own hand and not the other's.
    assert own != other
    assert '"hands":[[' in own and '"hands":[null,[' in other
    assert state.information_state_tensor(0) == pytest.approx(list(state.observation_tensor(0)))
    assert len(state.observation_tensor(1)) == load("sushi-go", 2).observation_tensor_size()


def test_chance_outcomes_and_a_seed_reproduce_a_game() -> None:
    def dealt(seed: int, outcome: int, **params: Any) -> str:
        return str(deal(load("sushi-go", 3, seed=seed, **params), iter([outcome] * 8)))

    assert dealt(0, 3) == dealt(0, 3)
    assert dealt(0, 3) != dealt(0, 4)
    assert dealt(0, 3) != dealt(1, 3)
    # The eight outcomes are the digits of the key of kaiten's `Chance(seed, move, key)`; one node of
    # a few outcomes is a coarser sample of the same draws (outcome k: key k).
    spec = GAME_CLASSES["sushi-go"].spec
    options = spec.game.options_type()
    key = sum(3 * 256**digit for digit in range(8))
    assert dealt(0, 3) == spec.render(Match.start(spec, 3, options, Chance(0, 8, key))[0].state)
    coarse = {"chance_outcomes": 64, "chance_nodes": 1}
    assert dealt(5, 3, **coarse) == spec.render(Match.start(spec, 3, options, Chance(5, 1, 3))[0].state)


def test_serialized_states_come_back_equal() -> None:
    loaded = load("dim-sum-derby", 4)
    state = play_until_decision(loaded.new_initial_state(), 12, np.random.RandomState(4))
    again = loaded.deserialize_state(state.serialize())
    assert str(again) == str(state)
    assert again.information_state_string(1) == state.information_state_string(1)


# --- game parameters round-trip through the game string ------------------------------------------

#: Options with several keys and a custom menu: their JSON has the commas, and a menu the brackets,
#: that OpenSpiel's game-string parser splits on.
PARTY_OPTIONS = [
    {"menu": "master-menu", "pass_both_ways": True},
    {
        "menu": {
            "roll": "temaki",
            "appetizers": ["tempura", "sashimi", "miso-soup"],
            "specials": ["wasabi", "tea"],
            "dessert": "fruit",
        },
        "pass_both_ways": True,
    },
]


@pytest.mark.parametrize("options", PARTY_OPTIONS)
def test_options_round_trip_through_the_game_string(options: dict[str, Any]) -> None:
    loaded = load("sushi-go-party", 4, options=json.dumps(options), seed=3)
    again = pyspiel.load_game(str(loaded))
    assert str(again) == str(loaded)
    assert again.options == loaded.options == parse_options(GAME_CLASSES["sushi-go-party"].spec.game, options, 4)
    assert pickle.loads(pickle.dumps(loaded)).options == loaded.options
    state = play_until_decision(loaded.new_initial_state(), 6, np.random.RandomState(2))
    game, copy = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(loaded, state))
    assert str(game) == str(loaded)
    assert copy.history() == state.history() and str(copy) == str(state)
    pickled = pickle.loads(pickle.dumps(state))
    assert pickled.history() == state.history() and str(pickled) == str(state)
    # The copies play on as the state does: their game came back whole.
    for other in (copy, pickled):
        assert snapshot(play_until_decision(other, 3, np.random.RandomState(5))) == snapshot(
            play_until_decision(state.clone(), 3, np.random.RandomState(5))
        )
    pyspiel.random_sim_test(loaded, num_sims=1, serialize=True, verbose=False)


def test_a_game_string_takes_options_with_the_separators_escaped() -> None:
    from kaiten.environments.openspiel_game import encode_options

    loaded = pyspiel.load_game(
        'kaiten_sushi_go_party(players=4,options={"menu":"master-menu"%2C"pass_both_ways":true})'
    )
    assert loaded.options.menu == "master-menu" and loaded.options.pass_both_ways
    assert encode_options({"menu": "master-menu", "pass_both_ways": True}) in str(loaded)


# --- an illegal action changes nothing -------------------------------------------------------------


def snapshot(state: Any) -> tuple[Any, ...]:
    """What a state shows: its history and move number (`serialize`'s first lines), its table, whose turn
    it is, what each seat knows and may do."""
    seats = range(state.num_players())
    return (
        state.serialize().split("\n")[:2],
        str(state),
        state.current_player(),
        state.chance_outcomes() if state.is_chance_node() else None,
        [state.legal_actions(seat) for seat in seats],
        [state.information_state_string(seat) for seat in seats],
        state.returns(),
    )


def replay(loaded: Any, history: list[int]) -> Any:
    """A fresh state that plays the history (a simultaneous node's actions are one entry per seat)."""
    state = loaded.new_initial_state()
    at = 0
    while at < len(history):
        if state.is_simultaneous_node():
            state.apply_actions(history[at : at + state.num_players()])
            at += state.num_players()
        else:
            state.apply_action(history[at])
            at += 1
    return state


def refuse_an_illegal_action(loaded: Any, state: Any) -> None:
    """Apply an action the state refuses (a chance outcome out of range, an action not legal): the state
    stays the one it was, which its history replays to and `serialize` brings back."""
    before = snapshot(state)
    with pytest.raises(ValueError, match="not"):
        if state.is_chance_node():
            state.apply_action(len(state.chance_outcomes()))
        elif state.is_simultaneous_node():
            joint = [state.legal_actions(seat)[0] for seat in range(state.num_players())]
            last = set(state.legal_actions(len(joint) - 1))
            joint[-1] = next(action for action in range(loaded.num_distinct_actions()) if action not in last)
            state.apply_actions(joint)
        else:
            legal = set(state.legal_actions())
            state.apply_action(next(action for action in range(loaded.num_distinct_actions()) if action not in legal))
    assert snapshot(state) == before
    assert snapshot(loaded.deserialize_state(state.serialize())) == before
    assert snapshot(replay(loaded, state.history())) == before


@pytest.mark.parametrize(("game", "players", "turn_based"), RESAMPLING)
def test_an_illegal_action_changes_nothing(game: str, players: int, turn_based: bool) -> None:
    loaded = load(game, players, **({"turn_based": True} if turn_based else {}))
    state = loaded.new_initial_state()
    random_state = np.random.RandomState(8)
    at = 0
    while not state.is_terminal():
        if at % 9 == 0:
            refuse_an_illegal_action(loaded, state)
        at += 1
        if state.is_chance_node():
            state.apply_action(int(random_state.randint(len(state.chance_outcomes()))))
        elif state.is_simultaneous_node():
            state.apply_actions([int(random_state.choice(state.legal_actions(seat))) for seat in range(players)])
        else:
            state.apply_action(int(random_state.choice(state.legal_actions())))
    # The game played on after every refusal is the one its history replays to.
    assert snapshot(replay(loaded, state.history())) == snapshot(state)


# --- chance ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("game", sorted(GAME_CLASSES))
def test_chance_deals_from_more_outcomes_than_anyone_can_enumerate(game: str) -> None:
    loaded = load(game, 3)
    random_state = np.random.RandomState(9)
    nodes = 0
    state = loaded.new_initial_state()
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        assert sum(probability for _, probability in outcomes) == pytest.approx(1.0)
        state.apply_action(outcomes[0][0])
        nodes += 1
    # The setup's key, known seed or not, is one of at least 2**64 equally likely ones ...
    assert loaded.max_chance_outcomes() ** nodes >= 2**64
    # ... every chance node of which counts ...
    last = [0] * (nodes - 1)
    assert str(deal(loaded, iter([*last, 0]))) != str(deal(loaded, iter([*last, 1])))
    # ... and two hundred random setups are two hundred deals.
    deals = {
        str(deal(loaded, iter(random_state.randint(loaded.max_chance_outcomes(), size=nodes)))) for _ in range(200)
    }
    assert len(deals) == 200
