"""Dim Sum Derby (`dim-sum-derby`, 3-4 players) for the environments.

Table dishes are named by their position on the table (0..4, in the order they were served), Derby
cards by kind (8, catalog order: lazy-susan ... sharp-elbows), opponents by how far they sit to the
left (1..3), yen cards by cart type (steam cart, side dish, main dish, dessert).

**Actions** (80 for both player counts):

- 0 rotate, 1 serve, 2 cycle, 3 draw-derby; 4..8 eat from table dish 0..4;
  9..16 discard a Derby card of kind 0..7;
- play a Derby card: lazy-susan (1), double-helping on dish 0..4 (5), send-it-back dish 0..4 (5),
  switch-plates from dish 0..4 to dish 0..4 (25), peek-in-the-kitchen (1), extra-hungry (1),
  change-of-heart on the yen card of cart type 0..3 (4), sharp-elbows on dish 0..4 against the
  opponent 1..3 seats to the left (15);
- arrange the peeked cards: a permutation of their positions (6; with fewer than 3 cards peeked the
  missing positions stay last).

**Observation** (`4 * 26 + 5 * (22 + players) + 31 * players + 105` numbers):

- the four cart slots, starting with the observer's and going clockwise: cart type one-hot (4), top
  dish one-hot (20 dishes, catalog order), cards in the cart, 1 for the Kitchen;
- the five table places: 1 when a dish is there, its dish one-hot (20), room left, markers on it
  per seat in turn from the observer;
- per seat in turn from the observer: markers in supply, markers lost, scored portions per cart
  type (4), its yen cards as far as the observer sees them (per cart type: the dish one-hot among
  that cart's 5, then 1 when hidden), Derby cards in hand;
- the observer's Derby cards per kind (8); the cards it is arranging, one-hot dish per place (3 x 20);
- actions left, turn, turn limit; Derby deck size; discarded Derby cards per kind (8); scored dishes
  waiting in the Kitchen per dish (20); yen deck sizes (4); 1 while the turn seat arranges.
"""

from __future__ import annotations

from array import array
from collections.abc import Hashable, Sequence
from functools import cache, lru_cache
from itertools import permutations
from struct import Struct
from typing import Any

from adapters.environments.features import Features, Parts, Vector, joined, turn_order
from adapters.environments.render import scores_line
from adapters.environments.spec import ActionTable
from domain.dim_sum_derby.cards import (
    CARD_DISH,
    CARD_PORTIONS,
    CART_SLUGS,
    CART_TYPES,
    CHANGE_OF_HEART,
    DERBY_KIND,
    DERBY_KINDS,
    DISHES,
    DISHES_PER_CART,
    DOUBLE_HELPING,
    PEEK_DEPTH,
    SEND_IT_BACK,
    SHARP_ELBOWS,
    SLOTS,
    SWITCH_PLATES,
    TABLE_LIMIT,
    slot_of,
    turn_limit,
)
from domain.dim_sum_derby.commands import Arrange, Cycle, DiscardDerby, DrawDerby, Eat, PlayDerby, Rotate, Serve
from domain.dim_sum_derby.game import DIM_SUM_DERBY
from domain.dim_sum_derby.state import Cards, DerbyState
from domain.dim_sum_derby.view import DerbyView, public_yen, seats_at

MAX_PLAYERS = DIM_SUM_DERBY.max_players
DISH_COUNT = len(DISHES)
DERBY_KIND_COUNT = len(DERBY_KINDS)
PLACES = range(TABLE_LIMIT)
ARRANGEMENTS: tuple[tuple[int, ...], ...] = tuple(permutations(range(PEEK_DEPTH)))
#: A cart slot: cart type, top dish, cards, Kitchen. A table place (before the markers per seat):
#: present, dish, room. A seat: markers, lost, portions per cart, yen per cart (5 dishes + hidden),
#: Derby cards. The tail: actions left, turn, turn limit, Derby deck, discarded Derby cards per kind,
#: scored dishes per dish, yen deck sizes, arranging.
SLOT_FEATURES = CART_TYPES + len(DISHES) + 2
PLACE_FEATURES = 1 + len(DISHES) + 1
SEAT_FEATURES = 2 + CART_TYPES + CART_TYPES * (DISHES_PER_CART + 1) + 1
TAIL_FEATURES = 4 + len(DERBY_KINDS) + len(DISHES) + CART_TYPES + 1


