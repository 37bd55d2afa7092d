"""The game's events (tag = class name). Only `BasketsFilled` carries hidden information."""

from __future__ import annotations

import typing
from typing import Literal

import msgspec


class BasketsFilled(msgspec.Struct, frozen=True, tag=True, tag_field="type"):
    """Setup: the shuffled piles, one per basket, top card first (`piles` is hidden while the game runs:
    redacted to None for every viewer, who see only `tops` and `sizes`)."""

    piles: tuple[tuple[int, ...], ...] | None
    tops: tuple[int | None, ...]
    sizes: tuple[int, ...]


class SquishyBunReturned(msgspec.Struct, frozen=True, tag=True, tag_field="type"):
    """The holder returns the squishy bun to the middle to rotate for free."""

    seat: int


class TableRotated(msgspec.Struct, frozen=True, tag=True, tag_field="type"):
    """The table turned by `steps` (the basket at `front + steps` now faces the seat); `paid` lists the
    baskets that received one of the seat's chopsticks tokens, in order. `how` says why it was free or paid:
    `tokens`, `squishy-bun`, or `empty-basket` (the forced free rotation of the house rule)."""

    seat: int
    steps: int
    paid: tuple[int, ...]
    how: Literal["tokens", "squishy-bun", "empty-basket"]


class DimSumTaken(msgspec.Struct, frozen=True, tag=True, tag_field="type"):
    """The seat took the top card of `basket` and its `tokens`; `revealed` is the card that surfaces
    (None when the basket is now empty). Ends the turn."""

    seat: int
    basket: int
    card: int
    tokens: int
    revealed: int | None


class SquishyBunTaken(msgspec.Struct, frozen=True, tag=True, tag_field="type"):
    """A steamed bun was taken: the seat takes the squishy bun (from the middle when `from_seat` is None)."""

    seat: int
    from_seat: int | None


Event = BasketsFilled | SquishyBunReturned | TableRotated | DimSumTaken | SquishyBunTaken
#: Every event of the game, as one type.
SpinEvent = BasketsFilled | SquishyBunReturned | TableRotated | DimSumTaken | SquishyBunTaken
EVENT_TYPES: tuple[type[msgspec.Struct], ...] = typing.get_args(SpinEvent)
