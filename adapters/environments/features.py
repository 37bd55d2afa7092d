"""Building observation vectors.

`Features`: a fixed-size vector built from what is not zero. Observations are mostly zeros
(one-hots, counts of a few cards among dozens of kinds), so the encoders of views name only the
places that count (`count`, +1 each time) and the scalars (`set`), and numpy fills the vector at
once: much cheaper than building hundreds of Python floats.

The environments' hot path (`GameSpec.observer`, at every step) reads the state instead: an
observer keeps its numbers from one state to the next (`KeptNumbers`) and reads again only what a
step replaced. The drafting games' encoders of views (OpenSpiel's public observations) join parts in
float32 bytes (`joined`), their per-seat blocks cached while the table is the same (`SeatBlocks`).
Tests compare whole games of observations with fresh encodings of the views.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Iterable
from functools import cache
from operator import attrgetter
from typing import Any, TypeVar

import numpy as np

Vector = np.ndarray[Any, np.dtype[np.float32]]
T = TypeVar("T")


class Features:
    """`count(index)` adds 1 at `index` (a one-hot, or one more card of a kind); `set(index, value)`
    puts a number at a place no `count` uses. Both are the bound methods of a list and a dict, so a
    call costs no Python frame: the encoders call them hundreds of times a step."""

    __slots__ = ("_hot", "_scalars", "_size", "count", "set")

    def __init__(self, size: int) -> None:
        self._size = size
        self._hot: list[int] = []
        self._scalars: dict[int, float] = {}
        self.count = self._hot.append
        self.set = self._scalars.__setitem__

    def vector(self) -> Vector:
        out = np.bincount(np.array(self._hot, dtype=np.intp), minlength=self._size).astype(np.float32)
        if self._scalars:
            out[list(self._scalars)] = list(self._scalars.values())
        return out


class SeatBlocks:
    """The per-seat part of an observation, seats in turn from the observer: one block of `width`
    numbers per seat, which `encode(table, seat, out, at)` sets in `out` from `at` on, reading only
    the table's `fields` (the public parts of the table: tableaus, scores...). The table is a view
    or the state itself: both name these fields alike, and a view hands on the state's own tuples.

    Those fields change only now and then (at a reveal, say). So the blocks are encoded once for
    every observer while the fields are the same (equal: a quick test while they are the very same
    objects, as they stay from one step to the next). The last table seen is kept, whichever
    environment observes.
    """

    __slots__ = ("_encode", "_fields", "_last", "_width")

    def __init__(
        self,
        width: int,
        fields: tuple[str, str, *tuple[str, ...]],
        encode: Callable[[Any, int, array[float], int], None],
    ) -> None:
        self._width = width
        #: Two fields or more, so the getter answers a tuple.
        self._fields = attrgetter(*fields)
        self._encode = encode
        #: The fields and the player count last seen, and their blocks: one tuple, replaced at once,
        #: so that threads sharing it never see the blocks of other fields.
        self._last: tuple[tuple[Any, ...], int, bytes] = ((), 0, b"")

    def from_seat(self, table: Any, seat: int, players: int) -> tuple[bytes, bytes]:
        """Every seat's block from the observer's on, in two parts (the observer's to the last seat's,
        then the first seat's to the one before the observer's), as float32 bytes to be `joined`."""
        key = self._fields(table)
        last = self._last
        if key != last[0] or players != last[1]:
            width = self._width
            out = array("f", bytes(4 * width * players))
            for other in range(players):
                self._encode(table, other, out, other * width)
            last = self._last = (key, players, out.tobytes())
        blocks = last[2]
        split = 4 * self._width * seat
        return blocks[split:], blocks[:split]


class KeptNumbers:
    """An observer's numbers, kept from the last state it observed (a subclass reads a state into
    them), in one order that serves every seat: a seat's observation is `self._floats[order]`, an
    order per seat (its cards and blocks first, the others in turn from it...), which copies.

    A subclass keeps, beside the numbers, the very objects it read them from, and reads again only
    what is not the same object: an object it still holds can be no other, so nothing read is stale,
    whichever state of whichever game of the player count comes next. A state shares most of its
    objects with the one before (a step changes a hand, a marker, a basket), so an observation
    costs a few identity tests and one numpy take. Not for two threads at once.
    """

    __slots__ = ("_cells", "_floats", "_numbers", "_players")

    def __init__(self, players: int, size: int) -> None:
        self._players = players
        numbers = bytearray(4 * size)
        #: The numbers as float32 bytes, to set a run of them (a memoryview's slice assignment costs
        #: half a bytearray's); as float32s; and as Python floats one at a time (cheaper to set one
        #: with than numpy's item assignment). All three share one buffer, never resized.
        self._numbers = memoryview(numbers)
        self._floats: Vector = np.frombuffer(numbers, np.float32)
        self._cells = self._numbers.cast("f")

    def __reduce__(self) -> tuple[Any, ...]:
        # What it keeps is a cache: a copy starts afresh (OpenSpiel pickles states, which hold it).
        return type(self), (self._players,)


def joined(parts: Iterable[bytes | array[float]]) -> Vector:
    """An observation made of parts in float32 bytes (cached `bytes`, or an `array("f")` set afresh):
    joining bytes and wrapping them costs far less than numpy's concatenate of many small arrays."""
    return np.frombuffer(bytearray().join(parts), np.float32)


@cache
def turn_order(players: int) -> tuple[tuple[int, ...], ...]:
    """Per observer, every seat in turn from the observer's."""
    return tuple(tuple((seat + offset) % players for offset in range(players)) for seat in range(players))


def per_player_count(game: Any, make: Callable[[int], T]) -> dict[int, T]:
    """`make(players)` for every player count the game takes (an observer's layouts)."""
    return {players: make(players) for players in range(game.min_players, game.max_players + 1)}
