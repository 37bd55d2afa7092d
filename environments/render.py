"""Small text helpers shared by the games' `render` (a table as a person reads it)."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from kaiten.domain.engine import Result


def card_list(cards: Iterable[int], slug: Callable[[int], str]) -> str:
    return ", ".join(slug(card) for card in cards)


def scores_line(result: Result | None) -> str:
    """The final scores and winners, or '' while the game runs."""
    if result is None:
        return ""
    totals = ", ".join(f"seat {score.seat}: {score.total}" for score in result.scores)
    return f"game over: {totals}; winners {list(result.winners)}"
