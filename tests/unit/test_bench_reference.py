"""bench/reference.py, the engine benchmark's yardstick, plays the rules kaiten plays."""

from __future__ import annotations

import random
import statistics
from collections import Counter
from collections.abc import Callable
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from bench import reference
from kaiten.domain.sushi_go.cards import (
    CARD_TYPES,
    CHOPSTICKS,
    DUMPLING,
    EGG_NIGIRI,
    SALMON_NIGIRI,
    SASHIMI,
    SQUID_NIGIRI,
    TEMPURA,
    WASABI,
)
from kaiten.domain.sushi_go.scoring import pudding_points, round_breakdowns
from kaiten.services.simulation import simulate

tableaus = st.lists(st.lists(st.integers(0, len(CARD_TYPES) - 1), max_size=12), min_size=2, max_size=5)


def test_the_deck_is_kaitens() -> None:
    assert tuple(card_type.count for card_type in CARD_TYPES) == reference.COUNTS
    assert reference.CHOPSTICKS == CHOPSTICKS


@given(tableaus)
def test_a_round_scores_as_kaitens_rules_score_it(kinds: list[list[int]]) -> None:
    # The tallies are placed by the simulator's own `turn`, one card at a time in play order.
    expected = [sum(breakdown.values()) for breakdown in round_breakdowns(kinds)]
    assert reference.round_points([reference.tally_of(tableau) for tableau in kinds]) == expected


@given(st.lists(st.integers(0, 10), min_size=2, max_size=5))
def test_puddings_score_as_kaitens_rules_score_them(counts: list[int]) -> None:
    assert reference.pudding_points(counts) == pudding_points(counts)


class _Placed(list[int]):
    """A tally that records the kinds placed in it, in order (chopsticks going back: -1)."""

    def __init__(self, chopsticks: int) -> None:
        super().__init__([0] * reference.TALLY)
        self.placed: list[int] = []
        super().__setitem__(CHOPSTICKS, chopsticks)

    def __setitem__(self, index: Any, value: Any) -> None:
        if index < CHOPSTICKS or (index == CHOPSTICKS and value > self[CHOPSTICKS]):
            self.placed.append(index)
        elif index == CHOPSTICKS:
            self.placed.append(-1)
        super().__setitem__(index, value)


def _pick(hand: list[int], chopsticks: int, bits: Callable[[int], int]) -> tuple[tuple[int, ...], list[int]]:
    """What one seat's `turn` placed, in order, and the hand it leaves."""
    hand = list(hand)
    tally = _Placed(chopsticks)
    reference.turn([hand], [tally], bits)
    return tuple(tally.placed), sorted(hand)


def test_a_pick_is_one_of_kaitens_legal_commands_each_drawn_once_per_draw() -> None:
    hand = [TEMPURA, SASHIMI, DUMPLING]
    # Every draw of `bits` modulo the number of legal commands: 3 singles and 6 ordered pairs of
    # different cards, as `domain.sushi_go.legal` lists them; a pair puts the chopsticks back.
    picks = {_pick(hand, 1, lambda _, draw=draw: draw)[0] for draw in range(9)}
    singles = {(kind,) for kind in hand}
    pairs = {(first, second, -1) for first in hand for second in hand if first != second}
    assert picks == singles | pairs
    assert {_pick(hand, 0, lambda _, draw=draw: draw)[0] for draw in range(9)} == singles
    assert _pick(hand, 1, lambda _: 4) == ((TEMPURA, DUMPLING, -1), [SASHIMI, CHOPSTICKS])
    assert _pick(hand, 1, lambda _: 1) == ((SASHIMI,), [TEMPURA, DUMPLING])


def test_a_random_pick_is_uniform_over_kaitens_legal_commands() -> None:
    bits = random.Random(5).getrandbits
    drawn = Counter(_pick([TEMPURA, SASHIMI, DUMPLING], 1, bits)[0] for _ in range(9000))
    assert len(drawn) == 9 and all(1000 - 150 < count < 1000 + 150 for count in drawn.values())  # sd ~30


def test_a_wasabi_triples_the_next_nigiri_placed_on_it_only() -> None:
    tally = reference.tally_of([SALMON_NIGIRI, WASABI, SQUID_NIGIRI, EGG_NIGIRI, WASABI, WASABI, EGG_NIGIRI])
    assert reference.round_points([tally, reference.tally_of([])]) == [2 + 9 + 1 + 3, 0]


def test_games_take_kaitens_decisions_and_score_like_kaitens() -> None:
    games = 200
    outcomes = reference.simulate(4, games, seed=3)
    engine = simulate("sushi-go", 4, games, ["random"], seed=3)
    assert {outcome.decisions for outcome in outcomes} == {engine.decisions // games}
    assert all(sum(outcome.puddings) <= reference.COUNTS[reference.PUDDING] for outcome in outcomes)
    mean = statistics.fmean(total for outcome in outcomes for total in outcome.totals)
    # Random bots' mean total: the same rules give the same figure, up to sampling noise (~0.5 here).
    assert abs(mean - engine.mean_score["random"]) < 2.0
