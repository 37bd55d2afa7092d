"""What every game's sampler test checks, over the positions of real bot games.

A sampler (`domain/<game>/sampler.py`) turns a seat's view into a full state. The checks here are the
ones that hold for every game: the sample shows the seat exactly its view (save the hidden picks it
leaves unmade, see `domain.mcts`), offers the seat the same legal commands, and depends on the view
alone. Each game's test adds its own conservation of cards and checks that hidden cards do move.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import msgspec

from kaiten.domain.chance import Chance
from kaiten.domain.engine import Game
from tests.unit.bot_games import new_table, step


def positions(game: Game, players: int, seed: int, options: dict[str, Any] | None = None) -> Iterator[Any]:
    """The state before every decision of a game of greedy and random bots."""
    bots = ["greedy" if seat % 2 else "random" for seat in range(players)]
    table, events = new_table(game, seed, bots, options)
    rng = random.Random(seed)
    while table.status == "active":
        yield table.state
        table = step(game, table, events, seed, rng).table


def without_awaiting(view: Any) -> dict[str, Any]:
    shown: dict[str, Any] = msgspec.to_builtins(view)
    shown.pop("awaiting", None)
    return shown


def check_sample(game: Game, sampler: ModuleType, state: Any, seat: int, seed: int) -> Any:
    """Sample the seat's view of `state`; check what holds for every game; return the sample."""
    view = game.view(state, seat)
    sample = sampler.sample(view, Chance(seed))
    assert sampler.seat(view) == seat
    again = game.view(sample, seat)
    # Other seats' hidden picks are left unmade: they are awaited again, the rest is the view itself.
    assert without_awaiting(again) == without_awaiting(view)
    assert set(game.awaiting(state)) <= set(game.awaiting(sample))
    assert (seat in game.awaiting(sample)) == (seat in game.awaiting(state))
    assert list(game.legal_commands(sample, seat)) == list(game.legal_commands(state, seat))
    # The sample depends on the view alone: the same view and generator give the same state.
    assert sampler.sample(msgspec.json.decode(msgspec.json.encode(view), type=type(view)), Chance(seed)) == sample
    return sample
