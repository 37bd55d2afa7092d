"""Dim Sum Derby's observations read off the state, kept up to date from one state to the next.

Every seat's observation (laid out in `dim_sum_derby.py`) is one ordering of the same numbers: the
carts by cart type, the table places with their markers per seat, every seat's markers, yen cards
(as their owner sees them and as the others do), Derby cards, the cards being arranged and the rest.
`_order` gives, per observer, where each number of its observation is among them.

A `DerbyObserver` keeps those numbers from the state it last observed (see `KeptNumbers`).
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable
from functools import lru_cache
from itertools import compress, count
from operator import is_not
from struct import Struct
from typing import Any

import numpy as np

from kaiten.domain.dim_sum_derby.cards import (
    CARD_DISH,
    CARD_PORTIONS,
    CART_TYPES,
    DERBY_KIND,
    DERBY_KINDS,
    DISHES,
    DISHES_PER_CART,
    PEEK_DEPTH,
    SLOTS,
    TABLE_LIMIT,
    turn_limit,
)
from kaiten.domain.dim_sum_derby.game import DIM_SUM_DERBY
from kaiten.domain.dim_sum_derby.state import Cards, DerbyState
from kaiten.domain.dim_sum_derby.view import public_yen, seats_at
from kaiten.environments.features import KeptNumbers, per_player_count, turn_order

DISH_COUNT = len(DISHES)
DERBY_KIND_COUNT = len(DERBY_KINDS)
#: A cart: its type, its top dish, its cards. A table place: present, its dish, room left, then its
#: markers per seat. Per seat, its yen cards (per cart type, a dish among the cart's 5, or hidden).
CART_FEATURES = CART_TYPES + DISH_COUNT + 1
PLACE_FEATURES = 1 + DISH_COUNT + 1
YEN_FEATURES = CART_TYPES * (DISHES_PER_CART + 1)
#: Actions left, turn, Derby deck (set at every step), turn limit, arranging.
SCALAR_FEATURES = 5
#: Per seat: portions per cart type, its yen cards as its owner sees them, then as the others do.
YEN_CARD_NUMBERS = CART_TYPES + 2 * YEN_FEATURES
PEEK_FEATURES = PEEK_DEPTH * DISH_COUNT
#: Discarded Derby cards per kind, scored dishes per dish, yen deck sizes.
REST_FEATURES = DERBY_KIND_COUNT + DISH_COUNT + CART_TYPES


class _Layout:
    """Where each group of numbers starts, in float32s, for one player count."""

    def __init__(self, players: int) -> None:
        self.table = CART_TYPES * CART_FEATURES
        self.place = PLACE_FEATURES + players
        self.scalars = self.table + TABLE_LIMIT * self.place
        self.turn_limit = self.scalars + 3
        #: 1 while the peeked cards are being arranged.
        self.arranging = self.scalars + 4
        #: Every seat's markers, then its lost markers, then its Derby cards.
        self.counts = self.scalars + SCALAR_FEATURES
        self.yen = self.counts + 3 * players
        self.hands = self.yen + players * YEN_CARD_NUMBERS
        self.peek = self.hands + players * DERBY_KIND_COUNT
        self.tail = self.peek + PEEK_FEATURES
        #: A 0, then 1 once dealt: the Kitchen flag of a cart slot, and the zeros of hidden cards.
        self.flags = self.tail + REST_FEATURES
        self.size = self.flags + 2


_LAYOUTS = per_player_count(DIM_SUM_DERBY, _Layout)


class DerbyObserver(KeptNumbers):
    """Observations of the states of games of one player count, for one owner at a time (an
    environment or a match): it keeps the numbers of the state it last observed."""

    __slots__ = (
        "_carts",
        "_decks",
        "_derby_discard",
        "_dish_discards",
        "_hands",
        "_layout",
        "_lost",
        "_markers_on",
        "_no_seats",
        "_peek",
        "_per_seat",
        "_place_cards",
        "_place_markers",
        "_portions",
        "_seat_hands",
        "_seat_yen",
        "_supply",
        "_table",
        "_yen",
        "_yen_decks",
        "_yen_portions",
    )

    def __init__(self, players: int) -> None:
        self._layout = _LAYOUTS[players]
        super().__init__(players, self._layout.size)
        #: A number per seat (markers in supply, markers lost), and zeros for each before the deal.
        self._per_seat = Struct(f"<{players}f")
        self._no_seats = (0,) * players
        # What the numbers were read from (None: nothing yet).
        self._carts: Any = None
        self._decks: list[Cards | None] = [None] * CART_TYPES
        self._table: Any = None
        self._markers_on: Any = None
        self._place_cards: list[int | None] = [None] * TABLE_LIMIT
        self._place_markers: list[Cards | None] = [None] * TABLE_LIMIT
        self._supply: Any = None
        self._lost: Any = None
        self._hands: Any = None
        self._seat_hands: list[Cards | None] = [None] * players
        self._yen: Any = None
        self._portions: Any = None
        self._seat_yen: list[Cards | None] = [None] * players
        self._yen_portions: list[Cards | None] = [None] * players
        self._peek: Any = None
        self._derby_discard: Any = None
        self._dish_discards: Any = None
        self._yen_decks: Any = None
        self._cells[self._layout.turn_limit] = turn_limit(players)

    def _read(self, derby: Any, seat: int) -> None:
        # Called at every step: typed rather than checked.
        state: DerbyState = derby
        numbers, layout = self._numbers, self._layout
        if state.carts is not self._carts:
            self._read_carts(state.carts)
        if state.table is not self._table or state.markers_on is not self._markers_on:
            self._read_table(state.table, state.markers_on)
        supply = state.supply
        if supply is not self._supply:
            self._supply = supply
            self._per_seat.pack_into(numbers, 4 * layout.counts, *(supply or self._no_seats))
        lost = state.lost
        if lost is not self._lost:
            self._lost = lost
            self._per_seat.pack_into(numbers, 4 * (layout.counts + self._players), *(lost or self._no_seats))
        if state.hands is not self._hands:
            self._read_hands(state.hands)
        if state.yen is not self._yen or state.portions is not self._portions:
            self._read_yen(state.yen, state.portions)
        peek = state.peek
        if peek is not self._peek:
            self._peek = peek
            numbers[4 * layout.peek : 4 * layout.tail] = _peek(peek)
            self._cells[layout.arranging] = 1.0 if peek else 0.0
        if (
            state.derby_discard is not self._derby_discard
            or state.dish_discards is not self._dish_discards
            or state.yen_decks is not self._yen_decks
        ):
            self._read_tail(state)
        # The turn limit is set once for all (`__init__`), arranging with the peeked cards.
        _SCALARS.pack_into(numbers, 4 * layout.scalars, state.actions_left, state.turn, len(state.derby_deck))

    def _order_of(self, derby: Any, seat: int, private: bool) -> np.ndarray[Any, np.dtype[np.intp]]:
        state: DerbyState = derby
        return _order(
            self._players,
            seat,
            state.slots,
            state.first_player,
            state.kitchen_left,
            state.over,
            private,
            private and bool(state.peek) and seat == state.turn_seat,
        )

    def _read_carts(self, carts: tuple[Cards, ...]) -> None:
        self._carts = carts
        numbers, decks = self._numbers, self._decks
        for cart in range(CART_TYPES):
            deck = carts[cart] if carts else None
            if deck is not decks[cart]:
                decks[cart] = deck
                start = 4 * cart * CART_FEATURES
                numbers[start : start + 4 * CART_FEATURES] = (
                    _NO_CART if deck is None else _cart(cart, deck[0] if deck else None, len(deck))
                )
        flag = 4 * (self._layout.flags + 1)
        numbers[flag : flag + 4] = _ONE if carts else _ZERO

    def _read_table(self, table: Cards, markers_on: tuple[Cards, ...]) -> None:
        cards, held = self._place_cards, self._place_markers
        # A dish eaten from gets a marker and the table stays the same: only its place is read again.
        places: Iterable[int] = (
            compress(count(), map(is_not, markers_on, held)) if table is self._table else range(TABLE_LIMIT)
        )
        self._table, self._markers_on = table, markers_on
        numbers, players, served = self._numbers, self._players, len(table)
        width = 4 * self._layout.place
        start = 4 * self._layout.table
        for place in places:
            at = start + place * width
            if place < served:
                card, markers = table[place], markers_on[place]
                if card != cards[place] or markers is not held[place]:
                    cards[place], held[place] = card, markers
                    numbers[at : at + width] = _place(card, markers, players)
            elif cards[place] is not None:
                cards[place] = held[place] = None
                numbers[at : at + width] = bytes(width)

    def _read_hands(self, hands: tuple[Cards, ...]) -> None:
        self._hands = hands
        numbers, held = self._numbers, self._seat_hands
        start = 4 * self._layout.hands
        sizes = self._layout.counts + 2 * self._players
        for seat in range(self._players):
            hand = hands[seat] if hands else None
            if hand is not held[seat]:
                held[seat] = hand
                at = start + 4 * seat * DERBY_KIND_COUNT
                cards = hand or ()
                numbers[at : at + 4 * DERBY_KIND_COUNT] = _derby_cards(cards)
                self._cells[sizes + seat] = len(cards)

    def _read_yen(self, yen: tuple[Cards, ...], portions: tuple[Cards, ...]) -> None:
        self._yen, self._portions = yen, portions
        numbers, held_yen, held_portions = self._numbers, self._seat_yen, self._yen_portions
        start = 4 * self._layout.yen
        for seat in range(self._players):
            cards, held = (yen[seat], portions[seat]) if yen else (None, None)
            if cards is not held_yen[seat] or held is not held_portions[seat]:
                held_yen[seat], held_portions[seat] = cards, held
                at = start + 4 * seat * YEN_CARD_NUMBERS
                numbers[at : at + 4 * YEN_CARD_NUMBERS] = _yen_cards(cards, held)

    def _read_tail(self, state: DerbyState) -> None:
        numbers = self._numbers
        start = 4 * self._layout.tail
        if state.derby_discard is not self._derby_discard:
            self._derby_discard = state.derby_discard
            numbers[start : start + 4 * DERBY_KIND_COUNT] = _derby_cards(state.derby_discard)
        start += 4 * DERBY_KIND_COUNT
        if state.dish_discards is not self._dish_discards:
            self._dish_discards = state.dish_discards
            numbers[start : start + 4 * DISH_COUNT] = _dish_discards(state.dish_discards)
        start += 4 * DISH_COUNT
        if state.yen_decks is not self._yen_decks:
            self._yen_decks = state.yen_decks
            numbers[start : start + 4 * CART_TYPES] = _yen_deck_sizes(state.yen_decks)


@lru_cache(maxsize=1 << 10)
def _order(
    players: int,
    seat: int,
    slots: Cards,
    first_player: int,
    kitchen_left: bool,
    over: bool,
    private: bool,
    peek_shown: bool,
) -> np.ndarray[Any, np.dtype[np.intp]]:
    """Where each number of the seat's observation is among a `DerbyObserver`'s numbers: cart slots
    from the seat's on (`slots`: the cart type at each slot), markers and seats in turn from the
    seat, each seat's yen cards as the seat sees them (`over`: all shown), its own Derby cards, and
    the peeked cards when the seat is the one arranging them. A spectator's view (not `private`)
    shows the seat's own yen cards as the others see them, and no Derby cards."""
    layout = _LAYOUTS[players]
    at = seats_at(first_player, players, kitchen_left)
    zero, kitchen = layout.flags, layout.flags + 1
    order: list[int] = []
    mine = at.index(seat)
    for offset in range(SLOTS):
        slot = (mine + offset) % SLOTS
        start = slots[slot] * CART_FEATURES
        order += range(start, start + CART_FEATURES)
        order.append(kitchen if at[slot] is None else zero)
    for place in range(TABLE_LIMIT):
        start = layout.table + place * layout.place
        order += range(start, start + PLACE_FEATURES)
        order += [start + PLACE_FEATURES + other for other in turn_order(players)[seat]]
    for other in turn_order(players)[seat]:
        cards_at = layout.yen + other * YEN_CARD_NUMBERS
        shown_at = cards_at + CART_TYPES + (0 if over or (private and other == seat) else YEN_FEATURES)
        order += (layout.counts + other, layout.counts + players + other)
        order += range(cards_at, cards_at + CART_TYPES)
        order += range(shown_at, shown_at + YEN_FEATURES)
        order.append(layout.counts + 2 * players + other)
    hand = layout.hands + seat * DERBY_KIND_COUNT
    order += range(hand, hand + DERBY_KIND_COUNT) if private else [zero] * DERBY_KIND_COUNT
    order += range(layout.peek, layout.tail) if peek_shown else [zero] * PEEK_FEATURES
    # The tail: the scalars but arranging, the discarded and scored cards and yen decks, arranging.
    order += (layout.scalars, layout.scalars + 1, layout.turn_limit, layout.scalars + 2)
    order += range(layout.tail, layout.flags)
    order.append(layout.arranging)
    return np.array(order, np.intp)


