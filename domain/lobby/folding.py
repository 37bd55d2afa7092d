"""A table folded from its log: the lobby's events applied here, the game's handed to its rules."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from kaiten.domain.engine import C, E, Game, S
from kaiten.domain.lobby.events import (
    GameAbandoned,
    GameCreated,
    GameFinished,
    GameStarted,
    InvitationIssued,
    InvitationRevoked,
    SeatClaimed,
    SeatLeft,
    SeatResigned,
    SeatTaken,
    SeatTakenOver,
    TurnTimedOut,
)
from kaiten.domain.lobby.options import CLOCK_OPTION, parse_clock
from kaiten.domain.lobby.table import Seat, Table, rules_of, state_of


def evolve_table(game: Game[S, C, E, Any], table: Table[S] | None, event: Any) -> Table[S]:
    if table is None:
        if not isinstance(event, GameCreated) or event.seed is None or event.salt is None:
            raise ValueError("a table's log starts with GameCreated carrying its seed and salt")
        own = {key: value for key, value in event.options.items() if key != CLOCK_OPTION}
        return Table(
            game=event.game,
            players=event.players,
            options=msgspec.convert(own, game.options_type),
            clock=parse_clock(event.options),
            seed_commitment=event.seed_commitment,
            seed=event.seed,
            salt=event.salt,
            status="open",
            seats=(),
            rules_version=event.rules_version,
            visibility=event.visibility,
            rematch_of=event.rematch_of,
            chance_from=event.chance_from,
            chosen_deal=event.chosen_deal,
        )
    if isinstance(event, SeatTaken):
        seat = Seat(
            seat=event.seat,
            name=event.name,
            player_id=event.player_id,
            bot=event.bot,
            person=event.person,
            guest=event.guest,
        )
        if table.seats and table.seats[-1].seat > seat.seat:  # a seat given back, taken again
            return msgspec.structs.replace(table, seats=tuple(sorted((*table.seats, seat), key=_number)))
        return msgspec.structs.replace(table, seats=(*table.seats, seat))
    if isinstance(event, SeatLeft):
        still = tuple(seat for seat in table.seats if seat.seat != event.seat)
        return msgspec.structs.replace(table, seats=still, access_events=table.access_events + 2)
    if isinstance(event, GameStarted):
        state = rules_of(game, table).initial_state(table.options, table.players)
        return msgspec.structs.replace(table, status="active", state=state)
    if isinstance(event, GameFinished):
        return msgspec.structs.replace(table, status="finished", result=event.result)
    if isinstance(event, InvitationIssued):
        invitations = {**table.invitations, event.invitation_id: event.code_hash}
        return msgspec.structs.replace(table, invitations=invitations, access_events=table.access_events + 1)
    if isinstance(event, InvitationRevoked):
        kept = {key: value for key, value in table.invitations.items() if key != event.invitation_id}
        return msgspec.structs.replace(table, invitations=kept, access_events=table.access_events + 1)
    if isinstance(event, SeatClaimed):
        return msgspec.structs.replace(table, access_events=table.access_events + 1)
    if isinstance(event, TurnTimedOut):
        return table
    if isinstance(event, SeatResigned | SeatTakenOver):
        seats = list(table.seats)
        seat = seats[event.seat]
        if isinstance(event, SeatResigned):
            seats[event.seat] = msgspec.structs.replace(seat, resigned=True)
        else:
            seats[event.seat] = msgspec.structs.replace(seat, taken_over_by=event.bot)
        return msgspec.structs.replace(table, seats=tuple(seats))
    if isinstance(event, GameAbandoned):
        return msgspec.structs.replace(table, status="abandoned")
    return msgspec.structs.replace(table, state=rules_of(game, table).evolve(state_of(table), event))


def _number(seat: Seat) -> int:
    return seat.seat


def replay(game: Game[S, C, E, Any], events: Sequence[Any]) -> Table[S]:
    table: Table[S] | None = None
    for event in events:
        table = evolve_table(game, table, event)
    if table is None:
        raise ValueError("an empty log has no table")
    return table


def fold(game: Game[S, C, E, Any], table: Table[S], events: Sequence[Any]) -> Table[S]:
    for event in events:
        table = evolve_table(game, table, event)
    return table
