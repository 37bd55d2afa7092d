"""The options, the full (hidden-information) state and `evolve`, which folds events and never validates."""

from __future__ import annotations

from typing import Final

import msgspec

from domain.spin_some.events import (
    BasketsFilled,
    DimSumTaken,
    SquishyBunReturned,
    SquishyBunTaken,
    TableRotated,
)

BASKETS: Final = 6
MENU_SIZE: Final = 12
STARTING_TOKENS: Final = 4
#: The box holds 24 chopsticks tokens; 4 per player are in play (8/12/16/20/24 for 2..6 players).
TOKENS_IN_BOX: Final = 24
MAX_STEPS: Final = BASKETS - 1


class SpinOptions(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    #: The seat that "ate dim sum most recently" and plays first.
    first_player: int = 0


class SpinState(msgspec.Struct, frozen=True, gc=False):
    players: int
    #: Whose turn it is.
    current: int
    #: The basket facing seat s is (s + rotation) % 6.
    rotation: int
    #: The shuffled piles, top card first (hidden below `depth`); () until the baskets are filled.
    piles: tuple[tuple[int, ...], ...]
    #: Cards already taken from each basket: the top of basket b is piles[b][depth[b]].
    depth: tuple[int, ...]
    basket_tokens: tuple[int, ...]
    tokens: tuple[int, ...]
    menus: tuple[tuple[int, ...], ...]
    #: The seat holding the squishy bun, None when it is in the middle.
    bun: int | None
    #: Cards taken so far and cards still in the baskets (for a cheap end-of-game test).
    taken: int = 0
    left: int = 0


def initial_state(options: SpinOptions, players: int) -> SpinState:
    return SpinState(
        players=players,
        current=options.first_player,
        rotation=0,
        piles=(),
        depth=(0,) * BASKETS,
        basket_tokens=(0,) * BASKETS,
        tokens=(STARTING_TOKENS,) * players,
        menus=((),) * players,
        bun=None,
    )


def front(state: SpinState, seat: int) -> int:
    return (seat + state.rotation) % BASKETS


def top(state: SpinState, basket: int) -> int | None:
    pile = state.piles[basket] if state.piles else ()
    depth = state.depth[basket]
    return pile[depth] if depth < len(pile) else None


def is_over(state: SpinState) -> bool:
    """Every player has 12 cards (play is strictly in turn, so after 12 turns each), or every basket
    is empty."""
    return bool(state.piles) and (state.taken >= MENU_SIZE * state.players or state.left == 0)


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
