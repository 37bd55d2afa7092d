"""Every Derby card: its effect and its illegal forms."""

from __future__ import annotations

from typing import Any

import pytest
from msgspec.structs import replace

from kaiten.domain.chance import Chance
from kaiten.domain.dim_sum_derby.cards import STEAM
from kaiten.domain.dim_sum_derby.commands import Arrange, Cycle, DrawDerby, PlayDerby, Rotate, Serve
from kaiten.domain.dim_sum_derby.events import (
    ActionTaken,
    CartArranged,
    CartsRotated,
    DerbyPlayed,
    DishSentBack,
    ExtraActions,
    KitchenPeeked,
    MarkerKnockedOff,
    MarkerMoved,
    PlayerFull,
    YenSwapped,
)
from kaiten.domain.dim_sum_derby.state import DerbyState
from kaiten.domain.engine import RuleViolation
from tests.unit.dim_sum_derby.helpers import GAME, check_conservation, derby, dish, make_state, run, types, yen

HAR_GOW, SIU_MAI, CONGEE, ROAST_DUCK = dish("har-gow"), dish("siu-mai"), dish("congee"), dish("roast-duck")


def holding(slug: str, players: int = 3, **kwargs: Any) -> tuple[int, DerbyState]:
    """A state where seat 0 holds one copy of the Derby card."""
    card = derby(slug)
    return card, make_state(players=players, hands=[(card,)] + [()] * (players - 1), **kwargs)


def refused(state: object, command: object, seat: int = 0) -> str:
    with pytest.raises(RuleViolation) as error:
        GAME.decide(state, seat, command, Chance(0))
    return error.value.code


def legal(state: object, seat: int = 0) -> list[object]:
    return [c for c in GAME.legal_commands(state, seat) if isinstance(c, PlayDerby)]


def test_playing_a_derby_card_costs_one_action_and_discards_it_face_up() -> None:
    card, state = holding("extra-hungry")
    events, after = run(state, 0, PlayDerby(card=card))
    assert events[:2] == [ActionTaken(seat=0, action="play-derby", cost=1), DerbyPlayed(seat=0, card=card)]
    assert after.hands[0] == () and after.derby_discard == (card,)
    check_conservation(after)


def test_playing_the_first_of_two_derby_cards_keeps_the_second() -> None:
    first, second = derby("extra-hungry"), derby("lazy-susan")
    _, after = run(make_state(hands=[(first, second), (), ()]), 0, PlayDerby(card=first))
    assert after.hands[0] == (second,) and after.derby_discard == (first,)
    check_conservation(after)


def test_playing_a_card_you_do_not_hold_is_refused() -> None:
    state = make_state(hands=[(derby("lazy-susan"),), (derby("extra-hungry"),), ()])
    assert refused(state, PlayDerby(card=derby("extra-hungry"))) == "card-not-in-hand"
    assert refused(state, PlayDerby(card=99)) == "unknown-card"


@pytest.mark.parametrize(
    ("slug", "command"),
    [
        ("lazy-susan", {"dish": 0}),
        ("double-helping", {}),
        ("send-it-back", {"dish": 0, "to": 3}),
        ("switch-plates", {"dish": 0}),
        ("extra-hungry", {"target": 1}),
        ("change-of-heart", {}),
        ("sharp-elbows", {"dish": 0, "yen": 1}),
    ],
)
def test_each_card_takes_exactly_its_parameters(slug: str, command: dict[str, int]) -> None:
    card, state = holding(slug, table=[(HAR_GOW, (1,))])
    assert refused(state, PlayDerby(card=card, **command)) == "invalid-command"


# --- lazy-susan ---------------------------------------------------------------------------------


def test_lazy_susan_rotates_the_carts_counter_clockwise() -> None:
    card, state = holding("lazy-susan", players=4)
    events, after = run(state, 0, PlayDerby(card=card))
    assert events[2] == CartsRotated(seat=0, steps=-1)
    assert after.slots == (1, 2, 3, 0)
    assert legal(state) == [PlayDerby(card=card)]


# --- double-helping -----------------------------------------------------------------------------


