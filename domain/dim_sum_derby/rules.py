"""The numbers of the rules and the geometry of the carts around the table.

Positions ("slots") are counted clockwise from the first player's: slot 0 is in front of the first
player. There are always 4 carts and 4 slots; with 4 players every slot is a seat, with 3 players one
slot *is* the Kitchen, where the parked cart waits. A cart that leaves (or passes through) the Kitchen
is replenished. Where the Kitchen sits is the one thing the rules versions change here (`Layout`):

- **version 1** (kaiten 0.1.0): between the last seat and the first player, on the first player's
  right: slots are the seats in turn order (3 players: then the Kitchen, slot 3); a cart moving
  clockwise from slot 3 to slot 0 leaves it (counter-clockwise: 3 -> 2 with 3 players, 0 -> 3 with 4).
- **version 2** (seed 004: "directly to the left of the first player"): between the first player and
  the second (the next seat clockwise): 3 players: first player, Kitchen, second, third (slots 0-3); a
  cart moving clockwise from slot 0 to slot 1 (4 players) or from the Kitchen, slot 1, to slot 2 (3
  players) leaves it, and `lazy-susan` mirrors it (1 -> 0 either way).

**Termination (decided)**: the rules let a table of players stall (nobody has to eat). A game also ends
after ``ROUND_LIMIT`` rounds: when the turn that would start is turn ``ROUND_LIMIT * players + 1``, play
stops exactly as if a player had announced they were full (partly eaten dishes are scored, then the
normal final scoring). This bounds every game to ``ROUND_LIMIT * players`` turns.
"""

from __future__ import annotations

from functools import cache
from typing import Final, NamedTuple

MARKERS: Final = 10
ACTIONS_PER_TURN: Final = 3
TABLE_LIMIT: Final = 5
DERBY_HAND_LIMIT: Final = 2
DRAW_DERBY_COST: Final = 2
EXTRA_HUNGRY_ACTIONS: Final = 2
PEEK_DEPTH: Final = 3
SLOTS: Final = 4
ROUND_LIMIT: Final = 60
#: Face-down card placeholder in redacted events.
HIDDEN: Final = -1


def turn_limit(players: int) -> int:
    return ROUND_LIMIT * players


class Layout(NamedTuple):
    """Where the Kitchen sits among the slots."""

    #: Per slot, the seat in front of it counted from the first player (0: the first player), None
    #: for the Kitchen.
    seats: tuple[int | None, ...]
    #: The slot whose cart leaves (or passes through) the Kitchen moving clockwise, and counter-clockwise.
    exit_cw: int
    exit_ccw: int


@cache
def layout(players: int, kitchen_left: bool) -> Layout:
    """Version 1 puts the Kitchen on the first player's right, version 2 on their left."""
    if kitchen_left:
        if players == 3:
            return Layout(seats=(0, None, 1, 2), exit_cw=1, exit_ccw=1)
        return Layout(seats=(0, 1, 2, 3), exit_cw=0, exit_ccw=1)
    if players == 3:
        return Layout(seats=(0, 1, 2, None), exit_cw=3, exit_ccw=3)
    return Layout(seats=(0, 1, 2, 3), exit_cw=3, exit_ccw=0)


def slot_of(seat: int, first_player: int, players: int, kitchen_left: bool = False) -> int:
    return layout(players, kitchen_left).seats.index((seat - first_player) % players)


def seat_at(slot: int, first_player: int, players: int, kitchen_left: bool = False) -> int | None:
    """The seat in front of a slot, or None for the Kitchen."""
    offset = layout(players, kitchen_left).seats[slot]
    return None if offset is None else (first_player + offset) % players


def rotate_slots(slots: tuple[int, ...], steps: int) -> tuple[int, ...]:
    """Carts by slot after moving ``steps`` (+1 clockwise, -1 counter-clockwise)."""
    return slots[-1:] + slots[:-1] if steps > 0 else slots[1:] + slots[:1]


def leaving_kitchen(slots: tuple[int, ...], steps: int, players: int, kitchen_left: bool = False) -> int:
    """The cart type that leaves (or passes through) the Kitchen on this rotation."""
    where = layout(players, kitchen_left)
    return slots[where.exit_cw if steps > 0 else where.exit_ccw]
