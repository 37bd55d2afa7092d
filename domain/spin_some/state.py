"""The full (hidden-information) state, and what the rules read off it."""

from __future__ import annotations

from typing import Final

import msgspec

from kaiten.domain.spin_some.options import SpinOptions

BASKETS: Final = 6
MENU_SIZE: Final = 12
STARTING_TOKENS: Final = 4
#: The box holds 24 chopsticks tokens; 4 per player are in play (8/12/16/20/24 for 2..6 players).
TOKENS_IN_BOX: Final = 24
MAX_STEPS: Final = BASKETS - 1


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
