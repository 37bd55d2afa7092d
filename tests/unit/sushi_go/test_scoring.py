"""Every scoring rule and every worked example of rules/sushi-go.md."""

from __future__ import annotations

import msgspec
import pytest

from kaiten.domain.engine import RuleViolation
from kaiten.domain.sushi_go.cards import DECK_SIZE, KIND, MAX_PLAYERS, SLUG_TO_KIND
from kaiten.domain.sushi_go.commands import ScoreRequest
from kaiten.domain.sushi_go.game import SUSHI_GO as GAME
from kaiten.domain.sushi_go.scoring import (
    dumpling_points,
    maki_points,
    nigiri_points,
    pudding_points,
    round_breakdowns,
    round_breakdowns_of_cards,
    sashimi_points,
    tempura_points,
)


def kinds(*slugs: str) -> list[int]:
    return [SLUG_TO_KIND[slug] for slug in slugs]


def score(*players: list[str], desserts: list[list[str]] | None = None, end: bool = True) -> list[int]:
    body = {
        "players": [
            {"cards": cards, "desserts": (desserts[seat] if desserts else [])} for seat, cards in enumerate(players)
        ],
        "end_of_game": end,
    }
    request = msgspec.json.decode(msgspec.json.encode(body), type=GAME.score_request_type)
    return [s.total for s in GAME.score(request)]


# --- worked examples ------------------------------------------------------------------------------


def test_worked_example_wasabi_squid_egg_is_10() -> None:
    assert nigiri_points(kinds("wasabi", "squid-nigiri", "egg-nigiri")) == 10
    assert score(["wasabi", "squid-nigiri", "egg-nigiri"], end=False) == [10]


def test_worked_example_egg_wasabi_squid_egg_is_11() -> None:
    assert nigiri_points(kinds("egg-nigiri", "wasabi", "squid-nigiri", "egg-nigiri")) == 11
    assert score(["egg-nigiri", "wasabi", "squid-nigiri", "egg-nigiri"], end=False) == [11]


@pytest.mark.parametrize(
    ("icons", "points"),
    [
        ((2, 1, 0), [6, 3, 0]),
        ((1, 1, 0), [3, 3, 0]),  # a tie for most splits 6 and awards no second place
        ((2, 1, 1, 0), [6, 1, 1, 0]),  # a tie for second splits 3, rounded down
    ],
)
def test_worked_examples_maki(icons: tuple[int, ...], points: list[int]) -> None:
    assert maki_points(icons) == points


def test_worked_example_dumplings() -> None:
    assert [dumpling_points(n) for n in range(7)] == [0, 1, 3, 6, 10, 15, 15]


def test_worked_example_sashimi() -> None:
    assert [sashimi_points(n) for n in range(7)] == [0, 0, 0, 10, 10, 10, 20]


# --- each rule ------------------------------------------------------------------------------------


def test_tempura_scores_5_per_pair() -> None:
    assert [tempura_points(n) for n in range(6)] == [0, 0, 5, 5, 10, 10]


def test_nigiri_values_without_wasabi() -> None:
    assert nigiri_points(kinds("egg-nigiri", "salmon-nigiri", "squid-nigiri")) == 6


def test_wasabi_triples_one_nigiri_each_and_must_come_first() -> None:
    assert nigiri_points(kinds("wasabi", "salmon-nigiri")) == 6
    assert nigiri_points(kinds("salmon-nigiri", "wasabi")) == 2
    assert nigiri_points(kinds("wasabi", "wasabi", "egg-nigiri", "squid-nigiri", "salmon-nigiri")) == 3 + 9 + 2
    assert nigiri_points(kinds("wasabi")) == 0


def test_maki_more_cases() -> None:
    assert maki_points((0, 0, 0)) == [0, 0, 0]
    assert maki_points((3, 0)) == [6, 0]  # no second place with 0 icons
    assert maki_points((2, 2, 2)) == [2, 2, 2]
    assert maki_points((5, 5, 5, 5, 1)) == [1, 1, 1, 1, 0]
    assert maki_points((4, 2, 2, 2)) == [6, 1, 1, 1]
    assert maki_points((1, 4)) == [3, 6]


def test_pudding_most_and_fewest() -> None:
    assert pudding_points((3, 1, 0)) == [6, 0, -6]
    assert pudding_points((2, 2, 0, 0)) == [3, 3, -3, -3]
    assert pudding_points((1, 1, 1)) == [0, 0, 0]  # every count equal: nobody scores
    assert pudding_points((4, 0, 0, 0, 0)) == [6, -1, -1, -1, -1]  # -6 over 4, rounded down in size
    assert pudding_points((2, 2, 2, 2, 0)) == [1, 1, 1, 1, -6]


