"""The sampler deals the cards below the basket tops, which nobody can see, and keeps everything else."""

from __future__ import annotations

from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from kaiten.domain.chance import Chance
from kaiten.domain.spin_some import sampler
from kaiten.domain.spin_some.cards import DECK
from kaiten.domain.spin_some.game import SPIN_SOME_FOR_DIM_SUM as GAME
from kaiten.domain.spin_some.state import SpinState
from tests.unit.sampling import check_sample, positions


def every_card(state: SpinState) -> Counter[int]:
    cards = Counter(card for menu in state.menus for card in menu)
    cards.update(card for pile, depth in zip(state.piles, state.depth, strict=True) for card in pile[depth:])
    return cards


def below_tops(state: SpinState) -> tuple[tuple[int, ...], ...]:
    return tuple(pile[depth + 1 :] for pile, depth in zip(state.piles, state.depth, strict=True))


@given(seed=st.integers(0, 2**32), players=st.integers(2, 6))
def test_samples_show_each_seat_its_view_and_conserve_the_cards(seed: int, players: int) -> None:
    for state in positions(GAME, players, seed):
        for seat in range(players):
            sample = check_sample(GAME, sampler, state, seat, seed)
            assert every_card(sample) == Counter(DECK)
            assert GAME.result(sample) is None


def test_the_cards_below_the_tops_differ_between_samples_and_are_dealt_uniformly() -> None:
    state = next(positions(GAME, 3, 4))
    view = GAME.view(state, 0)
    draws = 300
    samples = [sampler.sample(view, Chance(seed)) for seed in range(draws)]
    assert len({below_tops(sample) for sample in samples}) == draws
    # Every unseen card is as likely to sit right below the top of basket 0.
    unseen = sampler.unseen_cards(view)
    second = Counter(sample.piles[0][1] for sample in samples)
    expected = draws / len(unseen)
    assert set(second) <= set(unseen)
    assert all(second[card] < expected + 6 * expected**0.5 for card in unseen)
    assert len(second) > len(unseen) / 2
