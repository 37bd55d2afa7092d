"""The search bots: rewards, budgets, determinism, simultaneous picks, and that they see only the view."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bench.mcts import CountingGame
from kaiten.domain import mcts
from kaiten.domain.catalog import GAMES
from kaiten.domain.chance import Chance
from kaiten.domain.engine import Result, SeatScore
from kaiten.domain.mcts import MctsBot, Search
from kaiten.domain.sushi_go import sampler as sushi_go_sampler
from kaiten.domain.sushi_go.bots import GreedyBot
from kaiten.domain.sushi_go.game import SUSHI_GO
from kaiten.services.simulation import play_game
from tests.unit.sampling import positions


def result(totals: list[int], winners: tuple[int, ...]) -> Result:
    scores = tuple(SeatScore(seat=seat, total=total, breakdown={}) for seat, total in enumerate(totals))
    return Result(scores=scores, winners=winners, ranking=tuple(range(len(totals))))


def test_rewards_are_half_the_victory_share_and_half_the_lead() -> None:
    winner, loser = mcts.rewards(result([40, 30], (0,)))
    assert 0.5 < winner < 1 and 0 < loser < 0.5 and winner + loser == pytest.approx(1)
    # A rout is worth more than a narrow win, but not much more than a clear one.
    narrow = mcts.rewards(result([31, 30], (0,)))[0]
    rout = mcts.rewards(result([80, 20], (0,)))[0]
    assert 0.5 < narrow < winner < rout <= 1 and rout - winner < winner - narrow
    # A shared victory: half a win each, no lead.
    assert mcts.rewards(result([30, 30, 10], (0, 1)))[:2] == [0.5, 0.5]


class Refusing:
    """A determinizer for a search that must not run."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def seat(self, view: Any) -> int:
        raise AssertionError("no search was needed")

    sample = seat

    def move_key(self, command: Any) -> Any:
        return self.inner.move_key(command)


def test_a_forced_move_is_played_without_searching() -> None:
    state = next(positions(SUSHI_GO, 2, 1))
    hand = state.hands[0]
    copies = [command for command in SUSHI_GO.legal_commands(state, 0) if command.cards == (hand[0],)]
    search = Search(SUSHI_GO, Refusing(sushi_go_sampler), GreedyBot, budget=1000)
    assert search.best(SUSHI_GO.view(state, 0), copies, Chance(1)) == copies[0]


def test_the_budget_counts_simulated_decisions() -> None:
    state = next(positions(SUSHI_GO, 3, 2))
    game = CountingGame(SUSHI_GO)
    search = Search(game, sushi_go_sampler, GreedyBot, budget=700)  # type: ignore[arg-type]
    search.best(SUSHI_GO.view(state, 0), SUSHI_GO.legal_commands(state, 0), Chance(3))
    # The last iteration may run past the budget by at most one game's decisions (3 rounds of 9 picks).
    assert 700 <= game.decisions < 700 + 3 * 9 * 3


class CountingDeals:
    """Sushi Go!'s sampler counting the deals it makes: one per iteration."""

    def __init__(self) -> None:
        self.deals = 0

    def seat(self, view: Any) -> int:
        return sushi_go_sampler.seat(view)

    def sample(self, view: Any, chance: Chance) -> Any:
        self.deals += 1
        return sushi_go_sampler.sample(view, chance)

    def move_key(self, command: Any) -> Any:
        return sushi_go_sampler.move_key(command)


def test_each_iteration_counts_its_deal_and_scoring_per_seat() -> None:
    """Late in a game an iteration is a decision or two; what its deal and scoring cost is counted too."""
    state = list(positions(SUSHI_GO, 3, 2))[-3]  # the last turn: two cards in each hand, the last one played alone
    assert len(set(state.hands[0])) == 2
    game, deals = CountingGame(SUSHI_GO), CountingDeals()
    search = Search(game, deals, GreedyBot, budget=700, deal_cost=0.5)  # type: ignore[arg-type]
    search.best(SUSHI_GO.view(state, 0), SUSHI_GO.legal_commands(state, 0), Chance(3))
    # Every iteration plays the last turn (3 decisions) and counts 0.5 a seat for its deal: 4.5 in all.
    assert game.decisions == 3 * deals.deals
    spent = game.decisions + 0.5 * 3 * deals.deals
    assert 700 <= spent < 700 + 4.5


class Weighing(Search):
    """A search counting the moves its selections weigh."""

    weighed = 0

    def _select(self, node: Any, seat: int, moves: Any, hint: Any) -> Any:
        self.weighed += len(moves)
        return super()._select(node, seat, moves, hint)


