"""Every command the seat may send now (each complete). The sets are small: at most 5 dishes, 4 seats,
2 Derby cards and 6 arrangements, so nothing needs bounding."""

from __future__ import annotations

from itertools import permutations
from typing import Any

from kaiten.domain.dim_sum_derby.cards import (
    CHANGE_OF_HEART,
    DERBY_HAND_LIMIT,
    DERBY_KIND,
    DOUBLE_HELPING,
    DRAW_DERBY_COST,
    PEEK,
    SEND_IT_BACK,
    SHARP_ELBOWS,
    SWITCH_PLATES,
    TABLE_LIMIT,
)
from kaiten.domain.dim_sum_derby.commands import (
    Arrange,
    Cycle,
    DiscardDerby,
    DrawDerby,
    Eat,
    PlayDerby,
    Rotate,
    Serve,
)
from kaiten.domain.dim_sum_derby.decide import front_cart, room
from kaiten.domain.dim_sum_derby.state import DerbyState

_ROTATE = Rotate()
_SERVE = Serve()
_CYCLE = Cycle()
_DRAW = DrawDerby()


def legal_commands(state: DerbyState, seat: int) -> list[Any]:
    if not state.dealt or state.over or seat != state.turn_seat:
        return []
    if state.peek:
        return [Arrange(cards=order) for order in permutations(state.peek)]
    commands: list[Any] = [_ROTATE]
    cart_cards = state.carts[front_cart(state, seat)]
    if cart_cards:
        if len(state.table) < TABLE_LIMIT:
            commands.append(_SERVE)
        commands.append(_CYCLE)
    supply = state.supply[seat]
    rooms = [room(state, i) for i in range(len(state.table))]
    if supply > 0:
        commands.extend(Eat(dish=dish) for dish, r in zip(state.table, rooms, strict=True) if r > 0)
    hand = state.hands[seat]
    if (
        len(hand) < DERBY_HAND_LIMIT
        and state.actions_left >= DRAW_DERBY_COST
        and (state.derby_deck or state.derby_discard)
    ):
        commands.append(_DRAW)
    for card in hand:
        commands.extend(_derby_plays(state, seat, card, rooms, bool(cart_cards)))
        commands.append(DiscardDerby(card=card))
    return commands


def _derby_plays(state: DerbyState, seat: int, card: int, rooms: list[int], cart: bool) -> list[PlayDerby]:
    kind = DERBY_KIND[card]
    table = state.table
    if kind == DOUBLE_HELPING:
        if state.supply[seat] < 2:
            return []
        return [PlayDerby(card=card, dish=dish) for dish, r in zip(table, rooms, strict=True) if r >= 2]
    if kind == SEND_IT_BACK:
        return [PlayDerby(card=card, dish=dish) for dish, m in zip(table, state.markers_on, strict=True) if not m]
    if kind == SWITCH_PLATES:
        return [
            PlayDerby(card=card, dish=dish, to=to)
            for dish, markers in zip(table, state.markers_on, strict=True)
            if seat in markers
            for to, r in zip(table, rooms, strict=True)
            if to != dish and r > 0
        ]
    if kind == PEEK:
        return [PlayDerby(card=card)] if cart else []
    if kind == CHANGE_OF_HEART:
        return [
            PlayDerby(card=card, yen=yen)
            for cart_type, yen in enumerate(state.yen[seat])
            if not state.portions[seat][cart_type] and state.yen_decks[cart_type]
        ]
    if kind == SHARP_ELBOWS:
        return [
            PlayDerby(card=card, dish=dish, target=target)
            for dish, markers in zip(table, state.markers_on, strict=True)
            for target in sorted(set(markers))
            if target != seat
        ]
    return [PlayDerby(card=card)]  # lazy-susan, extra-hungry
