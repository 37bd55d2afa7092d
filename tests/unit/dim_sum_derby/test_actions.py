"""The actions of a turn and their illegal forms; exactly three actions per turn."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from kaiten.domain import lobby
from kaiten.domain.chance import Chance
from kaiten.domain.dim_sum_derby.cards import ACTIONS_PER_TURN
from kaiten.domain.dim_sum_derby.commands import Arrange, Cycle, DiscardDerby, DrawDerby, Eat, Rotate, Serve
from kaiten.domain.dim_sum_derby.events import ActionTaken, DerbyDrawn, DishCycled, DishServed, TurnPassed
from kaiten.domain.engine import RuleViolation
from tests.unit.dim_sum_derby.helpers import (
    GAME,
    check_conservation,
    derby,
    dish,
    make_state,
    new_table,
    run,
    types,
)


def refused(state: object, seat: int, command: object) -> str:
    with pytest.raises(RuleViolation) as error:
        GAME.decide(state, seat, command, Chance(0))
    return error.value.code


# --- rotate -------------------------------------------------------------------------------------


def test_rotate_moves_every_cart_one_position_clockwise_as_a_unit() -> None:
    state = make_state(players=4)
    before = {cart.seat: (cart.cart, cart.top, cart.size) for cart in GAME.view(state, None).carts}
    events, after = run(state, 0, Rotate())
    assert types(events) == ["ActionTaken", "CartsRotated"]
    moved = {cart.seat: (cart.cart, cart.top, cart.size) for cart in GAME.view(after, None).carts}
    assert moved == {(seat + 1) % 4: value for seat, value in before.items()}
    assert after.actions_left == ACTIONS_PER_TURN - 1


def test_three_player_rotation_moves_the_last_cart_into_the_kitchen_and_the_parked_one_out() -> None:
    state = make_state(players=3)
    _, after = run(state, 0, Rotate())
    assert after.slots == (3, 0, 1, 2)  # the dessert cart left the Kitchen for seat 0; main dish parked
    assert [c.seat for c in GAME.view(after, None).carts if c.cart == 2] == [None]


# --- serve --------------------------------------------------------------------------------------


def test_serve_puts_the_top_card_on_the_table_and_flips_the_next() -> None:
    state = make_state(tops=[(dish("har-gow"), dish("siu-mai")), (), (), ()])
    events, after = run(state, 0, Serve())
    assert events[1] == DishServed(seat=0, cart=0, dish=dish("har-gow"), flipped=dish("siu-mai"))
    assert after.table == (dish("har-gow"),) and after.markers_on == ((),)
    assert GAME.view(after, 1).carts[0].top == dish("siu-mai")
    check_conservation(after)


def test_serving_the_cart_in_front_of_you_depends_on_your_seat() -> None:
    state = make_state(turn_seat=1, tops=[(), (dish("congee"),), (), ()])
    _, after = run(state, 1, Serve())
    assert after.table == (dish("congee"),)


def test_serving_to_a_full_table_is_refused() -> None:
    table = [(dish(slug), ()) for slug in ("har-gow", "siu-mai", "congee", "roast-duck", "tofu-fa")]
    assert refused(make_state(table=table), 0, Serve()) == "table-full"
    assert Serve() not in GAME.legal_commands(make_state(table=table), 0)
    assert Serve() in GAME.legal_commands(make_state(table=table[:-1]), 0)


def test_serving_or_cycling_an_empty_cart_is_refused() -> None:
    state = make_state(exact_carts=True, tops=[(), (dish("congee"),), (), ()])
    assert refused(state, 0, Serve()) == "cart-empty"
    assert refused(state, 0, Cycle()) == "cart-empty"
    assert Serve() not in GAME.legal_commands(state, 0) and Cycle() not in GAME.legal_commands(state, 0)


def test_serving_the_last_card_of_a_cart_leaves_it_empty() -> None:
    state = make_state(exact_carts=True, tops=[(dish("har-gow"),), (), (), ()])
    events, after = run(state, 0, Serve())
    assert events[1].flipped is None and after.carts[0] == ()


# --- cycle --------------------------------------------------------------------------------------


def test_cycle_moves_the_top_card_to_the_bottom_and_flips_the_next() -> None:
    state = make_state(exact_carts=True, tops=[(dish("har-gow"), dish("siu-mai"), dish("lo-mai-gai")), (), (), ()])
    events, after = run(state, 0, Cycle())
    assert events[1] == DishCycled(seat=0, cart=0, dish=dish("har-gow"), flipped=dish("siu-mai"))
    assert after.carts[0] == (dish("siu-mai"), dish("lo-mai-gai"), dish("har-gow"))


# --- eat ----------------------------------------------------------------------------------------


def test_eat_puts_one_marker_on_a_table_dish_with_room() -> None:
    state = make_state(table=[(dish("char-siu-bao"), (1,))])
    events, after = run(state, 0, Eat(dish=dish("char-siu-bao")))
    assert types(events) == ["ActionTaken", "PortionEaten"]
    assert after.markers_on == ((1, 0),) and after.supply[0] == 9
    check_conservation(after)


def test_a_player_may_eat_several_portions_of_one_dish() -> None:
    state = make_state(table=[(dish("char-siu-bao"), (0, 0))])
    _, after = run(state, 0, Eat(dish=dish("char-siu-bao")))
    assert after.markers_on == ((0, 0, 0),)


def test_eating_without_markers_is_refused() -> None:
    state = make_state(table=[(dish("congee"), ())], supply=(0, 10, 10), lost=(10, 0, 0))
    assert refused(state, 0, Eat(dish=dish("congee"))) == "no-markers-left"
    assert not any(isinstance(c, Eat) for c in GAME.legal_commands(state, 0))


def test_the_last_marker_may_still_eat() -> None:
    state = make_state(table=[(dish("congee"), ())], supply=(1, 10, 10), lost=(9, 0, 0))
    assert Eat(dish=dish("congee")) in GAME.legal_commands(state, 0)


def test_eating_a_full_dish_is_refused() -> None:
    # A full dish is scored at once, so it never waits on the table; the check still guards decide.
    state = make_state(table=[(dish("chicken-feet"), (1, 2))])
    assert refused(state, 0, Eat(dish=dish("chicken-feet"))) == "dish-full"
    assert GAME.legal_commands(state, 0) == [Rotate(), Serve(), Cycle(), DrawDerby()]


def test_eating_a_dish_that_is_not_on_the_table_is_refused() -> None:
    state = make_state(table=[(dish("congee"), ())])
    assert refused(state, 0, Eat(dish=dish("har-gow"))) == "dish-not-on-table"
    assert refused(state, 0, Eat(dish=60)) == "unknown-card"
    assert refused(state, 0, Eat(dish=-1)) == "unknown-card"


# --- Derby cards: draw and discard --------------------------------------------------------------


def test_draw_derby_costs_two_actions_and_the_card_goes_to_the_hand() -> None:
    state = make_state(
        derby_deck=(5, 3), hands=[(), (), ()], derby_discard=tuple(c for c in range(16) if c not in (5, 3))
    )
    events, after = run(state, 0, DrawDerby())
    assert events == [ActionTaken(seat=0, action="draw-derby", cost=2), DerbyDrawn(seat=0, card=5)]
    assert after.hands[0] == (5,) and after.actions_left == 1 and after.derby_deck == (3,)


def test_drawing_a_third_derby_card_is_refused() -> None:
    state = make_state(hands=[(derby("lazy-susan"), derby("sharp-elbows")), (), ()])
    assert refused(state, 0, DrawDerby()) == "derby-hand-full"
    assert DrawDerby() not in GAME.legal_commands(state, 0)


def test_drawing_with_one_action_left_is_refused() -> None:
    state = make_state(actions_left=1)
    assert refused(state, 0, DrawDerby()) == "not-enough-actions"
    assert DrawDerby() not in GAME.legal_commands(state, 0)
    assert DrawDerby() in GAME.legal_commands(make_state(actions_left=2), 0)
    events, _ = run(make_state(actions_left=2), 0, DrawDerby())
    assert events[0] == ActionTaken(seat=0, action="draw-derby", cost=2)


def test_an_empty_derby_deck_is_reshuffled_from_its_discards() -> None:
    state = make_state(derby_deck=(), derby_discard=(0, 1, 2), hands=[(), tuple(range(3, 16)), ()])
    events, after = run(state, 0, DrawDerby(), seed=3)
    assert types(events) == ["ActionTaken", "DerbyDeckReshuffled", "DerbyDrawn"]
    assert sorted(events[1].cards) == [0, 1, 2] and events[2].card == events[1].cards[0]
    assert after.derby_discard == () and len(after.derby_deck) == 2


def test_drawing_from_an_empty_deck_with_no_discards_is_refused() -> None:
    state = make_state(derby_deck=(), hands=[(0,), (1, 2), (3,)], derby_discard=())
    assert refused(state, 0, DrawDerby()) == "derby-deck-empty"


def test_discarding_a_derby_card_costs_no_action() -> None:
    card = derby("extra-hungry")
    state = make_state(hands=[(card,), (), ()])
    events, after = run(state, 0, DiscardDerby(card=card))
    assert events[0] == ActionTaken(seat=0, action="discard-derby", cost=0)
    assert after.hands[0] == () and after.derby_discard == (card,) and after.actions_left == 3


def test_discarding_a_card_you_do_not_hold_is_refused() -> None:
    state = make_state(hands=[(0,), (1,), ()])
    assert refused(state, 0, DiscardDerby(card=1)) == "card-not-in-hand"
    assert refused(state, 0, DiscardDerby(card=16)) == "unknown-card"


# --- the turn -----------------------------------------------------------------------------------


def test_the_turn_passes_clockwise_after_the_third_action() -> None:
    state = make_state(players=4, turn_seat=3)
    _, state = run(state, 3, Rotate())
    _, state = run(state, 3, Cycle())
    events, state = run(state, 3, Rotate())
    assert events[-1] == TurnPassed(seat=0, turn=2)
    assert state.turn_seat == 0 and state.actions_left == ACTIONS_PER_TURN


def test_a_draw_and_one_more_action_make_a_turn() -> None:
    state = make_state()
    _, state = run(state, 0, DrawDerby())
    events, state = run(state, 0, Cycle())
    assert isinstance(events[-1], TurnPassed) and state.turn_seat == 1


def test_a_fourth_action_is_refused() -> None:
    table, events = new_table(3, ["random"] * 3)
    for _ in range(3):
        table = lobby.act(GAME, table, 0, Rotate(), Chance(3, len(events))).table
    assert GAME.awaiting(table.state) == (1,)
    with pytest.raises(RuleViolation) as error:
        lobby.act(GAME, table, 0, Rotate(), Chance(3, 99))
    assert error.value.code == "not-your-turn"
    with pytest.raises(RuleViolation) as error:
        GAME.decide(table.state, 0, Rotate(), Chance(3, 99))
    assert error.value.code == "not-your-turn"
    assert GAME.legal_commands(table.state, 0) == []


def test_only_the_turn_seat_is_awaited_and_may_act() -> None:
    state = make_state(turn_seat=1)
    assert GAME.awaiting(state) == (1,)
    assert refused(state, 0, Rotate()) == "not-your-turn"


def test_something_that_is_not_a_command_is_refused() -> None:
    assert refused(make_state(), 0, "eat") == "invalid-command"


def test_arrange_without_a_peek_is_refused() -> None:
    assert refused(make_state(), 0, Arrange(cards=())) == "nothing-to-arrange"


def test_a_finished_game_refuses_commands() -> None:
    over = replace(make_state(), over=True)
    assert refused(over, 0, Rotate()) == "game-finished"
    assert GAME.awaiting(over) == () and GAME.legal_commands(over, 0) == []
