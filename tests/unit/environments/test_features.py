"""`KeptNumbers`, the primitive every game's observation encoder keeps its numbers in."""

from __future__ import annotations

import pickle
from typing import Any

import numpy as np

from kaiten.environments.features import KeptNumbers


class Pairs(KeptNumbers):
    """Observes a state of two numbers per seat: its own (private) one and a public one. It keeps its
    numbers as a game's encoder does: a seat's private number one float at a time, the public ones as
    a run of float32 bytes, and the last number a zero that public observations show instead."""

    __slots__ = ("reads",)

    def __init__(self, players: int) -> None:
        super().__init__(players, 2 * players + 1)
        self.reads = 0

    def _read(self, state: Any, seat: int) -> None:
        self.reads += 1
        players = self._players
        self._cells[seat] = state[seat][0]
        self._numbers[4 * players : 4 * 2 * players] = np.array([own[1] for own in state], np.float32).tobytes()

    def _order_of(self, state: Any, seat: int, private: bool) -> np.ndarray[Any, np.dtype[np.intp]]:
        players = self._players
        others = [players + (seat + offset) % players for offset in range(players)]
        return np.array([seat if private else 2 * players, *others], np.intp)


STATE = ((1.5, 10.0), (2.5, 20.0), (3.5, 30.0))


def test_a_seat_observes_its_own_numbers_then_the_others_in_turn() -> None:
    pairs = Pairs(3)
    assert pairs(STATE, 1).tolist() == [2.5, 20.0, 30.0, 10.0]
    assert pairs.public(STATE, 1).tolist() == [0.0, 20.0, 30.0, 10.0]
    assert pairs.reads == 2


def test_an_observation_is_the_callers_own_copy() -> None:
    pairs = Pairs(3)
    observation = pairs(STATE, 0)
    assert observation.dtype == np.float32 and observation.flags.writeable
    observation[:] = -1.0
    assert pairs(STATE, 0).tolist() == [1.5, 10.0, 20.0, 30.0]


def test_a_copy_starts_afresh() -> None:
    pairs = Pairs(3)
    pairs(STATE, 2)
    copy = pickle.loads(pickle.dumps(pairs))
    assert type(copy) is Pairs and copy.reads == 0
    assert copy._floats.tolist() == [0.0] * 7
    assert copy(STATE, 2).tolist() == [3.5, 30.0, 10.0, 20.0]