def test_double_helping_puts_two_markers_on_one_dish() -> None:
    card, state = holding("double-helping", table=[(ROAST_DUCK, (1,))])
    events, after = run(state, 0, PlayDerby(card=card, dish=ROAST_DUCK))
    assert types(events) == ["ActionTaken", "DerbyPlayed", "PortionEaten", "PortionEaten"]
    assert after.markers_on == ((1, 0, 0),) and after.supply[0] == 8 and after.actions_left == 2
    check_conservation(after)


def test_double_helping_that_fills_a_dish_scores_it() -> None:
    card, state = holding("double-helping", table=[(HAR_GOW, (1,))])
    events, after = run(state, 0, PlayDerby(card=card, dish=HAR_GOW))
    assert types(events)[-1] == "DishScored" and after.portions[0] == (2, 0, 0, 0)


def test_double_helping_needs_room_for_two() -> None:
    card, state = holding("double-helping", table=[(HAR_GOW, (1, 2)), (CONGEE, ())])
    assert refused(state, PlayDerby(card=card, dish=HAR_GOW)) == "not-enough-room"
    assert legal(state) == [PlayDerby(card=card, dish=CONGEE)]
    assert refused(state, PlayDerby(card=card, dish=SIU_MAI)) == "dish-not-on-table"


def test_double_helping_needs_two_markers() -> None:
    card, state = holding("double-helping", table=[(CONGEE, ())], supply=(1, 10, 10), lost=(9, 0, 0))
    assert refused(state, PlayDerby(card=card, dish=CONGEE)) == "not-enough-markers"
    assert legal(state) == []


def test_double_helping_is_legal_with_exactly_two_markers_on_a_dish_with_room_for_exactly_two() -> None:
    card, state = holding(
        "double-helping", table=[(HAR_GOW, (1,)), (CONGEE, (1, 2))], supply=(2, 9, 10), lost=(8, 0, 0)
    )
    assert legal(state) == [PlayDerby(card=card, dish=HAR_GOW), PlayDerby(card=card, dish=CONGEE)]


def test_double_helping_with_the_last_two_markers_makes_you_full() -> None:
    card, state = holding("double-helping", table=[(CONGEE, ())], supply=(2, 10, 10), lost=(8, 0, 0))
    events, after = run(state, 0, PlayDerby(card=card, dish=CONGEE))
    assert PlayerFull(seat=0, reason="last-marker") in events and after.over


# --- send-it-back -------------------------------------------------------------------------------


def test_send_it_back_returns_an_unmarked_dish_to_the_bottom_of_its_cart() -> None:
    card, state = holding("send-it-back", table=[(SIU_MAI, ()), (CONGEE, (1,))], players=4)
    events, after = run(state, 0, PlayDerby(card=card, dish=SIU_MAI))
    assert events[2] == DishSentBack(seat=0, dish=SIU_MAI, cart=STEAM, flipped=None)
    assert after.table == (CONGEE,) and after.carts[STEAM][-1] == SIU_MAI
    assert legal(state) == [PlayDerby(card=card, dish=SIU_MAI)]
    check_conservation(after)


def test_send_it_back_to_an_empty_cart_shows_it_on_top() -> None:
    card, state = holding("send-it-back", table=[(SIU_MAI, ())], exact_carts=True)
    events, after = run(state, 0, PlayDerby(card=card, dish=SIU_MAI))
    assert events[2].flipped == SIU_MAI and GAME.view(after, None).carts[0].top == SIU_MAI


def test_send_it_back_refuses_a_dish_with_markers() -> None:
    card, state = holding("send-it-back", table=[(CONGEE, (1,))])
    assert refused(state, PlayDerby(card=card, dish=CONGEE)) == "dish-has-markers"
    assert legal(state) == []


# --- switch-plates ------------------------------------------------------------------------------


def test_switch_plates_moves_one_of_your_markers_to_another_dish() -> None:
    card, state = holding("switch-plates", table=[(CONGEE, (0, 1)), (ROAST_DUCK, ())])
    events, after = run(state, 0, PlayDerby(card=card, dish=CONGEE, to=ROAST_DUCK))
    assert events[2] == MarkerMoved(seat=0, dish=CONGEE, to=ROAST_DUCK)
    assert after.markers_on == ((1,), (0,))
    assert legal(state) == [PlayDerby(card=card, dish=CONGEE, to=ROAST_DUCK)]
    check_conservation(after)


