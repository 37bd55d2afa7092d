"""Both game-end conditions (play stops at once) and the turn limit that bounds a stalled game."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from kaiten.domain import lobby
from kaiten.domain.chance import Chance
from kaiten.domain.dim_sum_derby.cards import turn_limit
from kaiten.domain.dim_sum_derby.commands import Cycle, Eat, Rotate
from kaiten.domain.dim_sum_derby.events import PlayerFull, TurnLimitReached
from kaiten.domain.engine import RuleViolation
from kaiten.domain.lobby import GameFinished
from tests.unit.dim_sum_derby.helpers import GAME, check_conservation, dish, make_state, new_table, run, types


def test_placing_the_last_marker_ends_the_game_at_once_even_mid_turn() -> None:
    congee = dish("congee")
    state = make_state(table=[(congee, ())], supply=(1, 10, 10), lost=(9, 0, 0))
    events, after = run(state, 0, Eat(dish=congee))
    assert PlayerFull(seat=0, reason="last-marker") in events
    assert after.over and after.full == 0 and after.actions_left == 2
    assert GAME.awaiting(after) == () and GAME.result(after) is not None
    check_conservation(after)


def test_a_scored_portion_on_every_yen_card_ends_the_game() -> None:
    har_gow = dish("har-gow")
    state = make_state(table=[(har_gow, (0, 0))], portions=[(0, 1, 1, 1), (0, 0, 0, 0), (0, 0, 0, 0)])
    events, after = run(state, 0, Eat(dish=har_gow))
    assert types(events)[-2:] == ["DishScored", "PlayerFull"]
    assert events[-1] == PlayerFull(seat=0, reason="all-yen")
    assert after.over and after.supply[0] == 4


def test_another_player_can_become_full_when_the_actor_completes_their_dish() -> None:
    siu_mai = dish("siu-mai")  # seat 1's steam yen
    congee = dish("congee")
    state = make_state(table=[(siu_mai, (1, 2)), (congee, (2,))], portions=[(0, 0, 0, 0), (0, 2, 1, 1), (0, 0, 0, 0)])
    events, after = run(state, 0, Eat(dish=siu_mai))
    assert PlayerFull(seat=1, reason="all-yen") in events
    assert after.portions[1] == (1, 2, 1, 1)
    # The partly eaten congee is scored at the end too (nobody holds it: the marker is discarded).
    assert after.table == () and after.lost == (1, 0, 2)
    check_conservation(after)


def test_the_table_appends_game_finished_with_the_result() -> None:
    table, log = new_table(5, ["random"] * 3)
    congee = dish("congee")
    state = make_state(table=[(congee, ())], supply=(1, 10, 10), lost=(9, 0, 0))
    decision = lobby.act(GAME, replace(table, state=state), 0, Eat(dish=congee), Chance(5, len(log)))
    assert isinstance(decision.events[-1], GameFinished)
    assert decision.table.status == "finished"
    with pytest.raises(RuleViolation) as error:
        lobby.act(GAME, decision.table, 1, Rotate(), Chance(5, 99))
    assert error.value.code == "game-finished"


def test_a_stalled_game_ends_after_the_round_limit() -> None:
    players = 3
    last = turn_limit(players)
    # kaiten's own rule (the rules leave a stalled game open): 60 rounds, as the catalog says.
    assert last == 60 * players and GAME.catalog().rules.round_limit == 60
    congee = dish("congee")
    state = make_state(turn=last, turn_seat=2, actions_left=1, table=[(congee, (2,))])
    events, after = run(state, 2, Cycle())
    assert types(events)[-2:] == ["TurnLimitReached", "DishScored"]
    assert events[-2] == TurnLimitReached(turn=last)
    assert after.over and after.full is None and GAME.result(after) is not None
    check_conservation(after)


def test_the_turn_before_the_limit_passes_normally() -> None:
    state = make_state(turn=turn_limit(3) - 1, turn_seat=1, actions_left=1)
    events, after = run(state, 1, Rotate())
    assert types(events)[-1] == "TurnPassed" and after.turn == turn_limit(3) and not after.over
