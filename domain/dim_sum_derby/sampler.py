"""Determinizations for the search bots (`domain.mcts`): full Dim Sum Derby states consistent with a view.

A seat cannot see the cards of a cart below its top, the other seats' unflipped yen cards and Derby
hands, nor the yen decks and the Derby deck. Each is dealt uniformly from what the seat has not seen:
- a cart's hidden cards are its type's dishes that are not on the table, in the Kitchen's discards or on
  its top (while the seat arranges the cards it peeked at, those stay on top in the order it sees);
- per cart type, the yen cards nobody has shown go to the seats hiding one and to that yen deck;
- the Derby cards neither in the seat's hand nor discarded go to the other hands and the Derby deck.

The view does not keep what a seat saw earlier and has since lost sight of (a dish cycled to the bottom
of its cart, cards it peeked at and put back, the yen card it swapped away); those are dealt as unseen.
"""

from __future__ import annotations

from collections.abc import Hashable

import msgspec
from msgspec import UNSET

from kaiten.domain.chance import Chance
from kaiten.domain.dim_sum_derby.cards import CART_DECKS, CART_TYPES, DERBY_CARDS, PEEK_DEPTH, YEN_DECKS, slot_of
from kaiten.domain.dim_sum_derby.commands import DerbyCommand
from kaiten.domain.dim_sum_derby.state import Cards, DerbyState
from kaiten.domain.dim_sum_derby.view import DerbyView


def seat(view: DerbyView) -> int:
    assert view.viewer is not None, "a spectator has no seat to search for"
    return view.viewer


def sample(view: DerbyView, chance: Chance) -> DerbyState:
    own = seat(view)
    carts = _carts(view, chance)
    slots = tuple([cart.cart for cart in sorted(view.carts, key=lambda cart: cart.slot)])
    yen, yen_decks = _yen(view, chance)
    hands, derby_deck = _derby(view, own, chance)
    state = DerbyState(
        players=view.players,
        first_player=view.first_player,
        carts=carts,
        slots=slots,
        dish_discards=view.dish_discards,
        table=tuple([dish.card for dish in view.table]),
        markers_on=tuple([dish.markers for dish in view.table]),
        supply=tuple([player.markers for player in view.seats]),
        lost=tuple([player.lost for player in view.seats]),
        yen=yen,
        portions=tuple([player.portions for player in view.seats]),
        yen_decks=yen_decks,
        derby_deck=derby_deck,
        derby_discard=view.derby_discard,
        hands=hands,
        turn_seat=view.turn_seat,
        actions_left=view.actions_left,
        turn=view.turn,
        peek=view.peek,
        full=view.full,
        over=view.over,
        dealt=True,
        rules_version=UNSET if view.rules_version == 1 else view.rules_version,
    )
    if view.arranging and not view.peek:
        # Another seat arranges the top cards of the cart in front of it.
        slot = slot_of(view.turn_seat, view.first_player, view.players, state.kitchen_left)
        state = msgspec.structs.replace(state, peek=carts[slots[slot]][:PEEK_DEPTH])
    return state


def _carts(view: DerbyView, chance: Chance) -> tuple[Cards, ...]:
    """Each cart type's deck, top first: the visible top (or peeked cards), then the rest shuffled."""
    out: list[Cards] = [()] * CART_TYPES
    on_table = {dish.card for dish in view.table}
    for cart in view.carts:
        if cart.top is None:
            continue
        shown: Cards = view.peek if view.peek and cart.seat == view.viewer else (cart.top,)
        gone = on_table.union(view.dish_discards[cart.cart], shown)
        hidden = [card for card in CART_DECKS[cart.cart] if card not in gone]
        hidden = chance.shuffled(hidden)
        out[cart.cart] = (*shown, *hidden)
    return tuple(out)


def _yen(view: DerbyView, chance: Chance) -> tuple[tuple[Cards, ...], tuple[Cards, ...]]:
    """Every seat's yen cards and the yen decks: the cards nobody has shown, dealt per cart type."""
    yen = [list(player.yen) for player in view.seats]
    decks: list[Cards] = []
    for cart in range(CART_TYPES):
        shown = {cards[cart] for cards in yen if cards[cart] is not None}
        hidden = [card for card in YEN_DECKS[cart] if card not in shown]
        hidden = chance.shuffled(hidden)
        for cards in yen:
            if cards[cart] is None:
                cards[cart] = hidden.pop()
        decks.append(tuple(hidden))
    return tuple([tuple([card for card in cards if card is not None]) for cards in yen]), tuple(decks)


def _derby(view: DerbyView, own: int, chance: Chance) -> tuple[tuple[Cards, ...], Cards]:
    """Every seat's Derby hand and the Derby deck: the cards neither in the seat's hand nor discarded."""
    gone = {*view.hand, *view.derby_discard}
    hidden = [card for card in range(DERBY_CARDS) if card not in gone]
    hidden = chance.shuffled(hidden)
    hands: list[Cards] = []
    for player in view.seats:
        if player.seat == own:
            hands.append(view.hand)
        else:
            hands.append(tuple([hidden.pop() for _ in range(player.derby)]))
    return tuple(hands), tuple(hidden)


def move_key(command: DerbyCommand) -> Hashable:
    """Commands name dish cards on the table and Derby cards in hand: each is a move of its own."""
    return command
