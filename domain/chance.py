"""The only source of randomness the domain knows: a generator seeded by the game's chance key (its seed,
or its seed and salt: `domain.lobby.chance_key`) and version.

It is built on first use, because most decisions draw nothing. `random.Random` seeded with a string
hashes it with SHA-512, so the stream is the same on every platform; replay never draws at all.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


class Chance:
    __slots__ = ("_parts", "_rng")

    def __init__(self, seed: int | str, *context: int | str) -> None:
        # The key string is built on first use too: a Chance is made for every command.
        self._parts = (seed, *context)
        self._rng: random.Random | None = None

    @classmethod
    def from_rng(cls, rng: random.Random) -> Chance:
        """A Chance over an existing generator (bots in the simulator reuse one per game)."""
        chance = cls(0)
        chance._rng = rng
        return chance

    @property
    def rng(self) -> random.Random:
        if self._rng is None:
            self._rng = random.Random(":".join(str(part) for part in self._parts))
        return self._rng

    def shuffled(self, items: Sequence[T]) -> list[T]:
        out = list(items)
        self.rng.shuffle(out)
        return out

    def choice(self, items: Sequence[T]) -> T:
        return items[self.rng.randrange(len(items))]

    def sample(self, items: Sequence[T], count: int) -> list[T]:
        return self.rng.sample(items, count)
