"""A game's table: the lobby's part (seats, status, seed) around the game's own state, and what
every table function reads of it first (the state, the rules version, the awaited seats)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Generic

import msgspec

from kaiten.domain.clock import ClockOptions
from kaiten.domain.engine import C, E, Game, NotNow, Result, S
from kaiten.domain.lobby.events import ChanceFrom, Status, Visibility


class Seat(msgspec.Struct, frozen=True, omit_defaults=True):
    seat: int
    #: Only in logs recorded before people were references (see SeatTaken).
    name: str | None = None
    player_id: str | None = None
    bot: str | None = None
    #: The seat's person resigned (the seat ranks last).
    resigned: bool = False
    #: The bot that plays the seat since its person resigned.
    taken_over_by: str | None = None
    #: Who sits: a reference into the people kept beside the log (see SeatTaken).
    person: str | None = None
    guest: bool = False

    @property
    def player(self) -> str | None:
        """The bot that plays the seat now, if any (None: a person)."""
        return self.bot or self.taken_over_by


class Table(msgspec.Struct, Generic[S], frozen=True):
    """A game's table: the lobby's part (seats, status, seed) around the game's own state.

    `seats` are the seats taken, in seat order. While the game is open a seat given back (SeatLeft)
    leaves a gap, so a seat's number is its `seat`, not its place; once the game starts every seat
    is taken and the two agree."""

    game: str
    players: int
    options: Any
    seed_commitment: str
    seed: int
    salt: str
    status: Status
    seats: tuple[Seat, ...]
    #: The game's state, from the moment the game starts (None while seats are open).
    state: S | None = None
    result: Result | None = None
    #: GameCreated's rules version: every table function plays the game under it (see `rules_of`).
    rules_version: int = 1
    visibility: Visibility = "public"
    #: The invitations not revoked: SHA-256 of their code by invitation id.
    invitations: Mapping[str, str] = msgspec.field(default_factory=dict)
    rematch_of: str | None = None
    #: The turn clock (None: no clock).
    clock: ClockOptions | None = None
    chance_from: ChanceFrom = "seed"
    chosen_deal: bool = False
    #: How many ACCESS_EVENTS the log holds (and twice the SeatLeft events: see MAX_ACCESS_EVENTS).
    access_events: int = 0


class Decision(msgspec.Struct, Generic[S], frozen=True):
    """The events a command produced and the table they lead to (saves folding them twice)."""

    events: tuple[Any, ...]
    table: Table[S]


def next_seat(table: Table[Any]) -> int:
    """The seat the next person or bot takes: the lowest free one."""
    taken = len(table.seats)
    if not table.seats or table.seats[-1].seat == taken - 1:
        return taken  # no gap: the usual case
    numbers = {seat.seat for seat in table.seats}
    return next(number for number in range(taken + 1) if number not in numbers)


def seated_at(table: Table[Any], number: int) -> Seat | None:
    """The seat of that number, if it is taken."""
    if 0 <= number < len(table.seats) and table.seats[number].seat == number:
        return table.seats[number]
    return next((seat for seat in table.seats if seat.seat == number), None)


def state_of(table: Table[S]) -> S:
    """The game's state of a started table."""
    if table.state is None:
        raise NotNow("game-not-started", "the game starts when every seat is taken")
    return table.state


def rules_of(game: Game[S, C, E, Any], table: Table[S]) -> Game[S, C, E, Any]:
    """The game as the table's rules version plays it; any version of the game may be handed in."""
    return game if game.rules_version == table.rules_version else game.at_rules_version(table.rules_version)


def is_over(table: Table[Any]) -> bool:
    """Finished or abandoned: nothing more happens, and everything is public."""
    return table.status in ("finished", "abandoned")


def awaiting(game: Game[S, C, E, Any], table: Table[S]) -> tuple[int, ...]:
    return rules_of(game, table).awaiting(state_of(table)) if table.status == "active" else ()
