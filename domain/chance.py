"""The only source of randomness the domain knows: a generator seeded by the game's chance key (its seed,
or its seed and salt: `domain.lobby.chance_key`) and version.

It is built on first use, because most decisions draw nothing. `random.Random` seeded with a string
hashes it with SHA-512, so the stream is the same on every platform; replay never draws at all.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TypeVar

T = TypeVar("T")


class Chance:
    """`rng` is a slot, filled on first use (`__getattr__` runs only while it is empty), so reading it
    again costs an attribute read, and a Chance that never draws costs one object with its key. Type
    checkers see a read-only property (a subclass may make it one that refuses to draw)."""

    __slots__ = ("_context", "_seed", "rng")
    _seed: int | str
    #: None once the generator is seeded (the key is read once).
    _context: tuple[int | str, ...] | None

    if TYPE_CHECKING:

        @property
        def rng(self) -> random.Random: ...

    def __init__(self, seed: int | str, *context: int | str) -> None:
        # The key string is built on first use too: a Chance is made for every command.
        self._seed = seed
        self._context = context

    @classmethod
    def from_rng(cls, rng: random.Random) -> Chance:
        """A Chance over an existing generator (bots in the simulator reuse one per game)."""
        chance = cls(0)
        _RNG_SLOT.__set__(chance, rng)
        chance._context = None
        return chance

    def __getattr__(self, name: str) -> random.Random:
        if name != "rng":
            raise AttributeError(name)
        assert self._context is not None, "a seeded generator is in its slot"
        rng = random.Random(":".join([str(self._seed), *map(str, self._context)]))
        _RNG_SLOT.__set__(self, rng)
        self._context = None
        return rng

    def rekeyed(self, *context: int | str) -> Chance:
        """The chance of the same seed in another context, for the caller that made this one and hands
        it out call by call (`run_bots`, a decision after another): this Chance keyed anew while it
        has drawn nothing, else a new one. Making a Chance costs a Python object, and most decisions
        draw nothing."""
        if self._context is None:
            return Chance(self._seed, *context)
        self._context = context
        return self

    def shuffled(self, items: Sequence[T]) -> list[T]:
        out = list(items)
        self.rng.shuffle(out)
        return out

    def choice(self, items: Sequence[T]) -> T:
        return items[self.rng.randrange(len(items))]

    def sample(self, items: Sequence[T], count: int) -> list[T]:
        return self.rng.sample(items, count)


#: The slot behind `Chance.rng`.
_RNG_SLOT: Any = Chance.__dict__["rng"]
