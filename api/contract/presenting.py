"""What the services saw (services/seen.py), shown as the API answers it (api/contract/views.py).

The services decide what a viewer may see; here it takes its shape: cards as objects and breakdowns
typed (each game's `views_of`), a seat's person by name and player_id as they are now or a neutral
label once erased, each event in its type's current shape.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import msgspec
from msgspec import UNSET

from kaiten.api.contract.views import (
    CommandOutcome,
    CreatedGame,
    EventPage,
    EventView,
    GameStatus,
    LegalCommands,
    LogDocument,
    MatchPage,
    MatchSummary,
    SeatTakenView,
    SeatToken,
    SeatView,
    TableView,
    TypedMatchPage,
    Viewer,
    views_of,
)
from kaiten.domain.lobby import Seat, SeatTaken
from kaiten.services.logs import FORMAT
from kaiten.services.people import seats_of_record
from kaiten.services.ports import MatchRecord, Person
from kaiten.services.seen import CreatedTable, SeenCommands, SeenEvents, SeenMatches, SeenTable
from kaiten.services.upcasting import current_version


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


def table_view(seen: SeenTable) -> TableView:
    """The table as its viewer may see it."""
    view: TableView = views_of(seen.game.id).table(**_table_fields(seen))
    return view


def created_game(created: CreatedTable) -> CreatedGame:
    """A game just created, with the tokens of its human seats."""
    tokens = dict(created.tokens)
    game: CreatedGame = views_of(created.game.id).created(
        **_table_fields(created),
        tokens=tokens,
        seat_tokens=[SeatToken(seat=int(seat), token=token) for seat, token in tokens.items()],
    )
    return game


def _table_fields(seen: SeenTable) -> dict[str, Any]:
    table, views = seen.table, views_of(seen.game.id)
    fields: dict[str, Any] = {
        "id": seen.id,
        "status": GameStatus(table.status),
        "version": seen.version,
        "options": views.options(
            **msgspec.structs.asdict(table.options), clock=UNSET if table.clock is None else table.clock
        ),
        "seats": shown_seats(table.seats, seen.people),
        "viewer": Viewer(seat=seen.seat),
        "awaiting": list(seen.awaiting),
        "state": None if seen.view is None else views.show_view(seen.view),
        "result": None if table.result is None else views.show_result(table.result),
        "full_state": None if seen.full_state is None else views.show_state(seen.full_state),
        "created_at": seen.created_at,
        "updated_at": seen.updated_at,
        "visibility": table.visibility,
        "rematch_of": table.rematch_of,
        "rematch": seen.rematch,
        "chosen_deal": True if table.chosen_deal else UNSET,
    }
    if seen.imported:
        fields["imported_from"] = seen.imported_from
    if seen.deadlines is not None:
        fields["awaiting_until"] = {str(seat): due for seat, due in seen.deadlines.items()}
    return fields


def event_views(seen: SeenEvents) -> list[EventView]:
    """The events as their viewer may see them."""
    views = views_of(seen.game.id)
    event_view, show_event = views.event, views.show_event
    shown: list[EventView] = []
    for item in seen.events:
        event = item.event
        if isinstance(event, SeatTaken):
            event = shown_seat_taken(event, seen.people)
        shown.append(
            event_view(
                version=item.stored.version,
                type=item.stored.type,
                data=show_event(event),
                recorded_at=item.stored.recorded_at,
                schema_version=current_version(seen.game.id, item.stored.type),
            )
        )
    return shown


def command_outcome(seen: SeenEvents) -> CommandOutcome:
    """A command's answer: its events as the seat sees them, and the version they led to."""
    outcome: CommandOutcome = views_of(seen.game.id).outcome(version=seen.version, events=event_views(seen))
    return outcome


def event_page(seen: SeenEvents) -> EventPage:
    page: EventPage = views_of(seen.game.id).events(events=event_views(seen), last_version=seen.version)
    return page


def log_document(seen: SeenEvents) -> LogDocument:
    """A game's whole log as it is exported (API.md, "Export and import of a log")."""
    document: LogDocument = views_of(seen.game.id).log(
        format=FORMAT, id=seen.game_id, rules_version=seen.game.rules_version, events=event_views(seen)
    )
    return document


def legal_commands(seen: SeenCommands) -> LegalCommands:
    legal: LegalCommands = views_of(seen.game.id).legal(
        version=seen.version, seat=seen.seat, commands=list(seen.commands)
    )
    return legal


def match_page(seen: SeenMatches) -> MatchPage:
    """A page of the match history, each game typed as its own."""
    items = [match_summary(record, seen.people) for record in seen.records]
    return TypedMatchPage(items=items, next_cursor=seen.next_cursor)


def match_summary(record: MatchRecord, people: Mapping[str, Person]) -> MatchSummary:
    result = record.result
    views = views_of(record.game)
    summary: MatchSummary = views.match(
        id=record.game_id,
        status=GameStatus(record.status),
        players=record.players,
        seats=shown_seats(seats_of_record(record.seats), people),
        created_at=record.created_at,
        finished_at=record.finished_at,
        scores=None if result is None else msgspec.convert(result["scores"], views.score_list),
        winners=None if result is None else list(result["winners"]),
    )
    return summary
