"""`Features`: a fixed-size observation vector built from what is not zero.

Observations are mostly zeros (one-hots, counts of a few cards among dozens of kinds), so the
encoders name only the places that count (`count`, +1 each time) and the scalars (`set`), and numpy
fills the vector at once: much cheaper than building hundreds of Python floats per step.
"""

from __future__ import annotations

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