def test_pudding_with_two_players_has_no_penalty() -> None:
    assert pudding_points((3, 0)) == [6, 0]
    assert pudding_points((1, 1)) == [0, 0]


def test_round_breakdown_has_every_category() -> None:
    [one, two] = round_breakdowns(
        [
            kinds("tempura", "tempura", "sashimi", "dumpling", "maki-3", "wasabi", "salmon-nigiri", "pudding"),
            kinds("maki-1", "chopsticks", "sashimi", "sashimi", "sashimi"),
        ]
    )
    assert one == {"maki": 6, "tempura": 5, "sashimi": 0, "dumpling": 1, "nigiri": 6, "pudding": 0}
    assert two == {"maki": 3, "tempura": 0, "sashimi": 10, "dumpling": 0, "nigiri": 0, "pudding": 0}


def test_round_breakdown_counts_every_copy_of_nigiri_and_maki() -> None:
    [one, two, three] = round_breakdowns(
        [
            kinds("egg-nigiri", "salmon-nigiri", "squid-nigiri", "squid-nigiri", "maki-2", "maki-2"),
            kinds("egg-nigiri", "egg-nigiri", "maki-1", "maki-1", "maki-1"),
            kinds("salmon-nigiri", "salmon-nigiri", "maki-3"),
        ]
    )
    assert (one["nigiri"], two["nigiri"], three["nigiri"]) == (1 + 2 + 3 + 3, 2, 4)
    # Icons: 4, 3 and 3: most takes 6, the two tied second split 3.
    assert (one["maki"], two["maki"], three["maki"]) == (6, 1, 1)
    # Dumplings past five score as five.
    assert [round_breakdowns([kinds(*["dumpling"] * n)])[0]["dumpling"] for n in (5, 6, 7)] == [15, 15, 15]


def test_round_breakdown_of_card_ids_is_that_of_their_kinds() -> None:
    first_card = {KIND[card]: card for card in reversed(range(DECK_SIZE))}
    tableaus = [kinds("wasabi", "squid-nigiri", "maki-3", "tempura", "tempura"), kinds("maki-2", "dumpling")]
    cards = [[first_card[kind] for kind in tableau] for tableau in tableaus]
    assert round_breakdowns_of_cards(cards) == round_breakdowns(tableaus)
    assert round_breakdowns_of_cards(cards)[0]["nigiri"] == 9


# --- the scoring calculator -----------------------------------------------------------------------


def test_score_request_compares_maki_and_scores_puddings_at_the_end() -> None:
    body = {
        "players": [
            {"cards": ["maki-3", "wasabi", "squid-nigiri"], "desserts": ["pudding", "pudding"]},
            {"cards": ["maki-2", "pudding"], "desserts": []},
            {"cards": ["tempura"]},
        ],
        "end_of_game": True,
    }
    request = msgspec.json.decode(msgspec.json.encode(body), type=ScoreRequest)
    scores = GAME.score(request)
    assert [s.seat for s in scores] == [0, 1, 2]
    assert [s.breakdown["maki"] for s in scores] == [6, 3, 0]
    assert [s.breakdown["nigiri"] for s in scores] == [9, 0, 0]
    # puddings: 2, 1 (played this round: it counts too), 0
    assert [s.breakdown["pudding"] for s in scores] == [6, 0, -6]
    for s in scores:
        assert s.total == sum(s.breakdown.values())


def test_score_request_without_end_of_game_ignores_puddings() -> None:
    assert score(["pudding"], [], end=False) == [0, 0]
    assert score(["pudding"], [], end=True) == [6, 0]  # two players: no penalty
    assert score(["pudding"], [], ["tempura"], end=True) == [6 + 0, -3, -3]  # -6 split between two


def test_score_request_refuses_unknown_slugs() -> None:
    with pytest.raises(RuleViolation) as raised:
        score(["wasabi", "unagi"])
    assert raised.value.code == "unknown-card"
    with pytest.raises(RuleViolation) as raised:
        score(["wasabi"], desserts=[["pudding", "mochi"]])
    assert raised.value.code == "unknown-card"
    with pytest.raises(RuleViolation) as raised:
        score(["wasabi"], desserts=[["tempura"]])
    assert raised.value.code == "not-a-dessert"


def test_score_request_needs_players() -> None:
    with pytest.raises(RuleViolation) as raised:
        score()
    assert raised.value.code == "invalid-player-count"
    assert score(*[["tempura", "tempura"]] * MAX_PLAYERS) == [5] * MAX_PLAYERS
    with pytest.raises(RuleViolation) as raised:
        score(*[["tempura"]] * (MAX_PLAYERS + 1))
    assert raised.value.code == "invalid-player-count"
