"""One test per scoring rule of the spec, the seed's worked example, and the score calculator."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from kaiten.domain.engine import RuleViolation
from kaiten.domain.spin_some.cards import PLATE_DISHES
from kaiten.domain.spin_some.commands import ScoreRequest
from kaiten.domain.spin_some.game import SPIN_SOME_FOR_DIM_SUM as GAME
from kaiten.domain.spin_some.scoring import CATEGORIES, bun_points
from tests.unit.spin_some.helpers import make_state

SESAME_SHUMAI_CHIVE_BUN = "special-plate-sesame-shumai-chive-bun"
TART_SHUMAI_CHIVE_BUN = "special-plate-tart-shumai-chive-bun"


def score(*players: dict[str, Any], squishy_bun: int | None = None) -> list[dict[str, int]]:
    body = {"players": list(players), "end_of_game": True, "squishy_bun": squishy_bun}
    request = msgspec.convert(body, GAME.score_request_type)
    out = GAME.score(request)
    for s in out:
        assert s.total == sum(s.breakdown.values())
        assert tuple(s.breakdown) == CATEGORIES
    return [dict(s.breakdown, total=s.total) for s in out]


def one(cards: list[str], tokens: int = 0) -> dict[str, int]:
    """A lone player's breakdown (with one player every bun count is equal: buns score 0)."""
    return score({"cards": cards, "chopsticks_tokens": tokens})[0]


def test_small_sesame_ball_scores_one_each() -> None:
    assert one(["small-sesame-ball"] * 3)["small-sesame-ball"] == 3


def test_large_sesame_ball_scores_two_each() -> None:
    assert one(["large-sesame-ball"] * 3)["large-sesame-ball"] == 6


@pytest.mark.parametrize(("n", "points"), [(0, 0), (1, 2), (2, 0), (3, 6), (4, 0), (5, 10)])
def test_turnip_cake_scores_two_each_only_when_odd(n: int, points: int) -> None:
    assert one(["turnip-cake"] * n)["turnip-cake"] == points


@pytest.mark.parametrize(("n", "points"), [(0, 0), (1, 1), (2, 2), (3, 5), (4, 9), (5, 15), (7, 15)])
def test_egg_tart_scores_by_count(n: int, points: int) -> None:
    assert one(["egg-tart"] * n)["egg-tart"] == points


@pytest.mark.parametrize(("n", "points"), [(3, 0), (4, 12), (7, 12), (8, 24)])
def test_shumai_scores_twelve_per_set_of_four(n: int, points: int) -> None:
    assert one(["shumai-dumpling"] * n)["shumai-dumpling"] == points


@pytest.mark.parametrize(("n", "points"), [(2, 0), (3, 7), (5, 7), (6, 14)])
def test_shrimp_scores_seven_per_set_of_three(n: int, points: int) -> None:
    assert one(["shrimp-dumpling"] * n)["shrimp-dumpling"] == points


@pytest.mark.parametrize(("n", "points"), [(1, 0), (2, 4), (3, 4), (4, 8)])
def test_chive_scores_four_per_pair(n: int, points: int) -> None:
    assert one(["chive-dumpling"] * n)["chive-dumpling"] == points


@pytest.mark.parametrize(("tokens", "points"), [(0, 0), (1, 0), (2, 1), (3, 1), (5, 2), (24, 12)])
def test_chopsticks_score_one_per_two_tokens(tokens: int, points: int) -> None:
    assert one([], tokens)["chopsticks"] == points


def test_special_plate_scores_four_for_a_complete_set() -> None:
    cards = [SESAME_SHUMAI_CHIVE_BUN, "small-sesame-ball", "shumai-dumpling", "chive-dumpling", "steamed-bun"]
    assert one(cards)["special-plates"] == 4


def test_special_plate_scores_nothing_when_a_dish_is_missing() -> None:
    cards = [SESAME_SHUMAI_CHIVE_BUN, "small-sesame-ball", "shumai-dumpling", "chive-dumpling", "egg-tart"]
    assert one(cards)["special-plates"] == 0


