"""What a caller may see of a game, in the domain's terms: what the use cases answer.

The services decide what a viewer may see (the seat's view of the state, the events redacted for the
seat, the whole state once the game is over) and whom the seats are (the people kept beside the log);
how it is shown (cards as objects, a seat's name or a neutral label, the JSON of each answer) is the
API's (api/contract/presenting.py). A use case answers one of these; nothing here is encoded as it
stands.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from kaiten.domain import lobby
from kaiten.domain.engine import AnyGame
from kaiten.domain.lobby import Table
from kaiten.services.ports import MatchRecord, Person, StoredEvent


@dataclass(frozen=True, slots=True)
class SeenTable:
    """A game's table as one viewer may see it at `version`."""

    #: The game, under the table's rules version.
    game: AnyGame
    #: The game's id.
    id: str
    #: The table; of its state, only `view` and `full_state` are shown.
    table: Table[Any]
    #: The viewer's seat (None: a spectator).
    seat: int | None
    version: int
    created_at: datetime
    updated_at: datetime
    #: The viewer's view of the state (`game.view`); None until the game starts.
    view: Any
    #: The whole state, once the game is over (everything is public then); else None.
    full_state: Any
    #: The seats the game awaits (none once it is over).
    awaiting: tuple[int, ...]
    #: The seats' people, by id (services/people.py): erased ones are missing.
    people: Mapping[str, Person]
    #: Whether the game was imported from a log, and the id of the game it was exported from.
    imported: bool = False
    imported_from: str | None = None
    #: The rematch of this game, once asked for.
    rematch: str | None = None
    #: For a game with a clock: when each awaited seat's time runs out, by seat (None: no clock).
    deadlines: Mapping[int, datetime] | None = None

    @property
    def status(self) -> str:
        return self.table.status

    @property
    def over(self) -> bool:
        return lobby.is_over(self.table)


@dataclass(frozen=True, slots=True)
class CreatedTable(SeenTable):
    """A game just created (or a rematch claimed), as no seat sees it, with the tokens of its human
    seats filled at creation."""

    #: Each token by seat number (as a string, as the answer shows it).
    tokens: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class SeenEvent:
    """A stored event and what the viewer may see of it (`lobby.redact`)."""

    stored: StoredEvent
    event: Any


@dataclass(frozen=True, slots=True)
class SeenEvents:
    """Events of a game as one viewer may see them (hidden ones left out), with the log's length."""

    game: AnyGame
    game_id: str
    #: The log's length: after a command, the version it led to.
    version: int
    events: tuple[SeenEvent, ...]
    #: The people whom the events' SeatTaken name, by id.
    people: Mapping[str, Person]


@dataclass(frozen=True, slots=True)
class SeenCommands:
    """The commands a seat may send at `version`."""

    game: AnyGame
    version: int
    seat: int
    commands: Sequence[Any]


@dataclass(frozen=True, slots=True)
class SeenMatches:
    """A page of the match history: its records and the people of their seats."""

    records: Sequence[MatchRecord]
    people: Mapping[str, Person]
    #: The cursor of the next (older) page; None on the last page.
    next_cursor: str | None


def seen_table(
    game: AnyGame,
    game_id: str,
    table: Table[Any],
    seat: int | None,
    version: int,
    created_at: datetime,
    updated_at: datetime,
    public: bool,
    people: Mapping[str, Person],
) -> SeenTable:
    """The table as `seat` sees it; once the game is over (`public`) the whole state is seen too.
    `people`: the seats' people (services/people.py)."""
    view = full_state = None
    if table.state is not None:
        view = game.view(table.state, seat)
        if public:
            full_state = table.state
    return SeenTable(
        game=game,
        id=game_id,
        table=table,
        seat=seat,
        version=version,
        created_at=created_at,
        updated_at=updated_at,
        view=view,
        full_state=full_state,
        awaiting=() if lobby.is_over(table) else tuple(lobby.awaiting(game, table)),
        people=people,
    )


def stored_log_table(
    game: AnyGame, game_id: str, table: Table[Any], stored: Sequence[StoredEvent], people: Mapping[str, Person]
) -> SeenTable:
    """The table of a log just stored whole (a game created with its seats, a log imported), as no
    seat sees it."""
    return seen_table(
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


def seen_events(
    game: AnyGame,
    game_id: str,
    table: Table[Any],
    seat: int | None,
    stored: Sequence[StoredEvent],
    events: Sequence[Any],
    people: Mapping[str, Person],
    version: int,
) -> SeenEvents:
    """The events as this seat may see them by the table as it stands; hidden ones are left out.
    `people`: the seats' people, whom SeatTaken names (services/people.py)."""
    seen: list[SeenEvent] = []
    for item, event in zip(stored, events, strict=True):
        shown = lobby.redact(game, table, event, seat)
        if shown is not None:
            seen.append(SeenEvent(item, shown))
    return SeenEvents(game=game, game_id=game_id, version=version, events=tuple(seen), people=people)