def _layout(players: int) -> tuple[int, int, int, int, int]:
    """Where the table places, the seats, the hand, the peeked cards and the tail start."""
    table_at = SLOTS * SLOT_FEATURES
    seats_at = table_at + TABLE_LIMIT * (PLACE_FEATURES + players)
    hand_at = seats_at + players * SEAT_FEATURES
    peek_at = hand_at + len(DERBY_KINDS)
    tail_at = peek_at + PEEK_DEPTH * len(DISHES)
    return table_at, seats_at, hand_at, peek_at, tail_at


def _keys() -> list[Hashable]:
    keys: list[Hashable] = [("rotate",), ("serve",), ("cycle",), ("draw-derby",)]
    keys += [("eat", place) for place in PLACES]
    keys += [("discard-derby", kind) for kind in range(DERBY_KIND_COUNT)]
    for kind in range(DERBY_KIND_COUNT):
        if kind in (DOUBLE_HELPING, SEND_IT_BACK):
            keys += [("play-derby", kind, place) for place in PLACES]
        elif kind == SWITCH_PLATES:
            keys += [("play-derby", kind, place, to) for place in PLACES for to in PLACES]
        elif kind == CHANGE_OF_HEART:
            keys += [("play-derby", kind, cart) for cart in range(CART_TYPES)]
        elif kind == SHARP_ELBOWS:
            keys += [("play-derby", kind, place, left) for place in PLACES for left in range(1, MAX_PLAYERS)]
        else:
            keys.append(("play-derby", kind))
    keys += [("arrange", order) for order in ARRANGEMENTS]
    return keys


def _name(key: Hashable) -> str:
    assert isinstance(key, tuple)
    if key[0] in ("discard-derby", "play-derby"):
        return " ".join([key[0], DERBY_KINDS[key[1]].slug, *[str(part) for part in key[2:]]])
    return " ".join(str(part) for part in key)


_ACTIONS = ActionTable(_keys(), _name)
#: Parts cached by value keep the recent ones: those that recur within a game, and the common ones.
_RECENT = 1 << 10


#: Where the eat and discard blocks start, and the actions of the commands without arguments.
_EAT_AT = _ACTIONS.index[("eat", 0)]
_DISCARD_AT = _ACTIONS.index[("discard-derby", 0)]
_SIMPLE: dict[type, int] = {
    Rotate: _ACTIONS.index[("rotate",)],
    Serve: _ACTIONS.index[("serve",)],
    Cycle: _ACTIONS.index[("cycle",)],
    DrawDerby: _ACTIONS.index[("draw-derby",)],
}


def _arrangement(peeked: tuple[int, ...], cards: tuple[int, ...]) -> tuple[int, ...]:
    order = tuple(peeked.index(card) for card in cards)
    return order + tuple(range(len(order), PEEK_DEPTH))