def test_special_plate_scores_every_complete_set() -> None:
    dishes = ["large-sesame-ball", "shumai-dumpling", "chive-dumpling", "steamed-bun"]
    assert one([SESAME_SHUMAI_CHIVE_BUN, *dishes, *dishes])["special-plates"] == 8
    assert one([SESAME_SHUMAI_CHIVE_BUN, *dishes, *dishes, "shumai-dumpling"])["special-plates"] == 8


def test_special_plate_takes_either_sesame_ball_size() -> None:
    rest = ["shumai-dumpling", "chive-dumpling", "steamed-bun"] * 2
    cards = [SESAME_SHUMAI_CHIVE_BUN, "small-sesame-ball", "large-sesame-ball", *rest]
    assert one(cards)["special-plates"] == 8


def test_one_dish_card_counts_toward_several_plates() -> None:
    cards = [
        SESAME_SHUMAI_CHIVE_BUN,
        TART_SHUMAI_CHIVE_BUN,
        "small-sesame-ball",
        "egg-tart",
        "shumai-dumpling",
        "chive-dumpling",
        "steamed-bun",
    ]
    assert one(cards)["special-plates"] == 8


def test_every_plate_completes_with_its_four_dishes() -> None:
    dish_card = {
        "sesame": "small-sesame-ball",
        "turnip": "turnip-cake",
        "tart": "egg-tart",
        "shumai": "shumai-dumpling",
        "shrimp": "shrimp-dumpling",
        "chive": "chive-dumpling",
        "bun": "steamed-bun",
    }
    for dishes in PLATE_DISHES:
        plate = "special-plate-" + "-".join(dishes)
        assert one([plate, *(dish_card[d] for d in dishes)])["special-plates"] == 4
        assert one([plate, *(dish_card[d] for d in dishes[1:])])["special-plates"] == 0


def test_most_buns_plus_three_fewest_minus_three() -> None:
    assert bun_points([3, 1, 2], None) == [3, -3, 0]


def test_zero_buns_count_as_fewest() -> None:
    assert bun_points([2, 0], None) == [3, -3]


def test_tie_for_most_goes_to_the_squishy_bun_holder_among_them() -> None:
    assert bun_points([2, 2, 0], 1) == [0, 3, -3]


def test_tie_for_most_without_the_holder_among_them_all_score() -> None:
    assert bun_points([2, 2, 0], None) == [3, 3, -3]
    assert bun_points([2, 2, 0], 2) == [3, 3, -3]


def test_all_tied_for_fewest_lose_three() -> None:
    assert bun_points([3, 1, 1], None) == [3, -3, -3]
    assert bun_points([3, 1, 1], 1) == [3, -3, -3]


def test_everyone_equal_nobody_scores_buns() -> None:
    assert bun_points([2, 2, 2], 0) == [0, 0, 0]
    assert bun_points([0, 0], None) == [0, 0]


def test_buns_through_the_calculator() -> None:
    out = score({"cards": ["steamed-bun"] * 2}, {"cards": ["steamed-bun"] * 2}, {"cards": []}, squishy_bun=0)
    assert [p["steamed-bun"] for p in out] == [3, 0, -3]


WORKED_EXAMPLE = [
    "large-sesame-ball",
    "large-sesame-ball",
    "chive-dumpling",
    "shumai-dumpling",
    "shumai-dumpling",
    "shumai-dumpling",
    "steamed-bun",
    "steamed-bun",
    "egg-tart",
    "egg-tart",
    SESAME_SHUMAI_CHIVE_BUN,
    TART_SHUMAI_CHIVE_BUN,
]


