"""Scoring a dish when it fills, final scoring, ties, and the scoring calculator."""

from __future__ import annotations

import msgspec
import pytest
from msgspec.structs import replace

from kaiten.domain.dim_sum_derby.cards import STEAM
from kaiten.domain.dim_sum_derby.commands import Eat
from kaiten.domain.dim_sum_derby.events import DishScored
from kaiten.domain.engine import RuleViolation
from tests.unit.dim_sum_derby.helpers import GAME, check_conservation, dish, make_state, run, types, yen

# Default yen cards (helpers.DEFAULT_YEN): seat 0 har-gow, spring-rolls, cheung-fun, egg-tarts;
# seat 1 siu-mai, turnip-cake, roast-duck, mango-pudding; seat 2 char-siu-bao, taro-puffs,
# salt-pepper-squid, sesame-balls. Nobody holds lo-mai-gai with 3 players.


def test_a_full_dish_is_scored_matching_markers_to_the_yen_card_the_rest_discarded() -> None:
    har_gow = dish("har-gow")
    state = make_state(table=[(har_gow, (0, 1))])
    events, after = run(state, 0, Eat(dish=har_gow))
    assert types(events) == ["ActionTaken", "PortionEaten", "DishScored"]
    assert events[2] == DishScored(dish=har_gow, markers=(0, 1, 0), scorer=0, final=False)
    assert after.portions[0] == (2, 0, 0, 0)
    assert after.lost == (0, 1, 0)
    assert after.table == () and after.dish_discards[STEAM] == (har_gow,)
    check_conservation(after)


def test_scoring_flips_the_yen_card_face_up_for_everyone() -> None:
    har_gow = dish("har-gow")
    state = make_state(table=[(har_gow, (0, 1))])
    assert GAME.view(state, 1).seats[0].yen == (None, None, None, None)
    _, after = run(state, 0, Eat(dish=har_gow))
    for viewer in (1, 2, None):
        assert GAME.view(after, viewer).seats[0].yen == (yen("har-gow"), None, None, None)


def test_a_dish_nobody_holds_discards_every_marker() -> None:
    lo_mai_gai = dish("lo-mai-gai")
    state = make_state(table=[(lo_mai_gai, (0, 2))])
    events, after = run(state, 0, Eat(dish=lo_mai_gai))
    assert events[2].scorer is None
    assert after.lost == (2, 0, 1) and after.portions == ((0, 0, 0, 0),) * 3
    check_conservation(after)


def test_the_yen_holder_without_markers_on_the_dish_stays_hidden() -> None:
    siu_mai = dish("siu-mai")  # seat 1's yen card
    state = make_state(table=[(siu_mai, (0, 2))])
    events, after = run(state, 0, Eat(dish=siu_mai))
    assert events[2].scorer is None
    assert GAME.view(after, 0).seats[1].yen == (None, None, None, None)


def test_end_scoring_scores_partly_eaten_dishes_as_if_complete() -> None:
    egg_tarts, roast_duck, congee = dish("egg-tarts"), dish("roast-duck"), dish("congee")
    state = make_state(
        table=[(roast_duck, (1,)), (egg_tarts, (0,)), (congee, ())],
        supply=(1, 9, 10),
        portions=[(2, 0, 0, 0), (0, 0, 0, 0), (0, 0, 0, 0)],
        lost=(6, 0, 0),
    )
    events, after = run(state, 0, Eat(dish=egg_tarts))
    assert types(events) == ["ActionTaken", "PortionEaten", "PlayerFull", "DishScored", "DishScored"]
    assert events[3] == DishScored(dish=roast_duck, markers=(1,), scorer=1, final=True)
    assert events[4] == DishScored(dish=egg_tarts, markers=(0, 0), scorer=0, final=True)
    assert after.table == (congee,)  # an untouched dish is not partly eaten
    assert after.portions[0] == (2, 0, 0, 2) and after.portions[1] == (0, 0, 1, 0)
    check_conservation(after)
    result = GAME.result(after)
    assert result is not None
    assert [s.breakdown for s in result.scores] == [
        {"steam-cart": 2, "side-dish": 0, "main-dish": 0, "dessert": 2, "unsatisfied": -2},
        {"steam-cart": 0, "side-dish": 0, "main-dish": 1, "dessert": 0, "unsatisfied": -3},
        {"steam-cart": 0, "side-dish": 0, "main-dish": 0, "dessert": 0, "unsatisfied": -4},
    ]
    assert [s.total for s in result.scores] == [2, -2, -4]
    assert result.winners == (0,) and result.ranking == (0, 1, 2)


def over(portions: list[tuple[int, int, int, int]]) -> object:
    players = len(portions)
    state = make_state(players=players, portions=portions)
    return replace(state, over=True)


