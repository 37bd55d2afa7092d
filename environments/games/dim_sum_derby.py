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

from collections.abc import Hashable, Sequence
from itertools import permutations
from typing import Any

from kaiten.domain.dim_sum_derby.cards import (
    CARD_DISH,
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
    turn_limit,
)
from kaiten.domain.dim_sum_derby.commands import Arrange, Cycle, DiscardDerby, DrawDerby, Eat, PlayDerby, Rotate, Serve
from kaiten.domain.dim_sum_derby.game import DIM_SUM_DERBY
from kaiten.domain.dim_sum_derby.state import DerbyState
from kaiten.environments.games.dim_sum_derby_observer import (
    DERBY_KIND_COUNT,
    PLACE_FEATURES,
    DerbyObserver,
)
from kaiten.environments.render import scores_line
from kaiten.environments.spec import ActionTable, Observer

MAX_PLAYERS = DIM_SUM_DERBY.max_players
PLACES = range(TABLE_LIMIT)
ARRANGEMENTS: tuple[tuple[int, ...], ...] = tuple(permutations(range(PEEK_DEPTH)))
#: A cart slot: cart type, top dish, cards, Kitchen. A table place (before the markers per seat):
#: present, dish, room. A seat: markers, lost, portions per cart, yen per cart (5 dishes + hidden),
#: Derby cards. The tail: actions left, turn, turn limit, Derby deck, discarded Derby cards per kind,
#: scored dishes per dish, yen deck sizes, arranging.
SLOT_FEATURES = CART_TYPES + len(DISHES) + 2
SEAT_FEATURES = 2 + CART_TYPES + CART_TYPES * (DISHES_PER_CART + 1) + 1
TAIL_FEATURES = 4 + len(DERBY_KINDS) + len(DISHES) + CART_TYPES + 1


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
        places = TABLE_LIMIT * (PLACE_FEATURES + players)
        hand_and_peek = len(DERBY_KINDS) + PEEK_DEPTH * len(DISHES)
        return SLOTS * SLOT_FEATURES + places + players * SEAT_FEATURES + hand_and_peek + TAIL_FEATURES

    def observer(self, players: int) -> Observer:
        return DerbyObserver(players)

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


SPEC = DerbySpec()
