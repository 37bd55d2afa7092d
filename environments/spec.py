"""What an environment needs to know of one game beyond the engine protocol: its fixed action space,
its observation encoding, and a text rendering. One `GameSpec` per game (in `games/`); everything else
in this package is generic over them.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Any, Protocol

from kaiten.domain.engine import AnyGame
from kaiten.environments.features import Vector


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


class Observer(Protocol):
    """A game's observation encoder (see `GameSpec.observer`)."""

    def __call__(self, state: Any, seat: int) -> Vector:
        """What the seat's view (`Game.view(state, seat)`) shows, as `observation_size(players)`
        numbers, seats in turn from `seat`."""

    def public(self, state: Any, seat: int) -> Vector:
        """What a spectator's view shows, laid out as the seat's observation."""


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

    def observer(self, players: int) -> Observer:
        """The game's one observation encoder for this player count: the seat's view as numbers,
        read straight off the state without building the view (the environments' hot path). For one
        owner (an environment, a match, an OpenSpiel observer; never two threads at once): it keeps
        what it read of the last state it observed to read the next one."""

    def simultaneous_now(self, state: Any) -> bool:
        """Whether the seats awaited now pick at once (hidden), rather than one after another."""

    def max_moves(self, players: int) -> int:
        """An upper bound on the decisions and chance steps of one game."""

    def render(self, state: Any) -> str:
        """The whole table as text (for a person watching; it shows hidden cards)."""
