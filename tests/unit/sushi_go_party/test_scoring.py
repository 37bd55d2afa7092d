"""Scoring: one test per card rule and per worked example of the rules file, and the calculator."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from kaiten.domain.engine import RuleViolation
from kaiten.domain.sushi_go_party.game import SUSHI_GO_PARTY as GAME
from kaiten.domain.sushi_go_party.scoring import (
    ScoreRequest,
    dessert_breakdowns,
    eel_points,
    green_tea_points,
    maki_points,
    most_fewest_points,
    onigiri_points,
    round_breakdowns,
    tofu_points,
    uramaki_race,
    uramaki_round_end,
)


def score(players: list[dict[str, Any]], **extra: Any) -> list[dict[str, int]]:
    request = msgspec.convert({"players": players, **extra}, ScoreRequest)
    scores = GAME.score(request)
    for seat_score in scores:
        assert seat_score.total == sum(seat_score.breakdown.values())
    return [dict(seat_score.breakdown) for seat_score in scores]


def points(cards: list[str], category: str, **extra: Any) -> int:
    return score([{"cards": cards}], **extra)[0].get(category, 0)


# --- worked examples of the rules file ------------------------------------------------------------


def test_maki_example_2_to_5_players() -> None:
    assert maki_points([5, 5, 3, 1], 4) == [6, 6, 3, 0]


def test_maki_6_to_8_players_awards_6_4_2() -> None:
    assert maki_points([5, 5, 3, 1, 0, 0], 6) == [6, 6, 4, 2, 0, 0]
    assert maki_points([4, 3, 2, 1, 1, 0, 0, 0], 8) == [6, 4, 2, 0, 0, 0, 0, 0]


def test_maki_counts_the_icons_of_every_copy() -> None:
    breakdowns = score([{"cards": ["maki-2", "maki-2"]}, {"cards": ["maki-3"]}])
    assert [b["maki"] for b in breakdowns] == [6, 3]


def test_maki_needs_an_icon() -> None:
    assert maki_points([0, 0, 0], 3) == [0, 0, 0]
    assert maki_points([2, 0, 0], 3) == [6, 0, 0]


def test_maki_through_the_calculator() -> None:
    breakdowns = score([{"cards": ["maki-3", "maki-2"]}, {"cards": ["maki-3", "maki-2"]}, {"cards": ["maki-1"]}])
    assert [b["maki"] for b in breakdowns] == [6, 6, 3]
    six = score([{"cards": ["maki-3"]}, {"cards": ["maki-2"]}, {"cards": ["maki-1"]}], players_count=6)
    assert [b["maki"] for b in six] == [6, 4, 2]


def test_temaki_example() -> None:
    assert most_fewest_points([3, 2, 0, 0], 4, 4) == [4, 0, -4, -4]


def test_temaki_no_penalty_with_2_players_and_nothing_when_all_equal() -> None:
    assert most_fewest_points([3, 0], 4, 2) == [4, 0]
    assert most_fewest_points([2, 2, 2], 4, 3) == [0, 0, 0]
    assert most_fewest_points([2, 2, 1], 4, 3) == [4, 4, -4]
    breakdowns = score([{"cards": ["temaki", "temaki"]}, {"cards": ["temaki"]}, {"cards": []}])
    assert [b["temaki"] for b in breakdowns] == [4, 0, -4]
    assert [b["temaki"] for b in score([{"cards": ["temaki"]}, {"cards": []}])] == [4, 0]


def test_eel_example() -> None:
    assert [eel_points(n) for n in range(5)] == [0, -3, 7, 7, 7]
    assert points(["eel"], "eel") == -3
    assert points(["eel"] * 4, "eel") == 7


def test_tofu_example() -> None:
    assert [tofu_points(n) for n in range(6)] == [0, 2, 6, 0, 0, 0]
    assert points(["tofu", "tofu"], "tofu") == 6


def test_green_tea_ice_cream_example() -> None:
    assert green_tea_points(4) == 12
    assert green_tea_points(8) == 24
    assert green_tea_points(3) == 0
    breakdowns = score([{"cards": ["green-tea-ice-cream"], "desserts": ["green-tea-ice-cream"] * 3}])
    assert breakdowns[0]["green-tea-ice-cream"] == 12


# --- one test per card rule -----------------------------------------------------------------------


def test_nigiri_and_wasabi_as_in_sushi_go() -> None:
    assert points(["wasabi", "squid-nigiri", "egg-nigiri"], "nigiri") == 10
    assert points(["egg-nigiri", "wasabi", "squid-nigiri", "egg-nigiri"], "nigiri") == 11
    assert points(["wasabi", "wasabi", "salmon-nigiri", "egg-nigiri"], "nigiri") == 9
    assert points(["salmon-nigiri"], "nigiri") == 2


def test_a_nigiri_on_a_wasabi_flipped_face_down_is_not_tripled() -> None:
    tableau = [(0, "face-down", -1), (1, "squid-nigiri", 0)]
    assert round_breakdowns([tableau], 2, ["nigiri", "takeout-box"]) == [{"nigiri": 3, "takeout-box": 2}]
    assert round_breakdowns([[(0, "wasabi", -1), (1, "squid-nigiri", 0)]], 2, ["nigiri"]) == [{"nigiri": 9}]


def test_tempura_sashimi_dumpling() -> None:
    assert [points(["tempura"] * n, "tempura") for n in range(6)] == [0, 0, 5, 5, 10, 10]
    assert [points(["sashimi"] * n, "sashimi") for n in range(7)] == [0, 0, 0, 10, 10, 10, 20]
    assert [points(["dumpling"] * n, "dumpling") for n in range(8)] == [0, 1, 3, 6, 10, 15, 15, 15]


def test_onigiri_sets_of_different_shapes() -> None:
    assert onigiri_points([1, 1, 1, 1]) == 16
    assert onigiri_points([2, 1, 1, 1]) == 17
    assert onigiri_points([2, 1, 0, 0]) == 5
    assert onigiri_points([2, 2, 2, 0]) == 18
    assert onigiri_points([2, 1]) == 5  # missing shapes count as none
    assert points(["onigiri-circle", "onigiri-square", "onigiri-circle"], "onigiri") == 5


def test_edamame_counts_opponents_with_edamame_up_to_4() -> None:
    breakdowns = score([{"cards": ["edamame", "edamame"]}, {"cards": ["edamame"]}, {"cards": []}])
    assert [b["edamame"] for b in breakdowns] == [2, 1, 0]
    many = score([{"cards": ["edamame"]} for _ in range(7)])
    assert [b["edamame"] for b in many] == [4] * 7
    assert points(["edamame"], "edamame") == 0


def test_miso_soup_scores_3() -> None:
    assert points(["miso-soup"], "miso-soup") == 3


def test_tea_scores_the_largest_colour_set_nigiri_and_wasabi_share() -> None:
    assert points(["tea", "wasabi", "egg-nigiri", "salmon-nigiri", "tempura", "tempura"], "tea") == 3
    assert points(["tea", "tea", "tempura"], "tea") == 4  # the teas themselves are the largest set
    assert points(["tea", "maki-1", "maki-3", "maki-2"], "tea") == 3  # every maki shares a colour


def test_soy_sauce_most_colours_ties_and_several() -> None:
    breakdowns = score(
        [
            {"cards": ["soy-sauce", "soy-sauce", "tempura", "sashimi"]},  # 3 colours
            {"cards": ["soy-sauce", "tempura", "pudding"]},  # 3 colours: desserts of the round count
            {"cards": ["soy-sauce", "tempura"]},  # 2 colours
        ],
        end_of_game=False,
    )
    assert [b["soy-sauce"] for b in breakdowns] == [8, 4, 0]
    # Most colours without a soy sauce scores nothing.
    breakdowns = score([{"cards": ["soy-sauce", "tempura"]}, {"cards": ["tempura", "sashimi"]}])
    assert [b["soy-sauce"] for b in breakdowns] == [4, 0]


def test_fruit_per_kind() -> None:
    # 6 watermelon = 10, 0 pineapple = -2, 3 orange = 3.
    fridge = ["fruit-ww", "fruit-ww", "fruit-wo", "fruit-wo", "fruit-oo"]
    assert dessert_breakdowns([fridge], 4, ["fruit"])[0]["fruit"] == 10 - 2 + 6
    assert dessert_breakdowns([["fruit-ww"] * 3, ["fruit-oo"]], 4, ["fruit"]) == [
        {"fruit": 10 - 2 - 2},
        {"fruit": -2 - 2 + 1},
    ]
    assert dessert_breakdowns([[]], 4, ["fruit"]) == [{"fruit": -6}]


def test_fruit_seed_example_exactly() -> None:
    fridge = ["fruit-ww", "fruit-ww", "fruit-ww", "fruit-oo", "fruit-wo"]  # 7 watermelon, 3 orange
    assert dessert_breakdowns([fridge], 3, ["fruit"])[0]["fruit"] == 10 - 2 + 3


def test_pudding_most_and_fewest_full_points() -> None:
    assert most_fewest_points([3, 3, 1, 1], 6, 4) == [6, 6, -6, -6]
    assert most_fewest_points([2, 0], 6, 2) == [6, 0]
    breakdowns = score([{"desserts": ["pudding", "pudding"]}, {"desserts": ["pudding"]}, {}])
    assert [b["pudding"] for b in breakdowns] == [6, 0, -6]


def test_fruit_ignores_the_other_desserts_in_the_fridge() -> None:
    fridges = [["pudding", "fruit-ww", "green-tea-ice-cream"], ["fruit-ww"]]
    assert dessert_breakdowns(fridges, 3, ["fruit"]) == [{"fruit": 1 - 2 - 2}, {"fruit": 1 - 2 - 2}]


def test_takeout_face_down_cards_score_2() -> None:
    assert points(["face-down", "face-down", "tempura"], "takeout-box") == 4


def test_uramaki_round_end_unclaimed_places() -> None:
    # Nothing claimed: 8, 5, 2 by remaining icons; ties get full points and skip the next place.
    assert uramaki_round_end([9, 5, 3, 0], 0) == [8, 5, 2, 0]
    assert uramaki_round_end([9, 9, 3, 0], 0) == [8, 8, 2, 0]
    # Two places claimed in the race: only 2 is left.
    assert uramaki_round_end([4, 7, 0], 2) == [0, 2, 0]
    assert uramaki_round_end([0, 0, 0], 0) == [0, 0, 0]


def test_uramaki_race_more_icons_wins_then_ties_share() -> None:
    assert uramaki_race([12, 10, 4], 0) == ([8, 5, 0], 2, [0, 1])
    assert uramaki_race([10, 10, 11], 0) == ([5, 5, 8], 3, [2, 0, 1])
    assert uramaki_race([10, 10, 0], 2) == ([2, 2, 0], 3, [0, 1])
    assert uramaki_race([9, 0, 0], 0) == ([0, 0, 0], 0, [])


def test_uramaki_round_end_adds_to_the_places_raced_for() -> None:
    tableaus = [[], [(0, "uramaki-4", -1)], [(1, "uramaki-3", -1)]]
    breakdowns = round_breakdowns(tableaus, 3, ["uramaki"], race_points=[8, 0, 0], claimed=1)
    assert [b["uramaki"] for b in breakdowns] == [8, 5, 2]
    breakdowns = round_breakdowns(tableaus, 3, ["uramaki"], race_points=[0, 8, 0], claimed=1)
    assert [b["uramaki"] for b in breakdowns] == [0, 13, 2]


def test_uramaki_through_the_calculator() -> None:
    breakdowns = score([{"cards": ["uramaki-5", "uramaki-4"]}, {"cards": ["uramaki-3"]}])
    assert [b["uramaki"] for b in breakdowns] == [8, 5]


# --- the calculator -------------------------------------------------------------------------------


def test_desserts_score_only_at_the_end_of_the_game() -> None:
    body: list[dict[str, Any]] = [{"cards": ["pudding"], "desserts": ["pudding"]}, {"cards": []}]
    assert score(body)[0]["pudding"] == 6
    assert "pudding" not in score(body, end_of_game=False)[0]


def test_calculator_seats_are_in_request_order() -> None:
    scores = GAME.score(msgspec.convert({"players": [{"cards": ["tempura"]}, {"cards": []}]}, ScoreRequest))
    assert [seat_score.seat for seat_score in scores] == [0, 1]


def test_calculator_players_count_defaults_to_the_listed_players_and_at_least_2() -> None:
    # Two listed players: the 2-player rule spares the fewest puddings its penalty.
    assert [b["pudding"] for b in score([{"desserts": ["pudding"]}, {}])] == [6, 0]
    assert [b["pudding"] for b in score([{"desserts": ["pudding"]}, {}], players_count=3)] == [6, -6]
    assert [b["pudding"] for b in score([{"desserts": ["pudding"]}])] == [0]
    # Up to 8 players, listed or counted.
    assert len(score([{"cards": ["tempura"]}] * 8)) == 8
    assert score([{"cards": ["maki-1"]}], players_count=8)[0]["maki"] == 6


def test_calculator_desserts_among_the_cards_score_without_a_fridge() -> None:
    breakdowns = score([{"cards": ["pudding"]}, {"cards": []}], players_count=3)
    assert [b["pudding"] for b in breakdowns] == [6, -6]
    assert score([{"cards": ["fruit-ww", "fruit-ww"]}])[0]["fruit"] == 6 - 2 - 2
    assert "fruit" not in score([{"cards": ["fruit-ww"]}], end_of_game=False)[0]


def test_calculator_desserts_off_the_menu_still_score() -> None:
    custom = {"roll": "maki", "appetizers": ["tempura", "sashimi", "tofu"], "specials": ["tea", "wasabi"]}
    breakdowns = score([{"cards": ["fruit-ww", "fruit-ww"]}], menu={**custom, "dessert": "pudding"})
    assert breakdowns[0]["fruit"] == 6 - 2 - 2 and breakdowns[0]["pudding"] == 0


def test_menu_sets_the_categories_and_the_dessert() -> None:
    breakdowns = score([{"cards": ["tempura"]}], menu="master-menu", players_count=4)
    assert set(breakdowns[0]) == {"nigiri", "temaki", "onigiri", "tofu", "sashimi", "takeout-box", "fruit", "tempura"}
    assert breakdowns[0]["fruit"] == -6
    custom = {"roll": "maki", "appetizers": ["tempura", "sashimi", "tofu"], "specials": ["tea", "wasabi"]}
    breakdowns = score([{"cards": ["tempura", "tempura"]}], menu={**custom, "dessert": "pudding"})
    assert breakdowns[0]["tempura"] == 5 and "pudding" in breakdowns[0]


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"players": [{"cards": ["tamago"]}]}, "unknown-card"),
        ({"players": [{"desserts": ["tempura"]}]}, "not-a-dessert"),
        ({"players": []}, "invalid-player-count"),
        ({"players": [{"cards": []}] * 9}, "invalid-player-count"),
        ({"players": [{"cards": []}] * 3, "players_count": 2}, "invalid-player-count"),
        ({"players": [{"cards": []}], "menu": "menu-of-the-day"}, "unknown-menu"),
        ({"players": [{"cards": []}], "menu": "master-menu", "players_count": 2}, "menu-not-for-player-count"),
    ],
)
def test_calculator_refuses(body: dict[str, Any], code: str) -> None:
    with pytest.raises(RuleViolation) as error:
        GAME.score(msgspec.convert(body, ScoreRequest))
    assert error.value.code == code
