"""Setup: yen cards dealt secretly, carts shuffled separately, the Kitchen, the first player, options."""

from __future__ import annotations

import pytest

from kaiten.domain import lobby
from kaiten.domain.chance import Chance
from kaiten.domain.dim_sum_derby.cards import ACTIONS_PER_TURN, CART_DECKS, DERBY_CARDS, MARKERS, YEN_DECKS
from kaiten.domain.dim_sum_derby.events import DerbyDealt
from kaiten.domain.dim_sum_derby.options import DerbyOptions
from kaiten.domain.engine import RuleViolation
from tests.unit.dim_sum_derby.helpers import GAME, check_conservation, dealt, new_table


@pytest.mark.parametrize("players", [3, 4])
def test_each_player_gets_one_yen_card_of_each_deck_ten_markers_and_no_derby_card(players: int) -> None:
    state = dealt(players)
    assert len(state.yen) == players
    for seat_yen in state.yen:
        assert [y in YEN_DECKS[cart] for cart, y in enumerate(seat_yen)] == [True] * 4
    assert [len(deck) for deck in state.yen_decks] == [5 - players] * 4
    assert state.supply == (MARKERS,) * players
    assert state.hands == ((),) * players
    assert sorted(state.derby_deck) == list(range(DERBY_CARDS))
    assert state.table == () and state.actions_left == ACTIONS_PER_TURN and state.turn == 1
    check_conservation(state)


def test_the_four_cart_decks_are_shuffled_separately() -> None:
    state = dealt(4, seed=7)
    for cart, cards in enumerate(state.carts):
        assert sorted(cards) == list(CART_DECKS[cart])
    assert any(cards != CART_DECKS[cart] for cart, cards in enumerate(state.carts))
    assert dealt(4, seed=8).carts != state.carts


def test_four_players_have_a_cart_each_and_none_waits_in_the_kitchen() -> None:
    view = GAME.view(dealt(4), None)
    assert sorted(cart.seat for cart in view.carts if cart.seat is not None) == [0, 1, 2, 3]
    assert all(cart.top is not None and cart.size == 15 for cart in view.carts)


def test_three_players_park_one_cart_in_the_kitchen() -> None:
    view = GAME.view(dealt(3), None)
    assert [cart.seat for cart in view.carts] == [0, None, 1, 2]
    assert view.carts[1].top is not None  # every cart shows its top card


def test_the_kitchen_sits_directly_left_of_the_first_player_who_starts() -> None:
    state = dealt(3, first_player=2)
    assert state.turn_seat == 2 and state.rules_version == 2
    view = GAME.view(state, None)
    # Slot 0 is in front of the first player; the Kitchen comes next clockwise, before the second player.
    assert [(cart.slot, cart.seat) for cart in view.carts] == [(0, 2), (1, None), (2, 0), (3, 1)]
    assert GAME.awaiting(state) == (2,)


def test_rules_version_1_parks_the_kitchen_cart_on_the_first_players_right() -> None:
    state = dealt(3, first_player=2, rules_version=1)
    view = GAME.view(state, None)
    # Version 1: the Kitchen is the slot just before the first player (clockwise), after the last seat.
    assert [(cart.slot, cart.seat) for cart in view.carts] == [(0, 2), (1, 0), (2, 1), (3, None)]
    assert view.carts[3].top is not None
    assert GAME.awaiting(state) == (2,)


def test_first_player_defaults_to_seat_zero() -> None:
    assert DerbyOptions().first_player == 0
    table, _ = new_table(1, ["random"] * 3)
    assert GAME.awaiting(table.state) == (0,)


@pytest.mark.parametrize(("options", "players"), [({"first_player": 3}, 3), ({"first_player": -1}, 4)])
def test_a_first_player_outside_the_table_is_refused(options: dict[str, int], players: int) -> None:
    with pytest.raises(RuleViolation) as error:
        lobby.create_game(GAME, players, options, 1, salt=bytes(16))
    assert error.value.code == "invalid-options"


def test_unknown_options_are_refused() -> None:
    with pytest.raises(RuleViolation) as error:
        lobby.create_game(GAME, 3, {"first-player-please": 1}, 1, salt=bytes(16))
    assert error.value.code == "invalid-options"


@pytest.mark.parametrize("players", [2, 5])
def test_three_or_four_players_only(players: int) -> None:
    with pytest.raises(RuleViolation) as error:
        lobby.create_game(GAME, players, {}, 1, salt=bytes(16))
    assert error.value.code == "invalid-player-count"


def test_setup_is_one_event_drawn_from_chance_and_reproducible() -> None:
    options = DerbyOptions(first_player=1)
    first = GAME.setup(options, 4, Chance(5, 3))
    assert first == GAME.setup(options, 4, Chance(5, 3))
    assert len(first) == 1 and isinstance(first[0], DerbyDealt) and first[0].first_player == 1


def test_nothing_is_awaited_before_the_deal() -> None:
    state = GAME.initial_state(DerbyOptions(), 3)
    assert GAME.awaiting(state) == ()
    assert GAME.legal_commands(state, 0) == []
    with pytest.raises(RuleViolation) as error:
        GAME.decide(state, 0, object(), Chance(1))
    assert error.value.code == "game-not-started"