class DerbySpec:
    game = DIM_SUM_DERBY
    simultaneous = False
    utility_bound = 60.0

    def actions(self, players: int) -> ActionTable:
        return _ACTIONS

    def actions_of(self, state: Any, seat: int, commands: Sequence[Any]) -> list[int]:
        assert isinstance(state, DerbyState)
        table = state.table
        actions = []
        for command in commands:
            kind = type(command)
            # The common commands by arithmetic on their block of the action space; the rest by key.
            action = _SIMPLE.get(kind)
            if action is None:
                if kind is Eat:
                    action = _EAT_AT + table.index(command.dish)
                elif kind is DiscardDerby:
                    action = _DISCARD_AT + DERBY_KIND[command.card]
                else:
                    action = _ACTIONS.index[self._key(state, seat, command)]
            actions.append(action)
        return actions

    def _key(self, state: DerbyState, seat: int, command: Any) -> Hashable:
        """The key of an arrangement's or a Derby card play's action."""
        kind = type(command)
        if kind is Arrange:
            return ("arrange", _arrangement(state.peek, command.cards))
        if kind is not PlayDerby:
            raise TypeError(f"not a Dim Sum Derby command: {command!r}")
        derby = DERBY_KIND[command.card]
        if derby in (DOUBLE_HELPING, SEND_IT_BACK):
            return ("play-derby", derby, state.table.index(command.dish))
        if derby == SWITCH_PLATES:
            return ("play-derby", derby, state.table.index(command.dish), state.table.index(command.to))
        if derby == CHANGE_OF_HEART:
            return ("play-derby", derby, state.yen[seat].index(command.yen))
        if derby == SHARP_ELBOWS:
            left = (command.target - seat) % state.players
            return ("play-derby", derby, state.table.index(command.dish), left)
        return ("play-derby", derby)

    def observation_size(self, players: int) -> int:
        return _layout(players)[-1] + TAIL_FEATURES

    def observe(self, view: Any, seat: int, players: int) -> Vector:
        assert isinstance(view, DerbyView)
        table_at, seats_at, hand_at, peek_at, tail_at = _layout(players)
        out = Features(tail_at + TAIL_FEATURES)
        # The seat's own slot as the view shows it (the Kitchen's place depends on the rules version).
        mine = next((cart.slot for cart in view.carts if cart.seat == seat), slot_of(seat, view.first_player, players))
        for cart in view.carts:
            base = ((cart.slot - mine) % SLOTS) * SLOT_FEATURES
            out.count(base + cart.cart)
            if cart.top is not None:
                out.count(base + CART_TYPES + CARD_DISH[cart.top])
            out.set(base + CART_TYPES + DISH_COUNT, cart.size)
            out.set(base + CART_TYPES + DISH_COUNT + 1, 1.0 if cart.seat is None else 0.0)
        for place, dish in enumerate(view.table):
            base = table_at + place * (PLACE_FEATURES + players)
            out.count(base)
            out.count(base + 1 + CARD_DISH[dish.card])
            out.set(base + 1 + DISH_COUNT, dish.portions - len(dish.markers))
            for owner in dish.markers:
                out.count(base + PLACE_FEATURES + (owner - seat) % players)
        for other in view.seats:
            base = seats_at + ((other.seat - seat) % players) * SEAT_FEATURES
            out.set(base, other.markers)
            out.set(base + 1, other.lost)
            for cart_type, portions in enumerate(other.portions):
                out.set(base + 2 + cart_type, portions)
            for cart_type, yen in enumerate(other.yen):
                # A yen card's dish index runs through the carts' dishes in order, 5 per cart.
                place = DISHES_PER_CART if yen is None else yen % DISHES_PER_CART
                out.count(base + 2 + CART_TYPES + cart_type * (DISHES_PER_CART + 1) + place)
            out.set(base + SEAT_FEATURES - 1, other.derby)
        for card in view.hand:
            out.count(hand_at + DERBY_KIND[card])
        for place, card in enumerate(view.peek):
            out.count(peek_at + place * DISH_COUNT + CARD_DISH[card])
        for at, value in enumerate((view.actions_left, view.turn, view.turn_limit, view.derby_deck)):
            out.set(tail_at + at, value)
        # The rest of the tail (discarded Derby cards, scored dishes, yen decks, arranging) follows.
        discarded_at = tail_at + 4
        for card in view.derby_discard:
            out.count(discarded_at + DERBY_KIND[card])
        waiting_at = discarded_at + DERBY_KIND_COUNT
        for cards in view.dish_discards:
            for card in cards:
                out.count(waiting_at + CARD_DISH[card])
        yen_at = waiting_at + DISH_COUNT
        for cart_type, size in enumerate(view.yen_decks):
            out.set(yen_at + cart_type, size)
        out.set(yen_at + CART_TYPES, 1.0 if view.arranging else 0.0)
        return out.vector()

    def observe_seat(self, derby: Any, seat: int, players: int) -> Vector:
        # Called at every step: typed rather than checked (`observe` checks the view it is given).
        state: DerbyState = derby
        parts = _PARTS[players]
        get = parts.get
        # The parts in the vector's order, most kept in their places with what they read (see
        # `Parts`), or cached by value.
        hands, peek, yen = state.hands, state.peek, state.yen
        at, slot_of, limit = _seating(state.first_player, players, state.kitchen_left)
        mine = slot_of[seat] * _CART_BYTES
        if yen:
            seats = get(
                _SEATS, (state.supply, state.lost, yen, state.portions, hands, state.over, players, seat), _seats
            )
        else:
            seats = _EMPTY_SEATS[players]
        return joined(
            (
                get(_CARTS, (state.carts, state.slots, at), _carts)[mine : mine + SLOTS * _CART_BYTES],
                get(_TABLE, (state.table, state.markers_on, players, seat), _table),
                seats,
                _derby_cards(hands[seat] if seat < len(hands) else ()),
                _peek(peek) if peek and seat == state.turn_seat else _NO_PEEK,
                # The scalars change at every step: not worth a place.
                _SCALARS_OF.pack(state.actions_left, state.turn, limit, len(state.derby_deck)),
                get(_TAIL, (state.derby_discard, state.dish_discards, state.yen_decks, bool(peek)), _tail),
            )
        )

    def simultaneous_now(self, state: Any) -> bool:
        return False

    def max_moves(self, players: int) -> int:
        # A turn is at most a dozen actions (3, plus 2 per Extra Hungry, plus free discards and
        # arrangements), each maybe followed by a chance step.
        return 1 + turn_limit(players) * 24

    def render(self, state: Any) -> str:
        assert isinstance(state, DerbyState)
        lines = [f"Dim Sum Derby turn {state.turn}: seat {state.turn_seat}, {state.actions_left} actions left"]
        for slot, cart in enumerate(state.slots):
            cards = state.carts[cart] if state.carts else ()
            top = DISHES[CARD_DISH[cards[0]]].slug if cards else "-"
            lines.append(f"slot {slot}: {CART_SLUGS[cart]} cart, top {top}, {len(cards)} cards")
        for dish, markers in zip(state.table, state.markers_on, strict=True):
            lines.append(f"table: {DISHES[CARD_DISH[dish]].slug} markers {list(markers)}")
        for seat in range(len(state.supply)):
            yen = ", ".join(DISHES[dish].slug for dish in state.yen[seat])
            lines.append(
                f"seat {seat}: markers {state.supply[seat]} portions {list(state.portions[seat])} yen [{yen}]"
                f" derby [{', '.join(DERBY_KINDS[DERBY_KIND[card]].slug for card in state.hands[seat])}]"
            )
        lines.append(scores_line(DIM_SUM_DERBY.result(state)))
        return "\n".join(line for line in lines if line)