@lru_cache(maxsize=1 << 12)
def _cart(cart: int, top: int | None, cards: int) -> bytes:
    """A cart: its cart type, its top dish card (None: empty), its cards."""
    out = array("f", bytes(4 * CART_FEATURES))
    out[cart] = 1.0
    if top is not None:
        out[CART_TYPES + CARD_DISH[top]] = 1.0
    out[CART_TYPES + DISH_COUNT] = cards
    return out.tobytes()


@lru_cache(maxsize=1 << 10)
def _place(card: int, markers: Cards, players: int) -> bytes:
    """A table place holding a dish: 1, its dish, room left, its markers per seat."""
    counts = [0] * players
    for owner in markers:
        counts[owner] += 1
    return _DISH_PLACE[card] + _PLACE_TAIL[players].pack(CARD_PORTIONS[card] - len(markers), *counts)


def _yen_cards(yen: Cards | None, portions: Cards | None) -> bytes:
    """A seat's portions per cart type, its yen cards as it sees them, then as the others do; none
    before the deal."""
    if yen is None or portions is None:
        return _NO_YEN_CARDS
    return _PORTIONS.pack(*portions) + _yen(yen) + _yen(public_yen(yen, portions))


@lru_cache(maxsize=1 << 10)
def _yen(shown: tuple[int | None, ...]) -> bytes:
    """A seat's yen cards as an observer sees them: per cart type, the dish among that cart's five
    (a yen card's dish index runs through the carts' dishes in order, 5 per cart), or hidden."""
    out = array("f", bytes(4 * YEN_FEATURES))
    for cart_type, card in enumerate(shown):
        out[cart_type * (DISHES_PER_CART + 1) + (DISHES_PER_CART if card is None else card % DISHES_PER_CART)] = 1.0
    return out.tobytes()


