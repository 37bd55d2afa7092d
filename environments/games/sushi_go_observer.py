"""Sushi Go!'s observations read off the state, kept up to date from one state to the next.

Every seat's observation (laid out in `sushi_go.py`) is one ordering of the same numbers: round,
turn and hand size, every seat's hand per kind, then every seat's block (tableau per kind, uncovered
wasabi, puddings, total). A seat's observation takes the three scalars, its own hand (zeros in its
public observation), then the blocks in turn from it.

A `SushiGoObserver` keeps those numbers from the state it last observed (see `KeptNumbers`). A pick
changes none of the objects they are read from; a reveal changes every hand and tableau, and each is
read again once, a hand only when its seat is observed.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from kaiten.domain.sushi_go.cards import CARD_TYPES, DEAL, KIND, NIGIRI_POINTS, WASABI
from kaiten.domain.sushi_go.state import Cards, SushiGoState
from kaiten.environments.features import KeptNumbers, turn_order

KINDS = len(CARD_TYPES)
#: Per seat: its tableau per kind, uncovered wasabi, puddings kept, total score.
SEAT_FEATURES = KINDS + 3
#: Round, turn, hand size.
SCALARS = 3
#: Where a tableau's uncovered wasabi, puddings and total are in its seat's block.
UNCOVERED, PUDDINGS, TOTAL = KINDS, KINDS + 1, KINDS + 2


def _orders(players: int) -> tuple[tuple[np.ndarray[Any, np.dtype[np.intp]], ...], ...]:
    """Per seat, where each number of its public then its private observation is among a
    `SushiGoObserver`'s numbers (the public one shows no hand: zeros)."""
    blocks = SCALARS + KINDS * players
    zero = blocks + SEAT_FEATURES * players
    orders = []
    for seat in range(players):
        seats: list[int] = []
        for other in turn_order(players)[seat]:
            seats += range(blocks + SEAT_FEATURES * other, blocks + SEAT_FEATURES * (other + 1))
        hand = range(SCALARS + KINDS * seat, SCALARS + KINDS * (seat + 1))
        public = [*range(SCALARS), *[zero] * KINDS, *seats]
        private = [*range(SCALARS), *hand, *seats]
        orders.append((np.array(public, np.intp), np.array(private, np.intp)))
    return tuple(orders)


_ORDERS = {players: _orders(players) for players in DEAL}


class SushiGoObserver(KeptNumbers):
    """Observations of the states of games of one player count, for one owner at a time (an
    environment or a match): it keeps the numbers of the state it last observed."""

    __slots__ = ("_hands", "_orders", "_puddings", "_seat_hands", "_seat_tableaus", "_tableaus", "_totals")

    def __init__(self, players: int) -> None:
        # The numbers end with a zero, which the public observations show in place of the hand.
        super().__init__(players, SCALARS + (KINDS + SEAT_FEATURES) * players + 1)
        self._orders = _ORDERS[players]
        # What the numbers were read from (None: nothing yet).
        self._hands: Any = None
        self._seat_hands: list[Cards | None] = [None] * players
        self._tableaus: Any = None
        self._puddings: Any = None
        self._totals: Any = None
        self._seat_tableaus: list[Cards | None] = [None] * players

    def _read(self, sushi: Any, seat: int) -> None:
        # Called at every step: typed rather than checked.
        state: SushiGoState = sushi
        cells = self._cells
        cells[0] = state.round
        cells[1] = state.turn
        hands = state.hands
        if hands is not self._hands:
            self._hands = hands
            cells[2] = len(hands[0]) if hands else 0
        # Only the seat's own hand: each is read when its seat is observed.
        hand = hands[seat] if hands else ()
        if hand is not self._seat_hands[seat]:
            self._seat_hands[seat] = hand
            at = SCALARS + KINDS * seat
            cells[at : at + KINDS] = _NO_KINDS
            for card in hand:
                cells[at + KIND[card]] += 1.0
        tableaus, puddings, totals = state.tableaus, state.puddings, state.totals
        if tableaus is not self._tableaus or puddings is not self._puddings or totals is not self._totals:
            self._read_seats(tableaus, puddings, totals)

    def _order_of(self, state: Any, seat: int, private: bool) -> np.ndarray[Any, np.dtype[np.intp]]:
        return self._orders[seat][private]

    def _read_seats(self, tableaus: tuple[Cards, ...], puddings: tuple[Cards, ...], totals: tuple[int, ...]) -> None:
        cells, held = self._cells, self._seat_tableaus
        start = SCALARS + KINDS * self._players
        end = start + SEAT_FEATURES * self._players
        if not tableaus:
            # No tableaus (no deal yet): every block is zeros.
            self._numbers[4 * start : 4 * end] = bytes(4 * SEAT_FEATURES * self._players)
            self._tableaus = self._puddings = self._totals = None
            held[:] = [None] * self._players
            return
        if tableaus is not self._tableaus:
            self._tableaus = tableaus
            at = start
            for seat, tableau in enumerate(tableaus):
                if tableau is not held[seat]:
                    self._read_tableau(tableau, held[seat], at)
                    held[seat] = tableau
                at += SEAT_FEATURES
        if puddings is not self._puddings:
            self._puddings = puddings
            for at, kept in zip(range(start + PUDDINGS, end, SEAT_FEATURES), puddings, strict=True):
                cells[at] = len(kept)
        if totals is not self._totals:
            self._totals = totals
            for at, total in zip(range(start + TOTAL, end, SEAT_FEATURES), totals, strict=True):
                cells[at] = total

    def _read_tableau(self, tableau: Cards, held: Cards | None, at: int) -> None:
        """The tableau's cards per kind, and the wasabi no nigiri has covered yet. A tableau mostly
        grows by a card or two from the one read before it: only those are counted then."""
        cells = self._cells
        read = 0 if held is None else len(held)
        if read and tableau[:read] != held:
            read = 0
        if read:
            uncovered = cells[at + UNCOVERED]
        else:
            cells[at : at + KINDS] = _NO_KINDS
            uncovered = 0.0
        cells[at + UNCOVERED] = count_tableau(tableau[read:], cells, at, uncovered)


def count_tableau(cards: Cards, out: memoryview[float], at: int, uncovered: float) -> float:
    """Add the cards to their kinds' counts in `out` (the kinds from `at` on), in the order they were
    played; the wasabi no nigiri has covered after them, `uncovered` before."""
    for card in cards:
        kind = KIND[card]
        out[at + kind] += 1.0
        if kind == WASABI:
            uncovered += 1.0
        elif uncovered and NIGIRI_POINTS[kind]:
            uncovered -= 1.0
    return uncovered


#: Zeros to clear a hand's or a tableau's numbers with (a slice of `_cells` takes floats only).
_NO_KINDS = memoryview(bytes(4 * KINDS)).cast("f")