@cache
def _seating(first_player: int, players: int, kitchen_left: bool) -> tuple[tuple[int | None, ...], list[int], int]:
    """The seat in front of each slot (None: the Kitchen), each seat's slot, and the turn limit."""
    at = seats_at(first_player, players, kitchen_left)
    return at, [at.index(seat) for seat in range(players)], turn_limit(players)


def _carts(carts: tuple[Cards, ...], slots: Cards, at: tuple[int | None, ...]) -> bytes:
    """The cart slots in slot order (`at`: the seat in front of each slot), twice over: the four slots
    from any observer's on are a slice of it. None before the deal."""
    if not carts:
        return _NO_CARTS + _NO_CARTS
    blocks = []
    for slot, cart in enumerate(slots):
        cards = carts[cart]
        blocks.append(_cart(cart, CARD_DISH[cards[0]] if cards else None, len(cards), at[slot] is None))
    return b"".join(blocks) * 2


@lru_cache(maxsize=1 << 12)
def _cart(cart: int, dish: int | None, cards: int, kitchen: bool) -> bytes:
    """A cart slot: its cart type, top dish (None: empty), cards, 1 for the Kitchen."""
    out = array("f", bytes(4 * SLOT_FEATURES))
    out[cart] = 1.0
    if dish is not None:
        out[CART_TYPES + dish] = 1.0
    out[CART_TYPES + DISH_COUNT] = cards
    out[CART_TYPES + DISH_COUNT + 1] = 1.0 if kitchen else 0.0
    return out.tobytes()


def _table(table: Cards, markers_on: tuple[Cards, ...], players: int, seat: int) -> bytes:
    """The table places, the markers on each per seat in turn from the observer."""
    places = [_place(card, markers, players, seat) for card, markers in zip(table, markers_on, strict=True)]
    return b"".join(places) + bytes(4 * (PLACE_FEATURES + players) * (TABLE_LIMIT - len(places)))


@lru_cache(maxsize=_RECENT)
def _place(card: int, markers: Cards, players: int, seat: int) -> bytes:
    """A table place holding a dish: 1, its dish, room left, its markers per seat from the observer's."""
    counts = [0] * players
    for owner in markers:
        counts[(owner - seat) % players] += 1
    return _DISH_PLACE[card] + _PLACE_TAIL[players].pack(CARD_PORTIONS[card] - len(markers), *counts)


