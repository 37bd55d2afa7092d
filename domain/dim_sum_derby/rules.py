"""The numbers of the rules and the geometry of the carts around the table.

Positions ("slots") are counted clockwise from the first player: slot ``i`` is in front of seat
``(first_player + i) % players``. There are always 4 carts and 4 slots: with 4 players every slot is a
seat and the Kitchen lies between slot 3 (the last seat) and slot 0 (the first seat); with 3 players
slot 3 *is* the Kitchen, where the parked cart waits. Either way a cart that moves clockwise from slot 3
to slot 0 leaves (or passes through) the Kitchen and is replenished. Counter-clockwise (Lazy Susan) the
cart that leaves the Kitchen is the one moving 3 -> 2 with 3 players, 0 -> 3 with 4 players.

**Termination (decided)**: the rules let a table of players stall (nobody has to eat). A game also ends
after ``ROUND_LIMIT`` rounds: when the turn that would start is turn ``ROUND_LIMIT * players + 1``, play
stops exactly as if a player had announced they were full (partly eaten dishes are scored, then the
normal final scoring). This bounds every game to ``ROUND_LIMIT * players`` turns.
"""

from __future__ import annotations

from typing import Final

MARKERS: Final = 10
ACTIONS_PER_TURN: Final = 3
TABLE_LIMIT: Final = 5
DERBY_HAND_LIMIT: Final = 2
DRAW_DERBY_COST: Final = 2
EXTRA_HUNGRY_ACTIONS: Final = 2
PEEK_DEPTH: Final = 3
SLOTS: Final = 4
KITCHEN_EXIT_CW: Final = 3  # the slot a cart leaves the Kitchen from, clockwise (3 -> 0)
ROUND_LIMIT: Final = 60
#: Face-down card placeholder in redacted events.
HIDDEN: Final = -1


def turn_limit(players: int) -> int:
    return ROUND_LIMIT * players


def slot_of(seat: int, first_player: int, players: int) -> int:
    return (seat - first_player) % players


def seat_at(slot: int, first_player: int, players: int) -> int | None:
    """The seat in front of a slot, or None for the Kitchen (slot 3 with 3 players)."""
    return None if slot >= players else (first_player + slot) % players


def rotate_slots(slots: tuple[int, ...], steps: int) -> tuple[int, ...]:
    """Carts by slot after moving ``steps`` (+1 clockwise, -1 counter-clockwise)."""
    return slots[-1:] + slots[:-1] if steps > 0 else slots[1:] + slots[:1]


def leaving_kitchen(slots: tuple[int, ...], steps: int, players: int) -> int:
    """The cart type that leaves (or passes through) the Kitchen on this rotation."""
    if steps > 0:
        return slots[KITCHEN_EXIT_CW]
    return slots[3] if players == 3 else slots[0]
