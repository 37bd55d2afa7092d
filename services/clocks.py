"""The turn clocks of a game, worked out from its log and when each event was recorded, and when the
scheduler must next look at the game (its wake time, kept beside its events).

The times are facts of the log (when each append was recorded), so the clocks replay exactly as they
ran. Every awaited seat a person plays is timed at once: simultaneous-pick games time each seat that
still has to pick.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from datetime import datetime, timedelta
from typing import Any

import msgspec

from kaiten.domain import lobby
from kaiten.domain.clock import ClockOptions
from kaiten.domain.engine import AnyGame
from kaiten.domain.lobby import Table


class SeatClock(msgspec.Struct, frozen=True):
    #: What is left of the seat's bank.
    bank: timedelta
    #: When the seat's current turn began (None: it is not awaited).
    since: datetime | None = None


def start_clocks(options: ClockOptions, players: int) -> tuple[SeatClock, ...]:
    return tuple(SeatClock(bank=timedelta(seconds=options.bank_seconds)) for _ in range(players))


def tick(
    options: ClockOptions, clocks: tuple[SeatClock, ...], awaiting: Collection[int], at: datetime
) -> tuple[SeatClock, ...]:
    """The clocks once the game awaits these seats at `at`: a seat now awaited starts its turn, a seat
    no longer awaited stops its clock and pays what it overran its turn by out of its bank."""
    turn = timedelta(seconds=options.turn_seconds)
    ticked: list[SeatClock] = []
    for seat, clock in enumerate(clocks):
        waited = seat in awaiting
        if waited and clock.since is None:
            clock = SeatClock(bank=clock.bank, since=at)
        elif not waited and clock.since is not None:
            overrun = max(at - clock.since - turn, timedelta(0))
            clock = SeatClock(bank=max(clock.bank - overrun, timedelta(0)))
        ticked.append(clock)
    return tuple(ticked)


def deadline(options: ClockOptions, clock: SeatClock) -> datetime | None:
    """When the seat's time runs out (None: it is not awaited)."""
    if clock.since is None:
        return None
    return clock.since + timedelta(seconds=options.turn_seconds) + clock.bank


Clocks = tuple[SeatClock, ...]


def timed_seats(game: AnyGame, table: Table[Any]) -> tuple[int, ...]:
    """The awaited seats a person plays: bots answer at once, so only people are timed."""
    return tuple(seat for seat in lobby.awaiting(game, table) if table.seats[seat].player is None)


def fold_clocked(
    game: AnyGame, table: Table[Any] | None, clocks: Clocks | None, timed_events: Iterable[tuple[Any, datetime]]
) -> tuple[Table[Any], Clocks | None]:
    """The table and its clocks after these events, each recorded at its time (no clocks: no clock)."""
    timed = None if clocks is None or table is None else timed_seats(game, table)
    for event, at in timed_events:
        table = lobby.evolve_table(game, table, event)
        if table.clock is None:
            continue
        if clocks is None:
            clocks = start_clocks(table.clock, table.players)
        now_timed = timed_seats(game, table)
        # Most events leave the timed seats as they were, which leaves every clock as it was.
        if now_timed != timed:
            clocks, timed = tick(table.clock, clocks, now_timed, at), now_timed
    if table is None:
        raise ValueError("an empty log has no table")
    return table, clocks


def deadlines(game: AnyGame, table: Table[Any], clocks: Clocks | None) -> dict[int, datetime]:
    """When each timed seat's time runs out."""
    if table.clock is None or clocks is None:
        return {}
    found = {seat: deadline(table.clock, clocks[seat]) for seat in timed_seats(game, table)}
    return {seat: due for seat, due in found.items() if due is not None}


def wake_at(
    game: AnyGame, table: Table[Any], clocks: Clocks | None, last_move: datetime, abandon_after: timedelta | None
) -> datetime | None:
    """When the scheduler must next look at the game: at once when a bot seat is owed a move
    (services/bot_moves.py), else its first deadline, or when it is abandoned for want of a move. None
    for a game that is over or has nothing to wait for."""
    if lobby.is_over(table):
        return None
    if lobby.next_bot_seat(game, table) is not None:
        return last_move
    times = list(deadlines(game, table, clocks).values())
    if abandon_after is not None:
        times.append(last_move + abandon_after)
    return min(times, default=None)
