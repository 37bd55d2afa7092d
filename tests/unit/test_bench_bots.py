"""The interval bench/bots.py prints beside a person's command p50 ratio."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from bench.bots import median_ratio_interval


def test_samples_of_one_spread_hold_1_and_a_shifted_one_does_not() -> None:
    draw = random.Random(7)
    same = [draw.gauss(5.0, 0.5) for _ in range(200)]
    also_same = [draw.gauss(5.0, 0.5) for _ in range(200)]
    slower = [draw.gauss(6.0, 0.5) for _ in range(200)]

    low, high = median_ratio_interval(same, also_same)
    assert low < 1 < high
    low, high = median_ratio_interval(slower, same)
    assert 1.1 < low < 1.2 < high < 1.3


def test_fewer_requests_give_a_wider_interval() -> None:
    draw = random.Random(3)
    many = [draw.gauss(5.0, 1.0) for _ in range(400)]
    few = many[:20]

    many_low, many_high = median_ratio_interval(many, many[::-1])
    few_low, few_high = median_ratio_interval(few, few[::-1])
    assert few_high - few_low > 2 * (many_high - many_low)


@settings(max_examples=30, deadline=None)
@given(
    st.lists(st.floats(0.001, 1.0), min_size=1, max_size=30),
    st.lists(st.floats(0.001, 1.0), min_size=1, max_size=30),
)
def test_the_interval_is_ordered_and_within_the_ratios_the_samples_allow(a: list[float], b: list[float]) -> None:
    low, high = median_ratio_interval(a, b, draws=200)
    assert min(a) / max(b) <= low <= high <= max(a) / min(b)
