"""The sampler deals what a seat cannot see (unknown hands, the deck, the dessert pile) and keeps the rest."""

from __future__ import annotations

from collections import Counter
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from kaiten.domain.chance import Chance
from kaiten.domain.sushi_go_party import sampler
from kaiten.domain.sushi_go_party.cards import DESSERT_SLUGS, SLUG
from kaiten.domain.sushi_go_party.game import SUSHI_GO_PARTY as GAME
from kaiten.domain.sushi_go_party.options import SUGGESTED, menu_cards
from kaiten.domain.sushi_go_party.state import PartyState
from tests.unit.sampling import check_sample, positions


def every_card(state: PartyState) -> Counter[int]:
    zones: list[Any] = [state.deck, state.dessert_pile, *state.hands, state.discard, state.drawn]
    zones.extend([entry[0] for entry in tableau] for tableau in state.tableaus)
    zones.extend([card for card, _ in fridge] for fridge in state.fridges)
    return Counter(card for zone in zones for card in zone)


def asked(state: PartyState) -> list[int]:
    """The seats a bot may be asked for: the awaited ones, and in the pick phase every seat."""
    return list(range(state.players)) if state.phase == "pick" else list(state.awaiting)


@given(
    seed=st.integers(0, 2**32),
    players=st.integers(2, 8),
    menu=st.sampled_from([menu.id for menu in SUGGESTED]),
    pass_both_ways=st.booleans(),
)
def test_samples_show_each_seat_its_view_and_conserve_the_menu(
    seed: int, players: int, menu: str, pass_both_ways: bool
) -> None:
    fitting = next(m for m in SUGGESTED if m.id == menu)
    options = {"menu": menu if fitting.min_players <= players <= fitting.max_players else "random"}
    options["pass_both_ways"] = pass_both_ways
    for state in positions(GAME, players, seed, options):
        assert state.menu is not None
        main, desserts = menu_cards(state.menu)
        for seat in asked(state):
            sample = check_sample(GAME, sampler, state, seat, seed)
            assert every_card(sample) == Counter([*main, *desserts])
            assert all(SLUG[card] in DESSERT_SLUGS for card in sample.dessert_pile)
            if state.phase == "pick":
                assert all(pick == -1 for other, pick in enumerate(sample.picks) if other != seat)


def test_the_two_player_variant_and_the_menu_vote_sample_too() -> None:
    for options in ({"two_player_variant": True}, {"menu": "vote"}):
        for state in positions(GAME, 2, 5, options):
            for seat in asked(state):
                check_sample(GAME, sampler, state, seat, 5)


def test_known_hands_follow_the_passing_direction() -> None:
    for state in positions(GAME, 4, 2, {"pass_both_ways": True}):
        if state.phase != "pick" or state.turn < 2:
            continue
        view = GAME.view(state, 0)
        toward = 1 if state.round != 2 else -1
        assert view.known_hands[toward % 4] == state.hands[toward % 4]
        assert view.known_hands[-toward % 4] is None or state.turn >= 4
        if state.round == 2:
            return
    raise AssertionError("no second round")


def test_hidden_cards_differ_between_samples_and_are_dealt_uniformly() -> None:
    """At the first pick the seat has seen only its own hand: the rest of the menu is dealt."""
    state = next(state for state in positions(GAME, 5, 9, {"menu": "sushi-go"}) if state.phase == "pick")
    assert state.menu is not None and state.round == 1 and state.turn == 1
    view = GAME.view(state, 0)
    draws = 300
    samples = [sampler.sample(view, Chance(seed)) for seed in range(draws)]
    assert len({(sample.deck, sample.dessert_pile, sample.hands[1:]) for sample in samples}) == draws
    # The dessert pile takes only desserts, and every unseen pudding is as likely to sit in it.
    in_pile = Counter(card for sample in samples for card in sample.dessert_pile)
    unseen_puddings = [card for card in menu_cards(state.menu)[1] if card not in state.hands[0]]
    expected = draws * view.dessert_pile_size / len(unseen_puddings)
    assert set(in_pile) == set(unseen_puddings)
    assert all(abs(in_pile[card] - expected) < 6 * expected**0.5 for card in unseen_puddings)