def test_each_move_a_selection_weighs_counts_its_move_cost() -> None:
    """A Party seat filling a takeout box weighs up to 128 moves at every iteration: they count too."""
    state = list(positions(SUSHI_GO, 3, 2))[-3]
    game = CountingGame(SUSHI_GO)
    search = Weighing(SUSHI_GO, sushi_go_sampler, GreedyBot, budget=700, move_cost=0.5)
    search.game = game  # type: ignore[assignment]
    search.best(SUSHI_GO.view(state, 0), SUSHI_GO.legal_commands(state, 0), Chance(3))
    assert search.weighed >= 2 * game.decisions / 3  # at least the seat's own two moves an iteration
    spent = game.decisions + 0.5 * search.weighed
    # An iteration is 3 decisions, and its selections weigh at most 2 moves for each of 3 seats.
    assert 700 <= spent < 700 + 3 + 0.5 * 6


def test_a_games_search_bots_share_its_costs_and_the_strong_one_searches_five_times_as_much() -> None:
    deal_costs = []
    for game in GAMES.values():
        normal, strong = game.bots["mcts"](), game.bots["mcts:strong"]()
        assert isinstance(normal, MctsBot) and isinstance(strong, MctsBot)
        assert strong.search.deal_cost == normal.search.deal_cost >= 0
        assert strong.search.move_cost == normal.search.move_cost == mcts.MOVE_COST
        assert strong.search.budget == 5 * normal.search.budget
        deal_costs.append(normal.search.deal_cost)
    assert any(deal_costs)


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_the_same_chance_gives_the_same_move(game_id: str) -> None:
    game = GAMES[game_id]
    state = list(positions(game, game.min_players, 4))[5]
    seat = game.awaiting(state)[0]
    view, commands = game.view(state, seat), game.legal_commands(state, seat)
    bot = game.bots["mcts"]()
    assert isinstance(bot, MctsBot)
    bot.search.budget = 400
    first, second = (bot.choose(view, commands, Chance(9, "bot")) for _ in range(2))
    assert first == second and first in commands


def searched_moves() -> list[str]:
    """`mcts`'s moves (budget 300) at three positions with a choice of a game of every kind, as JSON."""
    moves = []
    for _, game in sorted(GAMES.items()):
        found = 0
        for state in positions(game, game.min_players, 2):
            seat = game.awaiting(state)[0]
            commands = game.legal_commands(state, seat)
            if len(commands) < 2:
                continue
            bot = game.bots["mcts"]()
            assert isinstance(bot, MctsBot)
            bot.search.budget = 300
            moves.append(msgspec.json.encode(bot.choose(game.view(state, seat), commands, Chance(found, "bot"))))
            found += 1
            if found == 3:
                break
    return [move.decode() for move in moves]


