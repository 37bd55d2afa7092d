"""The sampler deals what a seat cannot see (unknown hands, the deck) and keeps everything it can."""

from __future__ import annotations

from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from kaiten.domain.chance import Chance
from kaiten.domain.sushi_go import sampler
from kaiten.domain.sushi_go.cards import ALL_CARDS, CHOPSTICKS_IDS
from kaiten.domain.sushi_go.game import SUSHI_GO as GAME
from kaiten.domain.sushi_go.state import SushiGoState
from tests.unit.sampling import check_sample, positions


def every_card(state: SushiGoState) -> Counter[int]:
    zones = (state.deck, *state.hands, *state.tableaus, *state.puddings, state.discards)
    return Counter(card for zone in zones for card in zone)


def hidden_zones(state: SushiGoState, seat: int) -> tuple[object, ...]:
    known = GAME.view(state, seat).known_hands
    return (state.deck, *[hand for other, hand in enumerate(state.hands) if known[other] is None])


@given(seed=st.integers(0, 2**32), players=st.integers(2, 5))
def test_samples_show_each_seat_its_view_and_conserve_the_deck(seed: int, players: int) -> None:
    for state in positions(GAME, players, seed):
        for seat in range(players):
            sample = check_sample(GAME, sampler, state, seat, seed)
            assert every_card(sample) == Counter(ALL_CARDS)
            # Hidden picks are not made: every other seat picks again, simultaneously with this one.
            assert all(pick == () for other, pick in enumerate(sample.picks) if other != seat)
            assert sample.picks[seat] == state.picks[seat]


def test_known_hands_are_those_that_passed_through_the_seat() -> None:
    held: dict[tuple[int, int], tuple[int, ...]] = {}
    for state in positions(GAME, 4, seed=3):
        if state.round != 1:
            break
        for seat in range(4):
            held[seat, state.turn] = state.hands[seat]
            view = GAME.view(state, seat)
            # Hands pass left: the one held `d` seats to the left is the one this seat held `d` turns ago,
            # less the cards picked from it since, plus any chopsticks put back into it.
            for other, hand in enumerate(view.known_hands):
                distance = (other - seat) % 4
                assert (hand is not None) == (distance < state.turn)
                if hand is not None:
                    assert hand == state.hands[other]
                    assert set(hand) - set(held[seat, state.turn - distance]) <= CHOPSTICKS_IDS


def test_unseen_cards_are_dealt_uniformly_and_differ_between_samples() -> None:
    state = next(positions(GAME, 4, seed=8))
    view = GAME.view(state, 0)
    unseen = sampler.unseen_cards(view)
    draws = 400
    in_next_hand = Counter[int]()
    hidden = set()
    for seed in range(draws):
        sample = sampler.sample(view, Chance(seed))
        in_next_hand.update(sample.hands[1])
        hidden.add(hidden_zones(sample, 0))
    assert len(hidden) == draws
    # Each unseen card lands in seat 1's hand with probability 8 / 84: about 38 times in 400 samples.
    expected = draws * view.hand_size / len(unseen)
    assert set(in_next_hand) <= set(unseen)
    assert all(abs(in_next_hand[card] - expected) < 6 * expected**0.5 for card in unseen)


def test_with_two_players_nothing_is_left_to_deal_after_the_first_turn() -> None:
    """Both hands have passed through each seat, and the deck holds what nobody has seen: its order is
    drawn when dealing, so every sample is the same state."""
    for state in positions(GAME, 2, seed=4):
        if state.turn >= 2:
            view = GAME.view(state, 0)
            samples = {sampler.sample(view, Chance(seed)).hands for seed in range(5)}
            assert samples == {state.hands}
            assert len({sampler.sample(view, Chance(seed)).deck for seed in range(5)}) == 1
            return
    raise AssertionError("no second turn")