@pytest.mark.parametrize("tokens", [2, 3])
def test_seed_worked_example_scores_18(tokens: int) -> None:
    assert len(WORKED_EXAMPLE) == 12
    other = {"cards": ["steamed-bun", *["small-sesame-ball"] * 11], "chopsticks_tokens": 0}
    mine = score({"cards": WORKED_EXAMPLE, "chopsticks_tokens": tokens}, other)[0]
    assert mine == {
        "small-sesame-ball": 0,
        "large-sesame-ball": 4,
        "turnip-cake": 0,
        "egg-tart": 2,
        "shumai-dumpling": 0,
        "shrimp-dumpling": 0,
        "chive-dumpling": 0,
        "steamed-bun": 3,
        "special-plates": 8,
        "chopsticks": 1,
        "total": 18,
    }


def test_worked_example_through_a_finished_game() -> None:
    other = ["steamed-bun", *["small-sesame-ball"] * 10, "turnip-cake"]
    state = make_state([["egg-tart"]], menus=[WORKED_EXAMPLE, other], tokens=(2, 6), current=0)
    result = GAME.result(state)
    assert result is not None
    assert result.scores[0].total == 18
    assert result.scores[1].total == 10 - 3 + 2 + 3
    assert result.winners == (0,)


FIVE_POINTS = ["small-sesame-ball"] * 5 + ["turnip-cake"] * 6 + ["chive-dumpling"]
THREE_POINTS = [
    "egg-tart",
    "shrimp-dumpling",
    "shrimp-dumpling",
    "shumai-dumpling",
    "shumai-dumpling",
    "shumai-dumpling",
    "chive-dumpling",
    "large-sesame-ball",
    "special-plate-sesame-turnip-tart-chive",
    "special-plate-sesame-turnip-shumai-chive",
    "special-plate-sesame-turnip-shrimp-bun",
    "special-plate-sesame-turnip-chive-bun",
]


def test_result_tie_goes_to_the_squishy_bun_holder() -> None:
    menus = [FIVE_POINTS, FIVE_POINTS]
    state = make_state([["egg-tart"]], menus=menus, bun=1)
    result = GAME.result(state)
    assert result is not None
    assert result.winners == (1,)
    assert result.ranking == (1, 0)


def test_result_tie_without_the_holder_among_them_is_shared() -> None:
    menus = [FIVE_POINTS, FIVE_POINTS, THREE_POINTS]
    state = make_state([["egg-tart"]], players=3, menus=menus, bun=None)
    result = GAME.result(state)
    assert result is not None
    assert result.winners == (0, 1)
    assert [s.total for s in result.scores] == [7, 7, 5]  # 4 tokens each: +2
    with_holder_elsewhere = make_state([["egg-tart"]], players=3, menus=menus, bun=2)
    result = GAME.result(with_holder_elsewhere)
    assert result is not None
    assert result.winners == (0, 1)


def test_no_result_before_twelve_cards_each() -> None:
    state = make_state([["chive-dumpling"]], menus=[["egg-tart"] * 12, ["shumai-dumpling"] * 11])
    assert GAME.result(state) is None


def test_unknown_slug_is_refused() -> None:
    with pytest.raises(RuleViolation) as err:
        score({"cards": ["maki-roll"]})
    assert err.value.code == "unknown-card"


def test_squishy_bun_must_name_a_seat() -> None:
    with pytest.raises(RuleViolation) as err:
        score({"cards": []}, squishy_bun=1)
    assert err.value.code == "invalid-score-request"


def test_negative_tokens_are_refused() -> None:
    with pytest.raises(RuleViolation) as err:
        score({"cards": [], "chopsticks_tokens": -1})
    assert err.value.code == "invalid-score-request"


def test_request_defaults_and_desserts() -> None:
    request = msgspec.json.decode(
        b'{"players": [{"cards": ["egg-tart"], "desserts": ["egg-tart"]}]}', type=ScoreRequest
    )
    assert request.squishy_bun is None and request.end_of_game
    assert GAME.score(request)[0].breakdown["egg-tart"] == 2