def test_the_score_is_portions_minus_unsatisfied_yen_cards() -> None:
    result = GAME.result(over([(3, 0, 1, 0), (1, 1, 1, 1), (0, 0, 0, 0)]))
    assert result is not None
    assert [s.total for s in result.scores] == [2, 4, -4]
    for score in result.scores:
        assert score.total == sum(score.breakdown.values())


def test_ties_go_to_most_dessert_portions() -> None:
    result = GAME.result(over([(3, 1, 1, 1), (1, 1, 1, 3), (2, 2, 1, 1)]))
    assert result is not None
    assert [s.total for s in result.scores] == [6, 6, 6]
    assert result.winners == (1,) and result.ranking[0] == 1


def test_dessert_portions_break_a_tie_before_any_number_of_main_dish_portions() -> None:
    result = GAME.result(over([(2, 1, 3, 1), (2, 1, 1, 3)]))
    assert result is not None
    assert [s.total for s in result.scores] == [7, 7]
    assert result.winners == (1,)


def test_then_to_most_main_dish_portions() -> None:
    result = GAME.result(over([(3, 1, 1, 2), (1, 1, 3, 2), (3, 0, 0, 0)]))
    assert result is not None
    assert result.winners == (1,) and result.ranking == (1, 0, 2)


def test_still_tied_is_a_shared_victory() -> None:
    result = GAME.result(over([(1, 2, 1, 2), (2, 1, 1, 2), (0, 0, 0, 1), (1, 1, 1, 1)]))
    assert result is not None
    assert result.winners == (0, 1)


def test_no_result_while_the_game_runs() -> None:
    assert GAME.result(make_state()) is None


# --- the scoring calculator ---------------------------------------------------------------------


def score(body: dict[str, object]) -> list[tuple[int, dict[str, int]]]:
    request = msgspec.convert(body, GAME.score_request_type)
    return [(s.total, s.breakdown) for s in GAME.score(request)]


YEN_0 = ["har-gow", "spring-rolls", "cheung-fun", "egg-tarts"]


def test_calculator_counts_portions_on_held_yen_cards_minus_unsatisfied() -> None:
    body = {"players": [{"cards": ["har-gow", "har-gow", "congee", "egg-tarts"], "yen": YEN_0}]}
    assert score(body) == [(1, {"steam-cart": 2, "side-dish": 0, "main-dish": 0, "dessert": 1, "unsatisfied": -2})]


def test_calculator_counts_only_the_yen_cards_without_a_portion_as_unsatisfied() -> None:
    body = {"players": [{"cards": ["har-gow", "spring-rolls", "cheung-fun"], "yen": YEN_0}]}
    assert score(body) == [(2, {"steam-cart": 1, "side-dish": 1, "main-dish": 1, "dessert": 0, "unsatisfied": -1})]


def test_calculator_seats_are_in_request_order() -> None:
    request = msgspec.convert({"players": [{"yen": ["har-gow"]}, {"yen": ["siu-mai"]}]}, GAME.score_request_type)
    assert [s.seat for s in GAME.score(request)] == [0, 1]


def test_calculator_takes_desserts_as_more_portions_and_several_players() -> None:
    body = {
        "players": [
            {"cards": ["har-gow"], "desserts": ["egg-tarts", "egg-tarts"], "yen": YEN_0},
            {"cards": ["roast-duck"], "yen": ["siu-mai", "roast-duck"]},
            {"cards": ["congee"]},
        ],
        "end_of_game": True,
    }
    totals = [total for total, _ in score(body)]
    assert totals == [1, 0, 0]


def test_calculator_skips_the_penalty_before_the_end() -> None:
    body = {"players": [{"cards": ["har-gow"], "yen": YEN_0}], "end_of_game": False}
    assert score(body)[0] == (1, {"steam-cart": 1, "side-dish": 0, "main-dish": 0, "dessert": 0, "unsatisfied": 0})


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"players": [{"cards": ["dumpling"]}]}, "unknown-card"),
        ({"players": [{"cards": ["lazy-susan"]}]}, "unknown-card"),
        ({"players": [{"cards": [], "yen": ["not-a-dish"]}]}, "unknown-card"),
        ({"players": [{"cards": [], "yen": ["har-gow", "siu-mai"]}]}, "invalid-yen"),
        ({"players": [{"yen": ["har-gow"]}, {"yen": ["har-gow"]}]}, "invalid-yen"),
        ({"players": [{"yen": ["har-gow"]}, {"yen": ["spring-rolls"]}, {"yen": ["har-gow"]}]}, "invalid-yen"),
    ],
)
def test_calculator_refuses_unknown_cards_and_impossible_yen_cards(body: dict[str, object], code: str) -> None:
    with pytest.raises(RuleViolation) as error:
        score(body)
    assert error.value.code == code
