"""A turn: rotation cost and token placement, taking tokens, the squishy bun, the empty-basket rule,
setup, turn order, game end, and every RuleViolation."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from kaiten.domain import lobby
from kaiten.domain.chance import Chance
from kaiten.domain.engine import RuleViolation
from kaiten.domain.spin_some.commands import ReturnBun, Rotate, Take
from kaiten.domain.spin_some.events import (
    BasketsFilled,
    DimSumTaken,
    SquishyBunReturned,
    SquishyBunTaken,
    TableRotated,
)
from kaiten.domain.spin_some.game import SPIN_SOME_FOR_DIM_SUM as GAME
from kaiten.domain.spin_some.options import SpinOptions
from kaiten.domain.spin_some.state import SpinState, front, top
from tests.unit.spin_some.helpers import make_state, new_table, slugs

SIX = [
    ["egg-tart", "chive-dumpling"],
    ["shumai-dumpling"],
    ["shrimp-dumpling"],
    ["turnip-cake"],
    ["small-sesame-ball"],
    ["large-sesame-ball"],
]


def run(state: SpinState, seat: int, command: Any) -> tuple[list[Any], SpinState]:
    events = list(GAME.decide(state, seat, command, Chance(0)))
    for event in events:
        state = GAME.evolve(state, event)
    return events, state


def violation(state: SpinState, seat: int, command: Any) -> str:
    with pytest.raises(RuleViolation) as err:
        GAME.decide(state, seat, command, Chance(0))
    assert command not in GAME.legal_commands(state, seat)
    return err.value.code


def total_tokens(state: SpinState) -> int:
    return sum(state.tokens) + sum(state.basket_tokens)


# ---- setup -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_setup_fills_six_piles_18_18_18_17_17_17(players: int) -> None:
    (event,) = GAME.setup(SpinOptions(), players, Chance(7))
    assert isinstance(event, BasketsFilled)
    assert event.piles is not None
    assert event.sizes == (18, 18, 18, 17, 17, 17)
    assert tuple(len(p) for p in event.piles) == event.sizes
    assert event.tops == tuple(p[0] for p in event.piles)
    assert sorted(c for p in event.piles for c in p) == list(range(105))
    state = GAME.evolve(GAME.initial_state(SpinOptions(), players), event)
    assert state.tokens == (4,) * players
    assert state.bun is None
    assert total_tokens(state) == 4 * players
    assert [front(state, seat) for seat in range(players)] == list(range(players))
    assert GAME.awaiting(state) == (0,)


def test_first_player_option() -> None:
    table, _ = new_table(3, ["random"] * 4, {"first_player": 2})
    assert GAME.awaiting(table.state) == (2,)
    with pytest.raises(RuleViolation) as err:
        lobby.act(GAME, table, 0, Take(), Chance(0))
    assert err.value.code == "not-your-turn"


@pytest.mark.parametrize("options", [{"first_player": 4}, {"first_player": -1}, {"first_player": "x"}, {"x": 1}])
def test_invalid_options(options: dict[str, Any]) -> None:
    with pytest.raises(RuleViolation) as err:
        lobby.create_game(GAME, 4, options, 1, salt=bytes(16))
    assert err.value.code == "invalid-options"


def test_play_goes_left_and_wraps() -> None:
    state = make_state(SIX, players=3, current=2)
    _, state = run(state, 2, Take())
    assert GAME.awaiting(state) == (0,)
    assert GAME.legal_commands(state, 2) == []


# ---- taking, rotating, paying ----------------------------------------------------------------------------


def test_take_without_rotating_takes_the_top_card_and_reveals_the_next() -> None:
    state = make_state(SIX, basket_tokens=(2, 0, 0, 0, 0, 0))
    events, after = run(state, 0, Take())
    assert len(events) == 1
    taken = events[0]
    assert isinstance(taken, DimSumTaken)
    assert (taken.seat, taken.basket, taken.tokens) == (0, 0, 2)
    assert slugs([taken.card]) == ["egg-tart"]
    assert taken.revealed is not None and slugs([taken.revealed]) == ["chive-dumpling"]
    assert top(after, 0) == taken.revealed
    assert slugs(after.menus[0]) == ["egg-tart"]
    assert after.tokens == (6, 4)
    assert after.basket_tokens == (0,) * 6
    assert after.current == 1


def test_rotating_clockwise_pays_one_token_into_each_basket_passed_starting_with_your_own() -> None:
    state = make_state(SIX)
    events, after = run(state, 0, Rotate(steps=2))
    rotated, taken = events
    assert rotated == TableRotated(seat=0, steps=2, paid=(0, 1), how="tokens")
    assert isinstance(taken, DimSumTaken) and taken.basket == 2 and taken.tokens == 0
    assert slugs(after.menus[0]) == ["shrimp-dumpling"]
    assert after.tokens == (2, 4)
    assert after.basket_tokens == (1, 1, 0, 0, 0, 0)
    assert total_tokens(after) == 8
    # the whole table turned: seat 1 now faces basket 3
    assert front(after, 0) == 2 and front(after, 1) == 3


def test_rotating_counterclockwise_pays_the_other_way() -> None:
    state = make_state(SIX, current=1, tokens=(4, 4))
    events, after = run(state, 1, Rotate(steps=-3))
    rotated, taken = events
    assert rotated == TableRotated(seat=1, steps=-3, paid=(1, 0, 5), how="tokens")
    assert isinstance(taken, DimSumTaken) and taken.basket == 4
    assert slugs(after.menus[1]) == ["small-sesame-ball"]
    assert after.tokens == (4, 1)
    assert after.basket_tokens == (1, 1, 0, 0, 0, 1)
    assert front(after, 0) == 3


def test_the_basket_arriving_in_front_of_you_gets_no_token_and_you_take_what_lies_in_it() -> None:
    state = make_state(SIX, basket_tokens=(0, 0, 0, 3, 0, 0))
    events, after = run(state, 0, Rotate(steps=3))
    assert events[0].paid == (0, 1, 2)
    assert events[1].tokens == 3
    assert after.tokens == (4 - 3 + 3, 4)
    assert after.basket_tokens == (1, 1, 1, 0, 0, 0)


def test_rotating_five_steps_costs_five_tokens() -> None:
    state = make_state(SIX, tokens=(5, 4))
    events, after = run(state, 0, Rotate(steps=5))
    assert events[0].paid == (0, 1, 2, 3, 4)
    assert events[1].basket == 5
    assert after.tokens == (0, 4)


def test_legal_commands_list_every_affordable_rotation_both_ways() -> None:
    state = make_state(SIX, tokens=(2, 4))
    assert GAME.legal_commands(state, 0) == [Take(), Rotate(1), Rotate(-1), Rotate(2), Rotate(-2)]
    assert GAME.legal_commands(state, 1) == []
    rich = make_state(SIX, tokens=(9, 4))
    assert len(GAME.legal_commands(rich, 0)) == 1 + 10


def test_spinning_without_tokens_is_refused() -> None:
    state = make_state(SIX, tokens=(0, 4))
    assert violation(state, 0, Rotate(steps=1)) == "no-tokens"
    assert violation(state, 0, Rotate(steps=-1)) == "no-tokens"
    assert GAME.legal_commands(state, 0) == [Take()]


def test_spinning_further_than_tokens_allow_is_refused() -> None:
    state = make_state(SIX, tokens=(2, 4))
    assert violation(state, 0, Rotate(steps=3)) == "not-enough-tokens"
    assert violation(state, 0, Rotate(steps=-3)) == "not-enough-tokens"


@pytest.mark.parametrize("steps", [0, 6, -6, 12])
def test_rotation_steps_must_be_one_to_five(steps: int) -> None:
    assert violation(make_state(SIX, tokens=(20, 4)), 0, Rotate(steps=steps)) == "invalid-steps"


def test_rotation_steps_must_be_a_number_not_a_boolean() -> None:
    # true equals 1 in Python (and so Rotate(steps=True) == Rotate(steps=1)); the rules take numbers only.
    with pytest.raises(RuleViolation) as err:
        GAME.decide(make_state(SIX, tokens=(20, 4)), 0, Rotate(steps=True), Chance(0))
    assert err.value.code == "invalid-steps"


def test_acting_out_of_turn_is_refused() -> None:
    state = make_state(SIX)
    assert violation(state, 1, Take()) == "not-your-turn"


def test_acting_out_of_turn_through_the_table() -> None:
    table, _ = new_table(5, ["random", "random", "random"])
    for seat in (1, 2):
        with pytest.raises(RuleViolation) as err:
            lobby.act(GAME, table, seat, Take(), Chance(0))
        assert err.value.code == "not-your-turn"


def test_an_unknown_command_is_refused() -> None:
    assert violation(make_state(SIX), 0, object()) == "invalid-command"


def test_rotating_to_an_empty_basket_is_refused() -> None:
    piles = [["egg-tart"], ["shumai-dumpling"], [], ["turnip-cake"]]
    state = make_state(piles, bun=0)
    assert violation(state, 0, Rotate(steps=2)) == "target-basket-empty"
    assert violation(state, 0, ReturnBun(steps=2)) == "target-basket-empty"
    assert violation(state, 0, Rotate(steps=-1)) == "target-basket-empty"


# ---- the squishy bun -------------------------------------------------------------------------------------


def test_taking_a_steamed_bun_takes_the_squishy_bun_from_the_middle_then_from_its_holder() -> None:
    piles = [["steamed-bun"], ["steamed-bun", "egg-tart"], ["steamed-bun"], ["steamed-bun"]]
    state = make_state(piles)
    events, state = run(state, 0, Take())
    assert events[1] == SquishyBunTaken(seat=0, from_seat=None)
    assert state.bun == 0
    events, state = run(state, 1, Take())
    assert events[1] == SquishyBunTaken(seat=1, from_seat=0)
    assert state.bun == 1
    events, state = run(state, 0, Rotate(steps=2))
    assert events[-1] == SquishyBunTaken(seat=0, from_seat=1)
    events, state = run(state, 1, Take())
    assert events[-1] == SquishyBunTaken(seat=1, from_seat=0)
    assert state.bun == 1


def test_holder_taking_another_steamed_bun_keeps_the_squishy_bun_without_an_event() -> None:
    state = make_state([["steamed-bun"]], bun=0, menus=[["steamed-bun"], []])
    events, after = run(state, 0, Take())
    assert len(events) == 1 and after.bun == 0


def test_spending_the_squishy_bun_rotates_for_free() -> None:
    state = make_state(SIX, bun=0, tokens=(0, 4), basket_tokens=(0, 0, 0, 0, 2, 0))
    assert ReturnBun(steps=4) in GAME.legal_commands(state, 0)
    events, after = run(state, 0, ReturnBun(steps=4))
    assert events[:2] == [
        SquishyBunReturned(seat=0),
        TableRotated(seat=0, steps=4, paid=(), how="squishy-bun"),
    ]
    assert isinstance(events[2], DimSumTaken) and events[2].basket == 4 and events[2].tokens == 2
    assert after.bun is None
    assert after.tokens == (2, 4)
    assert after.basket_tokens == (0,) * 6


def test_spending_the_squishy_bun_to_take_a_steamed_bun_takes_it_back() -> None:
    state = make_state([["egg-tart"], [], ["steamed-bun"]], bun=0)
    events, after = run(state, 0, ReturnBun(steps=2))
    assert events[0] == SquishyBunReturned(seat=0)
    assert events[-1] == SquishyBunTaken(seat=0, from_seat=None)
    # The bun went back to the table and came back with the steamed bun, now on seat 0's menu.
    assert after.bun == 0 and after.menus[0] == (state.piles[2][-1],)


def test_spending_a_squishy_bun_you_do_not_hold_is_refused() -> None:
    assert violation(make_state(SIX, bun=None), 0, ReturnBun(steps=1)) == "no-squishy-bun"
    assert violation(make_state(SIX, bun=1), 0, ReturnBun(steps=1)) == "no-squishy-bun"


@pytest.mark.parametrize("steps", [0, -1, 6])
def test_squishy_bun_steps_are_one_to_five_clockwise(steps: int) -> None:
    assert violation(make_state(SIX, bun=0), 0, ReturnBun(steps=steps)) == "invalid-steps"


def test_legal_commands_with_the_bun_add_every_free_rotation() -> None:
    state = make_state(SIX, bun=0, tokens=(1, 4))
    assert GAME.legal_commands(state, 0) == [Take(), Rotate(1), Rotate(-1), *(ReturnBun(s) for s in range(1, 6))]


# ---- the empty-basket rule (decided) -------------------------------------------------------------------


def test_an_empty_basket_in_front_must_be_rotated_away_from() -> None:
    piles = [[], ["egg-tart"], [], ["turnip-cake"]]
    state = make_state(piles, tokens=(3, 4))
    assert violation(state, 0, Take()) == "empty-basket"
    assert GAME.legal_commands(state, 0) == [Rotate(1), Rotate(3), Rotate(-3)]


def test_an_empty_basket_in_front_can_be_left_with_the_bun() -> None:
    state = make_state([[], [], ["egg-tart"]], tokens=(0, 4), bun=0)
    assert violation(state, 0, Take()) == "empty-basket"
    assert GAME.legal_commands(state, 0) == [ReturnBun(2)]


@pytest.mark.parametrize(
    ("piles", "tokens", "steps"),
    [
        ([[], ["egg-tart"], [], [], [], ["turnip-cake"]], 0, 1),  # equally near: clockwise first
        ([[], [], ["egg-tart"], [], [], ["turnip-cake"]], 0, -1),  # nearest wins
        ([[], [], [], ["egg-tart"]], 0, 3),
        ([[], [], ["egg-tart"]], 1, 2),  # one token cannot pay two steps
    ],
)
def test_unable_to_pay_you_rotate_for_free_to_the_nearest_non_empty_basket(
    piles: Sequence[Sequence[str]], tokens: int, steps: int
) -> None:
    state = make_state(piles, tokens=(tokens, 4))
    assert GAME.legal_commands(state, 0) == [Take()]
    events, after = run(state, 0, Take())
    assert events[0] == TableRotated(seat=0, steps=steps, paid=(), how="empty-basket")
    assert isinstance(events[1], DimSumTaken) and events[1].basket == steps % 6
    assert after.tokens == (tokens, 4)
    assert len(after.menus[0]) == 1


def test_game_ends_when_every_basket_is_empty() -> None:
    state = make_state([["egg-tart"], [], ["chive-dumpling", "turnip-cake"]], bun=None)
    assert GAME.result(state) is None
    _, state = run(state, 0, Take())
    _, state = run(state, 1, Rotate(1))
    assert GAME.result(state) is None
    _, state = run(state, 0, Rotate(1))
    assert GAME.awaiting(state) == ()
    assert GAME.legal_commands(state, 1) == []
    assert violation(state, 1, Take()) == "not-your-turn"
    result = GAME.result(state)
    assert result is not None
    assert [len(m) for m in state.menus] == [2, 1]


def test_game_ends_when_everyone_has_twelve_cards() -> None:
    table, _ = new_table(11, ["random", "random"])
    turns = 0
    while table.status == "active":
        seat = table.state.current
        decision = lobby.act(GAME, table, seat, GAME.legal_commands(table.state, seat)[0], Chance(0))
        table = decision.table
        turns += 1
    assert turns == 24
    assert [len(m) for m in table.state.menus] == [12, 12]
    assert table.result is not None
    with pytest.raises(RuleViolation) as err:
        lobby.act(GAME, table, 0, Take(), Chance(0))
    assert err.value.code == "game-finished"
