"""The observations' one primitive: numbers kept from one state to the next.

Every game has one observation encoder (`games/<game>_observer.py`), which reads the state the way
the seat's view shows it: it keeps its numbers from the last state it observed (`KeptNumbers`) and
reads again only what a step replaced. Tests compare whole games of observations with the
documented layout of each seat's view.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from functools import cache
from typing import Any, TypeVar

import numpy as np

Vector = np.ndarray[Any, np.dtype[np.float32]]
T = TypeVar("T")


class KeptNumbers(ABC):
    """An observer's numbers, kept from the last state it observed (a subclass reads a state into
    them, `_read`), in one order that serves every seat: a seat's observation is the numbers taken
    in its order (`_order_of`: its cards and blocks first, the others in turn from it...), a copy.

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

    def __call__(self, state: Any, seat: int) -> Vector:
        """What the seat's view shows, seats in turn from it."""
        self._read(state, seat)
        # Fancy indexing copies: the vector is the caller's own, and writable.
        observation: Vector = self._floats[self._order_of(state, seat, True)]
        return observation

    def public(self, state: Any, seat: int) -> Vector:
        """What a spectator's view shows, laid out as the seat's observation (seats in turn from it,
        its private parts as zeros): OpenSpiel's observation without private information."""
        self._read(state, seat)
        observation: Vector = self._floats[self._order_of(state, seat, False)]
        return observation

    @abstractmethod
    def _read(self, state: Any, seat: int) -> None:
        """Bring the numbers up to date with the state, at least those the seat's observation shows."""

    @abstractmethod
    def _order_of(self, state: Any, seat: int, private: bool) -> np.ndarray[Any, np.dtype[np.intp]]:
        """Where each number of the seat's observation is among the numbers (`private`: with what
        its own view shows beyond a spectator's)."""

    def __reduce__(self) -> tuple[Any, ...]:
        # What it keeps is a cache: a copy starts afresh (OpenSpiel pickles states, which hold it).
        return type(self), (self._players,)


@cache
def turn_order(players: int) -> tuple[tuple[int, ...], ...]:
    """Per observer, every seat in turn from the observer's."""
    return tuple(tuple((seat + offset) % players for offset in range(players)) for seat in range(players))


def per_player_count(game: Any, make: Callable[[int], T]) -> dict[int, T]:
    """`make(players)` for every player count the game takes (an observer's layouts)."""
    return {players: make(players) for players in range(game.min_players, game.max_players + 1)}
