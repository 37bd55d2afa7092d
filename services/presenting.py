"""Turning tables and logs into what a viewer may see."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any

import msgspec
from msgspec import UNSET

from domain import lobby
from domain.engine import AnyGame
from domain.lobby import Seat, SeatTaken, Table
from services.ports import Person, StoredEvent
from services.upcasting import current_version
from services.views import EventView, GameStatus, SeatTakenView, SeatView, TableView, Viewer, views_of


def neutral_label(seat: int) -> str:
    """What an erased person's seat is called."""
    return f"Player {seat + 1}"


def shown_person(
    seat: int, name: str | None, player_id: str | None, person_id: str | None, people: Mapping[str, Person]
) -> tuple[str | None, str | None, bool]:
    """A seat's name and player_id as the API shows them, and whether its person was erased: from the
    people kept beside the log, or as a log recorded before them holds them."""
    if person_id is None:
        return name, player_id, False
    person = people.get(person_id)
    if person is None:
        return neutral_label(seat), None, True
    return person.name, person.player_id, False


def shown_seat(seat: Seat, people: Mapping[str, Person]) -> SeatView:
    name, player_id, erased = shown_person(seat.seat, seat.name, seat.player_id, seat.person, people)
    return SeatView(
        seat=seat.seat,
        name=name,
        player_id=player_id,
        bot=seat.bot,
        resigned=seat.resigned,
        taken_over_by=seat.taken_over_by,
        erased=erased,
    )


def shown_seats(seats: Iterable[Seat], people: Mapping[str, Person]) -> list[SeatView]:
    return [shown_seat(seat, people) for seat in seats]


def shown_seat_taken(event: SeatTaken, people: Mapping[str, Person]) -> SeatTakenView:
    name, player_id, erased = shown_person(event.seat, event.name, event.player_id, event.person, people)
    return SeatTakenView(seat=event.seat, name=name, player_id=player_id, bot=event.bot, erased=erased)


def table_view(
    game: AnyGame,
    game_id: str,
    table: Table[Any],
    seat: int | None,
    version: int,
    created_at: datetime,
    updated_at: datetime,
    public: bool,
    people: Mapping[str, Person],
) -> TableView:
    """The table as `seat` sees it; once the game is over (`public`) the whole state is shown too.
    `people`: the seats' people (services/people.py)."""
    finished = lobby.is_over(table)
    views = views_of(game.id)
    state = full_state = None
    if table.state is not None:
        state = views.show_view(game.view(table.state, seat))
        if public:
            full_state = views.show_state(table.state)
    clock = UNSET if table.clock is None else table.clock
    view: TableView = views.table(
        id=game_id,
        status=GameStatus(table.status),
        version=version,
        options=views.options(**msgspec.structs.asdict(table.options), clock=clock),
        seats=shown_seats(table.seats, people),
        viewer=Viewer(seat=seat),
        awaiting=[] if finished else list(lobby.awaiting(game, table)),
        state=state,
        result=None if table.result is None else views.show_result(table.result),
        full_state=full_state,
        created_at=created_at,
        updated_at=updated_at,
        visibility=table.visibility,
        rematch_of=table.rematch_of,
        chosen_deal=True if table.chosen_deal else UNSET,
    )
    return view


def stored_log_view(
    game: AnyGame, game_id: str, table: Table[Any], stored: Sequence[StoredEvent], people: Mapping[str, Person]
) -> TableView:
    """The table of a log just stored whole (a game created with its seats, a log imported), as no
    seat sees it."""
    return table_view(
        game,
        game_id,
        table,
        None,
        len(stored),
        created_at=stored[0].recorded_at,
        updated_at=stored[-1].recorded_at,
        public=lobby.is_over(table),
        people=people,
    )


def event_views(
    game: AnyGame,
    table: Table[Any],
    seat: int | None,
    stored: Sequence[StoredEvent],
    events: Sequence[Any],
    people: Mapping[str, Person],
) -> list[EventView]:
    """The events as this seat may see them now; hidden ones are left out. `people`: the seats'
    people, whom SeatTaken shows by name (services/people.py)."""
    shown_views = views_of(game.id)
    event_view, show_event = shown_views.event, shown_views.show_event
    views: list[EventView] = []
    for item, event in zip(stored, events, strict=True):
        shown = lobby.redact(game, table, event, seat)
        if isinstance(shown, lobby.SeatTaken):
            shown = shown_seat_taken(shown, people)
        if shown is not None:
            views.append(
                event_view(
                    version=item.version,
                    type=item.type,
                    data=show_event(shown),
                    recorded_at=item.recorded_at,
                    schema_version=current_version(game.id, item.type),
                )
            )
    return views
