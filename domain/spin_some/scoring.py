"""End-of-game scoring: every card, special plates, chopsticks tokens, steamed buns and the squishy bun."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from kaiten.domain.engine import RuleViolation, SeatScore, seat_score
from kaiten.domain.majority import most_and_fewest
from kaiten.domain.spin_some.cards import (
    CARD_KIND,
    CHIVE,
    DISH_KINDS,
    EGG_TART,
    FIRST_PLATE,
    KIND_BY_SLUG,
    KIND_COUNT,
    LARGE_SESAME,
    PLATE_DISH_INDICES,
    SHRIMP,
    SHUMAI,
    SMALL_SESAME,
    STEAMED_BUN,
    TURNIP,
)
from kaiten.domain.spin_some.commands import ScoreRequest

#: The breakdown's categories, always all present (0 when nothing scores).
CATEGORIES: Final = (
    "small-sesame-ball",
    "large-sesame-ball",
    "turnip-cake",
    "egg-tart",
    "shumai-dumpling",
    "shrimp-dumpling",
    "chive-dumpling",
    "steamed-bun",
    "special-plates",
    "chopsticks",
)

EGG_TART_POINTS: Final = (0, 1, 2, 5, 9, 15)
BUN_POINTS: Final = 3
PLATE_POINTS: Final = 4


def kind_counts(kinds: Sequence[int]) -> list[int]:
    counts = [0] * KIND_COUNT
    for kind in kinds:
        counts[kind] += 1
    return counts


def plate_points(counts: Sequence[int]) -> int:
    """4 per complete set of each plate's 4 dishes; a dish card may count toward several plates."""
    dishes = [sum(counts[k] for k in kinds) for kinds in DISH_KINDS]
    total = 0
    for plate, needed in enumerate(PLATE_DISH_INDICES):
        copies = counts[FIRST_PLATE + plate]
        if copies:
            total += copies * PLATE_POINTS * min(dishes[d] for d in needed)
    return total


def bun_points(buns: Sequence[int], squishy_bun: int | None) -> list[int]:
    """Most buns +3 (tie: only the squishy-bun holder among them, else all); fewest -3 (all tied);
    nobody scores when every player has the same number."""
    points = [0] * len(buns)
    leaders, fewest = most_and_fewest(buns)
    if len(leaders) > 1 and squishy_bun in leaders:
        leaders = [squishy_bun]
    for seat in leaders:
        points[seat] += BUN_POINTS
    for seat in fewest:
        points[seat] -= BUN_POINTS
    return points


def menu_breakdown(counts: Sequence[int], tokens: int, buns: int) -> dict[str, int]:
    turnips = counts[TURNIP]
    return {
        "small-sesame-ball": counts[SMALL_SESAME],
        "large-sesame-ball": 2 * counts[LARGE_SESAME],
        "turnip-cake": 2 * turnips if turnips % 2 else 0,
        "egg-tart": EGG_TART_POINTS[min(counts[EGG_TART], 5)],
        "shumai-dumpling": 12 * (counts[SHUMAI] // 4),
        "shrimp-dumpling": 7 * (counts[SHRIMP] // 3),
        "chive-dumpling": 4 * (counts[CHIVE] // 2),
        "steamed-bun": buns,
        "special-plates": plate_points(counts),
        "chopsticks": tokens // 2,
    }


def score_menus(
    menus: Sequence[Sequence[int]], tokens: Sequence[int], squishy_bun: int | None
) -> tuple[SeatScore, ...]:
    """Score menus given as kind indices (not card ids)."""
    counts = [kind_counts(menu) for menu in menus]
    buns = bun_points([c[STEAMED_BUN] for c in counts], squishy_bun)
    return tuple(seat_score(seat, menu_breakdown(counts[seat], tokens[seat], buns[seat])) for seat in range(len(menus)))


def score_cards(
    menus: Sequence[Sequence[int]], tokens: Sequence[int], squishy_bun: int | None
) -> tuple[SeatScore, ...]:
    """Score menus given as card ids."""
    return score_menus([[CARD_KIND[card] for card in menu] for menu in menus], tokens, squishy_bun)


def _kind(slug: str) -> int:
    try:
        return KIND_BY_SLUG[slug]
    except KeyError:
        raise RuleViolation("unknown-card", f"Spin Some for Dim Sum has no card {slug!r}") from None


def score_request(request: ScoreRequest) -> tuple[SeatScore, ...]:
    players = len(request.players)
    if request.squishy_bun is not None and not 0 <= request.squishy_bun < players:
        raise RuleViolation(
            "invalid-score-request", f"squishy_bun names seat {request.squishy_bun} of {players} players"
        )
    for seat, player in enumerate(request.players):
        if player.chopsticks_tokens < 0:
            raise RuleViolation("invalid-score-request", f"seat {seat} has a negative chopsticks token count")
    menus = [[_kind(slug) for slug in (*player.cards, *player.desserts)] for player in request.players]
    return score_menus(menus, [p.chopsticks_tokens for p in request.players], request.squishy_bun)
