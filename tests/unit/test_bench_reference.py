"""bench/reference.py, the engine benchmark's yardstick, plays the rules kaiten plays."""

from __future__ import annotations

import random
import statistics

from hypothesis import given
from hypothesis import strategies as st

from bench import reference
from domain.sushi_go.cards import CARD_TYPES, CHOPSTICKS
from domain.sushi_go.scoring import pudding_points, round_breakdowns
from services.simulation import simulate

tableaus = st.lists(st.lists(st.integers(0, len(CARD_TYPES) - 1), max_size=12), min_size=2, max_size=5)


def test_the_deck_is_kaitens() -> None:
    assert tuple(card_type.count for card_type in CARD_TYPES) == reference.COUNTS
    assert reference.CHOPSTICKS == CHOPSTICKS


@given(tableaus)
def test_a_round_scores_as_kaitens_rules_score_it(kinds: list[list[int]]) -> None:
    expected = [sum(breakdown.values()) for breakdown in round_breakdowns(kinds)]
    assert reference.round_points(kinds) == expected


@given(st.lists(st.integers(0, 10), min_size=2, max_size=5))
def test_puddings_score_as_kaitens_rules_score_them(counts: list[int]) -> None:
    assert reference.pudding_points(counts) == pudding_points(counts)


def test_a_random_pick_is_uniform_over_kaitens_legal_commands() -> None:
    hand = [0, 1, 2]
    seen = {tuple(reference._random_pick(hand, [CHOPSTICKS], random.Random(seed)).items()) for seed in range(400)}
    # 3 singles and 6 ordered pairs of different cards, as `domain.sushi_go.legal` lists them.
    assert len(seen) == 9 and all(len({index for index, _ in pick}) == len(pick) for pick in seen)
    assert {len(reference._random_pick(hand, [], random.Random(seed))) for seed in range(50)} == {1}


def test_games_take_kaitens_decisions_and_score_like_kaitens() -> None:
    games = 200
    outcomes = reference.simulate(4, games, seed=3)
    engine = simulate("sushi-go", 4, games, ["random"], seed=3)
    assert {outcome.decisions for outcome in outcomes} == {engine.decisions // games}
    assert all(sum(outcome.puddings) <= reference.COUNTS[reference.PUDDING] for outcome in outcomes)
    mean = statistics.fmean(total for outcome in outcomes for total in outcome.totals)
    # Random bots' mean total: the same rules give the same figure, up to sampling noise (~0.5 here).
    assert abs(mean - engine.mean_score["random"]) < 2.0
