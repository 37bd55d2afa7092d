"""Spin Some for Dim Sum's observations read off the state, kept up to date from one state to the next.

Every seat's observation (laid out in `spin_some.py`) is one ordering of the same numbers: the six
baskets' blocks by basket, every seat's block by seat, the squishy bun in the middle, and every
seat's cards taken. `_order` gives, per observer and rotation, where each number of its observation
is among them.

A `SpinSomeObserver` keeps those numbers from the state it last observed (see `KeptNumbers`).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from itertools import compress, count
from operator import is_not, ne
from typing import Any

import numpy as np

from kaiten.domain.engine import CardIds
from kaiten.domain.spin_some.cards import CARD_KIND, KIND_COUNT
from kaiten.domain.spin_some.game import SPIN_SOME_FOR_DIM_SUM
from kaiten.domain.spin_some.state import BASKETS, SpinState
from kaiten.environments.features import KeptNumbers, per_player_count, turn_order

#: Per basket: its top card's kind, cards left, tokens; per seat: menu per kind, tokens, the bun.
BLOCK = KIND_COUNT + 2


class _Layout:
    """Where each group of numbers starts, in float32s, for one player count."""

    def __init__(self, players: int) -> None:
        self.seats = BASKETS * BLOCK
        #: The squishy bun in the middle, then every seat's cards taken.
        self.bun = self.seats + players * BLOCK
        self.taken = self.bun + 1
        self.size = self.taken + players


_LAYOUTS = per_player_count(SPIN_SOME_FOR_DIM_SUM, _Layout)


class SpinSomeObserver(KeptNumbers):
    """Observations of the states of games of one player count, for one owner at a time (an
    environment or a match): it keeps the numbers of the state it last observed.

    Its numbers start as those of an empty table (no card dealt nor taken, no token, the bun in the
    middle), and it holds, as what they were read from, the parts of such a table. A step changes a
    basket or two, a seat's menu and tokens: those are found by comparing values in C (`compress`
    of `map`), and only they are written, one float at a time.
    """

    __slots__ = ("_bun", "_depth", "_layout", "_menus", "_piles", "_tokens", "_tokens_in", "_tops")

    def __init__(self, players: int) -> None:
        self._layout = _LAYOUTS[players]
        super().__init__(players, self._layout.size)
        # What the numbers were read from: an empty table.
        self._piles: tuple[CardIds, ...] = ()
        self._depth: tuple[int, ...] = (0,) * BASKETS
        self._tokens_in: tuple[int, ...] = (0,) * BASKETS
        #: Each basket's top card's kind (None: empty).
        self._tops: list[int | None] = [None] * BASKETS
        self._menus: tuple[CardIds, ...] = ((),) * players
        self._tokens: tuple[int, ...] = (0,) * players
        self._bun: int | None = None
        self._cells[self._layout.bun] = 1.0

    def _read(self, spin: Any, seat: int) -> None:
        # Called at every step: typed rather than checked.
        state: SpinState = spin
        piles, depth = state.piles, state.depth
        if piles is not self._piles:
            self._read_piles(range(BASKETS), piles, depth)
        elif depth is not self._depth:
            self._read_piles(compress(count(), map(ne, depth, self._depth)), piles, depth)
        if state.basket_tokens is not self._tokens_in:
            self._set_tokens(state.basket_tokens, self._tokens_in, KIND_COUNT + 1)
            self._tokens_in = state.basket_tokens
        if state.menus is not self._menus:
            self._read_menus(state.menus)
        if state.tokens is not self._tokens:
            self._set_tokens(state.tokens, self._tokens, self._layout.seats + KIND_COUNT)
            self._tokens = state.tokens
        if state.bun != self._bun:
            self._read_bun(state.bun)

    def _order_of(self, spin: Any, seat: int, private: bool) -> np.ndarray[Any, np.dtype[np.intp]]:
        # The whole table is public but the piles below their tops: a seat sees what spectators see.
        return _order(self._players, seat, spin.rotation)

    def _read_piles(self, baskets: Iterable[int], piles: tuple[CardIds, ...], depth: tuple[int, ...]) -> None:
        """The top card and cards left of these baskets."""
        self._piles, self._depth = piles, depth
        cells, tops = self._cells, self._tops
        for basket in baskets:
            # The whole table is public but the piles below their tops.
            pile, taken, at = piles[basket] if piles else (), depth[basket], basket * BLOCK
            top = tops[basket]
            if top is not None:
                cells[at + top] = 0.0
            top = tops[basket] = CARD_KIND[pile[taken]] if taken < len(pile) else None
            if top is not None:
                cells[at + top] = 1.0
            cells[at + KIND_COUNT] = len(pile) - taken

    def _read_menus(self, menus: tuple[CardIds, ...]) -> None:
        cells, layout, held = self._cells, self._layout, self._menus
        self._menus = menus
        for seat in compress(count(), map(is_not, menus, held)):
            menu, before = menus[seat], held[seat]
            at = layout.seats + seat * BLOCK
            # A step adds one card to a menu: the others are counted already.
            if len(menu) == len(before) + 1 and menu[:-1] == before:
                added = menu[-1:]
            else:
                self._numbers[4 * at : 4 * (at + KIND_COUNT)] = _NO_MENU
                added = menu
            for card in added:
                cells[at + CARD_KIND[card]] += 1.0
            cells[layout.taken + seat] = len(menu)

    def _set_tokens(self, tokens: tuple[int, ...], held: tuple[int, ...], start: int) -> None:
        """The tokens of each basket, or of each seat (`start`: where the first one's are, a block apart)
        that are not the `held` ones."""
        cells = self._cells
        for index in compress(count(), map(ne, tokens, held)):
            cells[start + index * BLOCK] = tokens[index]

    def _read_bun(self, bun: int | None) -> None:
        cells, layout = self._cells, self._layout
        # A seat's flag follows its tokens.
        if self._bun is not None:
            cells[layout.seats + self._bun * BLOCK + KIND_COUNT + 1] = 0.0
        if bun is not None:
            cells[layout.seats + bun * BLOCK + KIND_COUNT + 1] = 1.0
        cells[layout.bun] = 1.0 if bun is None else 0.0
        self._bun = bun


@lru_cache(maxsize=1 << 8)
def _order(players: int, seat: int, rotation: int) -> np.ndarray[Any, np.dtype[np.intp]]:
    """Where each number of the seat's observation is among a `SpinSomeObserver`'s numbers: the
    baskets from the one in front of the seat on, the seats in turn from it, the bun, its cards taken."""
    layout = _LAYOUTS[players]
    here = (seat + rotation) % BASKETS
    order: list[int] = []
    for offset in range(BASKETS):
        start = (here + offset) % BASKETS * BLOCK
        order += range(start, start + BLOCK)
    for other in turn_order(players)[seat]:
        start = layout.seats + other * BLOCK
        order += range(start, start + BLOCK)
    order += (layout.bun, layout.taken + seat)
    return np.array(order, np.intp)


_NO_MENU = bytes(4 * KIND_COUNT)