def test_a_search_makes_the_same_moves_in_any_process() -> None:
    """A seeded game with search bots replays the same: the server's workers, another server and a replay
    are other processes, and Python salts the hashes of strings per process (PYTHONHASHSEED), so a search
    that visited a set or a dict of strings in hash order, or read a clock, would move otherwise."""
    root = Path(__file__).resolve().parents[2]
    script = "from tests.unit.test_mcts import searched_moves; print(*searched_moves(), sep='\\n')"
    runs = [
        subprocess.run(
            [sys.executable, "-c", script],
            env={**os.environ, "PYTHONHASHSEED": hash_seed},
            cwd=root,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.splitlines()
        for hash_seed in ("1", "2")
    ]
    here = searched_moves()
    assert len(here) == 3 * len(GAMES)
    assert runs == [here, here]


class WithoutFastPath:
    """Sushi Go! whose bots always play one decision at a time through the protocol."""

    def __getattr__(self, name: str) -> Any:
        return getattr(SUSHI_GO, name)

    def play_bots(self, *_args: Any) -> None:
        return None


@given(players=st.integers(2, 5), seed=st.integers(0, 2**32), at=st.integers(0, 80), draw=st.integers(0, 2**32))
@settings(max_examples=40, deadline=None)
def test_rollouts_through_the_fast_path_play_the_games_the_protocol_plays(
    players: int, seed: int, at: int, draw: int
) -> None:
    """From a determinization at any point of a game, a greedy rollout through `Game.play_bots` ends in
    the same result after the same number of decisions, having drawn the same deals (the chance is left
    in the same state), as one played decision by decision: the search's moves do not change."""
    states = list(positions(SUSHI_GO, players, seed))
    state = states[at % len(states)]
    seat = SUSHI_GO.awaiting(state)[0]
    sample = sushi_go_sampler.sample(SUSHI_GO.view(state, seat), Chance(draw))
    rollouts = []
    for game in (SUSHI_GO, WithoutFastPath()):
        chance = Chance(draw, "rollout")
        search = Search(game, sushi_go_sampler, GreedyBot, budget=1)  # type: ignore[arg-type]
        played = search._rollout(sample, GreedyBot(), chance)
        rollouts.append((msgspec.json.encode(played[0]), played[1], chance.rng.getstate()))
    assert rollouts[0] == rollouts[1]
    assert rollouts[0][1] > 0


def test_a_search_through_the_fast_path_makes_the_moves_it_made_without_it() -> None:
    for players in (2, 4):
        for number, state in enumerate(list(positions(SUSHI_GO, players, 11))[::9]):
            seat = SUSHI_GO.awaiting(state)[0]
            view, commands = SUSHI_GO.view(state, seat), SUSHI_GO.legal_commands(state, seat)
            moves = [
                Search(game, sushi_go_sampler, GreedyBot, budget=300).best(view, commands, Chance(number))  # type: ignore[arg-type]
                for game in (SUSHI_GO, WithoutFastPath())
            ]
            assert moves[0] == moves[1]


def test_the_search_sees_only_the_view() -> None:
    """Swapping cards between another seat's unseen hand and the deck changes nothing the seat sees,
    so it changes nothing the search does."""
    state = next(positions(SUSHI_GO, 3, 5))
    other = state.hands[1]
    swapped = msgspec.structs.replace(
        state,
        hands=(state.hands[0], (*other[1:], state.deck[0]), state.hands[2]),
        deck=tuple(sorted((*state.deck[1:], other[0]))),
    )
    assert SUSHI_GO.view(swapped, 0) == SUSHI_GO.view(state, 0)
    search = Search(SUSHI_GO, sushi_go_sampler, GreedyBot, budget=600)
    commands = SUSHI_GO.legal_commands(state, 0)
    assert search.best(SUSHI_GO.view(state, 0), commands, Chance(4)) == search.best(
        SUSHI_GO.view(swapped, 0), commands, Chance(4)
    )


def test_simultaneous_picks_are_searched_side_by_side() -> None:
    """At a turn's start every seat chooses at the root, none knowing the others' choices: each has its
    own statistics there, and the root's children are the joint picks."""
    state = next(positions(SUSHI_GO, 3, 6))
    view = SUSHI_GO.view(state, 0)
    commands = SUSHI_GO.legal_commands(state, 0)
    search = Search(SUSHI_GO, sushi_go_sampler, GreedyBot, budget=10**9)
    root = mcts._Node()
    moves = mcts.group_moves(commands, sushi_go_sampler.move_key)
    chance = Chance(5)
    for _ in range(30):
        sample = sushi_go_sampler.sample(view, chance)
        search._iterate(root, sample, 0, (moves, next(iter(moves))), GreedyBot(), chance)
    assert set(root.arms) == {0, 1, 2}
    assert all(len(joint) == 3 for joint in root.children)
    assert sum(arm.visits for arm in root.arms[1].values()) == 30


def test_mcts_beats_greedy_at_two_player_sushi_go(monkeypatch: pytest.MonkeyPatch) -> None:
    """Seeded games with a small budget, so this never flakes; a search that chose badly would lose."""

    def small() -> MctsBot:
        return MctsBot(Search(SUSHI_GO, sushi_go_sampler, GreedyBot, budget=500))

    monkeypatch.setattr(SUSHI_GO, "bots", {**SUSHI_GO.bots, "mcts": small})
    wins = 0
    for seed in range(4):
        seats = ("mcts", "greedy") if seed % 2 == 0 else ("greedy", "mcts")
        table, _ = play_game(SUSHI_GO, seats, random.Random(seed).getrandbits(63))
        assert table.result is not None
        wins += seats.index("mcts") in table.result.winners
    assert wins == 4


def test_a_search_calls_the_hook_between_its_iterations_and_chooses_as_without_it() -> None:
    state = next(positions(SUSHI_GO, 3, 2))
    view, commands = SUSHI_GO.view(state, 0), SUSHI_GO.legal_commands(state, 0)
    deals = CountingDeals()
    calls: list[int] = []

    def hook() -> None:
        calls.append(deals.deals)

    without = Search(SUSHI_GO, sushi_go_sampler, GreedyBot, budget=300).best(view, commands, Chance(4))
    mcts.between_iterations(hook)
    try:
        with_hook = Search(SUSHI_GO, deals, GreedyBot, budget=300).best(view, commands, Chance(4))
    finally:
        mcts.between_iterations(mcts._think_on)
    assert with_hook == without
    # Called before each iteration's deal: once per iteration, never inside one.
    assert calls == list(range(deals.deals)) and deals.deals > 1
