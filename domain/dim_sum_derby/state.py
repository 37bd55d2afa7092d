"""The full (unredacted) state of a Dim Sum Derby game."""

from __future__ import annotations

import msgspec
from msgspec import UNSET, UnsetType

from kaiten.domain.dim_sum_derby.cards import ACTIONS_PER_TURN

Cards = tuple[int, ...]


class DerbyState(msgspec.Struct, frozen=True):
    players: int
    first_player: int = 0
    #: Cart decks by cart type, top card first (the top card is face up).
    carts: tuple[Cards, ...] = ()
    #: The cart type at each slot (see cards.py for slots and the Kitchen).
    slots: Cards = (0, 1, 2, 3)
    #: Scored dishes waiting in the Kitchen, by cart type (public).
    dish_discards: tuple[Cards, ...] = ((), (), (), ())
    #: Dishes on the table in the order they were served, and the seats of the markers on each.
    table: Cards = ()
    markers_on: tuple[Cards, ...] = ()
    #: Per seat: markers in supply, markers discarded (lost), yen card per cart type, portions per yen.
    supply: Cards = ()
    lost: Cards = ()
    yen: tuple[Cards, ...] = ()
    portions: tuple[Cards, ...] = ()
    #: The face-down rest of each yen deck, top first.
    yen_decks: tuple[Cards, ...] = ()
    derby_deck: Cards = ()
    derby_discard: Cards = ()
    hands: tuple[Cards, ...] = ()
    turn_seat: int = 0
    actions_left: int = ACTIONS_PER_TURN
    #: Number of the turn being played (1-based).
    turn: int = 1
    #: Cards of the cart in front of the turn seat being rearranged (Peek in the Kitchen), else ().
    peek: Cards = ()
    #: The seat that announced it is full, if any; `over` also covers the turn limit.
    full: int | None = None
    over: bool = False
    dealt: bool = False
    #: The rules version, left unset for version 1 (whose states show exactly as kaiten 0.1.0's did).
    rules_version: int | UnsetType = UNSET

    @property
    def kitchen_left(self) -> bool:
        """Rules version 2 on: the Kitchen sits on the first player's left (cards.py, `Layout`)."""
        return self.rules_version is not UNSET
