"""`Features`: a fixed-size observation vector built from what is not zero.

Observations are mostly zeros (one-hots, counts of a few cards among dozens of kinds), so the
encoders name only the places that count (`count`, +1 each time) and the scalars (`set`), and numpy
fills the vector at once: much cheaper than building hundreds of Python floats per step.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter
from typing import Any

import numpy as np

Vector = np.ndarray[Any, np.dtype[np.float32]]


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
    numbers per seat, `encode(view, seat)`, read only from the view's `fields` (the public parts of
    the table: tableaus, scores...).

    Those fields change only now and then (at a reveal, say), and then they are new objects, while
    a view hands on the state's own tuples. So the blocks are encoded once for every observer while
    the fields are the same objects; holding the objects themselves (not their ids) makes `is` an
    exact test of equal contents. The last table seen is kept, whichever environment observes.
    """

    __slots__ = ("_blocks", "_encode", "_fields", "_key", "_width")

    def __init__(
        self, width: int, fields: tuple[str, str, *tuple[str, ...]], encode: Callable[[Any, int], list[float]]
    ) -> None:
        self._width = width
        #: Two fields or more, so the getter answers a tuple.
        self._fields = attrgetter(*fields)
        self._encode = encode
        self._key: tuple[Any, ...] = ()
        self._blocks: Vector = np.zeros(0, np.float32)

    def after(self, head: Vector, view: Any, seat: int, players: int) -> Vector:
        """`head` followed by every seat's block, from the observer's on."""
        key = self._fields(view)
        cached = self._key
        if len(cached) != len(key) or any([mine is not theirs for mine, theirs in zip(cached, key, strict=True)]):
            values = [value for other in range(players) for value in self._encode(view, other)]
            self._blocks = np.array(values, dtype=np.float32)
            self._key = key
        blocks = self._blocks
        split = seat * self._width
        return np.concatenate((head, blocks[split:], blocks[:split]))