def test_switch_plates_onto_the_last_portion_scores_the_dish() -> None:
    card, state = holding("switch-plates", table=[(CONGEE, (0,)), (HAR_GOW, (0, 2))])
    events, after = run(state, 0, PlayDerby(card=card, dish=CONGEE, to=HAR_GOW))
    assert types(events)[-1] == "DishScored" and after.portions[0] == (2, 0, 0, 0) and after.lost[2] == 1


def test_switch_plates_may_take_the_last_portion_of_a_dish() -> None:
    card, state = holding("switch-plates", table=[(CONGEE, (0,)), (HAR_GOW, (1, 2))])
    assert legal(state) == [PlayDerby(card=card, dish=CONGEE, to=HAR_GOW)]


def test_switch_plates_illegal_forms() -> None:
    card, state = holding("switch-plates", table=[(CONGEE, (1,)), (ROAST_DUCK, (0,)), (HAR_GOW, (1, 2, 2))])
    assert refused(state, PlayDerby(card=card, dish=CONGEE, to=ROAST_DUCK)) == "no-marker-on-dish"
    assert refused(state, PlayDerby(card=card, dish=ROAST_DUCK, to=ROAST_DUCK)) == "same-dish"
    assert refused(state, PlayDerby(card=card, dish=ROAST_DUCK, to=HAR_GOW)) == "dish-full"
    assert refused(state, PlayDerby(card=card, dish=ROAST_DUCK, to=SIU_MAI)) == "dish-not-on-table"
    assert legal(state) == [PlayDerby(card=card, dish=ROAST_DUCK, to=CONGEE)]


# --- peek-in-the-kitchen ------------------------------------------------------------------------


def test_peek_shows_the_top_three_cards_and_waits_for_their_new_order() -> None:
    top = (HAR_GOW, SIU_MAI, dish("lo-mai-gai"))
    card, state = holding("peek-in-the-kitchen", tops=[top, (), (), ()], actions_left=1)
    events, peeking = run(state, 0, PlayDerby(card=card))
    assert events[2] == KitchenPeeked(seat=0, cart=STEAM, cards=top)
    assert GAME.awaiting(peeking) == (0,) and peeking.actions_left == 0  # the turn waits for arrange
    assert GAME.view(peeking, 0).peek == top and GAME.view(peeking, 1).peek == ()
    commands = GAME.legal_commands(peeking, 0)
    assert len(commands) == 6 and all(isinstance(c, Arrange) for c in commands)
    assert refused(peeking, Rotate()) == "arrange-pending"
    assert refused(peeking, Arrange(cards=(HAR_GOW, SIU_MAI))) == "invalid-arrangement"
    assert refused(peeking, Arrange(cards=(HAR_GOW, SIU_MAI, CONGEE))) == "invalid-arrangement"
    new = (dish("lo-mai-gai"), HAR_GOW, SIU_MAI)
    events, after = run(peeking, 0, Arrange(cards=new))
    assert events[:2] == [ActionTaken(seat=0, action="arrange", cost=0), CartArranged(seat=0, cart=STEAM, cards=new)]
    assert after.carts[STEAM][:3] == new and after.carts[STEAM][3:] == state.carts[STEAM][3:]
    assert types(events)[-1] == "TurnPassed"  # peek was the last action
    assert GAME.view(after, 2).carts[0].top == dish("lo-mai-gai")
    check_conservation(after)


def test_peek_at_a_short_cart_shows_what_there_is() -> None:
    card, state = holding("peek-in-the-kitchen", tops=[(HAR_GOW, SIU_MAI), (), (), ()], exact_carts=True)
    _, peeking = run(state, 0, PlayDerby(card=card))
    assert peeking.peek == (HAR_GOW, SIU_MAI) and len(GAME.legal_commands(peeking, 0)) == 2


