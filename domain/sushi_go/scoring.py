"""Scoring: one tableau's round points, maki across tableaus, pudding at the end of the game.

Functions take card kinds (ints from `cards`) in play order; order matters for wasabi only.
Breakdowns always carry every category of `CATEGORIES`, so that statistics see stable keys.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from kaiten.domain.engine import RuleViolation, SeatScore, seat_score
from kaiten.domain.majority import most_and_fewest
from kaiten.domain.sushi_go.cards import (
    CARD_TYPES,
    DUMPLING,
    EGG_NIGIRI,
    KIND,
    MAKI_1,
    MAKI_2,
    MAKI_3,
    MAX_PLAYERS,
    NIGIRI_POINTS,
    PUDDING,
    SALMON_NIGIRI,
    SASHIMI,
    SLUG_TO_KIND,
    SQUID_NIGIRI,
    TEMPURA,
    WASABI,
)
from kaiten.domain.sushi_go.commands import ScoreRequest

#: The breakdown's categories, always all present (pudding is 0 until the end of the game).
CATEGORIES: tuple[str, ...] = ("maki", "tempura", "sashimi", "dumpling", "nigiri", "pudding")
KINDS = len(CARD_TYPES)
#: Dumpling points by count (5 or more score 15).
DUMPLING_POINTS: tuple[int, ...] = (0, 1, 3, 6, 10, 15)


def dumpling_points(count: int) -> int:
    return DUMPLING_POINTS[min(count, 5)]


def sashimi_points(count: int) -> int:
    return 10 * (count // 3)


def tempura_points(count: int) -> int:
    return 5 * (count // 2)


def nigiri_points(kinds: Iterable[int]) -> int:
    """Nigiri points in play order: a nigiri goes on the earliest uncovered wasabi (x3), one per wasabi."""
    points = 0
    uncovered = 0
    for kind in kinds:
        if kind == WASABI:
            uncovered += 1
        else:
            value = NIGIRI_POINTS[kind]
            if value:
                if uncovered:
                    uncovered -= 1
                    points += 3 * value
                else:
                    points += value
    return points


def maki_points(icons: Sequence[int]) -> list[int]:
    """Most icons 6 (split among the tied, rounded down); second most 3, only without a tie for most.

    A player with no icon scores nothing for maki.
    """
    points = [0] * len(icons)
    counts = sorted({count for count in icons if count > 0}, reverse=True)
    if not counts:
        return points
    first = [seat for seat, count in enumerate(icons) if count == counts[0]]
    for seat in first:
        points[seat] = 6 // len(first)
    if len(first) == 1 and len(counts) > 1:
        second = [seat for seat, count in enumerate(icons) if count == counts[1]]
        for seat in second:
            points[seat] = 3 // len(second)
    return points


def pudding_points(counts: Sequence[int]) -> list[int]:
    """Most puddings +6, fewest (0 counts) -6, each split among the tied and rounded down (-6 over 4
    players is -1 each). Nobody scores when every count is equal; with 2 players there is no penalty."""
    points = [0] * len(counts)
    top, bottom = most_and_fewest(counts)
    for seat in top:
        points[seat] = 6 // len(top)
    if len(counts) > 2:
        for seat in bottom:
            points[seat] = -(6 // len(bottom))
    return points


def round_breakdowns(tableaus: Sequence[Sequence[int]]) -> list[dict[str, int]]:
    """Each tableau's round points by category (pudding is 0: it scores at the end of the game).

    `tableaus` holds card kinds in play order, one sequence per seat.
    """
    icons: list[int] = []
    breakdowns: list[dict[str, int]] = []
    for kinds in tableaus:
        # One pass to count every kind (a round's tableau holds a handful of cards).
        count = [0] * KINDS
        for kind in kinds:
            count[kind] += 1
        icons.append(count[MAKI_1] + 2 * count[MAKI_2] + 3 * count[MAKI_3])
        if count[WASABI]:
            nigiri = nigiri_points(kinds)
        else:
            nigiri = count[EGG_NIGIRI] + 2 * count[SALMON_NIGIRI] + 3 * count[SQUID_NIGIRI]
        breakdowns.append(
            {
                "maki": 0,
                "tempura": 5 * (count[TEMPURA] // 2),
                "sashimi": 10 * (count[SASHIMI] // 3),
                "dumpling": DUMPLING_POINTS[min(count[DUMPLING], 5)],
                "nigiri": nigiri,
                "pudding": 0,
            }
        )
    for breakdown, points in zip(breakdowns, maki_points(icons), strict=True):
        breakdown["maki"] = points
    return breakdowns


def round_breakdowns_of_cards(tableaus: Sequence[Sequence[int]]) -> list[dict[str, int]]:
    """`round_breakdowns` over card ids instead of kinds."""
    return round_breakdowns([[KIND[card] for card in tableau] for tableau in tableaus])


def count_puddings(kinds: Iterable[int]) -> int:
    return sum(1 for kind in kinds if kind == PUDDING)


def _kind(card_slug: str) -> int:
    kind = SLUG_TO_KIND.get(card_slug)
    if kind is None:
        raise RuleViolation("unknown-card", f"Sushi Go! has no card {card_slug!r}")
    return kind


def score_request(request: ScoreRequest) -> tuple[SeatScore, ...]:
    if not 1 <= len(request.players) <= MAX_PLAYERS:
        raise RuleViolation("invalid-player-count", f"score 1 to {MAX_PLAYERS} players")
    tableaus = [[_kind(card) for card in player.cards] for player in request.players]
    puddings = []
    for player, kinds in zip(request.players, tableaus, strict=True):
        for dessert in player.desserts:
            if _kind(dessert) != PUDDING:
                raise RuleViolation("not-a-dessert", f"{dessert!r} is not a dessert")
        puddings.append(len(player.desserts) + count_puddings(kinds))
    breakdowns = round_breakdowns(tableaus)
    if request.end_of_game:
        for breakdown, points in zip(breakdowns, pudding_points(puddings), strict=True):
            breakdown["pudding"] = points
    return tuple(seat_score(seat, breakdown) for seat, breakdown in enumerate(breakdowns))
