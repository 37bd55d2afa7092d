"""Carts leaving the Kitchen are replenished with their shuffled discards (3 and 4 players).

`make_state` builds rules-version-1 states (the Kitchen on the first player's right) unless told
otherwise; the tests of version 2 (the Kitchen on the first player's left) are at the end.
"""

from __future__ import annotations

from msgspec.structs import replace

from kaiten.domain.dim_sum_derby.cards import DESSERT, MAIN, STEAM
from kaiten.domain.dim_sum_derby.commands import Eat, PlayDerby, Rotate, Serve
from kaiten.domain.dim_sum_derby.events import CartRefilled, CartsRotated
from tests.unit.dim_sum_derby.helpers import GAME, check_conservation, derby, dish, make_state, run, types

STEAM_DISCARDS = (dish("har-gow", 1), dish("siu-mai", 2), dish("chicken-feet"))
DESSERT_DISCARDS = (dish("egg-tarts", 2), dish("tofu-fa", 1))
MAIN_DISCARDS = (dish("roast-duck", 2),)


def discards() -> list[tuple[int, ...]]:
    return [STEAM_DISCARDS, (), MAIN_DISCARDS, DESSERT_DISCARDS]


def test_three_players_the_parked_cart_is_replenished_when_it_leaves_the_kitchen() -> None:
    state = make_state(players=3, discards=discards())
    bottom_before = state.carts[DESSERT]
    events, after = run(state, 0, Rotate(), seed=4)
    assert types(events) == ["ActionTaken", "CartsRotated", "CartRefilled"]
    refill = events[2]
    assert refill.cart == DESSERT and sorted(refill.cards) == sorted(DESSERT_DISCARDS) and refill.flipped is None
    # It now stands in front of the first player, its discards shuffled under its old cards.
    assert GAME.view(after, None).carts[0].cart == DESSERT
    assert after.carts[DESSERT] == bottom_before + refill.cards
    assert after.dish_discards[DESSERT] == ()
    # The other carts moved without being replenished (the main-dish cart is now parked).
    assert after.dish_discards[STEAM] == STEAM_DISCARDS and after.dish_discards[MAIN] == MAIN_DISCARDS
    check_conservation(after)


def test_three_players_the_cart_entering_the_kitchen_is_not_replenished() -> None:
    state = make_state(players=3, discards=[(), (), MAIN_DISCARDS, ()])
    events, after = run(state, 0, Rotate())
    assert types(events) == ["ActionTaken", "CartsRotated"]
    assert after.slots[3] == MAIN and after.dish_discards[MAIN] == MAIN_DISCARDS


def test_four_players_a_cart_from_the_last_seat_to_the_first_passes_the_kitchen() -> None:
    state = make_state(players=4, first_player=1, turn_seat=2, discards=discards())
    # slot 3 (seat 0, the last seat before the first player 1) holds the dessert cart.
    events, after = run(state, 2, Rotate(), seed=9)
    assert events[1] == CartsRotated(seat=2, steps=1)
    assert isinstance(events[2], CartRefilled) and events[2].cart == DESSERT
    assert [c.seat for c in GAME.view(after, None).carts if c.cart == DESSERT] == [1]
    assert after.dish_discards == (STEAM_DISCARDS, (), MAIN_DISCARDS, ())
    check_conservation(after)


def test_four_players_every_cart_is_replenished_in_turn() -> None:
    state = make_state(players=4, discards=discards())
    refilled = []
    for turn in range(4):
        events, state = run(state, state.turn_seat, Rotate(), seed=turn)
        refilled += [e.cart for e in events if isinstance(e, CartRefilled)]
    assert refilled == [DESSERT, MAIN, STEAM]  # the side-dish cart had no discards
    assert state.slots == (0, 1, 2, 3) and state.dish_discards == ((), (), (), ())


def test_a_refilled_empty_cart_shows_its_new_top_card() -> None:
    state = make_state(players=3, discards=discards(), exact_carts=True, tops=[(), (), (), ()])
    events, after = run(state, 0, Rotate(), seed=2)
    refill = events[2]
    assert refill.flipped == refill.cards[0] == after.carts[DESSERT][0]
    assert GAME.view(after, 1).carts[0].top == refill.flipped


def test_no_discards_no_refill() -> None:
    events, _ = run(make_state(players=3), 0, Rotate())
    assert types(events) == ["ActionTaken", "CartsRotated"]


def test_lazy_susan_replenishes_the_cart_that_leaves_the_kitchen_counter_clockwise() -> None:
    card = derby("lazy-susan")
    three = make_state(players=3, discards=discards(), hands=[(card,), (), ()])
    events, after = run(three, 0, PlayDerby(card=card), seed=1)
    assert events[2] == CartsRotated(seat=0, steps=-1)
    assert isinstance(events[3], CartRefilled) and events[3].cart == DESSERT  # parked cart -> seat 2
    assert [c.seat for c in GAME.view(after, None).carts if c.cart == DESSERT] == [2]
    four = make_state(players=4, discards=discards(), hands=[(card,), (), (), ()])
    events, after = run(four, 0, PlayDerby(card=card), seed=1)
    assert isinstance(events[3], CartRefilled) and events[3].cart == STEAM  # seat 0 -> seat 3
    assert [c.seat for c in GAME.view(after, None).carts if c.cart == STEAM] == [3]
    check_conservation(after)


