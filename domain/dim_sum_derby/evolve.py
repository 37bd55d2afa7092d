"""`evolve`: one event applied to the state by the handler of its type. Total and trusting:
validation lives in decide."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from msgspec.structs import replace

from kaiten.domain.dim_sum_derby.cards import ACTIONS_PER_TURN, CARD_CART, MARKERS, rotate_slots
from kaiten.domain.dim_sum_derby.events import (
    ActionTaken,
    CartArranged,
    CartRefilled,
    CartsRotated,
    DerbyDealt,
    DerbyDeckReshuffled,
    DerbyDiscarded,
    DerbyDrawn,
    DerbyPlayed,
    DishCycled,
    DishScored,
    DishSentBack,
    DishServed,
    ExtraActions,
    KitchenPeeked,
    MarkerKnockedOff,
    MarkerMoved,
    PlayerFull,
    PortionEaten,
    TurnLimitReached,
    TurnPassed,
    YenSwapped,
)
from kaiten.domain.dim_sum_derby.state import Cards, DerbyState
from kaiten.domain.engine import evolver
from kaiten.domain.tuples import added, appended, removed_at, replaced, without


def _without_marker(markers: Cards, seat: int) -> Cards:
    """Remove the seat's most recently placed marker."""
    return removed_at(markers, len(markers) - 1 - markers[::-1].index(seat))


def _action_taken(state: DerbyState, event: ActionTaken) -> DerbyState:
    return replace(state, actions_left=state.actions_left - event.cost)


def _portion_eaten(state: DerbyState, event: PortionEaten) -> DerbyState:
    return replace(
        state,
        markers_on=appended(state.markers_on, state.table.index(event.dish), event.seat),
        supply=added(state.supply, event.seat, -1),
    )


def _carts_rotated(state: DerbyState, event: CartsRotated) -> DerbyState:
    return replace(state, slots=rotate_slots(state.slots, event.steps))


def _dish_served(state: DerbyState, event: DishServed) -> DerbyState:
    return replace(
        state,
        carts=replaced(state.carts, event.cart, state.carts[event.cart][1:]),
        table=(*state.table, event.dish),
        markers_on=(*state.markers_on, ()),
    )


def _dish_cycled(state: DerbyState, event: DishCycled) -> DerbyState:
    cart = state.carts[event.cart]
    return replace(state, carts=replaced(state.carts, event.cart, (*cart[1:], cart[0])))


def _turn_passed(state: DerbyState, event: TurnPassed) -> DerbyState:
    return replace(state, turn_seat=event.seat, actions_left=ACTIONS_PER_TURN, turn=event.turn)


def _cart_refilled(state: DerbyState, event: CartRefilled) -> DerbyState:
    return replace(
        state,
        carts=replaced(state.carts, event.cart, state.carts[event.cart] + event.cards),
        dish_discards=replaced(state.dish_discards, event.cart, ()),
    )


def _derby_drawn(state: DerbyState, event: DerbyDrawn) -> DerbyState:
    return replace(state, derby_deck=state.derby_deck[1:], hands=appended(state.hands, event.seat, event.card))


def _derby_left_hand(state: DerbyState, event: DerbyPlayed | DerbyDiscarded) -> DerbyState:
    """A Derby card played or discarded: out of the hand, onto the discard."""
    return replace(
        state,
        hands=replaced(state.hands, event.seat, without(state.hands[event.seat], event.card)),
        derby_discard=(*state.derby_discard, event.card),
    )


def _derby_deck_reshuffled(state: DerbyState, event: DerbyDeckReshuffled) -> DerbyState:
    return replace(state, derby_deck=event.cards, derby_discard=())


def _extra_actions(state: DerbyState, event: ExtraActions) -> DerbyState:
    return replace(state, actions_left=state.actions_left + event.count)


def _dish_sent_back(state: DerbyState, event: DishSentBack) -> DerbyState:
    i = state.table.index(event.dish)
    return replace(
        state,
        table=removed_at(state.table, i),
        markers_on=removed_at(state.markers_on, i),
        carts=appended(state.carts, event.cart, event.dish),
    )


