"""What an environment needs to know of one game beyond the engine protocol: its fixed action space,
its observation encoding, and a text rendering. One `GameSpec` per game (in `games/`); everything else
in this package is generic over them.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Any, Protocol

from adapters.environments.features import Vector
from domain.engine import AnyGame


class ActionTable:
    """A fixed, numbered action space: action `i` is `keys[i]`, a hashable description of a command
    up to what the game makes equivalent (two copies of the same card, say)."""

    __slots__ = ("index", "keys", "names")

    def __init__(self, keys: Iterable[Hashable], name: Callable[[Hashable], str] = str) -> None:
        self.keys: tuple[Hashable, ...] = tuple(keys)
        self.index: dict[Hashable, int] = {key: at for at, key in enumerate(self.keys)}
        if len(self.index) != len(self.keys):
            raise ValueError("action keys must be distinct")
        self.names: tuple[str, ...] = tuple(name(key) for key in self.keys)

    def __len__(self) -> int:
        return len(self.keys)


#: `observer(state, seat)`: the seat's observation of the state (see `GameSpec.observer`).
Observer = Callable[[Any, int], Vector]


class GameSpec(Protocol):
    """The per-game part of the environments."""

    @property
    def game(self) -> AnyGame: ...

    @property
    def simultaneous(self) -> bool:
        """Whether the rules have simultaneous hidden picks (a Parallel environment and OpenSpiel's
        simultaneous dynamics apply)."""

    @property
    def utility_bound(self) -> float:
        """|score difference| never exceeds this (OpenSpiel's utility bounds)."""

    def actions(self, players: int) -> ActionTable:
        """The fixed action space for this player count."""

    def actions_of(self, state: Any, seat: int, commands: Sequence[Any]) -> list[int]:
        """The action (in `actions(players)`) of each of these legal commands of the seat (one call for
        them all: it runs at every step)."""

    def observation_size(self, players: int) -> int: ...

    def observe(self, view: Any, seat: int, players: int) -> Vector:
        """The seat's own view (or a spectator's) as `observation_size(players)` numbers, seats in turn
        from `seat`."""

    def observer(self, players: int) -> Observer:
        """`observer(state, seat)` is `observe(game.view(state, seat), seat, players)`, read straight
        off the state without building the view: the environments' hot path. For one owner (an
        environment or a match; never two threads at once): it keeps what it read of the last state
        it observed to read the next one."""

    def simultaneous_now(self, state: Any) -> bool:
        """Whether the seats awaited now pick at once (hidden), rather than one after another."""

    def max_moves(self, players: int) -> int:
        """An upper bound on the decisions and chance steps of one game."""

    def render(self, state: Any) -> str:
        """The whole table as text (for a person watching; it shows hidden cards)."""