@lru_cache(maxsize=1 << 10)
def _derby_cards(cards: Cards) -> bytes:
    """Derby cards per kind (a hand, the discarded ones)."""
    out = array("f", bytes(4 * DERBY_KIND_COUNT))
    for card in cards:
        out[DERBY_KIND[card]] += 1.0
    return out.tobytes()


def _peek(peek: Cards) -> bytes:
    """The cards being arranged, one-hot dish per place."""
    out = array("f", bytes(4 * PEEK_FEATURES))
    for place, card in enumerate(peek):
        out[place * DISH_COUNT + CARD_DISH[card]] = 1.0
    return out.tobytes()


def _dish_discards(dish_discards: tuple[Cards, ...]) -> bytes:
    """Scored dishes waiting in the Kitchen, per dish."""
    out = array("f", bytes(4 * DISH_COUNT))
    for cards in dish_discards:
        for card in cards:
            out[CARD_DISH[card]] += 1.0
    return out.tobytes()


def _yen_deck_sizes(yen_decks: tuple[Cards, ...]) -> bytes:
    return array("f", [len(deck) for deck in yen_decks] or [0] * CART_TYPES).tobytes()


#: A table place's start per dish card (1, the dish one-hot), and its rest (room, markers per seat).
_DISH_PLACE = tuple(
    array("f", [1.0, *[1.0 if dish == other else 0.0 for other in range(DISH_COUNT)]]).tobytes() for dish in CARD_DISH
)
_PLACE_TAIL = {players: Struct(f"<{1 + players}f") for players in _LAYOUTS}
#: Actions left, turn, Derby deck: the scalars that change from one step to the next.
_SCALARS = Struct("<3f")
_PORTIONS = Struct(f"<{CART_TYPES}f")
_NO_YEN_CARDS = bytes(4 * YEN_CARD_NUMBERS)
_NO_CART = bytes(4 * CART_FEATURES)
_ONE = array("f", [1.0]).tobytes()
_ZERO = bytes(4)