#: A table place's start per dish card (1, the dish one-hot), and its rest (room, markers per seat).
_DISH_PLACE = tuple(
    array("f", [1.0, *[1.0 if dish == other else 0.0 for other in range(DISH_COUNT)]]).tobytes() for dish in CARD_DISH
)
_PLACE_TAIL = {players: Struct(f"<{1 + players}f") for players in range(DIM_SUM_DERBY.min_players, MAX_PLAYERS + 1)}


def _seats(
    supply: Cards,
    lost: Cards,
    yen: tuple[Cards, ...],
    portions: tuple[Cards, ...],
    hands: tuple[Cards, ...],
    over: bool,
    players: int,
    seat: int,
) -> bytes:
    """Every seat's block in turn from the observer; blocks recur (a step changes one seat at most),
    so each is cached by value."""
    return b"".join(
        [
            _seat(supply[other], lost[other], yen[other], portions[other], len(hands[other]), over or other == seat)
            for other in turn_order(players)[seat]
        ]
    )


@lru_cache(maxsize=_RECENT)
def _seat(markers: int, lost: int, yen: Cards, portions: Cards, derby: int, yen_shown: bool) -> bytes:
    """One seat's block; `yen_shown`: the observer sees all of its yen cards (its own, or at the end)."""
    return b"".join(
        (
            _SEAT_HEAD.pack(markers, lost, *portions),
            _yen(yen if yen_shown else public_yen(yen, portions)),
            _DERBY.pack(derby),
        )
    )


@lru_cache(maxsize=_RECENT)
def _yen(shown: tuple[int | None, ...]) -> bytes:
    """A seat's yen cards as the observer sees them: per cart type, the dish among that cart's five
    (a yen card's dish index runs through the carts' dishes in order, 5 per cart), or hidden."""
    out = array("f", bytes(4 * CART_TYPES * (DISHES_PER_CART + 1)))
    for cart_type, card in enumerate(shown):
        out[cart_type * (DISHES_PER_CART + 1) + (DISHES_PER_CART if card is None else card % DISHES_PER_CART)] = 1.0
    return out.tobytes()


#: A seat's markers, lost markers and portions per cart type; its Derby cards.
_SEAT_HEAD = Struct(f"<{2 + CART_TYPES}f")
_DERBY = Struct("<f")
_SCALARS_OF = Struct("<4f")


@lru_cache(maxsize=_RECENT)
def _derby_cards(cards: Cards) -> bytes:
    """Derby cards per kind (the observer's hand, the discarded ones)."""
    out = array("f", bytes(4 * DERBY_KIND_COUNT))
    for card in cards:
        out[DERBY_KIND[card]] += 1.0
    return out.tobytes()


def _peek(peek: Cards) -> bytes:
    """The cards the observer arranges, one-hot dish per place."""
    out = array("f", bytes(4 * PEEK_DEPTH * DISH_COUNT))
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


def _yen_decks(yen_decks: tuple[Cards, ...], arranging: bool) -> bytes:
    """The yen decks' sizes, then 1 while the turn seat arranges."""
    return array("f", (*[len(deck) for deck in yen_decks], 1.0 if arranging else 0.0)).tobytes()


def _tail(
    derby_discard: Cards, dish_discards: tuple[Cards, ...], yen_decks: tuple[Cards, ...], arranging: bool
) -> bytes:
    """The tail after its scalars: discarded Derby cards, scored dishes, yen decks, arranging."""
    return _derby_cards(derby_discard) + _dish_discards(dish_discards) + _yen_decks(yen_decks, arranging)


#: Places of the parts (see `Parts`): the carts, the table, the tail, every seat's block.
_CARTS, _TABLE, _TAIL, _SEATS, _PLACES = range(5)


_PARTS = {players: Parts(_PLACES) for players in range(DIM_SUM_DERBY.min_players, MAX_PLAYERS + 1)}
#: Before the deal: no carts, nothing in any seat.
_EMPTY_SEATS = {players: bytes(4 * SEAT_FEATURES * players) for players in _PARTS}
_CART_BYTES = 4 * SLOT_FEATURES
_NO_CARTS = bytes(SLOTS * _CART_BYTES)
_NO_PEEK = bytes(4 * PEEK_DEPTH * DISH_COUNT)

SPEC = DerbySpec()
