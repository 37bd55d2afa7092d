"""Scoring: who scores a dish, the final score with its breakdown, ties, and the scoring calculator."""

from __future__ import annotations

from kaiten.domain.dim_sum_derby.cards import CARD_CART, CARD_DISH, CART_SLUGS, CART_TYPES, DISH_BY_SLUG, DISHES
from kaiten.domain.dim_sum_derby.commands import DerbyScoreRequest
from kaiten.domain.dim_sum_derby.state import Cards, DerbyState
from kaiten.domain.engine import Result, RuleViolation, SeatScore, rank_scores, seat_score

UNSATISFIED = "unsatisfied"
CATEGORIES = (*CART_SLUGS, UNSATISFIED)


def yen_holder(state: DerbyState, dish: int) -> int | None:
    """The seat holding the yen card of this dish card, if it was dealt."""
    cart = CARD_CART[dish]
    wanted = CARD_DISH[dish]
    for seat, yen in enumerate(state.yen):
        if yen[cart] == wanted:
            return seat
    return None


def scorer_of(state: DerbyState, dish: int, markers: Cards) -> int | None:
    """The seat whose markers on the dish become scored portions: the yen holder, if they ate some."""
    holder = yen_holder(state, dish)
    return holder if holder is not None and holder in markers else None


def breakdown(portions: Cards) -> dict[str, int]:
    """Scored portions per yen card (by cart type), minus 1 per yen card with none (at the end)."""
    out = {CART_SLUGS[cart]: portions[cart] for cart in range(CART_TYPES)}
    out[UNSATISFIED] = -sum(1 for count in portions if count == 0)
    return out


def tiebreak(portions: Cards) -> int:
    """Ties: most portions of the dessert yen, then of the main-dish yen (portions never exceed 10)."""
    return portions[3] * 100 + portions[2]


def final_result(state: DerbyState) -> Result:
    scores = [seat_score(seat, breakdown(state.portions[seat])) for seat in range(state.players)]
    return rank_scores(scores, [tiebreak(p) for p in state.portions])


def _dish(slug: str) -> int:
    try:
        return DISH_BY_SLUG[slug]
    except KeyError:
        raise RuleViolation("unknown-card", f"{slug!r} is not a Dim Sum Derby dish") from None


def score_request(request: DerbyScoreRequest) -> tuple[SeatScore, ...]:
    held: set[int] = set()
    scores = []
    for seat, player in enumerate(request.players):
        yen = [_dish(slug) for slug in player.yen]
        carts = [DISHES[d].cart for d in yen]
        if len(set(carts)) != len(carts):
            raise RuleViolation("invalid-yen", f"player {seat} holds two yen cards of the same cart type")
        if held & set(yen):
            raise RuleViolation("invalid-yen", f"player {seat} holds a yen card another player holds")
        held |= set(yen)
        eaten = [_dish(slug) for slug in (*player.cards, *player.desserts)]
        portions = [0] * CART_TYPES
        for d in eaten:
            if d in yen:
                portions[DISHES[d].cart] += 1
        out = {CART_SLUGS[cart]: portions[cart] for cart in range(CART_TYPES)}
        unsatisfied = sum(1 for d in yen if portions[DISHES[d].cart] == 0)
        out[UNSATISFIED] = -unsatisfied if request.end_of_game else 0
        scores.append(seat_score(seat, out))
    return tuple(scores)
