"""Events of Dim Sum Derby (tag = class name). Chance outcomes are written into them.

Fields marked *hidden* are replaced by ``HIDDEN`` (-1) by ``redact`` for viewers who may not see them;
cards of a cart below its top card are hidden from everybody.
"""

from __future__ import annotations

import typing
from typing import Literal

import msgspec

Cards = tuple[int, ...]


class _Event(msgspec.Struct, frozen=True, tag=True, tag_field="type"):
    pass


class DerbyDealt(_Event, frozen=True):
    """Setup. ``yen`` per seat (hidden but own), ``yen_decks`` rests (hidden), ``carts`` by cart type
    top first (only the tops are public), ``derby_deck`` (hidden)."""

    first_player: int
    yen: tuple[Cards, ...]
    yen_decks: tuple[Cards, ...]
    carts: tuple[Cards, ...]
    derby_deck: Cards


class ActionTaken(_Event, frozen=True):
    """A seat spends ``cost`` of its actions on ``action`` (the command's tag); the effects follow."""

    seat: int
    action: str
    cost: int


class CartsRotated(_Event, frozen=True):
    """Every cart moves one slot: ``steps`` +1 clockwise, -1 counter-clockwise (Lazy Susan)."""

    seat: int
    steps: int


class CartRefilled(_Event, frozen=True):
    """A cart left the Kitchen: its shuffled discards go to its bottom (order hidden). ``flipped`` is the
    new top card when the cart was empty."""

    cart: int
    cards: Cards
    flipped: int | None


class DishServed(_Event, frozen=True):
    seat: int
    cart: int
    dish: int
    flipped: int | None


class DishCycled(_Event, frozen=True):
    seat: int
    cart: int
    dish: int
    flipped: int | None


class PortionEaten(_Event, frozen=True):
    seat: int
    dish: int


class DishScored(_Event, frozen=True):
    """A dish is scored: the markers of ``scorer`` (the holder of its yen card, who flips it) become scored
    portions; every other marker is discarded. The dish goes to its cart's discard pile. ``final``: scored
    as if complete at the end of the game."""

    dish: int
    markers: Cards
    scorer: int | None
    final: bool


class DerbyDeckReshuffled(_Event, frozen=True):
    """The Derby deck ran out: its discard pile, shuffled, is the new deck (order hidden)."""

    cards: Cards


class DerbyDrawn(_Event, frozen=True):
    seat: int
    card: int  # hidden but to the drawer


class DerbyDiscarded(_Event, frozen=True):
    seat: int
    card: int


class DerbyPlayed(_Event, frozen=True):
    seat: int
    card: int


class ExtraActions(_Event, frozen=True):
    seat: int
    count: int


class DishSentBack(_Event, frozen=True):
    seat: int
    dish: int
    cart: int
    flipped: int | None


class MarkerMoved(_Event, frozen=True):
    seat: int
    dish: int
    to: int


class KitchenPeeked(_Event, frozen=True):
    """The top cards of the seat's cart, seen by that seat only (the top card is public anyway)."""

    seat: int
    cart: int
    cards: Cards


class CartArranged(_Event, frozen=True):
    """The peeked cards put back, new top first (only the new top card is public)."""

    seat: int
    cart: int
    cards: Cards


class YenSwapped(_Event, frozen=True):
    """Change of Heart: ``old`` goes to the bottom of yen deck ``cart``, its top card ``new`` to the seat."""

    seat: int
    cart: int
    old: int  # hidden but to the seat
    new: int  # hidden but to the seat


class MarkerKnockedOff(_Event, frozen=True):
    seat: int
    target: int
    dish: int


class PlayerFull(_Event, frozen=True):
    seat: int
    reason: Literal["last-marker", "all-yen"]


class TurnLimitReached(_Event, frozen=True):
    turn: int


class TurnPassed(_Event, frozen=True):
    seat: int
    turn: int


#: Every event of the game, as one type.
DerbyEvent = (
    DerbyDealt
    | ActionTaken
    | CartsRotated
    | CartRefilled
    | DishServed
    | DishCycled
    | PortionEaten
    | DishScored
    | DerbyDeckReshuffled
    | DerbyDrawn
    | DerbyDiscarded
    | DerbyPlayed
    | ExtraActions
    | DishSentBack
    | MarkerMoved
    | KitchenPeeked
    | CartArranged
    | YenSwapped
    | MarkerKnockedOff
    | PlayerFull
    | TurnLimitReached
    | TurnPassed
)
EVENT_TYPES: tuple[type[msgspec.Struct], ...] = typing.get_args(DerbyEvent)
