"""`evolve`: one event applied to the state by the handler of its type, never validated (`decide`
did that)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from msgspec.structs import replace

from kaiten.domain.engine import evolver
from kaiten.domain.spin_some.events import (
    BasketsFilled,
    DimSumTaken,
    SquishyBunReturned,
    SquishyBunTaken,
    TableRotated,
)
from kaiten.domain.spin_some.state import BASKETS, SpinState
from kaiten.domain.tuples import added, appended, replaced


def _taken(state: SpinState, event: DimSumTaken) -> SpinState:
    seat, basket = event.seat, event.basket
    return replace(
        state,
        current=(seat + 1) % state.players,
        depth=added(state.depth, basket, 1),
        basket_tokens=replaced(state.basket_tokens, basket, 0),
        tokens=added(state.tokens, seat, event.tokens),
        menus=appended(state.menus, seat, event.card),
        taken=state.taken + 1,
        left=state.left - 1,
    )


def _rotated(state: SpinState, event: TableRotated) -> SpinState:
    basket_tokens = list(state.basket_tokens)
    for basket in event.paid:
        basket_tokens[basket] += 1
    tokens = state.tokens
    if event.paid:
        tokens = added(tokens, event.seat, -len(event.paid))
    return replace(
        state,
        rotation=(state.rotation + event.steps) % BASKETS,
        basket_tokens=tuple(basket_tokens),
        tokens=tokens,
    )


def _bun_taken(state: SpinState, event: SquishyBunTaken) -> SpinState:
    return replace(state, bun=event.seat)


def _bun_returned(state: SpinState, event: SquishyBunReturned) -> SpinState:
    return replace(state, bun=None)


def _filled(state: SpinState, event: BasketsFilled) -> SpinState:
    piles = event.piles or ()
    return replace(state, piles=piles, depth=(0,) * BASKETS, left=sum(len(pile) for pile in piles))


_HANDLERS: dict[type, Callable[[SpinState, Any], SpinState]] = {
    DimSumTaken: _taken,
    TableRotated: _rotated,
    SquishyBunTaken: _bun_taken,
    SquishyBunReturned: _bun_returned,
    BasketsFilled: _filled,
}
evolve = evolver(_HANDLERS)
