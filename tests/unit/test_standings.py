"""Tournament statistics: the Wilson interval and the aggregation of game records into standings."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kaiten.domain.engine import Result, SeatScore, victory_shares
from kaiten.services.standings import GameRecord, standings, wilson_interval


@pytest.mark.parametrize(
    ("successes", "trials", "low", "high"),
    [
        # Reference values (Newcombe 1998, table I; Wilson score interval without continuity correction).
        (81, 263, 0.2553, 0.3662),
        (15, 148, 0.0624, 0.1605),
        (0, 20, 0.0, 0.1611),
        (1, 29, 0.0061, 0.1718),
        (29, 29, 0.8830, 1.0),
    ],
)
def test_wilson_interval_matches_published_values(successes: int, trials: int, low: float, high: float) -> None:
    lo, hi = wilson_interval(successes, trials)
    assert lo == pytest.approx(low, abs=5e-4) and hi == pytest.approx(high, abs=5e-4)


def test_wilson_interval_without_trials_says_nothing() -> None:
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_wilson_interval_of_one_trial_is_an_interval() -> None:
    assert wilson_interval(1, 1) == (pytest.approx(0.2065, abs=5e-4), 1.0)
    assert wilson_interval(0, 1) == (0.0, pytest.approx(0.7935, abs=5e-4))


def test_wilson_interval_at_a_rate_of_0_or_1_ends_exactly_there() -> None:
    """Rounding puts the computed bound a hair off for some counts (16 and 40 above 1, 10 below)."""
    for trials in (10, 16, 40):
        assert wilson_interval(trials, trials)[1] == 1.0
    for trials in (3, 6, 7):
        assert wilson_interval(0, trials)[0] == 0.0


#: Shared wins are multiples of 1 / winners, and a game of the family has at most 8 winners.
SHARES = 840


@given(trials=st.integers(1, 10_000), data=st.data())
def test_wilson_interval_holds_the_rate_inside_zero_and_one(trials: int, data: st.DataObject) -> None:
    successes = data.draw(st.integers(0, trials * SHARES)) / SHARES
    low, high = wilson_interval(successes, trials)
    assert 0.0 <= low <= successes / trials <= high <= 1.0
    # Four times the trials at the same rate give a narrower interval.
    narrower = wilson_interval(4 * successes, 4 * trials)
    assert narrower[1] - narrower[0] < high - low


def record(bots: tuple[str, ...], scores: tuple[int, ...], winners: tuple[int, ...], seconds: float) -> GameRecord:
    result = Result(
        scores=tuple(SeatScore(seat=seat, total=score, breakdown={}) for seat, score in enumerate(scores)),
        winners=winners,
        ranking=tuple(range(len(scores))),
    )
    return GameRecord(
        bots=bots,
        scores=scores,
        shares=victory_shares(result),
        decisions=(10,) * len(bots),
        seconds=(seconds,) * len(bots),
    )


def test_standings_count_a_shared_win_as_a_share_and_keep_the_bots_order() -> None:
    records = [
        record(("mcts", "greedy", "greedy"), (30, 20, 10), (0,), 2.0),
        record(("greedy", "mcts", "greedy"), (25, 25, 0), (0, 1), 1.0),
        record(("greedy", "greedy", "mcts"), (40, 10, 10), (0,), 0.5),
    ]
    mcts, greedy = standings(records, ["mcts", "greedy", "greedy"])
    assert (mcts.bot, greedy.bot) == ("mcts", "greedy")
    assert mcts.seats_played == 3 and greedy.seats_played == 6
    assert mcts.wins == 1.5 and greedy.wins == 1.5
    assert mcts.win_rate == 0.5 and greedy.win_rate == 0.25
    assert mcts.ci95 == wilson_interval(1.5, 3)
    assert mcts.mean_score == pytest.approx(65 / 3) and greedy.mean_score == pytest.approx(105 / 6)
    # 3.5 s over 30 decisions; greedy: 2 seats of 10 decisions per game.
    assert mcts.ms_per_decision == pytest.approx(3500 / 30) and greedy.ms_per_decision == pytest.approx(7000 / 60)
    assert math.fsum(s.wins for s in (mcts, greedy)) == len(records)


def test_a_bot_that_never_played_stands_at_zero() -> None:
    (idle,) = standings([], ["idle"])
    assert idle.seats_played == 0 and idle.win_rate == 0.0 and idle.ci95 == (0.0, 1.0) and idle.ms_per_decision == 0
    assert idle.mean_score == 0.0