def test_a_scored_dish_comes_back_through_the_kitchen_and_can_be_eaten_again() -> None:
    chicken = dish("chicken-feet")
    state = make_state(players=3, table=[(chicken, (1,))], exact_carts=True, tops=[(), (), (), ()])
    _, state = run(state, 0, Eat(dish=chicken))
    assert state.dish_discards[STEAM] == (chicken,) and state.table == ()
    # The steam cart goes round: seat 0 -> seat 1 -> seat 2 -> Kitchen -> seat 0 (replenished).
    for _ in range(4):
        _, state = run(state, state.turn_seat, Rotate())
    assert state.carts[STEAM] == (chicken,) and state.slots[0] == STEAM
    assert GAME.view(state, None).carts[0].top == chicken
    state = replace(state, turn_seat=0, actions_left=3)
    _, state = run(state, 0, Serve())
    _, state = run(state, 0, Eat(dish=chicken))
    assert state.markers_on == ((0,),)


# --- rules version 2: the Kitchen sits directly left of the first player (seed 004) ---------------


def test_v2_three_players_the_parked_cart_waits_between_the_first_and_the_second_player() -> None:
    state = make_state(players=3, first_player=1, turn_seat=1, discards=discards(), rules_version=2)
    assert [(c.slot, c.seat) for c in GAME.view(state, None).carts] == [(0, 1), (1, None), (2, 2), (3, 0)]
    events, after = run(state, 1, Rotate(), seed=4)
    # The side-dish cart leaves the Kitchen (slot 1) for the second player; no discards, no refill.
    assert types(events) == ["ActionTaken", "CartsRotated"]
    # The cart of the first player (steam) goes into the Kitchen, and is refilled next time it leaves.
    assert after.slots == (3, 0, 1, 2)
    assert [c.seat for c in GAME.view(after, None).carts if c.cart == STEAM] == [None]
    after = replace(after, turn_seat=2, actions_left=3)
    events, after = run(after, 2, Rotate(), seed=4)
    assert isinstance(events[2], CartRefilled) and events[2].cart == STEAM
    assert sorted(events[2].cards) == sorted(STEAM_DISCARDS)
    assert [c.seat for c in GAME.view(after, None).carts if c.cart == STEAM] == [2]
    check_conservation(after)


def test_v2_four_players_a_cart_from_the_first_player_to_the_second_passes_the_kitchen() -> None:
    state = make_state(players=4, first_player=1, turn_seat=2, discards=discards(), rules_version=2)
    # Slot 0 (the first player, seat 1) holds the steam cart; slot 3 (seat 0) the dessert cart.
    events, after = run(state, 2, Rotate(), seed=9)
    assert events[1] == CartsRotated(seat=2, steps=1)
    assert isinstance(events[2], CartRefilled) and events[2].cart == STEAM
    assert [c.seat for c in GAME.view(after, None).carts if c.cart == STEAM] == [2]
    # The dessert cart went from the last seat to the first player without passing the Kitchen.
    assert after.dish_discards == ((), (), MAIN_DISCARDS, DESSERT_DISCARDS)
    check_conservation(after)


def test_v2_lazy_susan_mirrors_the_kitchen() -> None:
    card = derby("lazy-susan")
    three = make_state(players=3, discards=discards(), hands=[(card,), (), ()], rules_version=2)
    events, after = run(three, 0, PlayDerby(card=card), seed=1)
    assert events[2] == CartsRotated(seat=0, steps=-1)
    # The parked side-dish cart has no discards; it comes out to the first player.
    assert len(events) == 3 and [c.seat for c in GAME.view(after, None).carts if c.cart == 1] == [0]
    four = make_state(players=4, discards=discards(), hands=[(card,), (), (), ()], rules_version=2)
    events, after = run(four, 0, PlayDerby(card=card), seed=1)
    # Counter-clockwise, the cart of the second player (seat 1: side dish) passes the Kitchen to seat 0.
    assert len(events) == 3
    four = make_state(players=4, discards=discards(), hands=[(card,), (), (), ()], slots=(1, 0, 2, 3), rules_version=2)
    events, after = run(four, 0, PlayDerby(card=card), seed=1)
    assert isinstance(events[3], CartRefilled) and events[3].cart == STEAM  # seat 1 -> seat 0
    assert [c.seat for c in GAME.view(after, None).carts if c.cart == STEAM] == [0]
    check_conservation(after)


def test_v2_four_players_every_cart_is_replenished_in_turn() -> None:
    state = make_state(players=4, discards=discards(), rules_version=2)
    refilled = []
    for turn in range(4):
        events, state = run(state, state.turn_seat, Rotate(), seed=turn)
        refilled += [e.cart for e in events if isinstance(e, CartRefilled)]
    # Each rotation, the cart in front of the first player passes the Kitchen: steam, dessert, main.
    assert refilled == [STEAM, DESSERT, MAIN]
    assert state.slots == (0, 1, 2, 3) and state.dish_discards == ((), (), (), ())
