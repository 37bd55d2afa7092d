"""The sampler deals what a seat cannot see (carts below their tops, others' unflipped yen cards and Derby
hands, the yen and Derby decks) and keeps everything it can."""

from __future__ import annotations

from collections import Counter
from itertools import permutations

from hypothesis import given
from hypothesis import strategies as st

from kaiten.domain.chance import Chance
from kaiten.domain.dim_sum_derby import sampler
from kaiten.domain.dim_sum_derby.cards import CART_DECKS, CART_TYPES, DERBY_CARDS, YEN_DECKS
from kaiten.domain.dim_sum_derby.commands import Arrange, PlayDerby
from kaiten.domain.dim_sum_derby.game import DIM_SUM_DERBY as GAME
from kaiten.domain.dim_sum_derby.state import DerbyState
from tests.unit.dim_sum_derby.helpers import derby, dish, make_state, run
from tests.unit.sampling import check_sample, positions


def check_conserved(state: DerbyState) -> None:
    for cart in range(CART_TYPES):
        dishes = [*state.carts[cart], *state.dish_discards[cart]]
        dishes.extend(card for card in state.table if card in CART_DECKS[cart])
        assert Counter(dishes) == Counter(CART_DECKS[cart])
        assert Counter([*state.yen_decks[cart], *[yen[cart] for yen in state.yen]]) == Counter(YEN_DECKS[cart])
    derby_cards = [*state.derby_deck, *state.derby_discard, *[card for hand in state.hands for card in hand]]
    assert Counter(derby_cards) == Counter(range(DERBY_CARDS))


@given(seed=st.integers(0, 2**32), players=st.integers(3, 4))
def test_samples_show_each_seat_its_view_and_conserve_every_deck(seed: int, players: int) -> None:
    for state in positions(GAME, players, seed):
        for seat in range(players):
            sample = check_sample(GAME, sampler, state, seat, seed)
            check_conserved(sample)
            assert sample.yen[seat] == state.yen[seat] and sample.hands[seat] == state.hands[seat]


def test_what_the_seat_cannot_see_differs_between_samples() -> None:
    state = next(positions(GAME, 4, 3))
    view = GAME.view(state, 0)
    samples = [sampler.sample(view, Chance(seed)) for seed in range(200)]
    assert len({(s.carts, s.yen[1:], s.yen_decks, s.derby_deck) for s in samples}) == 200
    # Tops stay where they are; every hidden yen card of the steam cart shows up at seat 1 at times.
    assert {tuple(cart[0] for cart in s.carts) for s in samples} == {tuple(cart[0] for cart in state.carts)}
    assert {s.yen[1][0] for s in samples} == set(YEN_DECKS[0]) - {state.yen[0][0]}


def test_cards_the_seat_is_arranging_stay_on_top_in_its_order() -> None:
    top = (dish("har-gow"), dish("siu-mai"), dish("lo-mai-gai"))
    state = make_state(tops=(top, (), (), ()), hands=((derby("peek-in-the-kitchen"),), (), ()))
    _, state = run(state, 0, PlayDerby(card=derby("peek-in-the-kitchen")))
    assert state.peek == top
    for seat in range(3):
        view = GAME.view(state, seat)
        sample = sampler.sample(view, Chance(seat))
        check_conserved(sample)
        assert sample.peek == sample.carts[0][:3] and GAME.view(sample, seat) == view
        if seat == 0:
            assert sample.carts[0][:3] == top
            assert list(GAME.legal_commands(sample, 0)) == [Arrange(cards=order) for order in permutations(top)]
