"""`evolve`: one event applied to the state, never validated (`decide` did that)."""

from __future__ import annotations

import msgspec

from domain.spin_some.events import (
    BasketsFilled,
    DimSumTaken,
    SquishyBunReturned,
    SquishyBunTaken,
    TableRotated,
)
from domain.spin_some.state import BASKETS, SpinState


def _set(values: tuple[int, ...], index: int, value: int) -> tuple[int, ...]:
    return (*values[:index], value, *values[index + 1 :])


def evolve(state: SpinState, event: object) -> SpinState:
    replace = msgspec.structs.replace
    if isinstance(event, DimSumTaken):
        seat, basket = event.seat, event.basket
        menus = state.menus
        return replace(
            state,
            current=(seat + 1) % state.players,
            depth=_set(state.depth, basket, state.depth[basket] + 1),
            basket_tokens=_set(state.basket_tokens, basket, 0),
            tokens=_set(state.tokens, seat, state.tokens[seat] + event.tokens),
            menus=(*menus[:seat], (*menus[seat], event.card), *menus[seat + 1 :]),
            taken=state.taken + 1,
            left=state.left - 1,
        )
    if isinstance(event, TableRotated):
        basket_tokens = list(state.basket_tokens)
        for basket in event.paid:
            basket_tokens[basket] += 1
        tokens = state.tokens
        if event.paid:
            tokens = _set(tokens, event.seat, tokens[event.seat] - len(event.paid))
        return replace(
            state,
            rotation=(state.rotation + event.steps) % BASKETS,
            basket_tokens=tuple(basket_tokens),
            tokens=tokens,
        )
    if isinstance(event, SquishyBunTaken):
        return replace(state, bun=event.seat)
    if isinstance(event, SquishyBunReturned):
        return replace(state, bun=None)
    if isinstance(event, BasketsFilled):
        piles = event.piles or ()
        return replace(state, piles=piles, depth=(0,) * BASKETS, left=sum(len(pile) for pile in piles))
    return state
