"""`picks`: every card a seat takes onto its menu, for the pick-rate statistics."""

from __future__ import annotations

from collections import Counter

from kaiten.domain.spin_some.cards import CARD_SLUG, FIRST_ID, KIND_BY_SLUG
from kaiten.domain.spin_some.events import DimSumTaken, TableRotated
from kaiten.domain.spin_some.game import SPIN_SOME_FOR_DIM_SUM
from tests.unit.bot_games import bot_game


def test_taking_a_dim_sum_picks_it():
    bun = FIRST_ID[KIND_BY_SLUG["steamed-bun"]]
    taken = DimSumTaken(seat=2, basket=4, card=bun, tokens=1, revealed=None)
    assert SPIN_SOME_FOR_DIM_SUM.picks(taken) == ((2, "steamed-bun"),)
    assert SPIN_SOME_FOR_DIM_SUM.picks(TableRotated(seat=2, steps=1, paid=(3,), how="tokens")) == ()


def test_a_seats_picks_are_its_final_menu():
    table, log = bot_game(SPIN_SOME_FOR_DIM_SUM, 3, seed=5)
    picked: dict[int, Counter[str]] = {seat: Counter() for seat in range(3)}
    for event in log:
        for seat, slug in SPIN_SOME_FOR_DIM_SUM.picks(event):
            picked[seat][slug] += 1
    for seat, menu in enumerate(table.state.menus):
        assert picked[seat] == Counter(CARD_SLUG[card] for card in menu)
