"""What each seat may see: views of the state and redacted events.

Hidden: each seat's unflipped yen cards and Derby hand (seen by their owner only), the cards of every
cart below its top card, the yen decks and the Derby deck (seen by nobody). A yen card is public once it
holds a portion (flipped) or the game is over.
"""

from __future__ import annotations

from functools import cache
from typing import Annotated, Any

import msgspec
from msgspec import UNSET
from msgspec.structs import replace

from kaiten.domain.dim_sum_derby.cards import (
    CARD_DISH,
    CARD_PORTIONS,
    CART_SLUGS,
    DISHES,
    HIDDEN,
    SLOTS,
    seat_at,
    turn_limit,
)
from kaiten.domain.dim_sum_derby.events import (
    CartArranged,
    CartRefilled,
    DerbyDealt,
    DerbyDeckReshuffled,
    DerbyDrawn,
    KitchenPeeked,
    YenSwapped,
)
from kaiten.domain.dim_sum_derby.state import Cards, DerbyState

#: The three decks of the game's cards (data.py): dish cards, yen cards (one per dish) and Derby cards.
DishCard = Annotated[int, msgspec.Meta(extra={"deck": "dishes"})]
YenCard = Annotated[int, msgspec.Meta(extra={"deck": "yen"})]
DerbyCard = Annotated[int, msgspec.Meta(extra={"deck": "derby"})]


class CartView(msgspec.Struct, frozen=True):
    """A cart at ``slot`` (clockwise from the first player), in front of ``seat`` (None: the Kitchen)."""

    cart: int
    name: str
    slot: int
    seat: int | None
    top: DishCard | None
    size: int


class DishView(msgspec.Struct, frozen=True):
    card: DishCard
    dish: str
    portions: int
    markers: tuple[int, ...]


class SeatView(msgspec.Struct, frozen=True):
    """``yen``: the yen card (dish index) per cart type, None while hidden from this viewer;
    ``portions``: scored portions per yen card; ``markers``: left in supply; ``lost``: discarded."""

    seat: int
    markers: int
    lost: int
    portions: tuple[int, ...]
    yen: tuple[YenCard | None, ...]
    derby: int


class DerbyView(msgspec.Struct, frozen=True):
    viewer: int | None
    players: int
    first_player: int
    turn: int
    turn_limit: int
    turn_seat: int
    actions_left: int
    carts: tuple[CartView, ...]
    table: tuple[DishView, ...]
    seats: tuple[SeatView, ...]
    #: The viewer's Derby cards.
    hand: tuple[DerbyCard, ...]
    #: The cards the viewer is arranging after Peek in the Kitchen (top first), else ().
    peek: tuple[DishCard, ...]
    arranging: bool
    dish_discards: tuple[tuple[DishCard, ...], ...]
    derby_deck: int
    derby_discard: tuple[DerbyCard, ...]
    yen_decks: tuple[int, ...]
    over: bool
    full: int | None
    #: The rules version the game plays under (where the Kitchen sits depends on it).
    rules_version: int = 1


_SLUGS = tuple(DISHES[d].slug for d in CARD_DISH)
_NO_YEN = (None, None, None, None)


def view(state: DerbyState, seat: int | None) -> DerbyView:
    players = state.players
    carts: tuple[CartView, ...] = ()
    if state.dealt:
        at = seats_at(state.first_player, players, state.kitchen_left)
        all_carts = state.carts
        carts = tuple(
            [
                CartView(
                    cart=cart,
                    name=CART_SLUGS[cart],
                    slot=slot,
                    seat=at[slot],
                    top=all_carts[cart][0] if all_carts[cart] else None,
                    size=len(all_carts[cart]),
                )
                for slot, cart in enumerate(state.slots)
            ]
        )
    table = tuple(
        [
            DishView(card=dish, dish=_SLUGS[dish], portions=CARD_PORTIONS[dish], markers=markers)
            for dish, markers in zip(state.table, state.markers_on, strict=True)
        ]
    )
    hands = state.hands
    seats = tuple(
        [
            SeatView(
                seat=s,
                markers=state.supply[s],
                lost=state.lost[s],
                portions=state.portions[s],
                yen=_visible_yen(state, s, seat),
                derby=len(hands[s]),
            )
            for s in range(len(state.yen))
        ]
    )
    arranging = bool(state.peek)
    return DerbyView(
        viewer=seat,
        players=players,
        first_player=state.first_player,
        turn=state.turn,
        turn_limit=turn_limit(players),
        turn_seat=state.turn_seat,
        actions_left=state.actions_left,
        carts=carts,
        table=table,
        seats=seats,
        hand=hands[seat] if seat is not None and 0 <= seat < len(hands) else (),
        peek=state.peek if arranging and seat == state.turn_seat else (),
        arranging=arranging,
        dish_discards=state.dish_discards,
        derby_deck=len(state.derby_deck),
        derby_discard=state.derby_discard,
        yen_decks=tuple([len(deck) for deck in state.yen_decks]),
        over=state.over,
        full=state.full,
        rules_version=1 if state.rules_version is UNSET else state.rules_version,
    )


@cache
def seats_at(first_player: int, players: int, kitchen_left: bool) -> tuple[int | None, ...]:
    """The seat in front of each slot (None: the Kitchen)."""
    return tuple(seat_at(slot, first_player, players, kitchen_left) for slot in range(SLOTS))


def _visible_yen(state: DerbyState, owner: int, viewer: int | None) -> tuple[int | None, ...]:
    yen = state.yen[owner]
    if owner == viewer or state.over:
        return yen
    return public_yen(yen, state.portions[owner])


def public_yen(yen: Cards, portions: Cards) -> tuple[int | None, ...]:
    """A seat's yen cards as the others see them while the game is on: those that hold a portion
    (flipped), None for the rest."""
    if not any(portions):
        return _NO_YEN
    return tuple(card if portions[cart] else None for cart, card in enumerate(yen))


def _hidden(cards: Cards) -> Cards:
    return (HIDDEN,) * len(cards)


def _top_only(cards: Cards) -> Cards:
    return cards[:1] + (HIDDEN,) * (len(cards) - 1)


def redact(event: Any, seat: int | None) -> Any | None:
    kind = type(event)
    if kind is DerbyDealt:
        return replace(
            event,
            yen=tuple(yen if s == seat else _hidden(yen) for s, yen in enumerate(event.yen)),
            yen_decks=tuple(_hidden(deck) for deck in event.yen_decks),
            carts=tuple(_top_only(cart) for cart in event.carts),
            derby_deck=_hidden(event.derby_deck),
        )
    if kind is CartRefilled or kind is DerbyDeckReshuffled:
        return replace(event, cards=_hidden(event.cards))
    if kind is DerbyDrawn:
        return event if event.seat == seat else replace(event, card=HIDDEN)
    if kind is KitchenPeeked or kind is CartArranged:
        return event if event.seat == seat else replace(event, cards=_top_only(event.cards))
    if kind is YenSwapped:
        return event if event.seat == seat else replace(event, old=HIDDEN, new=HIDDEN)
    return event