def test_peek_at_an_empty_cart_is_refused() -> None:
    card, state = holding("peek-in-the-kitchen", exact_carts=True)
    assert refused(state, PlayDerby(card=card)) == "cart-empty"
    assert legal(state) == []
    card, state = holding("peek-in-the-kitchen", tops=[(HAR_GOW,), (), (), ()], exact_carts=True)
    assert legal(state) == [PlayDerby(card=card)]


# --- extra-hungry -------------------------------------------------------------------------------


def test_extra_hungry_gives_two_more_actions_this_turn() -> None:
    card, state = holding("extra-hungry")
    events, state = run(state, 0, PlayDerby(card=card))
    assert events[2] == ExtraActions(seat=0, count=2) and state.actions_left == 4
    for command in (Rotate(), Cycle(), Serve()):
        events, state = run(state, 0, command)
        assert state.turn_seat == 0
    events, state = run(state, 0, Rotate())
    assert types(events)[-1] == "TurnPassed" and state.turn_seat == 1


# --- change-of-heart ----------------------------------------------------------------------------


def test_change_of_heart_swaps_an_unsatisfied_yen_card_with_the_top_of_its_deck() -> None:
    card, state = holding("change-of-heart", players=4)
    old = yen("egg-tarts")
    new = state.yen_decks[3][0]
    events, after = run(state, 0, PlayDerby(card=card, yen=old))
    assert events[2] == YenSwapped(seat=0, cart=3, old=old, new=new)
    assert after.yen[0][3] == new and after.yen_decks[3] == (old,)
    check_conservation(after)


def test_change_of_heart_illegal_forms() -> None:
    card, state = holding("change-of-heart", portions=[(1, 0, 0, 0), (0, 0, 0, 0), (0, 0, 0, 0)], supply=(9, 10, 10))
    assert refused(state, PlayDerby(card=card, yen=yen("har-gow"))) == "yen-has-portions"
    assert refused(state, PlayDerby(card=card, yen=yen("siu-mai"))) == "yen-not-yours"
    assert refused(state, PlayDerby(card=card, yen=20)) == "unknown-card"
    assert [c.yen for c in legal(state)] == [yen("spring-rolls"), yen("cheung-fun"), yen("egg-tarts")]


def test_change_of_heart_needs_cards_left_in_that_yen_deck() -> None:
    card, state = holding("change-of-heart", players=4)
    empty = replace(state, yen_decks=((), *state.yen_decks[1:]), derby_deck=state.derby_deck)
    assert refused(empty, PlayDerby(card=card, yen=yen("har-gow"))) == "yen-deck-empty"


# --- sharp-elbows -------------------------------------------------------------------------------


def test_sharp_elbows_discards_an_opponent_marker_which_is_lost_to_them() -> None:
    card, state = holding("sharp-elbows", table=[(CONGEE, (1, 0, 1))])
    events, after = run(state, 0, PlayDerby(card=card, dish=CONGEE, target=1))
    assert events[2] == MarkerKnockedOff(seat=0, target=1, dish=CONGEE)
    assert after.markers_on == ((1, 0),) and after.lost == (0, 1, 0) and after.supply[1] == 8
    assert legal(state) == [PlayDerby(card=card, dish=CONGEE, target=1)]
    check_conservation(after)


def test_sharp_elbows_illegal_forms() -> None:
    card, state = holding("sharp-elbows", table=[(CONGEE, (1, 0))])
    assert refused(state, PlayDerby(card=card, dish=CONGEE, target=0)) == "invalid-target"
    assert refused(state, PlayDerby(card=card, dish=CONGEE, target=5)) == "invalid-target"
    assert refused(state, PlayDerby(card=card, dish=CONGEE, target=2)) == "no-marker-on-dish"
    assert refused(state, PlayDerby(card=card, dish=HAR_GOW, target=1)) == "dish-not-on-table"


def test_derby_cards_may_be_played_the_turn_they_are_drawn() -> None:
    card = derby("extra-hungry")
    state = make_state(derby_deck=(card,), derby_discard=tuple(c for c in range(16) if c != card))
    _, state = run(state, 0, DrawDerby())
    assert state.hands[0] == (card,) and state.actions_left == 1
    _, state = run(state, 0, PlayDerby(card=card))
    assert state.actions_left == 2 and state.turn_seat == 0