def _marker_moved(state: DerbyState, event: MarkerMoved) -> DerbyState:
    i = state.table.index(event.dish)
    j = state.table.index(event.to)
    markers_on = replaced(state.markers_on, i, _without_marker(state.markers_on[i], event.seat))
    return replace(state, markers_on=appended(markers_on, j, event.seat))


def _marker_knocked_off(state: DerbyState, event: MarkerKnockedOff) -> DerbyState:
    i = state.table.index(event.dish)
    return replace(
        state,
        markers_on=replaced(state.markers_on, i, _without_marker(state.markers_on[i], event.target)),
        lost=added(state.lost, event.target, 1),
    )


def _kitchen_peeked(state: DerbyState, event: KitchenPeeked) -> DerbyState:
    return replace(state, peek=event.cards)


def _cart_arranged(state: DerbyState, event: CartArranged) -> DerbyState:
    cart = state.carts[event.cart]
    return replace(state, carts=replaced(state.carts, event.cart, event.cards + cart[len(event.cards) :]), peek=())


def _yen_swapped(state: DerbyState, event: YenSwapped) -> DerbyState:
    return replace(
        state,
        yen=replaced(state.yen, event.seat, replaced(state.yen[event.seat], event.cart, event.new)),
        yen_decks=replaced(state.yen_decks, event.cart, (*state.yen_decks[event.cart][1:], event.old)),
    )


def _player_full(state: DerbyState, event: PlayerFull) -> DerbyState:
    return replace(state, full=event.seat, over=True)


def _turn_limit_reached(state: DerbyState, event: TurnLimitReached) -> DerbyState:
    return replace(state, over=True)


def _derby_dealt(state: DerbyState, event: DerbyDealt) -> DerbyState:
    players = len(event.yen)
    return replace(
        state,
        players=players,
        first_player=event.first_player,
        carts=event.carts,
        yen=event.yen,
        yen_decks=event.yen_decks,
        derby_deck=event.derby_deck,
        supply=(MARKERS,) * players,
        lost=(0,) * players,
        portions=((0, 0, 0, 0),) * players,
        hands=((),) * players,
        turn_seat=event.first_player,
        actions_left=ACTIONS_PER_TURN,
        turn=1,
        dealt=True,
    )


def _score_dish(state: DerbyState, event: DishScored) -> DerbyState:
    i = state.table.index(event.dish)
    cart = CARD_CART[event.dish]
    portions = state.portions
    lost = state.lost
    for seat in event.markers:
        if seat == event.scorer:
            portions = replaced(portions, seat, added(portions[seat], cart, 1))
        else:
            lost = added(lost, seat, 1)
    return replace(
        state,
        table=removed_at(state.table, i),
        markers_on=removed_at(state.markers_on, i),
        dish_discards=appended(state.dish_discards, cart, event.dish),
        portions=portions,
        lost=lost,
    )


_HANDLERS: dict[type, Callable[[DerbyState, Any], DerbyState]] = {
    ActionTaken: _action_taken,
    PortionEaten: _portion_eaten,
    CartsRotated: _carts_rotated,
    DishServed: _dish_served,
    DishCycled: _dish_cycled,
    TurnPassed: _turn_passed,
    DishScored: _score_dish,
    CartRefilled: _cart_refilled,
    DerbyDrawn: _derby_drawn,
    DerbyPlayed: _derby_left_hand,
    DerbyDiscarded: _derby_left_hand,
    DerbyDeckReshuffled: _derby_deck_reshuffled,
    ExtraActions: _extra_actions,
    DishSentBack: _dish_sent_back,
    MarkerMoved: _marker_moved,
    MarkerKnockedOff: _marker_knocked_off,
    KitchenPeeked: _kitchen_peeked,
    CartArranged: _cart_arranged,
    YenSwapped: _yen_swapped,
    PlayerFull: _player_full,
    TurnLimitReached: _turn_limit_reached,
    DerbyDealt: _derby_dealt,
}
evolve = evolver(_HANDLERS)
