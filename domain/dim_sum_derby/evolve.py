"""Fold one event into the state. Total and trusting: validation lives in decide."""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from domain.dim_sum_derby.cards import ACTIONS_PER_TURN, CARD_CART, MARKERS, rotate_slots
from domain.dim_sum_derby.events import (
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
from domain.dim_sum_derby.state import Cards, DerbyState


def _set(items: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return (*items[:index], value, *items[index + 1 :])


def _without(cards: Cards, card: int) -> Cards:
    index = cards.index(card)
    return cards[:index] + cards[index + 1 :]


def _without_marker(markers: Cards, seat: int) -> Cards:
    """Remove the seat's most recently placed marker."""
    index = len(markers) - 1 - markers[::-1].index(seat)
    return markers[:index] + markers[index + 1 :]


def _add(counts: Cards, seat: int, delta: int) -> Cards:
    return _set(counts, seat, counts[seat] + delta)


def evolve(state: DerbyState, event: Any) -> DerbyState:
    kind = type(event)
    if kind is ActionTaken:
        return replace(state, actions_left=state.actions_left - event.cost)
    if kind is PortionEaten:
        i = state.table.index(event.dish)
        return replace(
            state,
            markers_on=_set(state.markers_on, i, (*state.markers_on[i], event.seat)),
            supply=_add(state.supply, event.seat, -1),
        )
    if kind is CartsRotated:
        return replace(state, slots=rotate_slots(state.slots, event.steps))
    if kind is DishServed:
        return replace(
            state,
            carts=_set(state.carts, event.cart, state.carts[event.cart][1:]),
            table=(*state.table, event.dish),
            markers_on=(*state.markers_on, ()),
        )
    if kind is DishCycled:
        cart = state.carts[event.cart]
        return replace(state, carts=_set(state.carts, event.cart, (*cart[1:], cart[0])))
    if kind is TurnPassed:
        return replace(state, turn_seat=event.seat, actions_left=ACTIONS_PER_TURN, turn=event.turn)
    if kind is DishScored:
        return _score_dish(state, event)
    if kind is CartRefilled:
        return replace(
            state,
            carts=_set(state.carts, event.cart, state.carts[event.cart] + event.cards),
            dish_discards=_set(state.dish_discards, event.cart, ()),
        )
    if kind is DerbyDrawn:
        return replace(
            state,
            derby_deck=state.derby_deck[1:],
            hands=_set(state.hands, event.seat, (*state.hands[event.seat], event.card)),
        )
    if kind is DerbyPlayed or kind is DerbyDiscarded:
        return replace(
            state,
            hands=_set(state.hands, event.seat, _without(state.hands[event.seat], event.card)),
            derby_discard=(*state.derby_discard, event.card),
        )
    if kind is DerbyDeckReshuffled:
        return replace(state, derby_deck=event.cards, derby_discard=())
    if kind is ExtraActions:
        return replace(state, actions_left=state.actions_left + event.count)
    if kind is DishSentBack:
        i = state.table.index(event.dish)
        return replace(
            state,
            table=state.table[:i] + state.table[i + 1 :],
            markers_on=state.markers_on[:i] + state.markers_on[i + 1 :],
            carts=_set(state.carts, event.cart, (*state.carts[event.cart], event.dish)),
        )
    if kind is MarkerMoved:
        i = state.table.index(event.dish)
        j = state.table.index(event.to)
        markers_on = _set(state.markers_on, i, _without_marker(state.markers_on[i], event.seat))
        markers_on = _set(markers_on, j, (*markers_on[j], event.seat))
        return replace(state, markers_on=markers_on)
    if kind is MarkerKnockedOff:
        i = state.table.index(event.dish)
        return replace(
            state,
            markers_on=_set(state.markers_on, i, _without_marker(state.markers_on[i], event.target)),
            lost=_add(state.lost, event.target, 1),
        )
    if kind is KitchenPeeked:
        return replace(state, peek=event.cards)
    if kind is CartArranged:
        cart = state.carts[event.cart]
        return replace(state, carts=_set(state.carts, event.cart, event.cards + cart[len(event.cards) :]), peek=())
    if kind is YenSwapped:
        return replace(
            state,
            yen=_set(state.yen, event.seat, _set(state.yen[event.seat], event.cart, event.new)),
            yen_decks=_set(state.yen_decks, event.cart, (*state.yen_decks[event.cart][1:], event.old)),
        )
    if kind is PlayerFull:
        return replace(state, full=event.seat, over=True)
    if kind is TurnLimitReached:
        return replace(state, over=True)
    if kind is DerbyDealt:
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
    return state


def _score_dish(state: DerbyState, event: DishScored) -> DerbyState:
    i = state.table.index(event.dish)
    cart = CARD_CART[event.dish]
    portions = state.portions
    lost = state.lost
    for seat in event.markers:
        if seat == event.scorer:
            portions = _set(portions, seat, _add(portions[seat], cart, 1))
        else:
            lost = _add(lost, seat, 1)
    return replace(
        state,
        table=state.table[:i] + state.table[i + 1 :],
        markers_on=state.markers_on[:i] + state.markers_on[i + 1 :],
        dish_discards=_set(state.dish_discards, cart, (*state.dish_discards[cart], event.dish)),
        portions=portions,
        lost=lost,
    )
